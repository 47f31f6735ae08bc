// Tokens of the XLA and MLIR map syntaxes. The lexer works on demand over a window of the
// whole source, so a huge input costs no token buffer and offsets stay file-wide.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/text_source.h"

namespace idxmap {

enum class TokenKind {
  End,
  Identifier,  // [A-Za-z_][A-Za-z0-9_]*; keywords are identifiers the parser recognizes
  Integer,     // decimal digits; the parser reads the value, knowing the sign
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Arrow,  // ->
  Plus,
  Minus,
  Star,
  Slash,
  Less,
  Greater,
};

struct Token {
  TokenKind kind = TokenKind::End;
  size_t offset = 0;  // into the whole source
  std::string_view text;

  bool is(TokenKind k) const { return kind == k; }
  bool isIdentifier(std::string_view word) const {
    return kind == TokenKind::Identifier && text == word;
  }
  // For diagnostics: "'->'", "identifier 'foo'", "end of input".
  std::string describe() const;
};

namespace lexer_detail {

// Character classes as bits, one table lookup per byte (ASCII, whatever the C locale says):
// a token's loop tests the bits that continue it in one AND.
enum CharBits : uint8_t { kSpace = 1, kLetter = 2, kDigit = 4 };

inline constexpr std::array<uint8_t, 256> kCharBits = [] {
  std::array<uint8_t, 256> table{};
  for (char c : {' ', '\t', '\n', '\r', '\f', '\v'}) table[static_cast<uint8_t>(c)] = kSpace;
  for (int c = 'a'; c <= 'z'; ++c) table[c] = kLetter;
  for (int c = 'A'; c <= 'Z'; ++c) table[c] = kLetter;
  table['_'] = kLetter;
  for (int c = '0'; c <= '9'; ++c) table[c] = kDigit;
  return table;
}();

// The token of each one-character punctuation mark; End for a byte that starts none.
inline constexpr std::array<TokenKind, 256> kPunctuation = [] {
  std::array<TokenKind, 256> table{};
  table.fill(TokenKind::End);
  for (auto [c, kind] : {std::pair{'(', TokenKind::LParen},
                         {')', TokenKind::RParen},
                         {'[', TokenKind::LBracket},
                         {']', TokenKind::RBracket},
                         {'{', TokenKind::LBrace},
                         {'}', TokenKind::RBrace},
                         {',', TokenKind::Comma},
                         {':', TokenKind::Colon},
                         {'+', TokenKind::Plus},
                         {'-', TokenKind::Minus},
                         {'*', TokenKind::Star},
                         {'/', TokenKind::Slash},
                         {'<', TokenKind::Less},
                         {'>', TokenKind::Greater}})
    table[static_cast<uint8_t>(c)] = kind;
  return table;
}();

inline uint8_t bitsOf(char c) { return kCharBits[static_cast<uint8_t>(c)]; }

}  // namespace lexer_detail

class Lexer {
 public:
  // Tokens of source.text()[begin, end).
  Lexer(const SourceText& source, size_t begin, size_t end);

  // The token starting at or after `offset` (whitespace skipped). Throws ParseError on a
  // character no token starts with. Inline: the parsers lex every token through it.
  Token lexAt(size_t offset) const {
    Token token;
    lexInto(offset, token);
    return token;
  }
  // The same, written field by field into `token`: a Token returned by value and copied
  // whole is read back with wider loads than it was stored with, and each such load waits for
  // the stores to retire (a failed store-to-load forwarding, twice a token: half of lexing's
  // time).
  void lexInto(size_t offset, Token& token) const;
  size_t begin() const { return begin_; }

 private:
  // Out of line and cold, so that lexAt's hot path builds no diagnostic strings.
  [[noreturn, gnu::cold]] void throwUnexpected(size_t offset) const;

  const SourceText& source_;
  size_t begin_, end_;
};

inline void Lexer::lexInto(size_t offset, Token& token) const {
  using namespace lexer_detail;
  std::string_view text = source_.text();
  size_t i = offset;
  // Blanks and `//` comments to the end of the line (map files, as XLA's tests write them).
  for (;;) {
    while (i < end_ && (bitsOf(text[i]) & kSpace)) ++i;
    if (i + 1 >= end_ || text[i] != '/' || text[i + 1] != '/') break;
    while (i < end_ && text[i] != '\n') ++i;
  }
  if (i >= end_) {
    token.kind = TokenKind::End;
    token.offset = end_;
    token.text = {};
    return;
  }
  size_t length = 1;
  TokenKind kind;
  if (const uint8_t first = bitsOf(text[i]); first & (kLetter | kDigit)) {
    // Identifiers go on with letters and digits, integers with digits.
    const uint8_t continues = first == kLetter ? kLetter | kDigit : kDigit;
    while (i + length < end_ && (bitsOf(text[i + length]) & continues)) ++length;
    kind = first == kLetter ? TokenKind::Identifier : TokenKind::Integer;
  } else if (text[i] == '-' && i + 1 < end_ && text[i + 1] == '>') {
    kind = TokenKind::Arrow;
    length = 2;
  } else {
    kind = kPunctuation[static_cast<uint8_t>(text[i])];
    if (kind == TokenKind::End) throwUnexpected(i);
  }
  token.kind = kind;
  token.offset = i;
  token.text = std::string_view(text.data() + i, length);  // in range: no substr check
}

// A cursor over a Lexer: the current token, one token of lookahead, and diagnostics.
class TokenStream {
 public:
  TokenStream(const SourceText& source, size_t begin, size_t end);

  const SourceText& sourceText() const { return source_; }
  const Token& current() const { return current_; }
  Token peekNext() const { return lexer_.lexAt(current_.offset + current_.text.size()); }
  bool atEnd() const { return current_.is(TokenKind::End); }
  // The five below are inline: the parsers call them once or more per token.
  Token take() {
    Token taken = current_;
    advance();
    return taken;
  }
  // Moves to the next token. Parsers that need only the current token's offset or text call
  // this after reading them: copying a whole Token stalls on store forwarding.
  void advance() {
    if (!atEnd()) lexer_.lexInto(current_.offset + current_.text.size(), current_);
  }
  bool accept(TokenKind kind) {
    if (!current_.is(kind)) return false;
    advance();
    return true;
  }
  bool acceptIdentifier(std::string_view word) {
    if (!current_.isIdentifier(word)) return false;
    advance();
    return true;
  }
  // Takes the current token if it has `kind`; otherwise "expected <what>, found <token>".
  Token expect(TokenKind kind, std::string_view what) {
    if (!current_.is(kind)) throw expectedError(what);
    return take();
  }
  void expectIdentifier(std::string_view word);

  ParseError error(size_t offset, const std::string& message) const {
    return source_.error(offset, message);
  }
  ParseError errorAtCurrent(const std::string& message) const {
    return error(current_.offset, message);
  }
  [[gnu::cold]] ParseError expectedError(std::string_view what) const;

 private:
  const SourceText& source_;
  Lexer lexer_;
  Token current_;
};

}  // namespace idxmap
