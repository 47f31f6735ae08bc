// Rewriter: applies the rule tables bottom-up to a fixed point, keeping sums canonical.
#pragma once

#include "simplifier/expr_map.h"
#include "simplifier/linear_form.h"
#include "simplifier/range_evaluator.h"
#include "simplifier/simplify.h"

namespace idxmap {

// What the rewriter minimizes: nodes (Expr::size), with floordiv, ceildiv, mod, min and max
// weighing three, so `d0 - 42` beats `d0 mod 42` while a distributed sum does not beat its
// factored form.
int simplificationCost(Expr e);

class Rewriter {
 public:
  explicit Rewriter(RangeEvaluator& ranges, PointDims pointDims = PointDims::kReplace)
      : ranges_(ranges), pointDims_(pointDims) {}

  // An expression equal to `e` on the evaluator's domain, never costlier.
  Expr simplify(Expr e);

 private:
  Expr rewrite(Expr e, int depth);
  // The constant `e` equals on the domain, when its range is one point; else the null Expr.
  Expr pointValue(Expr e);
  Expr rebuildFromSimplifiedChildren(Expr e, int depth);
  Expr sumOfDigits(const LinearForm& form, int depth);

  RangeEvaluator& ranges_;
  PointDims pointDims_;
  ExprMap<Expr> memo_;
};

}  // namespace idxmap
