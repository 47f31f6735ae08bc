#include "core/text_expr_parser.h"

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "core/text.h"

namespace idxmap {
namespace {

constexpr std::array<std::string_view, 9> kKeywords = {
    "in", "domain", "mod", "floordiv", "floorDiv", "ceildiv", "ceilDiv", "min", "max"};

// The ExprKind of a product-level operator token, if it is one.
std::optional<ExprKind> productOperator(const Token& t) {
  if (t.is(TokenKind::Star)) return ExprKind::Mul;
  if (t.is(TokenKind::Slash)) return ExprKind::FloorDiv;
  if (t.kind != TokenKind::Identifier) return std::nullopt;
  if (t.text == "floordiv" || t.text == "floorDiv") return ExprKind::FloorDiv;
  if (t.text == "ceildiv" || t.text == "ceilDiv") return ExprKind::CeilDiv;
  if (t.text == "mod") return ExprKind::Mod;
  return std::nullopt;
}

// Why `a * b` of two variables is refused, and what to write instead (XLA's maps hold such
// products of range variables).
std::string nonAffineProduct(Expr a, Expr b) {
  return "non-affine product (" + printExpr(a) + ") * (" + printExpr(b) +
         "): idxmap's maps are quasi-affine, so that isl and Z3 decide them exactly, and a "
         "product of two variables has no such form. Where one factor takes few values, write "
         "one map per value (e.g. s1 in [k, k] with s1 replaced by k); where the product is a "
         "linearized index, write it as the sum it stands for";
}

}  // namespace

bool isKeyword(std::string_view word) {
  return std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
}

int64_t readInteger(const TokenStream& tokens, const Token& digits, bool negative) {
  // Accumulate the magnitude as unsigned: -9223372036854775808 has no positive int64 twin.
  // Eighteen digits cannot overflow it, so only longer literals pay for the checks.
  constexpr uint64_t kMaxMagnitude = uint64_t{1} << 63;
  constexpr size_t kAlwaysFits = 18;
  uint64_t limit = negative ? kMaxMagnitude : kMaxMagnitude - 1;
  uint64_t magnitude = 0;
  for (char c : digits.text) {
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (digits.text.size() > kAlwaysFits && magnitude > (limit - digit) / 10)
      throw tokens.error(digits.offset, "integer literal does not fit in 64 bits");
    magnitude = magnitude * 10 + digit;
  }
  if (!negative) return static_cast<int64_t>(magnitude);
  return magnitude == kMaxMagnitude ? std::numeric_limits<int64_t>::min()
                                    : -static_cast<int64_t>(magnitude);
}

ExprParser::ExprParser(TokenStream& tokens, const NameResolver& resolve)
    : tokens_(tokens), resolve_(resolve) {}

Expr ExprParser::parse() { return parseSum().expr; }

template <class Make>
ExprParser::Parsed ExprParser::build(size_t at, int depth, const Make& make) {
  if (depth > kMaxExprDepth)
    throw tokens_.error(
        at, "expression is too deep (more than " + std::to_string(kMaxExprDepth) + " levels)");
  try {
    return {make(), depth};
  } catch (const Error& e) {  // ExprError or OverflowError from the folding constructors
    throw tokens_.error(at, e.what());
  }
}

// A sum of up to kLeftChainTerms terms is built left to right, as written. A longer one (XLA
// writes flat sums of thousands of terms) is built as a balanced tree of the same terms, so
// its depth grows with the logarithm of its length, not the length.
ExprParser::Parsed ExprParser::parseSum() {
  constexpr size_t kLeftChainTerms = 64;
  struct Term {
    size_t at;   // the offset of the + or - before it (of the term itself for the first)
    bool minus;  // whether that sign is -
    Parsed value;
  };
  boost::container::small_vector<Term, 8> terms;  // most sums have a few terms: no allocation
  terms.push_back({tokens_.current().offset, false, parseProduct()});
  for (TokenKind sign;
       (sign = tokens_.current().kind) == TokenKind::Plus || sign == TokenKind::Minus;) {
    size_t at = tokens_.current().offset;
    tokens_.advance();
    terms.push_back({at, sign == TokenKind::Minus, parseProduct()});
  }
  if (terms.size() <= kLeftChainTerms) {
    Parsed sum = terms[0].value;
    for (size_t i = 1; i < terms.size(); ++i) {
      const Term& term = terms[i];
      sum = build(term.at, std::max(sum.depth, term.value.depth) + 1, [&] {
        return term.minus ? sum.expr - term.value.expr : sum.expr + term.value.expr;
      });
    }
    return sum;
  }
  // Signs first (a - b is a + (-b)), then pairs of neighbours until one is left.
  std::vector<Term> level;
  for (Term& term : terms) {
    if (term.minus) {
      Parsed operand = term.value;
      term.value = build(term.at, operand.depth + 1, [&] { return -operand.expr; });
    }
    level.push_back(term);
  }
  while (level.size() > 1) {
    std::vector<Term> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2) {
      const Parsed& a = level[i].value;
      const Parsed& b = level[i + 1].value;
      size_t at = level[i + 1].at;
      next.push_back(
          {at, false, build(at, std::max(a.depth, b.depth) + 1, [&] { return a.expr + b.expr; })});
    }
    if (level.size() % 2 == 1) next.push_back(level.back());
    level = std::move(next);
  }
  return level[0].value;
}

