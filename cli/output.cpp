#include "cli/output.h"

#include "core/bridges/isl_bridge.h"

namespace idxmap::cli {
namespace {

std::string withoutTrailingNewlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

std::string formatMap(const IndexingMap& map, OutputFormat format) {
  switch (format) {
    case OutputFormat::Isl:
      return withoutTrailingNewlines(printIsl(map));
    case OutputFormat::Xla:
      break;
  }
  return withoutTrailingNewlines(printIndexingMap(map));
}

void writeMapTexts(std::ostream& out, const std::vector<std::string>& texts) {
  for (size_t i = 0; i < texts.size(); ++i) out << (i == 0 ? "" : "\n") << texts[i] << '\n';
}

void writeJson(std::ostream& out, const nlohmann::ordered_json& value) {
  out << value.dump(2) << '\n';
}

}  // namespace idxmap::cli
