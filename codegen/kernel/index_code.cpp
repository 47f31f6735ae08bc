#include "codegen/kernel/index_code.h"

#include <algorithm>
#include <functional>

#include "core/text.h"
#include "simplifier/range_evaluator.h"
#include "simplifier/simplify.h"
#include "verify/equivalence.h"

namespace idxmap::codegen {

IndexLowering::IndexLowering(const IndexingMap& map, CWidth width, std::string runtimePrefix,
                             std::optional<CWidth> runtimeWidth)
    : map_(map),
      width_(width),
      runtimePrefix_(std::move(runtimePrefix)),
      runtimeWidth_(runtimeWidth.value_or(width)) {}

std::vector<DeclaredVariable> IndexLowering::declared() const {
  std::vector<DeclaredVariable> out;
  for (size_t i = 0; i < map_.dims.size(); ++i) out.push_back({"d" + std::to_string(i), width_});
  for (size_t k = 0; k < map_.runtimeVars.size(); ++k)
    out.push_back({runtimePrefix_ + std::to_string(k), runtimeWidth_});
  return out;
}

void IndexLowering::record(std::string statement) {
  LoweringFact fact{std::move(statement), "interval"};
  if (std::find(facts_.begin(), facts_.end(), fact) == facts_.end()) facts_.push_back(fact);
}

CExpr IndexLowering::lowerDivision(Expr expr) {
  Expr dividend = expr.lhs();
  int64_t divisor = expr.rhs().constantValue();
  CExpr lhs = lower(dividend), rhs = literal(divisor);
  const char* helper = expr.kind() == ExprKind::FloorDiv ? "idxmap_floordiv"
                       : expr.kind() == ExprKind::Mod    ? "idxmap_floormod"
                                                         : "idxmap_ceildiv";
  if (expr.kind() != ExprKind::CeilDiv) {
    // Interval bounds over the variables' ranges alone: a kernel evaluates the expression at
    // every point of the loop nest, before any constraint could narrow it.
    RangeEvaluator ranges(map_, RangeEvaluator::Use::VariableRangesOnly);
    if (ranges.range(dividend).lo >= 0) {
      record(printExpr(dividend, &map_) + " >= 0 -> C '/' and '%' are floor division here");
      return binary(expr.kind() == ExprKind::FloorDiv ? COp::kDiv : COp::kRem, lhs, rhs);
    }
  }
  return call(helper, width_, {lhs, rhs});
}

// A sum is printed flat, left to right, constant last, and terms with a negative factor
// subtracted: `d0 * 12 + d1 * 6 - rt0 + 1`, not `d0 * 12 + (d1 * 6 + (rt0 * -1 + 1))`.
// Reassociating changes the intermediate sums; validation checks each one's width.
CExpr IndexLowering::lowerSum(Expr expr) {
  std::vector<Expr> terms;
  std::function<void(Expr)> collect = [&](Expr e) {
    if (e.kind() != ExprKind::Add) return terms.push_back(e);
    collect(e.lhs());
    collect(e.rhs());
  };
  collect(expr);
  std::stable_partition(terms.begin(), terms.end(), [](Expr e) { return !e.isConstant(); });
  CExpr sum;
  for (Expr term : terms) {
    int64_t factor = term.isConstant()              ? term.constantValue()
                     : term.kind() == ExprKind::Mul ? term.rhs().constantValue()
                                                    : 1;
    bool subtract = factor < 0 && factor != INT64_MIN;
    CExpr magnitude;
    if (!subtract)
      magnitude = lower(term);
    else if (term.isConstant())
      magnitude = literal(-factor);
    else if (factor == -1)
      magnitude = lower(term.lhs());
    else
      magnitude = binary(COp::kMul, lower(term.lhs()), literal(-factor));
    if (!sum)
      sum = subtract ? negate(magnitude) : magnitude;
    else
      sum = binary(subtract ? COp::kSub : COp::kAdd, sum, magnitude);
  }
  return sum;
}

CExpr IndexLowering::lower(Expr expr) {
  switch (expr.kind()) {
    case ExprKind::Constant:
      return literal(expr.constantValue());
    case ExprKind::Dim:
      return variable("d" + std::to_string(expr.variableIndex()), width_);
    case ExprKind::RuntimeVar:
      return variable(runtimePrefix_ + std::to_string(expr.variableIndex()), runtimeWidth_);
    case ExprKind::RangeVar:
      throw Error("a kernel expression may not use range variable s" +
                  std::to_string(expr.variableIndex()));
    case ExprKind::Add:
      return lowerSum(expr);
    case ExprKind::Mul:
      if (expr.rhs().isConstant(-1)) return negate(lower(expr.lhs()));
      return binary(COp::kMul, lower(expr.lhs()), lower(expr.rhs()));
    case ExprKind::FloorDiv:
    case ExprKind::CeilDiv:
    case ExprKind::Mod:
      return lowerDivision(expr);
    case ExprKind::Min:
    case ExprKind::Max:
      return call(expr.kind() == ExprKind::Min ? "idxmap_min" : "idxmap_max", width_,
                  {lower(expr.lhs()), lower(expr.rhs())});
  }
  throw Error("unknown expression kind");
}

Expr rowMajorOffset(const IndexingMap& map, const std::vector<int64_t>& shape) {
  Expr offset = Expr::constant(0);
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    offset = map.results.at(k) * stride + offset;
    stride = checkedMul(stride, std::max<int64_t>(shape[k], 1));
  }
  return provenSimplified(offset, map);
}

Expr provenSimplified(const Expr& raw, const IndexingMap& context) {
  return requireSameValue(raw, simplifyExpr(raw, context), context);
}

Expr requireSameValue(const Expr& raw, const Expr& simplified, const IndexingMap& context) {
  if (simplified == raw) return simplified;  // nothing rewritten
  // Both as maps whose results also carry the range variables, so that equal relations mean
  // equal values at every point, not only the same set of values.
  auto withResult = [&](const Expr& result) {
    IndexingMap map = context;
    map.results = {result};
    for (size_t s = 0; s < context.rangeVars.size(); ++s)
      map.results.push_back(Expr::rangeVar(static_cast<unsigned>(s)));
    return map;
  };
  ProofResult proof = proveEquivalent(withResult(raw), withResult(simplified));
  if (!proof.isProven())
    throw Error("the simplifier rewrote " + printExpr(raw, &context) + " to " +
                printExpr(simplified, &context) + ", not proven the same value (" +
                (proof.isRefuted() ? "refuted by " + proof.method : proof.reason) +
                "): no kernel is written");
  return simplified;
}

}  // namespace idxmap::codegen
