// Matching rules against expressions and instantiating their right-hand sides.
#pragma once

#include <array>

#include "simplifier/range_evaluator.h"
#include "simplifier/rule.h"

namespace idxmap {

struct Bindings {
  std::array<Expr, 3> exprs;  // x, y, z; null while unbound
  std::array<int64_t, 4> constants{};
  unsigned boundConstants = 0;  // bit i: ci is bound
};

// The rewritten expression when `rule` matches `e` at its root and its condition holds;
// the null Expr otherwise. A rule whose right-hand side would overflow does not fire.
Expr applyRule(const Rule& rule, Expr e, RangeEvaluator& ranges);

}  // namespace idxmap
