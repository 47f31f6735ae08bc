#include "cli/output.h"

#include <fstream>

#include "core/bridges/isl_bridge.h"

namespace idxmap::cli {
namespace {

std::string withoutTrailingNewlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

std::string formatMap(const IndexingMap& map, OutputFormat format, PrintStyle style) {
  switch (format) {
    case OutputFormat::Isl:
      return withoutTrailingNewlines(printIsl(map));
    case OutputFormat::Xla:
      break;
  }
  return withoutTrailingNewlines(printIndexingMap(map, style));
}

void writeMapTexts(std::ostream& out, const std::vector<std::string>& texts) {
  for (size_t i = 0; i < texts.size(); ++i) out << (i == 0 ? "" : "\n") << texts[i] << '\n';
}

void writeJson(std::ostream& out, const nlohmann::ordered_json& value) {
  out << value.dump(2) << '\n';
}

bool writeOutput(const std::string& path, bool json, const std::string& text, std::ostream& out,
                 std::ostream& diagnostics) {
  if (path.empty()) {
    if (!json) out << text;
    return true;
  }
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (file.flush()) return true;
  diagnostics << path << ": error: cannot write the file\n";
  return false;
}

}  // namespace idxmap::cli
