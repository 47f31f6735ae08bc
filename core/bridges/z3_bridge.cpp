// Expressions as Z3 terms. Integer terms are exact; bit-vector terms are the arithmetic of
// emitted code (64-bit two's complement), with a side formula saying when it is exact.
#include "core/bridges/z3_bridge.h"

#include <unordered_map>

namespace idxmap {

Z3Variables makeZ3Variables(z3::context& ctx, const IndexingMap& map, const std::string& prefix,
                            bool bitVector) {
  Z3Variables vars;
  auto make = [&](ExprKind kind, std::vector<z3::expr>& into) {
    for (unsigned i = 0; i < map.variables(kind).size(); ++i) {
      std::string name = prefix + defaultVariableName(kind, i);
      into.push_back(bitVector ? ctx.bv_const(name.c_str(), 64) : ctx.int_const(name.c_str()));
    }
  };
  make(ExprKind::Dim, vars.dims);
  make(ExprKind::RangeVar, vars.rangeVars);
  make(ExprKind::RuntimeVar, vars.runtimeVars);
  return vars;
}

namespace {

const z3::expr& variable(Expr e, const Z3Variables& vars) {
  const std::vector<z3::expr>& from = e.kind() == ExprKind::Dim        ? vars.dims
                                      : e.kind() == ExprKind::RangeVar ? vars.rangeVars
                                                                       : vars.runtimeVars;
  if (e.variableIndex() >= from.size())
    throw Error("z3 bridge: no Z3 variable for " +
                defaultVariableName(e.kind(), e.variableIndex()));
  return from[e.variableIndex()];
}

// Shared subtrees are translated once (Exprs are hash-consed, so the cache keys are exact).
class IntegerTranslator {
 public:
  IntegerTranslator(const Z3Variables& vars, z3::context& ctx) : vars_(vars), ctx_(ctx) {}

  z3::expr translate(Expr e) {
    auto found = memo_.find(e);
    if (found != memo_.end()) return found->second;
    z3::expr result = convert(e);
    memo_.emplace(e, result);
    return result;
  }

 private:
  z3::expr convert(Expr e) {
    if (e.isConstant()) return ctx_.int_val(e.constantValue());
    if (e.isVariable()) return variable(e, vars_);
    z3::expr a = translate(e.lhs());
    z3::expr b = translate(e.rhs());
    switch (e.kind()) {
      case ExprKind::Add:
        return a + b;
      case ExprKind::Mul:
        return a * b;
      // Z3's Int div and mod are Euclidean: for the positive divisors the IR allows, they
      // round toward -inf and give a remainder in [0, c), as floordiv and mod do.
      case ExprKind::FloorDiv:
        return a / b;
      case ExprKind::CeilDiv:
        return -((-a) / b);
      case ExprKind::Mod:
        return z3::mod(a, b);
      case ExprKind::Min:
        return z3::ite(a <= b, a, b);
      case ExprKind::Max:
        return z3::ite(a >= b, a, b);
      default:
        throw Error("z3 bridge: unexpected expression kind");
    }
  }

  const Z3Variables& vars_;
  z3::context& ctx_;
  std::unordered_map<Expr, z3::expr, ExprHash> memo_;
};

class BitVectorTranslator {
 public:
  BitVectorTranslator(const Z3Variables& vars, z3::context& ctx)
      : vars_(vars), ctx_(ctx), noOverflow_(ctx.bool_val(true)) {}

  z3::expr translate(Expr e) {
    auto found = memo_.find(e);
    if (found != memo_.end()) return found->second;
    z3::expr result = convert(e);
    memo_.emplace(e, result);
    return result;
  }
  const z3::expr& noOverflow() const { return noOverflow_; }

 private:
  z3::expr convert(Expr e) {
    if (e.isConstant()) return ctx_.bv_val(e.constantValue(), 64);
    if (e.isVariable()) return variable(e, vars_);
    z3::expr a = translate(e.lhs());
    z3::expr b = translate(e.rhs());
    z3::expr zero = ctx_.bv_val(0, 64);
    switch (e.kind()) {
      case ExprKind::Add:
        require(fitsIn64Bits(z3::sext(a, 64) + z3::sext(b, 64)));
        return a + b;
      case ExprKind::Mul:
        require(fitsIn64Bits(z3::sext(a, 64) * z3::sext(b, 64)));
        return a * b;
      // bvsdiv truncates toward zero and bvsrem takes the dividend's sign; with a positive
      // divisor, step the quotient down (floor) or up (ceil) when the remainder is not 0.
      // The step cannot overflow: |a / b| <= |a| / 2 for b >= 2 (b = 1 is folded away).
      case ExprKind::FloorDiv: {
        z3::expr q = a / b, r = z3::srem(a, b);
        return z3::ite(r != zero && a < zero, q - ctx_.bv_val(1, 64), q);
      }
      case ExprKind::CeilDiv: {
        z3::expr q = a / b, r = z3::srem(a, b);
        return z3::ite(r != zero && a > zero, q + ctx_.bv_val(1, 64), q);
      }
      // bvsmod takes the divisor's sign: in [0, b) for b > 0, the floor remainder.
      case ExprKind::Mod:
        return z3::smod(a, b);
      case ExprKind::Min:
        return z3::ite(a <= b, a, b);  // signed comparisons
      case ExprKind::Max:
        return z3::ite(a >= b, a, b);
      default:
        throw Error("z3 bridge: unexpected expression kind");
    }
  }

  void require(const z3::expr& condition) { noOverflow_ = noOverflow_ && condition; }

  // The exact 128-bit result of a 64-bit operation fits in 64 bits. (Z3 4.8's
  // bvmul_no_overflow / bvmul_no_underflow misjudge signed operands of mixed sign, e.g.
  // 5 * -1, so the check is spelled out.)
  static z3::expr fitsIn64Bits(const z3::expr& wide) {
    return wide == z3::sext(wide.extract(63, 0), 64);
  }

  const Z3Variables& vars_;
  z3::context& ctx_;
  z3::expr noOverflow_;
  std::unordered_map<Expr, z3::expr, ExprHash> memo_;
};

}  // namespace

z3::expr toZ3(Expr e, const Z3Variables& vars, z3::context& ctx) {
  return IntegerTranslator(vars, ctx).translate(e);
}

z3::expr toZ3BitVector(Expr e, const Z3Variables& vars, z3::context& ctx, z3::expr& noOverflow) {
  BitVectorTranslator translator(vars, ctx);
  z3::expr result = translator.translate(e);
  noOverflow = translator.noOverflow().simplify();
  return result;
}

z3::expr domainToZ3(const IndexingMap& map, const Z3Variables& vars, z3::context& ctx) {
  if (map.knownEmpty) return ctx.bool_val(false);
  z3::expr all = ctx.bool_val(true);
  auto within = [&](const z3::expr& value, const Interval& range) {
    if (range.lo != Interval::kNegInf) all = all && value >= ctx.int_val(range.lo);
    if (range.hi != Interval::kPosInf) all = all && value <= ctx.int_val(range.hi);
  };
  for (size_t i = 0; i < map.dims.size(); ++i) within(vars.dims.at(i), map.dims[i].range);
  for (size_t i = 0; i < map.rangeVars.size(); ++i)
    within(vars.rangeVars.at(i), map.rangeVars[i].range);
  for (size_t i = 0; i < map.runtimeVars.size(); ++i)
    within(vars.runtimeVars.at(i), map.runtimeVars[i].range);
  IntegerTranslator translator(vars, ctx);
  for (const Constraint& c : map.constraints) within(translator.translate(c.expr), c.range);
  return all;
}

}  // namespace idxmap
