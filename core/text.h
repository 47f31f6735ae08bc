// Reading and printing maps and expressions.
//
// Input: XLA's indexing-map syntax (../shared/conformance/xla/FORMAT.md), MLIR
// `affine_map<...>` followed by a `domain:` section, and isl map syntax. Several maps in one
// text are separated by blank lines. Output: XLA syntax (printIndexingMap) or isl syntax
// (core/isl_bridge.h). Printing then parsing gives back the same map.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap {

struct SourceLocation {
  std::string file;
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in bytes
};

// A diagnostic about input text. what() is the whole formatted message:
//   file:line:col: error: message
//   <the source line>
//       ^
class ParseError : public Error {
 public:
  ParseError(SourceLocation location, std::string message, std::string sourceLine);
  const SourceLocation& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation location_;
  std::string message_;
};

enum class MapSyntax { Xla, Mlir, Isl };

struct ParsedMap {
  IndexingMap map;
  SourceLocation location;  // where the map's text starts
  MapSyntax syntax;
  std::string text;         // the map's own text, as written
};

// Every map in `text`, in order. Throws ParseError at the first malformed one.
std::vector<ParsedMap> parseMaps(std::string_view text, std::string_view fileName = "<stdin>");
// Exactly one map, in any accepted syntax.
IndexingMap parseIndexingMap(std::string_view text);
// One expression over d<i>, s<i>, rt<i> or the custom names of `names` (when given).
Expr parseExpr(std::string_view text, const IndexingMap* names = nullptr);

// XLA syntax, one domain entry per line, `floordiv` for floor division.
std::string printIndexingMap(const IndexingMap& map);
std::string printExpr(Expr e, const IndexingMap* names = nullptr);

}  // namespace idxmap
