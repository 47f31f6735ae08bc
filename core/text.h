// Reading and printing maps and expressions.
//
// Input: XLA's indexing-map syntax (../shared/conformance/xla/FORMAT.md), MLIR
// `affine_map<...>` followed by a `domain:` section, and isl map syntax. Several maps in one
// text are separated by blank lines. Output: XLA syntax (printIndexingMap) or isl syntax
// (core/bridges/isl_bridge.h). Printing then parsing gives back the same map.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap {

struct SourceLocation {
  std::string file;
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in bytes

  std::string toString() const;  // `file:line:col`
};

// A diagnostic's first line, as compilers print it: `file:line:col: severity: message`. The
// one formatter of every located message idxmap prints.
std::string formatDiagnostic(const SourceLocation& location, std::string_view severity,
                             std::string_view message);

// An error at a place in the input. what() is the whole diagnostic:
//   file:line:col: error: message
// followed, when the source line is given, by that line and a caret under the column:
//   <the source line>
//       ^
class LocatedError : public Error {
 public:
  LocatedError(SourceLocation location, std::string message,
               std::optional<std::string> sourceLine = std::nullopt);
  const SourceLocation& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation location_;
  std::string message_;
};

// Malformed input text: always shown with its source line.
class ParseError : public LocatedError {
 public:
  ParseError(SourceLocation location, std::string message, std::string sourceLine)
      : LocatedError(std::move(location), std::move(message), std::move(sourceLine)) {}
};

enum class MapSyntax { Xla, Mlir, Isl };

struct ParsedMap {
  IndexingMap map;
  SourceLocation location;  // where the map's text starts
  MapSyntax syntax;
  std::string text;  // the map's own text, as written
};

// Every map in `text`, in order. Throws ParseError at the first malformed one.
std::vector<ParsedMap> parseMaps(std::string_view text, std::string_view fileName = "<stdin>");
// Every map of `text` read on its own: a malformed one gives its ParseError in place of the
// map, and the maps after it are still read (commands report per map).
struct MapReading {
  std::optional<ParsedMap> map;
  std::optional<ParseError> error;
  std::string text;  // the map's text as written
};
std::vector<MapReading> readEachMap(std::string_view text, std::string_view fileName = "<stdin>");
// Exactly one map, in any accepted syntax.
IndexingMap parseIndexingMap(std::string_view text, std::string_view fileName = "<stdin>");
// One expression over d<i>, s<i>, rt<i> or the custom names of `names` (when given).
Expr parseExpr(std::string_view text, const IndexingMap* names = nullptr);

// How a map is printed. kIdxmap: `floordiv` for floor division (what every XLA version
// reads) and a KNOWN EMPTY map with its header and domain (it reads back to the same map,
// arity and runtime variables kept). kXla: as current XLA prints, `/` for floor division and
// a KNOWN EMPTY map as those two words alone, so outputs diff against XLA's.
enum class PrintStyle { kIdxmap, kXla };

// XLA syntax, one domain entry per line.
std::string printIndexingMap(const IndexingMap& map, PrintStyle style = PrintStyle::kIdxmap);
std::string printExpr(Expr e, const IndexingMap* names = nullptr,
                      PrintStyle style = PrintStyle::kIdxmap);

}  // namespace idxmap
