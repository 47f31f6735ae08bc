#include "core/expr.h"

#include <array>

#include "core/expr_storage_internal.h"

namespace idxmap {
Expr Expr::unique(ExprKind kind, int64_t value, Expr lhs, Expr rhs) {
  return Expr(expr_storage::intern({kind, value, lhs, rhs}));
}

Expr Expr::constant(int64_t value) {
  // Small constants are requested constantly (coefficients, offsets, divisors): keep them in
  // a table built once, so they skip the uniquer's lock and hash lookup.
  constexpr int64_t kCached = 1024;
  static const auto* cache = [] {
    auto* table = new std::array<Expr, 2 * kCached + 1>();
    for (int64_t v = -kCached; v <= kCached; ++v)
      (*table)[v + kCached] = Expr(expr_storage::internShared({ExprKind::Constant, v, {}, {}}));
    return table;
  }();
  if (value >= -kCached && value <= kCached) return (*cache)[value + kCached];
  return unique(ExprKind::Constant, value, {}, {});
}
Expr Expr::dim(unsigned index) { return unique(ExprKind::Dim, index, {}, {}); }
Expr Expr::rangeVar(unsigned index) { return unique(ExprKind::RangeVar, index, {}, {}); }
Expr Expr::runtimeVar(unsigned index) { return unique(ExprKind::RuntimeVar, index, {}, {}); }

Expr Expr::variable(ExprKind kind, unsigned index) {
  if (kind != ExprKind::Dim && kind != ExprKind::RangeVar && kind != ExprKind::RuntimeVar)
    throw ExprError("not a variable kind");
  return unique(kind, index, {}, {});
}

Expr Expr::operator+(Expr o) const {
  if (isConstant() && o.isConstant())
    return constant(checkedAdd(constantValue(), o.constantValue()));
  if (isConstant()) return o + *this;  // constants go on the right
  if (o.isConstant(0)) return *this;
  // Keep a single trailing constant: (x + c1) + c2 -> x + (c1 + c2).
  if (o.isConstant() && kind() == ExprKind::Add && rhs().isConstant())
    return lhs() + checkedAdd(rhs().constantValue(), o.constantValue());
  return unique(ExprKind::Add, 0, *this, o);
}

Expr Expr::operator*(Expr o) const {
  if (isConstant() && !o.isConstant()) return o * *this;
  if (!o.isConstant()) throw ExprError("non-affine product: one factor must be a constant");
  int64_t c = o.constantValue();
  if (isConstant()) return constant(checkedMul(constantValue(), c));
  if (c == 0) return constant(0);
  if (c == 1) return *this;
  if (kind() == ExprKind::Mul) return lhs() * checkedMul(rhs().constantValue(), c);
  return unique(ExprKind::Mul, 0, *this, o);
}

namespace {
int64_t divisorValue(Expr divisor, const char* op) {
  if (!divisor.isConstant())
    throw ExprError(std::string("non-constant ") + op + ": the right operand must be a constant");
  if (divisor.constantValue() == 0) throw ExprError(std::string(op) + " by zero");
  return divisor.constantValue();
}
}  // namespace

Expr Expr::floorDiv(Expr divisor) const {
  int64_t d = divisorValue(divisor, "division");
  if (d < 0) return (-*this).floorDiv(checkedNeg(d));  // floor(x / -c) = floor(-x / c)
  if (d == 1) return *this;
  if (isConstant()) return constant(idxmap::floorDiv(constantValue(), d));
  return unique(ExprKind::FloorDiv, 0, *this, divisor);
}

Expr Expr::ceilDiv(Expr divisor) const {
  int64_t d = divisorValue(divisor, "division");
  if (d < 0) return -floorDiv(checkedNeg(d));  // ceil(x / -c) = -floor(x / c)
  if (d == 1) return *this;
  if (isConstant()) return constant(idxmap::ceilDiv(constantValue(), d));
  return unique(ExprKind::CeilDiv, 0, *this, divisor);
}

Expr Expr::mod(Expr modulus) const {
  int64_t m = divisorValue(modulus, "modulo");
  // Floored, as floordiv: x mod -c = x - (-c) * floor(x / -c) = -((-x) mod c), in (-c, 0].
  if (m < 0) return -((-*this).mod(checkedNeg(m)));
  if (m == 1) return constant(0);
  if (isConstant()) return constant(floorMod(constantValue(), m));
  return unique(ExprKind::Mod, 0, *this, modulus);
}

Expr Expr::min(Expr a, Expr b) {
  if (a == b) return a;
  if (a.isConstant() && b.isConstant())
    return constant(std::min(a.constantValue(), b.constantValue()));
  return unique(ExprKind::Min, 0, a, b);
}

Expr Expr::max(Expr a, Expr b) {
  if (a == b) return a;
  if (a.isConstant() && b.isConstant())
    return constant(std::max(a.constantValue(), b.constantValue()));
  return unique(ExprKind::Max, 0, a, b);
}

Expr Expr::binary(ExprKind kind, Expr lhs, Expr rhs) {
  switch (kind) {
    case ExprKind::Add:
      return lhs + rhs;
    case ExprKind::Mul:
      return lhs * rhs;
    case ExprKind::FloorDiv:
      return lhs.floorDiv(rhs);
    case ExprKind::CeilDiv:
      return lhs.ceilDiv(rhs);
    case ExprKind::Mod:
      return lhs.mod(rhs);
    case ExprKind::Min:
      return min(lhs, rhs);
    case ExprKind::Max:
      return max(lhs, rhs);
    default:
      throw ExprError("not a binary expression kind");
  }
}

int Expr::size() const {
  switch (kind()) {
    case ExprKind::Add:
    case ExprKind::Min:
    case ExprKind::Max:
      return 1 + lhs().size() + rhs().size();
    case ExprKind::Mul:
    case ExprKind::FloorDiv:
    case ExprKind::CeilDiv:
    case ExprKind::Mod:
      return 1 + lhs().size();
    default:
      return 1;
  }
}

bool Expr::uses(ExprKind kind, unsigned index) const {
  if (isVariable()) return this->kind() == kind && variableIndex() == index;
  if (!isBinary()) return false;
  return lhs().uses(kind, index) || rhs().uses(kind, index);
}

void Expr::walk(const std::function<void(Expr)>& visit) const {
  visit(*this);
  if (isBinary()) {
    lhs().walk(visit);
    rhs().walk(visit);
  }
}

Expr Expr::replaceVariables(std::span<const Expr> dims, std::span<const Expr> rangeVars,
                            std::span<const Expr> runtimeVars) const {
  auto pick = [&](std::span<const Expr> from) {
    unsigned i = variableIndex();
    return i < from.size() && !from[i].isNull() ? from[i] : *this;
  };
  switch (kind()) {
    case ExprKind::Constant:
      return *this;
    case ExprKind::Dim:
      return pick(dims);
    case ExprKind::RangeVar:
      return pick(rangeVars);
    case ExprKind::RuntimeVar:
      return pick(runtimeVars);
    default:
      return binary(kind(), lhs().replaceVariables(dims, rangeVars, runtimeVars),
                    rhs().replaceVariables(dims, rangeVars, runtimeVars));
  }
}

int64_t Expr::evaluate(std::span<const int64_t> dims, std::span<const int64_t> rangeVars,
                       std::span<const int64_t> runtimeVars) const {
  auto value = [&](std::span<const int64_t> from) {
    if (variableIndex() >= from.size()) throw ExprError("no value for a variable");
    return from[variableIndex()];
  };
  switch (kind()) {
    case ExprKind::Constant:
      return constantValue();
    case ExprKind::Dim:
      return value(dims);
    case ExprKind::RangeVar:
      return value(rangeVars);
    case ExprKind::RuntimeVar:
      return value(runtimeVars);
    default:
      break;
  }
  int64_t a = lhs().evaluate(dims, rangeVars, runtimeVars);
  int64_t b = rhs().evaluate(dims, rangeVars, runtimeVars);
  switch (kind()) {
    case ExprKind::Add:
      return checkedAdd(a, b);
    case ExprKind::Mul:
      return checkedMul(a, b);
    case ExprKind::FloorDiv:
      return idxmap::floorDiv(a, b);
    case ExprKind::CeilDiv:
      return idxmap::ceilDiv(a, b);
    case ExprKind::Mod:
      return floorMod(a, b);
    case ExprKind::Min:
      return std::min(a, b);
    case ExprKind::Max:
      return std::max(a, b);
    default:
      throw ExprError("unreachable expression kind");
  }
}

}  // namespace idxmap
