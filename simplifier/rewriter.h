// Rewriter: applies the rule tables bottom-up to a fixed point, keeping sums canonical.
#pragma once

#include <unordered_map>

#include "simplifier/range_evaluator.h"

namespace idxmap {

class Rewriter {
 public:
  explicit Rewriter(RangeEvaluator& ranges) : ranges_(ranges) {}

  // An expression equal to `e` on the evaluator's domain, never larger (Expr::size).
  Expr simplify(Expr e);

 private:
  Expr rewrite(Expr e, int depth);
  Expr rebuildFromSimplifiedChildren(Expr e, int depth);

  RangeEvaluator& ranges_;
  std::unordered_map<Expr, Expr, ExprHash> memo_;
};

}  // namespace idxmap
