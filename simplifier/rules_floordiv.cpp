// Rules for `x floordiv c`. Divisors are positive constants (an Expr invariant).
#include "simplifier/rule.h"

namespace idxmap {

std::span<const RuleSpec> floorDivRules() {
  static constexpr RuleSpec kRules[] = {
      {"div-pull-multiple-term", "(x * c1 + y) floordiv c0", "x * (c1 floordiv c0) + y floordiv c0",
       "c1 mod c0 == 0"},
      {"div-pull-constant", "(y + c1) floordiv c0", "(y + c1 mod c0) floordiv c0 + c1 floordiv c0",
       "c1 mod c0 != c1"},
      // (x*6 + y) floordiv 9 -> (x*2) floordiv 3 when 0 <= y < 3: y cannot carry.
      {"div-drop-small-remainder", "(x * c1 + y) floordiv c0",
       "(x * (c1 floordiv gcd(c1, c0))) floordiv (c0 floordiv gcd(c1, c0))",
       "gcd(c1, c0) > 1 && lo(y) >= 0 && hi(y) < gcd(c1, c0)"},
      // A factor common to the whole dividend and the divisor: (s0 * 6 + 9) floordiv 18 ->
      // (s0 * 2 + 3) floordiv 6.
      {"div-common-factor", "(x * c1 + c2) floordiv c0",
       "(x * (c1 floordiv gcd(gcd(c1, c2), c0)) + c2 floordiv gcd(gcd(c1, c2), c0)) floordiv "
       "(c0 floordiv gcd(gcd(c1, c2), c0))",
       "gcd(gcd(c1, c2), c0) > 1"},
      {"div-of-div", "(x floordiv c1) floordiv c0", "x floordiv (c0 * c1)", "true"},
      {"div-of-mod", "(x mod c1) floordiv c0", "(x floordiv c0) mod (c1 floordiv c0)",
       "c1 mod c0 == 0"},
      // Folding one inner division; never two (XLA's DivSumDiv), which only grows the sum.
      {"div-fold-inner-div", "(x floordiv c1 + y) floordiv c0", "(x + y * c1) floordiv (c0 * c1)",
       "nodiv(y)"},
  };
  return kRules;
}

}  // namespace idxmap
