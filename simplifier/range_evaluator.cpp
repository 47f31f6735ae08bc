#include "simplifier/range_evaluator.h"

namespace idxmap {

RangeEvaluator::RangeEvaluator(const IndexingMap& map, Use use) : map_(map) {
  if (use != Use::RangesAndConstraints) return;
  for (const Constraint& c : map.constraints) {
    Interval& known = constrainedRanges_.insert(c.expr, c.range);
    known = known.intersect(c.range);
    // `x mod m in [r, r]` says x = r (mod m).
    if (c.expr.kind() == ExprKind::Mod && c.range.isPoint()) {
      Congruence fact = Congruence::of(c.expr.rhs().constantValue(), c.range.lo);
      Congruence& knownFact = constrainedCongruences_.insert(c.expr.lhs(), fact);
      knownFact = knownFact.intersect(fact);
    }
  }
}

Interval RangeEvaluator::range(Expr e) {
  if (e.isConstant()) return Interval::point(e.constantValue());
  if (const Facts* cached = cache_.find(e); cached && cached->hasRange) return cached->range;
  Interval r = computeRange(e);
  if (const Interval* known = constrainedRanges_.find(e)) r = r.intersect(*known);
  // A contradiction (e.g. x mod 2 = 0 and x mod 2 = 1) means no value: the empty range.
  Congruence c = congruence(e);
  r = c.isContradiction() ? Interval{} : c.tighten(r);
  Facts& facts = cache_.insert(e, Facts{});  // congruence(e) left its entry there
  facts.range = r;
  facts.hasRange = true;
  return r;
}

Interval RangeEvaluator::computeRange(Expr e) {
  switch (e.kind()) {
    case ExprKind::Constant:
      return Interval::point(e.constantValue());
    case ExprKind::Dim:
    case ExprKind::RangeVar:
    case ExprKind::RuntimeVar: {
      const auto& vars = map_.variables(e.kind());
      return e.variableIndex() < vars.size() ? vars[e.variableIndex()].range
                                             : Interval::unbounded();
    }
    case ExprKind::Add:
      return range(e.lhs()) + range(e.rhs());
    case ExprKind::Mul:
      return range(e.lhs()) * e.rhs().constantValue();
    case ExprKind::FloorDiv:
      return range(e.lhs()).floorDiv(e.rhs().constantValue());
    case ExprKind::CeilDiv:
      return range(e.lhs()).ceilDiv(e.rhs().constantValue());
    case ExprKind::Mod:
      return range(e.lhs()).mod(e.rhs().constantValue());
    case ExprKind::Min:
      return range(e.lhs()).min(range(e.rhs()));
    case ExprKind::Max:
      return range(e.lhs()).max(range(e.rhs()));
  }
  return Interval::unbounded();
}

Congruence RangeEvaluator::congruence(Expr e) {
  if (const Facts* cached = cache_.find(e); cached && cached->hasCongruence)
    return cached->congruence;
  Congruence c = computeCongruence(e);
  if (const Congruence* known = constrainedCongruences_.find(e)) c = c.intersect(*known);
  Facts& facts = cache_.insert(e, Facts{});
  facts.congruence = c;
  facts.hasCongruence = true;
  return c;
}

Congruence RangeEvaluator::computeCongruence(Expr e) {
  switch (e.kind()) {
    case ExprKind::Constant:
      return Congruence::exactly(e.constantValue());
    case ExprKind::Add:
      return congruence(e.lhs()) + congruence(e.rhs());
    case ExprKind::Mul:
      return congruence(e.lhs()) * e.rhs().constantValue();
    case ExprKind::FloorDiv:
      return congruence(e.lhs()).floorDiv(e.rhs().constantValue());
    case ExprKind::Mod:
      return congruence(e.lhs()).mod(e.rhs().constantValue());
    default:
      return Congruence::unknown();
  }
}

bool usesPointDim(Expr e, const IndexingMap& map) {
  for (unsigned d = 0; d < map.dims.size(); ++d)
    if (map.dims[d].range.isPoint() && e.uses(ExprKind::Dim, d)) return true;
  return false;
}

}  // namespace idxmap
