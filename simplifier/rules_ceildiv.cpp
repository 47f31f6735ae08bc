// Rules for `x ceildiv c`. Divisors are positive constants (an Expr invariant).
#include "simplifier/rule.h"

namespace idxmap {

std::span<const RuleSpec> ceilDivRules() {
  static constexpr RuleSpec kRules[] = {
      {"ceildiv-pull-multiple-term", "(x * c1 + y) ceildiv c0",
       "x * (c1 floordiv c0) + y ceildiv c0", "c1 mod c0 == 0"},
      {"ceildiv-pull-constant", "(y + c1) ceildiv c0",
       "(y + c1 mod c0) ceildiv c0 + c1 floordiv c0", "c1 mod c0 != c1"},
  };
  return kRules;
}

}  // namespace idxmap
