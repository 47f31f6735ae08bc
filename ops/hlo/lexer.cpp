#include "ops/hlo/lexer.h"

#include <cctype>
#include <vector>

namespace idxmap::hlo {
namespace {

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
}
bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)); }

char closerOf(char opener) { return opener == '(' ? ')' : opener == '[' ? ']' : '}'; }

}  // namespace

void HloCursor::skipSpace() {
  while (offset_ < text_.size()) {
    char c = text_[offset_];
    if (isSpace(c)) {
      ++offset_;
    } else if (text_.substr(offset_, 2) == "//") {
      size_t end = text_.find('\n', offset_);
      offset_ = end == std::string_view::npos ? text_.size() : end;
    } else if (text_.substr(offset_, 2) == "/*") {
      size_t end = text_.find("*/", offset_ + 2);
      if (end == std::string_view::npos) throw error(offset_, "unterminated comment");
      offset_ = end + 2;
    } else {
      return;
    }
  }
}

bool HloCursor::accept(char c) {
  if (peek() != c) return false;
  ++offset_;
  return true;
}

bool HloCursor::acceptWord(std::string_view word) {
  skipSpace();
  if (text_.substr(offset_, word.size()) != word) return false;
  size_t end = offset_ + word.size();
  if (end < text_.size() && isNameChar(text_[end])) return false;
  offset_ = end;
  return true;
}

void HloCursor::expect(char c, std::string_view context) {
  if (!accept(c)) throw expected("'" + std::string(1, c) + "' " + std::string(context));
}

bool HloCursor::atName() {
  char c = peek();
  if (c == '%') return offset_ + 1 < text_.size() && isNameStart(text_[offset_ + 1]);
  return isNameStart(c);
}

std::string_view HloCursor::peekName() {
  if (!atName()) return {};
  size_t begin = offset_ + (text_[offset_] == '%' ? 1 : 0), end = begin;
  while (end < text_.size() && isNameChar(text_[end])) ++end;
  return text_.substr(begin, end - begin);
}

std::string_view HloCursor::name(std::string_view what) {
  if (!atName()) throw expected(what);
  std::string_view result = peekName();
  offset_ = static_cast<size_t>(result.data() - text_.data()) + result.size();
  return result;
}

int64_t HloCursor::integer(std::string_view what) {
  skipSpace();
  size_t begin = offset_;
  if (!std::isdigit(static_cast<unsigned char>(peekRaw()))) throw expected(what);
  int64_t value = 0;
  while (offset_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[offset_]))) {
    int digit = text_[offset_] - '0';
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, digit, &value))
      throw error(begin, "integer " + std::string(what) + " does not fit in 64 bits");
    ++offset_;
  }
  return value;
}

std::string_view HloCursor::attributeValue(std::string_view attributeName) {
  skipSpace();
  size_t begin = offset_;
  std::vector<std::pair<char, size_t>> open;  // expected closer, where it was opened
  size_t i = begin;
  while (i < text_.size()) {
    char c = text_[i];
    if (open.empty() && c == ',') break;
    if (open.empty() && isSpace(c)) {
      // A value of several words on one line goes on: `replica_groups=mesh['x'=2] {'x'}`,
      // `literal=s32[] 1`. A comma, a closer, a comment or the line's end ends it.
      size_t next = i;
      while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t')) ++next;
      const bool goesOn = next > i && next < text_.size() &&
                          std::string_view(",)}\r\n").find(text_[next]) == std::string_view::npos &&
                          text_.substr(next, 2) != "/*" && text_.substr(next, 2) != "//";
      if (!goesOn) break;
      i = next;
      continue;
    }
    if (c == '"') {
      i = source_.endOfString(i);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      open.push_back({closerOf(c), i});
    } else if (c == ')' || c == ']' || c == '}') {
      if (open.empty()) break;  // closes something around the attribute
      if (c != open.back().first)
        throw error(i, "'" + std::string(1, c) + "' does not match the '" +
                           std::string(1, text_[open.back().second]) + "' of attribute '" +
                           std::string(attributeName) + "'");
      open.pop_back();
    }
    ++i;
  }
  if (!open.empty())
    throw error(open.back().second, "unbalanced '" + std::string(1, text_[open.back().second]) +
                                        "' in attribute '" + std::string(attributeName) + "'");
  if (i == begin) throw expected("a value for attribute '" + std::string(attributeName) + "'");
  offset_ = i;
  return text_.substr(begin, i - begin);
}

std::string_view HloCursor::balancedParens(std::string_view what) {
  skipSpace();
  size_t open = offset_;
  expect('(', what);
  int depth = 1;
  size_t i = offset_;
  while (i < text_.size()) {
    char c = text_[i];
    if (c == '"') {
      i = source_.endOfString(i);
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) {
      std::string_view inside = text_.substr(offset_, i - offset_);
      offset_ = i + 1;
      return inside;
    }
    ++i;
  }
  throw error(open, "unbalanced '(' " + std::string(what));
}

ParseError HloCursor::expected(std::string_view what) {
  skipSpace();
  return error(offset_,
               "expected " + std::string(what) + ", found " + source_.describeTokenAt(offset_));
}

}  // namespace idxmap::hlo
