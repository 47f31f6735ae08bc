#include "core/text_source.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace idxmap {
namespace {

// The caret line keeps the source line's tabs so that the caret lands under the column
// whatever the terminal's tab width is.
std::string caretLine(std::string_view sourceLine, int column) {
  std::string caret;
  for (int i = 0; i + 1 < column; ++i)
    caret += (static_cast<size_t>(i) < sourceLine.size() && sourceLine[i] == '\t') ? '\t' : ' ';
  return caret + '^';
}

// The source line under a diagnostic, with a caret under the column. A very long line (a
// whole map on one line, or absurd input) is shown as a window around the column, so that a
// diagnostic stays readable and small.
std::string withCaret(const SourceLocation& location, const std::string& sourceLine) {
  constexpr size_t kMaxShown = 160, kContextBefore = 80;
  std::string shown = sourceLine;
  int caretColumn = location.column;
  if (sourceLine.size() > kMaxShown) {
    size_t index = static_cast<size_t>(std::max(location.column, 1) - 1);
    size_t begin = index > kContextBefore ? index - kContextBefore : 0;
    size_t end = std::min(sourceLine.size(), begin + kMaxShown);
    shown = (begin ? "..." : "") + sourceLine.substr(begin, end - begin) +
            (end < sourceLine.size() ? "..." : "");
    caretColumn = static_cast<int>(index - begin) + 1 + (begin ? 3 : 0);
  }
  return shown + "\n" + caretLine(shown, caretColumn);
}

}  // namespace

std::string SourceLocation::toString() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string formatDiagnostic(const SourceLocation& location, std::string_view severity,
                             std::string_view message) {
  return location.toString() + ": " + std::string(severity) + ": " + std::string(message);
}

LocatedError::LocatedError(SourceLocation location, std::string message,
                           std::optional<std::string> sourceLine)
    : Error(formatDiagnostic(location, "error", message) +
            (sourceLine ? "\n" + withCaret(location, *sourceLine) : "")),
      location_(std::move(location)),
      message_(std::move(message)) {}

SourceText::SourceText(std::string_view text, std::string_view fileName)
    : text_(text), fileName_(fileName) {}

const std::vector<size_t>& SourceText::lineStarts() const {
  std::call_once(lineStartsFound_, [this] {
    lineStarts_.push_back(0);
    const char* const begin = text_.data();
    const char* const end = begin + text_.size();
    for (const char* at = begin;
         at != end &&
         (at = static_cast<const char*>(std::memchr(at, '\n', static_cast<size_t>(end - at))));
         ++at)
      lineStarts_.push_back(static_cast<size_t>(at - begin) + 1);
  });
  return lineStarts_;
}

SourceLocation SourceText::location(size_t offset) const {
  const std::vector<size_t>& starts = lineStarts();
  auto next = std::upper_bound(starts.begin(), starts.end(), offset);
  size_t line = static_cast<size_t>(next - starts.begin());  // 1-based
  return {fileName_, static_cast<int>(line), static_cast<int>(offset - starts[line - 1] + 1)};
}

std::string_view SourceText::lineAt(size_t offset) const {
  const std::vector<size_t>& starts = lineStarts();
  auto next = std::upper_bound(starts.begin(), starts.end(), offset);
  size_t begin = *(next - 1);
  size_t end = next == starts.end() ? text_.size() : *next - 1;
  std::string_view line = text_.substr(begin, end - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view SourceText::line(int number) const {
  const std::vector<size_t>& starts = lineStarts();
  if (number < 1 || static_cast<size_t>(number) > starts.size()) return {};
  return lineAt(starts[number - 1]);
}

ParseError SourceText::error(size_t offset, const std::string& message) const {
  offset = std::min(offset, text_.size());
  return ParseError(location(offset), message, std::string(lineAt(offset)));
}

std::string SourceText::describeTokenAt(size_t offset) const {
  if (offset >= text_.size()) return "end of input";
  size_t end = offset;
  while (end < text_.size() && end - offset < 20 &&
         !std::isspace(static_cast<unsigned char>(text_[end])))
    ++end;
  if (end == offset) end = offset + 1;
  return "'" + std::string(text_.substr(offset, end - offset)) + "'";
}

size_t SourceText::endOfString(size_t begin) const {
  for (size_t i = begin + 1; i < text_.size(); ++i) {
    if (text_[i] == '\\') {
      ++i;
    } else if (text_[i] == '"') {
      return i + 1;
    } else if (text_[i] == '\n') {
      break;
    }
  }
  throw error(begin, "unterminated string");
}

}  // namespace idxmap
