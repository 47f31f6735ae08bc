// RangeEvaluator: sound bounds and congruences of expressions over a map's domain.
//
// Every answer over-approximates: each value the expression takes on the domain lies in
// range(e) and satisfies congruence(e). Variable ranges always count; the map's
// constraints count only when asked (a constraint must not be used to simplify itself).
#pragma once

#include <unordered_map>

#include "core/indexing_map.h"
#include "simplifier/congruence.h"

namespace idxmap {

class RangeEvaluator {
 public:
  enum class Use { VariableRangesOnly, RangesAndConstraints };

  RangeEvaluator(const IndexingMap& map, Use use);

  Interval range(Expr e);
  Congruence congruence(Expr e);

 private:
  Interval computeRange(Expr e);
  Congruence computeCongruence(Expr e);

  const IndexingMap& map_;
  // Facts from constraints, keyed by the constrained expression.
  std::unordered_map<Expr, Interval, ExprHash> constrainedRanges_;
  std::unordered_map<Expr, Congruence, ExprHash> constrainedCongruences_;
  std::unordered_map<Expr, Interval, ExprHash> rangeCache_;
  std::unordered_map<Expr, Congruence, ExprHash> congruenceCache_;
};

}  // namespace idxmap
