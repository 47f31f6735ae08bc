// What validation*.cpp share (private to codegen/validate/): the validator's state (the map,
// its variables as isl sees them, the box and the guarded domain) and the replay of a printed
// expression as C computes it.
#pragma once

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "codegen/kernel/helpers.h"
#include "codegen/kernel/isl_expressions.h"
#include "codegen/validate/validation.h"
#include "core/bridges/isl_bridge.h"

namespace idxmap::codegen {

inline Interval widthRange(CWidth width) {
  if (width == CWidth::k32)
    return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  return Interval::unbounded();
}

inline bool isCondition(COp op) {
  return op == COp::kLessEqual || op == COp::kGreaterEqual || op == COp::kLess ||
         op == COp::kEqual || op == COp::kAnd;
}

// The expression as C computes it at `values` (named as the validator's variables), in
// 128 bits so that a replay never overflows itself.
inline __int128 evaluateC(const CExpr& e, const std::vector<std::string>& names,
                          const std::vector<int64_t>& values) {
  auto arg = [&](size_t i) { return evaluateC(e->operands.at(i), names, values); };
  switch (e->op) {
    case COp::kLiteral:
      return e->value;
    case COp::kVariable:
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == e->name ||
            (names[i].rfind("rt", 0) == 0 && "v" + names[i].substr(2) == e->name))
          return values[i];
      throw Error("unknown variable " + e->name);
    case COp::kAdd:
      return arg(0) + arg(1);
    case COp::kSub:
      return arg(0) - arg(1);
    case COp::kMul:
      return arg(0) * arg(1);
    case COp::kNeg:
      return -arg(0);
    case COp::kDiv:
      return arg(0) / arg(1);
    case COp::kRem:
      return arg(0) % arg(1);
    case COp::kCast:
      return arg(0);
    case COp::kCall: {  // the helper's one definition (kernel/helpers.h)
      std::vector<__int128> args;
      for (size_t i = 0; i < e->operands.size(); ++i) args.push_back(arg(i));
      ExactHelperOps ops;
      return helperValue(ops, e->name, args);
    }
    case COp::kLessEqual:
      return arg(0) <= arg(1);
    case COp::kGreaterEqual:
      return arg(0) >= arg(1);
    case COp::kLess:
      return arg(0) < arg(1);
    case COp::kEqual:
      return arg(0) == arg(1);
    case COp::kAnd:
      return arg(0) && arg(1);
  }
  return 0;
}

inline std::string describe(__int128 v) {
  if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max())
    return std::to_string(static_cast<int64_t>(v));
  return v < 0 ? "a value below -2^63" : "a value above 2^63 - 1";
}

struct KernelValidator::State {
  IndexingMap map;
  std::vector<DeclaredVariable> declared;
  IslExpressions expressions;
  isl::set box, guarded;

  State(const IndexingMap& m, std::vector<DeclaredVariable> d)
      : map(m), declared(std::move(d)), expressions(m.dims.size(), m.runtimeVars.size()) {
    box = expressions.universe();
    size_t position = 0;
    for (const Variable& v : map.dims)
      box = box.intersect(expressions.inRange(position++, v.range));
    for (const Variable& v : map.runtimeVars)
      box = box.intersect(expressions.inRange(position++, v.range));
    guarded = box;
    for (const Constraint& c : map.constraints) {
      isl::set holds = expressions.valueIn(expressions.fromExpr(c.expr), c.range);
      if (usesOnlyDims(c.expr)) box = box.intersect(holds);
      guarded = guarded.intersect(holds);
    }
  }

  // The points of the map's domain where every constraint of `constraints` holds.
  isl::set satisfying(const std::vector<Constraint>& constraints) const {
    isl::set out = guarded;
    for (const Constraint& c : constraints)
      out = out.intersect(expressions.valueIn(expressions.fromExpr(c.expr), c.range));
    return out;
  }

  // A point of `set` as values of the variables; nullopt when it is empty.
  std::optional<std::vector<int64_t>> sample(const isl::set& set) const {
    if (isl_bridge::checked(isl_set_is_empty(set.get()))) return std::nullopt;
    isl::point point = isl_bridge::own(isl_set_sample_point(set.copy()));
    std::vector<int64_t> values;
    for (size_t i = 0; i < expressions.names().size(); ++i)
      values.push_back(isl_bridge::toInt64(isl_bridge::own(
          isl_point_get_coordinate_val(point.get(), isl_dim_set, static_cast<int>(i)))));
    return values;
  }

  std::string pointText(const std::vector<int64_t>& values) const {
    std::string out = "(";
    for (size_t i = 0; i < values.size(); ++i)
      out += (i ? ", " : "") + expressions.names()[i] + " = " + std::to_string(values[i]);
    return out + ")";
  }

  ProofResult refuted(const std::string& what, const std::vector<int64_t>& values) const {
    Counterexample counterexample;
    counterexample.dims.assign(values.begin(), values.begin() + static_cast<long>(map.dims.size()));
    counterexample.runtimeVars.assign(values.begin() + static_cast<long>(map.dims.size()),
                                      values.end());
    counterexample.explanation = what + " at " + pointText(values);
    return ProofResult::refuted("isl", counterexample);
  }

  // Every node of `e` stays in its width's range on `domain`; call arguments do not narrow.
  std::optional<ProofResult> checkWidths(const std::string& role, const CExpr& e,
                                         const isl::set& domain) const {
    for (const CExpr& operand : e->operands)
      if (auto failure = checkWidths(role, operand, domain)) return failure;
    if (e->op == COp::kCall)
      for (const CExpr& operand : e->operands)
        if (widthOf(operand) == CWidth::k64 && e->width == CWidth::k32)
          return ProofResult::refuted(
              "isl", role + ": `" + printCExpr(e) + "` passes an int64_t to an int32_t function");
    if (isCondition(e->op) || e->op == COp::kLiteral) return std::nullopt;
    CWidth width = widthOf(e);
    isl::pw_aff value = expressions.fromCExpr(e);
    isl::set inside = expressions.valueIn(value, widthRange(width));
    isl::set outside = isl_bridge::own(isl_set_subtract(domain.copy(), inside.release()));
    if (auto values = sample(outside)) {
      __int128 actual = evaluateC(e, expressions.names(), *values);
      if (actual >= widthRange(width).lo && actual <= widthRange(width).hi)
        return ProofResult::unknown(role + ": isl found a point where `" + printCExpr(e) +
                                    "` leaves " + typeName(width) + ", evaluation did not confirm");
      return refuted(role + ": `" + printCExpr(e) + "` is " + describe(actual) + ", outside " +
                         typeName(width),
                     *values);
    }
    return std::nullopt;
  }
};

}  // namespace idxmap::codegen
