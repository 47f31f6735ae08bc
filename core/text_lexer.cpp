#include "core/text_lexer.h"

#include <cctype>
#include <cstdio>

namespace idxmap {
namespace {

// ASCII, whatever the C locale says (and without a call per character: the lexer's hot path).
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentifierStart(char c) { return isLetter(c) || c == '_'; }
bool isIdentifierChar(char c) { return isLetter(c) || isDigit(c) || c == '_'; }
bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

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

Token Lexer::lexAt(size_t offset) const {
  std::string_view text = source_.text();
  size_t i = offset;
  // Blanks and `//` comments to the end of the line (map files, as XLA's tests write them).
  for (;;) {
    while (i < end_ && isSpace(text[i])) ++i;
    if (i + 1 >= end_ || text[i] != '/' || text[i + 1] != '/') break;
    while (i < end_ && text[i] != '\n') ++i;
  }
  if (i >= end_) return {TokenKind::End, end_, {}};
  auto token = [&](TokenKind kind, size_t length) {
    return Token{kind, i, text.substr(i, length)};
  };
  char c = text[i];
  if (isIdentifierStart(c)) {
    size_t j = i + 1;
    while (j < end_ && isIdentifierChar(text[j])) ++j;
    return token(TokenKind::Identifier, j - i);
  }
  if (isDigit(c)) {
    size_t j = i + 1;
    while (j < end_ && isDigit(text[j])) ++j;
    return token(TokenKind::Integer, j - i);
  }
  switch (c) {
    case '(':
      return token(TokenKind::LParen, 1);
    case ')':
      return token(TokenKind::RParen, 1);
    case '[':
      return token(TokenKind::LBracket, 1);
    case ']':
      return token(TokenKind::RBracket, 1);
    case '{':
      return token(TokenKind::LBrace, 1);
    case '}':
      return token(TokenKind::RBrace, 1);
    case ',':
      return token(TokenKind::Comma, 1);
    case ':':
      return token(TokenKind::Colon, 1);
    case '+':
      return token(TokenKind::Plus, 1);
    case '*':
      return token(TokenKind::Star, 1);
    case '/':
      return token(TokenKind::Slash, 1);
    case '<':
      return token(TokenKind::Less, 1);
    case '>':
      return token(TokenKind::Greater, 1);
    case '-':
      if (i + 1 < end_ && text[i + 1] == '>') return token(TokenKind::Arrow, 2);
      return token(TokenKind::Minus, 1);
    default:
      throw source_.error(i, "unexpected character " + describeCharacter(c));
  }
}

TokenStream::TokenStream(const SourceText& source, size_t begin, size_t end)
    : source_(source), lexer_(source, begin, end), current_(lexer_.lexAt(begin)) {}

Token TokenStream::take() {
  Token taken = current_;
  if (!atEnd()) current_ = peekNext();
  return taken;
}

bool TokenStream::accept(TokenKind kind) {
  if (!current_.is(kind)) return false;
  take();
  return true;
}

bool TokenStream::acceptIdentifier(std::string_view word) {
  if (!current_.isIdentifier(word)) return false;
  take();
  return true;
}

Token TokenStream::expect(TokenKind kind, std::string_view what) {
  if (!current_.is(kind)) throw expectedError(what);
  return take();
}

void TokenStream::expectIdentifier(std::string_view word) {
  if (!acceptIdentifier(word)) throw expectedError("'" + std::string(word) + "'");
}

ParseError TokenStream::expectedError(std::string_view what) const {
  return errorAtCurrent("expected " + std::string(what) + ", found " + current_.describe());
}

}  // namespace idxmap
