// SourceText: the whole input of one parse, so that every diagnostic can name the real
// file:line:col of its token even when the token belongs to the third map of the file.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"

namespace idxmap {

class SourceText {
 public:
  SourceText(std::string_view text, std::string_view fileName);

  std::string_view text() const { return text_; }
  SourceLocation location(size_t offset) const;
  // The line holding `offset`, without its line break.
  std::string_view lineAt(size_t offset) const;
  // Line `number` (1-based) without its line break; empty outside the text.
  std::string_view line(int number) const;
  ParseError error(size_t offset, const std::string& message) const;
  // What stands at `offset`, for "expected X, found Y": the next word (at most 20
  // characters) in quotes, or "end of input".
  std::string describeTokenAt(size_t offset) const;
  // The offset just past the double-quoted string starting at `begin` (backslash escapes
  // skipped); a string left open at the end of its line is an error there.
  size_t endOfString(size_t begin) const;

 private:
  // The offset of the first byte of every line, found on the first diagnostic or location
  // asked for: a parse that succeeds never needs it, and finding it is a pass over the text.
  const std::vector<size_t>& lineStarts() const;

  std::string_view text_;
  std::string fileName_;
  mutable std::once_flag lineStartsFound_;
  mutable std::vector<size_t> lineStarts_;
};

}  // namespace idxmap
