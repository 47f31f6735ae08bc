// Rules for `x mod c`. Divisors are positive constants (an Expr invariant).
#include "simplifier/rule.h"

namespace idxmap {

std::span<const RuleSpec> modRules() {
  static constexpr RuleSpec kRules[] = {
      {"mod-within-one-period", "x mod c0", "x - (lo(x) floordiv c0) * c0",
       "lo(x) floordiv c0 == hi(x) floordiv c0"},
      {"mod-drop-multiple-term", "(x * c1 + y) mod c0", "y mod c0", "c1 mod c0 == 0"},
      {"mod-reduce-constant", "(y + c1) mod c0", "(y + c1 mod c0) mod c0", "c1 mod c0 != c1"},
      // A coefficient beyond the modulus, as merged digits leave it: (d0 * 24 + d1 * 97) mod 96
      // -> (d0 * 24 + d1) mod 96. Negative ones stay: flipping negated digits reads them.
      {"mod-reduce-coefficient", "(x * c1 + y) mod c0", "(x * (c1 mod c0) + y) mod c0",
       "c1 > c0 && c1 mod c0 != 0"},
      {"mod-split-by-gcd", "(x * c1 + y) mod c0", "(x mod (c0 floordiv c1)) * c1 + y",
       "c1 > 1 && c0 mod c1 == 0 && lo(y) >= 0 && hi(y) < c1"},
      {"mod-of-mod", "(x mod c1) mod c0", "x mod c0", "c1 mod c0 == 0"},
      // A factor common to the whole dividend and the modulus: (d0 * 6 + 2) mod 4 ->
      // ((d0 * 3 + 1) mod 2) * 2.
      {"mod-common-factor", "(x * c1 + c2) mod c0",
       "((x * (c1 floordiv gcd(gcd(c1, c2), c0)) + c2 floordiv gcd(gcd(c1, c2), c0)) mod "
       "(c0 floordiv gcd(gcd(c1, c2), c0))) * gcd(gcd(c1, c2), c0)",
       "gcd(gcd(c1, c2), c0) > 1"},
  };
  return kRules;
}

}  // namespace idxmap
