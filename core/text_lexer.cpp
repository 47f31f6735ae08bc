#include "core/text_lexer.h"

#include <cctype>
#include <cstdio>

namespace idxmap {
namespace {

std::string describeCharacter(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(c));
  return std::string("byte ") + hex;
}

}  // namespace

std::string Token::describe() const {
  switch (kind) {
    case TokenKind::End:
      return "end of input";
    case TokenKind::Identifier:
      return "'" + std::string(text.substr(0, 60)) + (text.size() > 60 ? "...'" : "'");
    case TokenKind::Integer:
      return "integer " + std::string(text.substr(0, 40));
    default:
      return "'" + std::string(text) + "'";
  }
}

Lexer::Lexer(const SourceText& source, size_t begin, size_t end)
    : source_(source), begin_(begin), end_(end) {}

void Lexer::throwUnexpected(size_t offset) const {
  throw source_.error(offset, "unexpected character " + describeCharacter(source_.text()[offset]));
}

TokenStream::TokenStream(const SourceText& source, size_t begin, size_t end)
    : source_(source), lexer_(source, begin, end), current_(lexer_.lexAt(begin)) {}

void TokenStream::expectIdentifier(std::string_view word) {
  if (!acceptIdentifier(word)) throw expectedError("'" + std::string(word) + "'");
}

ParseError TokenStream::expectedError(std::string_view what) const {
  return errorAtCurrent("expected " + std::string(what) + ", found " + current_.describe());
}

}  // namespace idxmap
