#include "ops/mlir/lexer.h"

#include <cctype>
#include <vector>

namespace idxmap::mlir_ir {
namespace {

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)); }
bool isHexDigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)); }
bool isBareIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isBareIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}
bool isSuffixIdChar(char c) { return isBareIdChar(c) || c == '-'; }

// Deep enough for any real module, shallow enough for the default stack.
constexpr int kMaxNesting = 200;

}  // namespace

NestingGuard::NestingGuard(MlirCursor& cursor, int& depth) : depth_(depth) {
  if (++depth_ > kMaxNesting) {
    --depth_;
    throw cursor.errorHere("nesting deeper than " + std::to_string(kMaxNesting) + " levels");
  }
}

void MlirCursor::skipSpace() {
  while (offset_ < text_.size()) {
    char c = text_[offset_];
    if (isSpace(c)) {
      ++offset_;
    } else if (text_.substr(offset_, 2) == "//") {
      size_t end = text_.find('\n', offset_);
      offset_ = end == std::string_view::npos ? text_.size() : end;
    } else {
      return;
    }
  }
}

char MlirCursor::peek(size_t ahead) {
  skipSpace();
  return offset_ + ahead < text_.size() ? text_[offset_ + ahead] : '\0';
}

bool MlirCursor::startsWith(std::string_view punctuation) {
  skipSpace();
  return text_.substr(offset_, punctuation.size()) == punctuation;
}

bool MlirCursor::accept(char c) {
  if (peek() != c) return false;
  ++offset_;
  return true;
}

bool MlirCursor::accept(std::string_view punctuation) {
  if (!startsWith(punctuation)) return false;
  offset_ += punctuation.size();
  return true;
}

bool MlirCursor::acceptWord(std::string_view word) {
  if (peekBareId() != word) return false;
  offset_ += word.size();
  return true;
}

void MlirCursor::expect(char c, std::string_view context) {
  if (!accept(c)) throw expected("'" + std::string(1, c) + "' " + std::string(context));
}

void MlirCursor::expect(std::string_view punctuation, std::string_view context) {
  if (!accept(punctuation)) {
    throw expected("'" + std::string(punctuation) + "' " + std::string(context));
  }
}

bool MlirCursor::atBareId() { return isBareIdStart(peek()); }

std::string_view MlirCursor::peekBareId() {
  if (!atBareId()) return {};
  size_t end = offset_;
  while (end < text_.size() && isBareIdChar(text_[end])) ++end;
  return text_.substr(offset_, end - offset_);
}

std::string_view MlirCursor::bareId(std::string_view what) {
  std::string_view id = peekBareId();
  if (id.empty()) throw expected(what);
  offset_ += id.size();
  return id;
}

std::string MlirCursor::suffixId(char sigil, std::string_view what) {
  if (peek() != sigil) throw expected(what);
  size_t begin = offset_;
  ++offset_;
  if (peekRaw() == '"') return stringLiteral(what);
  size_t end = offset_;
  while (end < text_.size() && isSuffixIdChar(text_[end])) ++end;
  if (end == offset_) throw error(begin, "expected a name after '" + std::string(1, sigil) + "'");
  std::string id(text_.substr(offset_, end - offset_));
  offset_ = end;
  return id;
}

std::string MlirCursor::stringLiteral(std::string_view what) {
  if (peek() != '"') throw expected(what);
  size_t begin = offset_, end = source_.endOfString(begin);
  std::string value;
  for (size_t i = begin + 1; i + 1 < end; ++i) {
    char c = text_[i];
    if (c != '\\') {
      value += c;
      continue;
    }
    char escaped = text_[++i];
    if (escaped == 'n') {
      value += '\n';
    } else if (escaped == 't') {
      value += '\t';
    } else if (isHexDigit(escaped) && i + 1 < end - 1 && isHexDigit(text_[i + 1])) {
      value += static_cast<char>(std::stoi(std::string(text_.substr(i, 2)), nullptr, 16));
      ++i;
    } else {
      value += escaped;  // \" and \\ stand for themselves
    }
  }
  offset_ = end;
  return value;
}

bool MlirCursor::atNumber() {
  char c = peek();
  if (c == '-' || c == '+') c = peek(1);
  return isDigit(c);
}

NumberToken MlirCursor::number(std::string_view what) {
  if (!atNumber()) throw expected(what);
  NumberToken token;
  token.offset = offset_;
  size_t i = offset_;
  if (text_[i] == '-' || text_[i] == '+') ++i;
  if (text_.substr(i, 2) == "0x" || text_.substr(i, 2) == "0X") {
    token.isHex = true;
    i += 2;
    size_t digits = i;
    while (i < text_.size() && isHexDigit(text_[i])) ++i;
    if (i == digits) throw error(token.offset, "expected hex digits after '0x'");
  } else {
    while (i < text_.size() && isDigit(text_[i])) ++i;
    if (i < text_.size() && text_[i] == '.') {
      token.isFloat = true;
      ++i;
      while (i < text_.size() && isDigit(text_[i])) ++i;
    }
    if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
      size_t exponent = i + 1;
      if (exponent < text_.size() && (text_[exponent] == '-' || text_[exponent] == '+')) {
        ++exponent;
      }
      if (exponent < text_.size() && isDigit(text_[exponent])) {
        token.isFloat = true;
        i = exponent;
        while (i < text_.size() && isDigit(text_[i])) ++i;
      }
    }
  }
  token.text = text_.substr(token.offset, i - token.offset);
  offset_ = i;
  return token;
}

int64_t MlirCursor::integer(std::string_view what) {
  skipSpace();
  size_t begin = offset_;
  bool negative = accept('-');
  if (!isDigit(peekRaw())) {
    offset_ = begin;
    throw expected(what);
  }
  int64_t value = 0;
  while (offset_ < text_.size() && isDigit(text_[offset_])) {
    int digit = text_[offset_] - '0';
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, negative ? -digit : digit, &value)) {
      throw error(begin, std::string(what) + " does not fit in 64 bits");
    }
    ++offset_;
  }
  return value;
}

std::string_view MlirCursor::balanced(std::string_view what) {
  skipSpace();
  size_t begin = offset_;
  std::vector<char> closers;
  for (size_t i = begin; i < text_.size();) {
    char c = text_[i];
    if (c == '"') {
      i = source_.endOfString(i);
      continue;
    }
    if (c == '-' && i + 1 < text_.size() && text_[i + 1] == '>') {
      i += 2;  // `->` inside a function type closes nothing
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      closers.push_back(c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (closers.empty() || closers.back() != c) {
        throw error(i, "unbalanced '" + std::string(1, c) + "' in " + std::string(what));
      }
      closers.pop_back();
      if (closers.empty()) {
        offset_ = i + 1;
        return text_.substr(begin, offset_ - begin);
      }
    } else if (closers.empty()) {
      throw expected(what);
    }
    ++i;
  }
  throw error(begin, "unterminated " + std::string(what));
}

ParseError MlirCursor::expected(std::string_view what) {
  skipSpace();
  return error(offset_,
               "expected " + std::string(what) + ", found " + source_.describeTokenAt(offset_));
}

}  // namespace idxmap::mlir_ir
