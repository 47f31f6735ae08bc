// A character cursor over MLIR text. MLIR's syntax is context-sensitive in ways a single
// token set handles badly (`tensor<2x3xf32>` is one type, not `2`, `x3xf32`;
// `dense<"0x...">` holds hex; pretty op forms are whatever each op says), so the parsers
// ask for the kind of text they expect next. Every offset is into the whole source, so
// diagnostics name the real file:line:col.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/text_source.h"

namespace idxmap::mlir_ir {

// '0'-'9', whatever the locale (std::isdigit of a negative char is undefined).
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

// A number as written: `-12`, `0x7FC00000`, `1.5e-3`. Its text is kept so the reader can
// interpret it by the element type it turns out to have (a hex integer in a float list is
// a bit pattern).
struct NumberToken {
  std::string_view text;
  size_t offset = 0;
  bool isFloat = false;  // has '.', an exponent, or is `inf`/`nan`
  bool isHex = false;
};

class MlirCursor {
 public:
  explicit MlirCursor(const SourceText& source) : source_(source), text_(source.text()) {}

  const SourceText& source() const { return source_; }
  size_t offset() const { return offset_; }
  void reset(size_t offset) { offset_ = offset; }
  SourceLocation location(size_t offset) const { return source_.location(offset); }

  // Skips whitespace and `//` comments (StableHLO tests carry `// CHECK` lines).
  void skipSpace();
  bool atEnd() {
    skipSpace();
    return offset_ >= text_.size();
  }
  // The next character after whitespace ('\0' at the end), or the one `ahead` past it.
  char peek(size_t ahead = 0);
  // The character right at the cursor, whitespace not skipped.
  char peekRaw() const { return offset_ < text_.size() ? text_[offset_] : '\0'; }
  bool startsWith(std::string_view punctuation);  // after whitespace, not consumed
  bool accept(char c);
  bool accept(std::string_view punctuation);  // `->`, `<{`, `}>`
  bool acceptWord(std::string_view word);     // a whole bare identifier, not a prefix
  void expect(char c, std::string_view context);
  void expect(std::string_view punctuation, std::string_view context);

  // A bare identifier: [A-Za-z_][A-Za-z0-9_$.]* (`func.func`, `stablehlo.gather`, `i64`).
  bool atBareId();
  std::string_view bareId(std::string_view what);
  std::string_view peekBareId();  // empty when there is none
  // The name after a sigil (`%`, `@`, `^`, `#`, `!`), sigil consumed, not returned:
  // [A-Za-z0-9_$.-]+, or a quoted string for `@"name"`.
  std::string suffixId(char sigil, std::string_view what);
  // A "string literal" with MLIR's escapes (\n, \t, \", \\, \XX hex).
  std::string stringLiteral(std::string_view what);
  bool atNumber();
  NumberToken number(std::string_view what);
  // A decimal integer that fits in int64, with an optional leading '-'.
  int64_t integer(std::string_view what);
  // The text from an opener at the cursor ('<', '(', '[', '{') to its matching closer,
  // both consumed and included. Brackets of every kind and strings nest; `->` is no '>'.
  std::string_view balanced(std::string_view what);

  ParseError error(size_t offset, const std::string& message) const {
    return source_.error(offset, message);
  }
  ParseError errorHere(const std::string& message) {
    skipSpace();
    return error(offset_, message);
  }
  // "expected <what>, found <the next few characters>".
  ParseError expected(std::string_view what);

 private:
  const SourceText& source_;
  std::string_view text_;
  size_t offset_ = 0;
};

// Bounds recursion on nested brackets and regions, so hostile input gives a diagnostic
// instead of a stack overflow.
class NestingGuard {
 public:
  NestingGuard(MlirCursor& cursor, int& depth);
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;

 private:
  int& depth_;
};

}  // namespace idxmap::mlir_ir
