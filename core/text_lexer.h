// Tokens of the XLA and MLIR map syntaxes. The lexer works on demand over a window of the
// whole source, so a huge input costs no token buffer and offsets stay file-wide.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

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

class Lexer {
 public:
  // Tokens of source.text()[begin, end).
  Lexer(const SourceText& source, size_t begin, size_t end);

  // The token starting at or after `offset` (whitespace skipped). Throws ParseError on a
  // character no token starts with.
  Token lexAt(size_t offset) const;
  size_t begin() const { return begin_; }

 private:
  const SourceText& source_;
  size_t begin_, end_;
};

// A cursor over a Lexer: the current token, one token of lookahead, and diagnostics.
class TokenStream {
 public:
  TokenStream(const SourceText& source, size_t begin, size_t end);

  const SourceText& sourceText() const { return source_; }
  const Token& current() const { return current_; }
  Token peekNext() const { return lexer_.lexAt(current_.offset + current_.text.size()); }
  bool atEnd() const { return current_.is(TokenKind::End); }
  Token take();
  bool accept(TokenKind kind);
  bool acceptIdentifier(std::string_view word);
  // Takes the current token if it has `kind`; otherwise "expected <what>, found <token>".
  Token expect(TokenKind kind, std::string_view what);
  void expectIdentifier(std::string_view word);

  ParseError error(size_t offset, const std::string& message) const {
    return source_.error(offset, message);
  }
  ParseError errorAtCurrent(const std::string& message) const {
    return error(current_.offset, message);
  }
  ParseError expectedError(std::string_view what) const;

 private:
  const SourceText& source_;
  Lexer lexer_;
  Token current_;
};

}  // namespace idxmap
