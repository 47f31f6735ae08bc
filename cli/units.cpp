#include "cli/units.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "cli/output.h"
#include "core/checked.h"

namespace idxmap::cli {
namespace {

// A comment line holding `// -----` anywhere (`// // -----` too): MLIR's splitter cuts wherever
// the marker appears; a marker after code on its line is left alone, so no code is cut.
bool isMarkerLine(std::string_view line) {
  size_t at = line.find_first_not_of(" \t");
  return at != std::string_view::npos && line.substr(at, 2) == "//" &&
         line.find("// -----", at) != std::string_view::npos;
}

// A section of nothing but blank and `//` comment lines (after a final `// -----`, between
// two markers) holds no module to read.
bool holdsNothing(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string_view line = text.substr(at, end == std::string_view::npos ? text.npos : end - at);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line.substr(first, 2) != "//") return false;
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return true;
}

struct Unit {
  Source source;
  int firstLine = 1;
};

// Runs one unit of several: an error is a diagnostic and exit 2, never the end of the run.
ExitCode runUnit(const Unit& unit, const UnitWork& work, std::ostream& out,
                 std::ostream& diagnostics) {
  try {
    return work(unit.source, out, diagnostics);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const LocatedError& e) {
    diagnostics << e.what() << '\n';
  } catch (const InputError& e) {
    diagnostics << e.what() << '\n';
  } catch (const std::exception& e) {
    diagnostics << unit.source.name << ":" << unit.firstLine << ": error: " << e.what() << '\n';
  }
  return kInvalidInput;
}

}  // namespace

std::vector<Source> splitSections(const Source& source) {
  std::vector<Source> sections;
  std::string_view text = source.text;
  std::string pending;  // the current section, after the blank lines standing for the others
  int line = 1;
  int sectionStart = 1;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('\n', at);
    bool last = end == std::string_view::npos;
    std::string_view content = text.substr(at, last ? std::string_view::npos : end - at);
    if (isMarkerLine(content)) {
      sections.push_back({source.name, std::string(sectionStart - 1, '\n') + pending, ""});
      pending.clear();
      sectionStart = line + 1;
    } else {
      pending.append(content);
      if (!last) pending.push_back('\n');
    }
    if (last) break;
    at = end + 1;
    ++line;
  }
  sections.push_back({source.name, std::string(sectionStart - 1, '\n') + pending, ""});
  return sections;
}

ExitCode worseExit(ExitCode a, ExitCode b) {
  auto rank = [](ExitCode code) {
    switch (code) {
      case kInvalidInput:
        return 3;
      case kRefuted:
        return 2;
      case kUnknown:
      case kEqualOverReals:  // not proven either
        return 1;
      case kSuccess:
        return 0;
    }
    return 3;
  };
  return rank(a) >= rank(b) ? a : b;
}

ExitCode forEachUnit(const std::vector<std::string>& inputs, bool splitInputFile, bool json,
                     std::ostream& out, std::ostream& diagnostics, const UnitWork& work) {
  std::vector<std::string> names = inputs;
  if (names.empty()) names.push_back("-");
  std::vector<Unit> units;
  for (const std::string& name : names) {
    Source source = readSource(name);
    if (!splitInputFile) {
      units.push_back({std::move(source), 1});
      continue;
    }
    std::vector<Source> sections = splitSections(source);
    if (sections.size() > 1)
      std::erase_if(sections, [](const Source& section) { return holdsNothing(section.text); });
    for (Source& section : sections) {
      size_t firstContent = section.text.find_first_not_of('\n');
      int firstLine = 1 + static_cast<int>(firstContent == std::string::npos ? 0 : firstContent);
      if (sections.size() > 1) section.section = std::to_string(firstLine);
      units.push_back({std::move(section), firstLine});
    }
  }
  if (units.size() == 1) return work(units[0].source, out, diagnostics);

  ExitCode status = kSuccess;
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::vector<std::string> texts;
  bool anyText = false;
  for (const Unit& unit : units) {
    std::ostringstream unitOut;
    ExitCode unitStatus = runUnit(unit, work, unitOut, diagnostics);
    status = worseExit(status, unitStatus);
    std::string text = unitOut.str();
    if (json) {
      nlohmann::ordered_json output = nullptr;
      if (!text.empty()) output = nlohmann::ordered_json::parse(text, nullptr, false);
      records.push_back({{"file", unit.source.name},
                         {"line", unit.firstLine},
                         {"exit", static_cast<int>(unitStatus)},
                         {"output", output.is_discarded() ? nullptr : output}});
    }
    if (!text.empty() && text.back() != '\n') text.push_back('\n');
    anyText = anyText || !text.empty();
    texts.push_back(std::move(text));
  }
  // Separators only where there is text to separate: verify prints nothing on stdout.
  if (!json && anyText)
    for (size_t i = 0; i < texts.size(); ++i) out << (i ? "// -----\n" : "") << texts[i];
  if (json) writeJson(out, records);
  return status;
}

}  // namespace idxmap::cli
