// A rule's right-hand side and condition under the bindings of a match: constants folded with
// the IR's semantics (floor division, normalized negative divisors) and checked arithmetic,
// templates built into expressions, conditions decided. Used by the matcher (rule_matcher).
#pragma once

#include <cstdint>

#include "simplifier/range_evaluator.h"
#include "simplifier/rule.h"
#include "simplifier/rule_matcher.h"

namespace idxmap {

// Thrown when a template cannot be built (an unbounded lo/hi, a division by zero, an
// overflow): the rule does not fire.
struct NotApplicable {};

// The number a constant-only pattern folds to.
int64_t fold(const Pattern& p, const Bindings& b, RangeEvaluator& ranges);
// The expression a template builds.
Expr instantiate(const Pattern& p, const Bindings& b, RangeEvaluator& ranges);
// Whether a rule's condition holds.
bool holds(const Condition& c, const Bindings& b, RangeEvaluator& ranges);

}  // namespace idxmap
