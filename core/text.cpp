// parseMaps and friends: splitting a text into maps and handing each to the parser of its
// syntax. The printers live in text_printer.cpp, the parsers in text_*_parser.cpp.
#include "core/text.h"

#include <cctype>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/bridges/isl_bridge.h"
#include "core/text_expr_parser.h"
#include "core/text_map_parser.h"
#include "core/text_source.h"

namespace idxmap {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// A map's text: from its first to its last non-whitespace byte.
struct Chunk {
  size_t begin, end;
};

// Maps are separated by one or more blank lines; a line of only whitespace is blank, and a
// line that starts with `//` (after blanks) is a comment. Reads one map's text at a time, so
// that reading exactly one map builds no list.
class ChunkReader {
 public:
  explicit ChunkReader(std::string_view text) : text_(text) {}

  // The next map's text; nullopt after the last.
  std::optional<Chunk> next() {
    std::optional<Chunk> open;
    while (lineStart_ <= text_.size()) {
      size_t lineEnd = text_.find('\n', lineStart_);
      if (lineEnd == std::string_view::npos) lineEnd = text_.size();
      size_t first = lineStart_;
      while (first < lineEnd && isBlank(text_[first])) ++first;
      lineStart_ = lineEnd + 1;
      if (first == lineEnd) {  // a blank line closes the open chunk
        if (open) return open;
      } else if (text_.substr(first, 2) == "//") {
        // A comment line belongs to no map and separates none: XLA's map files have them
        // above maps, and between a map's lines.
      } else {
        size_t last = lineEnd;
        while (isBlank(text_[last - 1])) --last;
        if (open)
          open->end = last;
        else
          open = Chunk{first, last};
      }
    }
    return open;
  }

 private:
  std::string_view text_;
  size_t lineStart_ = 0;
};

std::vector<Chunk> splitIntoChunks(std::string_view text) {
  std::vector<Chunk> chunks;
  ChunkReader reader(text);
  while (std::optional<Chunk> chunk = reader.next()) chunks.push_back(*chunk);
  return chunks;
}

MapSyntax detectSyntax(std::string_view chunk) {
  if (chunk.front() == '[' || chunk.front() == '{') return MapSyntax::Isl;
  constexpr std::string_view kAffineMap = "affine_map";
  if (chunk.substr(0, kAffineMap.size()) == kAffineMap &&
      (chunk.size() == kAffineMap.size() ||
       !(std::isalnum(static_cast<unsigned char>(chunk[kAffineMap.size()])) ||
         chunk[kAffineMap.size()] == '_')))
    return MapSyntax::Mlir;
  return MapSyntax::Xla;
}

IndexingMap parseIslChunk(const SourceText& source, const Chunk& chunk) {
  try {
    return parseIsl(source.text().substr(chunk.begin, chunk.end - chunk.begin));
  } catch (const Error& e) {  // the bridge's messages already say "invalid isl map: ..."
    throw source.error(chunk.begin, e.what());
  } catch (const std::exception& e) {  // isl's own exceptions too: input never crashes us
    throw source.error(chunk.begin, std::string("invalid isl map: ") + e.what());
  }
}

IndexingMap parseChunkMap(const SourceText& source, const Chunk& chunk, MapSyntax syntax) {
  switch (syntax) {
    case MapSyntax::Xla:
      return parseXlaMap(source, chunk.begin, chunk.end);
    case MapSyntax::Mlir:
      return parseMlirMap(source, chunk.begin, chunk.end);
    case MapSyntax::Isl:
      return parseIslChunk(source, chunk);
  }
  throw std::logic_error("parseChunkMap: unknown MapSyntax");
}

std::string_view chunkText(const SourceText& source, const Chunk& chunk) {
  return source.text().substr(chunk.begin, chunk.end - chunk.begin);
}

ParsedMap parseChunk(const SourceText& source, const Chunk& chunk) {
  std::string_view text = chunkText(source, chunk);
  MapSyntax syntax = detectSyntax(text);
  return {parseChunkMap(source, chunk, syntax), source.location(chunk.begin), syntax,
          std::string(text)};
}

// The index of a default name (d3, s0, rt12) of `prefix`, if `name` is one.
std::optional<unsigned> defaultNameIndex(std::string_view name, std::string_view prefix) {
  constexpr unsigned kMaxIndex = 1u << 20;  // far beyond any real map; keeps unsigned exact
  if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::string_view digits = name.substr(prefix.size());
  if (digits.empty() || digits.size() > 7 || (digits.size() > 1 && digits[0] == '0'))
    return std::nullopt;
  unsigned index = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + static_cast<unsigned>(c - '0');
  }
  return index < kMaxIndex ? std::optional<unsigned>(index) : std::nullopt;
}

// A NameResolver (the null Expr for a name that is no variable).
Expr resolveName(std::string_view name, const IndexingMap* names) {
  if (names)
    for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
      for (unsigned i = 0; i < names->variables(kind).size(); ++i)
        if (names->variableName(kind, i) == name) return Expr::variable(kind, i);
  if (auto i = defaultNameIndex(name, "rt")) return Expr::runtimeVar(*i);
  if (auto i = defaultNameIndex(name, "d")) return Expr::dim(*i);
  if (auto i = defaultNameIndex(name, "s")) return Expr::rangeVar(*i);
  return Expr();
}

}  // namespace

std::vector<ParsedMap> parseMaps(std::string_view text, std::string_view fileName) {
  SourceText source(text, fileName);
  std::vector<ParsedMap> maps;
  for (const Chunk& chunk : splitIntoChunks(text)) maps.push_back(parseChunk(source, chunk));
  return maps;
}

std::vector<MapReading> readEachMap(std::string_view text, std::string_view fileName) {
  SourceText source(text, fileName);
  std::vector<MapReading> readings;
  for (const Chunk& chunk : splitIntoChunks(text)) {
    MapReading reading;
    reading.text = std::string(text.substr(chunk.begin, chunk.end - chunk.begin));
    try {
      reading.map = parseChunk(source, chunk);
    } catch (const ParseError& error) {
      reading.error = error;
    }
    readings.push_back(std::move(reading));
  }
  return readings;
}

IndexingMap parseIndexingMap(std::string_view text, std::string_view fileName) {
  SourceText source(text, fileName);
  ChunkReader reader(text);
  std::optional<Chunk> chunk = reader.next();
  if (!chunk) throw source.error(text.size(), "expected a map, found none");
  if (std::optional<Chunk> another = reader.next())
    throw source.error(another->begin, "expected exactly one map, found another one here");
  return parseChunkMap(source, *chunk, detectSyntax(chunkText(source, *chunk)));
}

Expr parseExpr(std::string_view text, const IndexingMap* names) {
  SourceText source(text, "<stdin>");
  TokenStream tokens(source, 0, text.size());
  NameResolver resolve = [names](std::string_view name) { return resolveName(name, names); };
  ExprParser parser(tokens, resolve);
  Expr e = parser.parse();
  if (!tokens.atEnd()) throw tokens.expectedError("an operator or the end of the expression");
  return e;
}

}  // namespace idxmap
