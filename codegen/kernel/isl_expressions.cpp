#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "codegen/kernel/isl_expressions.h"
#include "core/bridges/isl_bridge.h"

namespace idxmap::codegen {

using isl_bridge::own;
using isl_bridge::toIslVal;

IslExpressions::IslExpressions(size_t dims, size_t runtimeVars, std::vector<std::string> parameters)
    : parameters_(std::move(parameters)) {
  for (size_t i = 0; i < dims; ++i) names_.push_back("d" + std::to_string(i));
  for (size_t k = 0; k < runtimeVars; ++k) names_.push_back("rt" + std::to_string(k));
  isl_space* space =
      isl_space_set_alloc(islContext().get(), static_cast<unsigned>(parameters_.size()),
                          static_cast<unsigned>(names_.size()));
  for (size_t i = 0; i < parameters_.size(); ++i)
    space = isl_space_set_dim_name(space, isl_dim_param, static_cast<unsigned>(i),
                                   parameters_[i].c_str());
  for (size_t i = 0; i < names_.size(); ++i)
    space = isl_space_set_dim_name(space, isl_dim_set, static_cast<unsigned>(i), names_[i].c_str());
  space_ = own(space);
}

isl::pw_aff IslExpressions::parameter(size_t position) const {
  return own(isl_pw_aff_from_aff(isl_aff_var_on_domain(
      isl_local_space_from_space(space_.copy()), isl_dim_param, static_cast<unsigned>(position))));
}

size_t IslExpressions::position(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return i;
  // v<k>: runtime variable k's raw loaded value, the same quantity once it is in range.
  if (name.size() > 1 && name[0] == 'v') return position("rt" + name.substr(1));
  throw Error("`" + name + "` is not a variable of the kernel's domain");
}

isl::set IslExpressions::universe() const { return own(isl_set_universe(space_.copy())); }

isl::pw_aff IslExpressions::variable(size_t position) const {
  return own(isl_pw_aff_from_aff(isl_aff_var_on_domain(
      isl_local_space_from_space(space_.copy()), isl_dim_set, static_cast<unsigned>(position))));
}

isl::pw_aff IslExpressions::constant(int64_t value) const {
  return own(isl_pw_aff_from_aff(
      isl_aff_val_on_domain(isl_local_space_from_space(space_.copy()), toIslVal(value).release())));
}

isl::set IslExpressions::valueIn(const isl::pw_aff& value, Interval range) const {
  isl::set above = own(isl_pw_aff_ge_set(value.copy(), constant(range.lo).release()));
  isl::set below = own(isl_pw_aff_le_set(value.copy(), constant(range.hi).release()));
  return own(isl_set_intersect(above.release(), below.release()));
}

isl::set IslExpressions::inRange(size_t position, Interval range) const {
  return valueIn(variable(position), range);
}

isl::pw_aff IslExpressions::fromExpr(Expr expr) const {
  switch (expr.kind()) {
    case ExprKind::Constant:
      return constant(expr.constantValue());
    case ExprKind::Dim:
      return variable(position("d" + std::to_string(expr.variableIndex())));
    case ExprKind::RuntimeVar:
      return variable(position("rt" + std::to_string(expr.variableIndex())));
    case ExprKind::RangeVar:
      throw Error("range variables are not kernel variables");
    case ExprKind::Add:
      return own(isl_pw_aff_add(fromExpr(expr.lhs()).release(), fromExpr(expr.rhs()).release()));
    case ExprKind::Mul:
      return own(isl_pw_aff_scale_val(fromExpr(expr.lhs()).release(),
                                      toIslVal(expr.rhs().constantValue()).release()));
    case ExprKind::FloorDiv:
    case ExprKind::CeilDiv: {
      isl_pw_aff* quotient = isl_pw_aff_scale_down_val(
          fromExpr(expr.lhs()).release(), toIslVal(expr.rhs().constantValue()).release());
      return own(expr.kind() == ExprKind::FloorDiv ? isl_pw_aff_floor(quotient)
                                                   : isl_pw_aff_ceil(quotient));
    }
    case ExprKind::Mod:
      return own(isl_pw_aff_mod_val(fromExpr(expr.lhs()).release(),
                                    toIslVal(expr.rhs().constantValue()).release()));
    case ExprKind::Min:
      return own(isl_pw_aff_min(fromExpr(expr.lhs()).release(), fromExpr(expr.rhs()).release()));
    case ExprKind::Max:
      return own(isl_pw_aff_max(fromExpr(expr.lhs()).release(), fromExpr(expr.rhs()).release()));
  }
  throw Error("unknown expression kind");
}

isl::pw_aff IslExpressions::fromCExpr(const CExpr& expr) const {
  auto operand = [&](size_t i) { return fromCExpr(expr->operands.at(i)).release(); };
  auto positiveLiteral = [&](size_t i) {
    const CExpr& rhs = expr->operands.at(i);
    if (rhs->op != COp::kLiteral || rhs->value <= 0)
      throw Error("`" + printCExpr(expr) + "`: the divisor is not a positive literal");
    return rhs->value;
  };
  switch (expr->op) {
    case COp::kLiteral:
      return constant(expr->value);
    case COp::kVariable:
      for (size_t i = 0; i < parameters_.size(); ++i)
        if (parameters_[i] == expr->name) return parameter(i);
      return variable(position(expr->name));
    case COp::kAdd:
      return own(isl_pw_aff_add(operand(0), operand(1)));
    case COp::kSub:
      return own(isl_pw_aff_sub(operand(0), operand(1)));
    case COp::kNeg:
      return own(isl_pw_aff_neg(operand(0)));
    case COp::kMul: {
      const CExpr& rhs = expr->operands.at(1);
      if (rhs->op != COp::kLiteral) throw Error("`" + printCExpr(expr) + "` is not affine");
      return own(isl_pw_aff_scale_val(operand(0), toIslVal(rhs->value).release()));
    }
    case COp::kDiv:
      return own(isl_pw_aff_tdiv_q(operand(0), constant(positiveLiteral(1)).release()));
    case COp::kRem:
      return own(isl_pw_aff_tdiv_r(operand(0), constant(positiveLiteral(1)).release()));
    case COp::kCast:
      return fromCExpr(expr->operands.at(0));
    case COp::kCall: {
      const std::string& f = expr->name;
      if (f == "idxmap_min" || f == "idxmap_max") {
        isl_pw_aff *a = operand(0), *b = operand(1);
        return own(f == "idxmap_min" ? isl_pw_aff_min(a, b) : isl_pw_aff_max(a, b));
      }
      if (f == "idxmap_clamp") {
        // The prelude's `v < lo ? lo : (hi < v ? hi : v)` is min(max(v, lo), hi) when lo <= hi;
        // the kernels clamp into a variable's range, literals in order.
        const CExpr &lo = expr->operands.at(1), &hi = expr->operands.at(2);
        if (lo->op != COp::kLiteral || hi->op != COp::kLiteral || lo->value > hi->value)
          throw Error("`" + printCExpr(expr) + "`: the bounds are not literals in order");
        return own(isl_pw_aff_min(isl_pw_aff_max(operand(0), operand(1)), operand(2)));
      }
      isl_val* divisor = toIslVal(positiveLiteral(1)).release();
      if (f == "idxmap_floordiv")
        return own(isl_pw_aff_floor(isl_pw_aff_scale_down_val(operand(0), divisor)));
      if (f == "idxmap_ceildiv")
        return own(isl_pw_aff_ceil(isl_pw_aff_scale_down_val(operand(0), divisor)));
      if (f == "idxmap_floormod") return own(isl_pw_aff_mod_val(operand(0), divisor));
      isl_val_free(divisor);
      throw Error("`" + f + "` is not an index function of the prelude");
    }
    default:
      throw Error("`" + printCExpr(expr) + "` is a condition, not a value");
  }
}

isl::set IslExpressions::fromCondition(const CExpr& expr) const {
  if (expr->op == COp::kAnd)
    return own(isl_set_intersect(fromCondition(expr->operands[0]).release(),
                                 fromCondition(expr->operands[1]).release()));
  isl_pw_aff *a = fromCExpr(expr->operands.at(0)).release(),
             *b = fromCExpr(expr->operands.at(1)).release();
  switch (expr->op) {
    case COp::kLessEqual:
      return own(isl_pw_aff_le_set(a, b));
    case COp::kGreaterEqual:
      return own(isl_pw_aff_ge_set(a, b));
    case COp::kLess:
      return own(isl_pw_aff_lt_set(a, b));
    case COp::kEqual:
      return own(isl_pw_aff_eq_set(a, b));
    default:
      isl_pw_aff_free(a);
      isl_pw_aff_free(b);
      throw Error("`" + printCExpr(expr) + "` is not a condition");
  }
}

}  // namespace idxmap::codegen
