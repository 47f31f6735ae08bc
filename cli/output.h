// Printing results: maps in the requested syntax, blank-line separated text, JSON, and
// diagnostics located at the map they are about.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.h"
#include "core/checked.h"
#include "core/text.h"

namespace idxmap::cli {

// A failure while processing one map (not while parsing it), reported as
// `file:line:col: error: message`, exit 2.
class MapError : public LocatedError {
 public:
  MapError(const SourceLocation& location, std::string_view message)
      : LocatedError(location, std::string(message)) {}
};

// Runs `step` on behalf of `map`: any library error it throws becomes a MapError at the
// map's location, so the user learns which of many maps failed.
template <typename Step>
auto atMap(const ParsedMap& map, Step&& step) -> decltype(step()) {
  try {
    return step();
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const MapError&) {
    throw;
  } catch (const std::exception& e) {
    throw MapError(map.location, e.what());
  }
}

// The map in `format`, without a trailing newline.
std::string formatMap(const IndexingMap& map, OutputFormat format,
                      PrintStyle style = PrintStyle::kIdxmap);

// The maps one after another, separated by blank lines.
void writeMapTexts(std::ostream& out, const std::vector<std::string>& texts);
void writeJson(std::ostream& out, const nlohmann::ordered_json& value);
// A command's text output: to `path` when it is set, else to `out` unless JSON takes stdout.
// Returns false, after `path: error: cannot write the file` on `diagnostics`, when writing fails.
bool writeOutput(const std::string& path, bool json, const std::string& text, std::ostream& out,
                 std::ostream& diagnostics);

}  // namespace idxmap::cli
