// Expr: an immutable, hash-consed quasi-affine integer expression.
//
// Invariants (checked at construction, so every Expr satisfies them):
//  - equal expressions are the same node: operator== is a pointer comparison (within one
//    ExprContext and the process's table, see core/expr_context.h);
//  - the right operand of *, floordiv, ceildiv and mod is a constant, and the divisor or
//    modulus is positive (a negative one is normalized away, zero is an error);
//  - constants never overflow int64: folding is checked and throws OverflowError.
// Construction applies only range-free folds (constants, x + 0, x * 1, x floordiv 1, ...);
// everything that needs ranges belongs to simplifier/.
//
// Semantics: floordiv rounds toward -inf, ceildiv toward +inf, and mod is floordiv's
// remainder, `a mod b = a - b * (a floordiv b)` for either sign of b: in [0, b) for b > 0, in
// (b, 0] for b < 0 (`x mod -3` is built as `-((-x) mod 3)`), as Python's `%`. XLA's parser
// instead reads `x mod -3` as `x mod 3`; MLIR rejects it. Only this keeps the identity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "core/checked.h"

namespace idxmap {

enum class ExprKind : uint8_t {
  Constant,
  Dim,         // d_i: an input dimension
  RangeVar,    // s_i: an existential range variable (a "symbol")
  RuntimeVar,  // rt_i: a value known only at run time; an input like a dimension
  Add,
  Mul,  // rhs is a constant
  FloorDiv,
  CeilDiv,
  Mod,
  Min,
  Max,
};

// Thrown for expressions the IR cannot hold (non-affine products, non-constant or zero
// divisors). Parsers turn it into a located diagnostic.
class ExprError : public Error {
 public:
  using Error::Error;
};

struct ExprNode;

class Expr {
 public:
  Expr() = default;  // the null expression; only valid as a placeholder

  static Expr constant(int64_t value);
  static Expr dim(unsigned index);
  static Expr rangeVar(unsigned index);
  static Expr runtimeVar(unsigned index);
  static Expr variable(ExprKind kind, unsigned index);

  ExprKind kind() const;
  bool isNull() const { return node_ == nullptr; }
  bool isConstant() const { return kind() == ExprKind::Constant; }
  bool isConstant(int64_t v) const { return isConstant() && constantValue() == v; }
  bool isVariable() const;  // Dim, RangeVar or RuntimeVar
  bool isBinary() const;    // every kind from Add on

  int64_t constantValue() const;   // requires isConstant()
  unsigned variableIndex() const;  // requires isVariable()
  Expr lhs() const;                // requires isBinary()
  Expr rhs() const;

  Expr operator+(Expr o) const;
  Expr operator+(int64_t c) const { return *this + constant(c); }
  Expr operator-() const { return *this * -1; }
  Expr operator-(Expr o) const { return *this + -o; }
  Expr operator-(int64_t c) const { return *this + checkedNeg(c); }
  Expr operator*(Expr o) const;  // one side must be constant, else ExprError
  Expr operator*(int64_t c) const { return *this * constant(c); }
  Expr floorDiv(Expr divisor) const;  // divisor must be a non-zero constant
  Expr floorDiv(int64_t d) const { return floorDiv(constant(d)); }
  Expr ceilDiv(Expr divisor) const;
  Expr ceilDiv(int64_t d) const { return ceilDiv(constant(d)); }
  Expr mod(Expr modulus) const;
  Expr mod(int64_t m) const { return mod(constant(m)); }
  static Expr min(Expr a, Expr b);
  static Expr max(Expr a, Expr b);
  // Builds a binary node of `kind` through the folding constructors above.
  static Expr binary(ExprKind kind, Expr lhs, Expr rhs);

  bool operator==(const Expr& o) const { return node_ == o.node_; }
  const ExprNode* node() const { return node_; }
  size_t hash() const { return std::hash<const void*>()(node_); }

  // Number of nodes in the tree, counting a shared subtree every time it occurs. The
  // constant operand of *, floordiv, ceildiv and mod is part of its operator (so
  // `d0 floordiv 2` has 2 nodes): this is the size the simplifier minimizes.
  int size() const;
  // Whether any variable of `kind` with this index occurs.
  bool uses(ExprKind kind, unsigned index) const;
  // Visits every node, parents before children.
  void walk(const std::function<void(Expr)>& visit) const;
  // Replaces each variable by the expression for its kind and index; an index outside a
  // span, or an empty replacement, keeps the variable. Rebuilds through the folding
  // constructors.
  Expr replaceVariables(std::span<const Expr> dims, std::span<const Expr> rangeVars,
                        std::span<const Expr> runtimeVars) const;
  // Evaluates with the given variable values (floor semantics); throws OverflowError.
  int64_t evaluate(std::span<const int64_t> dims, std::span<const int64_t> rangeVars,
                   std::span<const int64_t> runtimeVars) const;

 private:
  explicit Expr(const ExprNode* node) : node_(node) {}
  static Expr unique(ExprKind kind, int64_t value, Expr lhs, Expr rhs);
  const ExprNode* node_ = nullptr;
};

inline Expr operator*(int64_t c, Expr e) { return e * c; }
inline Expr operator+(int64_t c, Expr e) { return e + c; }

// Storage of one node; lives as long as the ExprContext it was built in, or the process
// (core/expr_context.h).
struct ExprNode {
  ExprKind kind;
  uint32_t owner;  // the ExprContext's number; 0 for the process's table
  int64_t value;   // the constant, or the variable index
  Expr lhs, rhs;
  size_t hash;
};

// The accessors are inline: the simplifier calls them millions of times a second.
inline ExprKind Expr::kind() const { return node_->kind; }
inline bool Expr::isVariable() const {
  ExprKind k = kind();
  return k == ExprKind::Dim || k == ExprKind::RangeVar || k == ExprKind::RuntimeVar;
}
inline bool Expr::isBinary() const { return kind() >= ExprKind::Add; }
inline int64_t Expr::constantValue() const { return node_->value; }
inline unsigned Expr::variableIndex() const { return static_cast<unsigned>(node_->value); }
inline Expr Expr::lhs() const { return node_->lhs; }
inline Expr Expr::rhs() const { return node_->rhs; }

struct ExprHash {
  size_t operator()(Expr e) const { return e.hash(); }
};

}  // namespace idxmap
