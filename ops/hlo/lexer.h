// A character cursor over HLO text. HLO is not regular enough for one token set: names hold
// '-' and '.', attribute values are free-form (`dim_labels=b01f_01io->b01f`,
// `window={size=3x3 pad=1_1x1_1}`), so the parser asks for the kind of text it expects next.
// Every offset is into the whole source, so diagnostics name the real file:line:col.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/text_source.h"

namespace idxmap::hlo {

class HloCursor {
 public:
  explicit HloCursor(const SourceText& source) : source_(source), text_(source.text()) {}

  size_t offset() const { return offset_; }
  // Back to an offset already passed, to read the text there as something else.
  void rewind(size_t offset) { offset_ = offset; }
  const SourceText& source() const { return source_; }
  SourceLocation location(size_t offset) const { return source_.location(offset); }

  // Skips whitespace and `//` and `/* */` comments (XLA dumps carry both).
  void skipSpace();
  bool atEnd() {
    skipSpace();
    return offset_ >= text_.size();
  }
  // The next character after whitespace, or '\0' at the end.
  char peek() {
    skipSpace();
    return offset_ < text_.size() ? text_[offset_] : '\0';
  }
  // The character right at the cursor, whitespace not skipped.
  char peekRaw() const { return offset_ < text_.size() ? text_[offset_] : '\0'; }
  bool accept(char c);
  bool acceptWord(std::string_view word);  // a whole name, not a prefix of one
  void expect(char c, std::string_view context);

  // A name as HLO writes it: `%`? [A-Za-z_][A-Za-z0-9_.-]*, returned without the `%`.
  std::string_view name(std::string_view what);
  bool atName();
  // The name at the cursor without taking it (empty when there is none).
  std::string_view peekName();
  // A non-negative decimal integer that fits in int64.
  int64_t integer(std::string_view what);

  // Free-form text up to (not including) the first top-level ',' or whitespace, or a
  // closing bracket that was not opened in it; brackets and "strings" nest. Used for
  // attribute values.
  std::string_view attributeValue(std::string_view attributeName);
  // The text between a '(' at the cursor and its matching ')', both consumed.
  std::string_view balancedParens(std::string_view what);

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
  // The offset just past the string literal starting at `begin` (a '"').

  const SourceText& source_;
  std::string_view text_;
  size_t offset_ = 0;
};

}  // namespace idxmap::hlo
