// Expressions in XLA's syntax (FORMAT.md, "Expressions"), built through the folding Expr
// constructors so that a parsed expression is the very node the library would build.
//
// Precedence, tightest first: unary `-`; then `*`, `/`, `floordiv`, `floorDiv`, `ceildiv`,
// `ceilDiv`, `mod` (left-associative); then `+`, `-` (left-associative). `min(a, b)` and
// `max(a, b)` are calls. An error the Expr constructors raise (division by zero, a non-affine
// product, overflow while folding) is reported at the operator's token.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "core/expr.h"
#include "core/text_lexer.h"

namespace idxmap {

// Limits that keep absurd input from exhausting the stack: parser recursion (parentheses and
// calls) and the depth of the built tree, which later passes walk recursively.
inline constexpr int kMaxNesting = 256;
inline constexpr int kMaxExprDepth = 1000;

// Maps a variable name to its expression; the null Expr for a name that is not a variable
// (not an optional: returning one through std::function stalled on store forwarding).
using NameResolver = std::function<Expr(std::string_view)>;

// Words the syntax reserves; they cannot name variables.
bool isKeyword(std::string_view word);

// The value of the digits of `digits`, negated when `negative` (so INT64_MIN is readable).
// Throws ParseError at the literal when it does not fit int64.
int64_t readInteger(const TokenStream& tokens, const Token& digits, bool negative);

class ExprParser {
 public:
  // `resolve` is held by reference: it must outlive the parser.
  ExprParser(TokenStream& tokens, const NameResolver& resolve);
  // One expression, starting at the current token; stops before the first token that
  // cannot continue it.
  Expr parse();

 private:
  struct Parsed {
    Expr expr;
    int depth;  // an upper bound of the tree's depth
  };
  Parsed parseSum();
  Parsed parseProduct();
  Parsed parseUnary();
  Parsed parsePrimary();
  Parsed parseCall(const Token& name);
  Parsed parseVariable(const Token& name);
  // The integer literal at the current token, negated when `negative`.
  Parsed integer(bool negative);
  // Runs `make` (an Expr constructor call) for a node of the given depth; its errors, and
  // a depth over the limit, are reported at offset `at` (the operator's). A template, not a
  // std::function: it runs once per operator, and a capture of three references would cost
  // an allocation.
  template <class Make>
  Parsed build(size_t at, int depth, const Make& make);
  void enterNesting(size_t at);

  TokenStream& tokens_;
  const NameResolver& resolve_;
  int nesting_ = 0;
};

}  // namespace idxmap
