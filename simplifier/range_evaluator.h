// RangeEvaluator: sound bounds and congruences of expressions over a map's domain.
//
// Every answer over-approximates: each value the expression takes on the domain lies in
// range(e) and satisfies congruence(e). Variable ranges always count; the map's
// constraints count only when asked (a constraint must not be used to simplify itself).
#pragma once

#include "core/indexing_map.h"
#include "simplifier/congruence.h"
#include "simplifier/expr_map.h"

namespace idxmap {

class RangeEvaluator {
 public:
  enum class Use { VariableRangesOnly, RangesAndConstraints };

  RangeEvaluator(const IndexingMap& map, Use use);

  Interval range(Expr e);
  const IndexingMap& map() const { return map_; }
  Congruence congruence(Expr e);

 private:
  Interval computeRange(Expr e);
  Congruence computeCongruence(Expr e);

  const IndexingMap& map_;
  // Facts from constraints, keyed by the constrained expression.
  ExprMap<Interval> constrainedRanges_;
  ExprMap<Congruence> constrainedCongruences_;
  // Both facts about one expression in one slot: range() needs the congruence of every
  // expression it bounds, so separate tables paid two lookups and two inserts.
  struct Facts {
    Interval range;
    Congruence congruence;
    bool hasRange = false;
    bool hasCongruence = false;
  };
  ExprMap<Facts> cache_;
};

// Whether `e` uses a dimension whose range is one point.
bool usesPointDim(Expr e, const IndexingMap& map);

}  // namespace idxmap
