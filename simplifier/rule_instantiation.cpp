#include "simplifier/rule_instantiation.h"

#include <algorithm>
#include <numeric>

#include "simplifier/linear_form.h"

namespace idxmap {
namespace {

// Everything fold does not answer at once.
int64_t foldCompound(const Pattern& p, const Bindings& b, RangeEvaluator& ranges) {
  switch (p.kind) {
    case Pattern::Kind::Low:
    case Pattern::Kind::High: {
      // Of a sum (hi(x - y)): canonical first, so that like terms cancel before interval
      // arithmetic sees them (d0 - (d0 + 1) is -1, not [lo - hi - 1, hi - lo - 1]).
      const Pattern& of = p.args[0];
      Interval r = ranges.range(of.kind == Pattern::Kind::Any
                                    ? b.exprs[of.index]
                                    : LinearForm::of(instantiate(of, b, ranges)).build());
      if (r.isEmpty() || !r.isBounded()) throw NotApplicable{};
      return p.kind == Pattern::Kind::Low ? r.lo : r.hi;
    }
    case Pattern::Kind::Gcd:
      return std::gcd(fold(p.args[0], b, ranges), fold(p.args[1], b, ranges));
    case Pattern::Kind::Sum: {
      int64_t sum = 0;
      for (const Pattern& s : p.args) sum = checkedAdd(sum, fold(s, b, ranges));
      return sum;
    }
    case Pattern::Kind::Op: {
      int64_t x = fold(p.args[0], b, ranges), y = fold(p.args[1], b, ranges);
      // Division by a negative constant, as the Expr constructors normalize it.
      auto positive = [&](int64_t& a, int64_t& d) {
        if (d == 0) throw NotApplicable{};
        if (d < 0) a = checkedNeg(a), d = checkedNeg(d);
      };
      switch (p.op) {
        case ExprKind::Add:
          return checkedAdd(x, y);
        case ExprKind::Mul:
          return checkedMul(x, y);
        case ExprKind::FloorDiv:
          positive(x, y);
          return floorDiv(x, y);
        case ExprKind::CeilDiv:
          positive(x, y);
          return ceilDiv(x, y);
        case ExprKind::Mod:
          if (y == 0) throw NotApplicable{};
          // Floored for either sign, as Expr::mod: x mod -c = -((-x) mod c).
          return y < 0 ? checkedNeg(floorMod(checkedNeg(x), checkedNeg(y))) : floorMod(x, y);
        case ExprKind::Min:
          return std::min(x, y);
        case ExprKind::Max:
          return std::max(x, y);
        default:
          throw NotApplicable{};
      }
    }
    default:
      throw NotApplicable{};
  }
}

bool hasDivision(Expr e) {
  if (e.kind() == ExprKind::FloorDiv || e.kind() == ExprKind::CeilDiv) return true;
  return e.isBinary() && (hasDivision(e.lhs()) || hasDivision(e.rhs()));
}

}  // namespace

// Most patterns folded are a bound constant or a literal: those skip the call to the general
// case.
int64_t fold(const Pattern& p, const Bindings& b, RangeEvaluator& ranges) {
  if (p.kind == Pattern::Kind::Constant) return b.constants[p.index];
  if (p.kind == Pattern::Kind::Literal) return p.value;
  return foldCompound(p, b, ranges);
}

Expr instantiate(const Pattern& p, const Bindings& b, RangeEvaluator& ranges) {
  if (p.constantOnly) return Expr::constant(fold(p, b, ranges));
  switch (p.kind) {
    case Pattern::Kind::Any:
      return b.exprs[p.index];
    case Pattern::Kind::Sum: {
      Expr sum = Expr::constant(0);
      for (const Pattern& s : p.args) sum = sum + instantiate(s, b, ranges);
      return sum;
    }
    case Pattern::Kind::Op:
      return Expr::binary(p.op, instantiate(p.args[0], b, ranges),
                          instantiate(p.args[1], b, ranges));
    default:
      throw NotApplicable{};
  }
}

bool holds(const Condition& c, const Bindings& b, RangeEvaluator& ranges) {
  if (c.kind == Condition::Kind::NoDiv) return !hasDivision(b.exprs[c.lhs.index]);
  if (!c.lhs.constantOnly || !c.rhs.constantOnly) throw NotApplicable{};
  int64_t x = fold(c.lhs, b, ranges), y = fold(c.rhs, b, ranges);
  switch (c.comparison) {
    case Comparison::Eq:
      return x == y;
    case Comparison::Ne:
      return x != y;
    case Comparison::Lt:
      return x < y;
    case Comparison::Le:
      return x <= y;
    case Comparison::Gt:
      return x > y;
    case Comparison::Ge:
      return x >= y;
  }
  return false;
}

}  // namespace idxmap