ExprParser::Parsed ExprParser::parseProduct() {
  Parsed product = parseUnary();
  while (std::optional<ExprKind> kind = productOperator(tokens_.current())) {
    size_t at = tokens_.current().offset;
    tokens_.advance();
    Parsed factor = parseUnary();
    if (*kind == ExprKind::Mul && !product.expr.isConstant() && !factor.expr.isConstant())
      throw tokens_.error(at, nonAffineProduct(product.expr, factor.expr));
    product = build(at, std::max(product.depth, factor.depth) + 1,
                    [&] { return Expr::binary(*kind, product.expr, factor.expr); });
  }
  return product;
}

// Minus signs are counted, not recursed on, so `- - - ... d0` cannot exhaust the stack.
ExprParser::Parsed ExprParser::parseUnary() {
  if (!tokens_.current().is(TokenKind::Minus)) return parsePrimary();
  size_t lastMinus = 0;
  int minuses = 0;
  while (tokens_.current().is(TokenKind::Minus)) {
    lastMinus = tokens_.current().offset;
    tokens_.advance();
    ++minuses;
  }
  bool negate = minuses % 2 == 1;
  if (tokens_.current().is(TokenKind::Integer)) return integer(negate);
  Parsed operand = parsePrimary();
  if (!negate) return operand;
  return build(lastMinus, operand.depth + 1, [&] { return -operand.expr; });
}

ExprParser::Parsed ExprParser::integer(bool negative) {
  int64_t value = readInteger(tokens_, tokens_.current(), negative);
  tokens_.advance();
  return {Expr::constant(value), 1};
}

ExprParser::Parsed ExprParser::parsePrimary() {
  const Token& t = tokens_.current();
  if (t.is(TokenKind::Integer)) return integer(false);
  if (t.is(TokenKind::LParen)) {
    enterNesting(t.offset);
    tokens_.advance();
    Parsed inner = parseSum();
    tokens_.expect(TokenKind::RParen, "')'");
    --nesting_;
    return inner;
  }
  if (t.is(TokenKind::Identifier)) {
    Token name = t;
    tokens_.advance();
    if ((name.text == "min" || name.text == "max") && tokens_.current().is(TokenKind::LParen))
      return parseCall(name);
    return parseVariable(name);
  }
  throw tokens_.expectedError("an expression");
}

ExprParser::Parsed ExprParser::parseCall(const Token& name) {
  enterNesting(tokens_.current().offset);  // the '('
  tokens_.advance();
  Parsed a = parseSum();
  if (!tokens_.accept(TokenKind::Comma))
    throw tokens_.expectedError("',' between the two operands of " + std::string(name.text));
  Parsed b = parseSum();
  tokens_.expect(TokenKind::RParen, "')'");
  --nesting_;
  bool isMin = name.text == "min";
  return build(name.offset, std::max(a.depth, b.depth) + 1,
               [&] { return isMin ? Expr::min(a.expr, b.expr) : Expr::max(a.expr, b.expr); });
}

ExprParser::Parsed ExprParser::parseVariable(const Token& name) {
  // Declared names are never keywords: only a name that does not resolve is checked.
  if (Expr variable = resolve_(name.text); !variable.isNull()) return {variable, 1};
  if (isKeyword(name.text))
    throw tokens_.error(name.offset, "expected an expression, found " + name.describe());
  throw tokens_.error(name.offset, "unknown variable " + name.describe());
}

void ExprParser::enterNesting(size_t at) {
  if (++nesting_ > kMaxNesting)
    throw tokens_.error(at, "expression is nested too deeply (more than " +
                                std::to_string(kMaxNesting) + " levels)");
}

}  // namespace idxmap
