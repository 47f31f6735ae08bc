// Rules for sums. Sums are canonical linear forms, so these rules only recombine
// mod/floordiv pairs; like terms and constants are already combined.
#include "simplifier/rule.h"

namespace idxmap {

std::span<const RuleSpec> sumRules() {
  static constexpr RuleSpec kRules[] = {
      {"sum-recombine-mod-div", "(x mod c0) * c1 + (x floordiv c0) * c2 + y", "x * c1 + y",
       "c2 == c0 * c1"},
      {"sum-sub-div-is-mod", "(x floordiv c0) * c2 + x * c1 + y", "(x mod c0) * c1 + y",
       "c2 == -(c0 * c1)"},
      {"sum-sub-mod-is-div", "(x mod c0) * c2 + x * c1 + y", "(x floordiv c0) * (c0 * c1) + y",
       "c2 == -c1"},
      // Undoing a split of x into digits: ((x floordiv c) mod m) * c + x mod c.
      {"sum-merge-mod-digits", "((x floordiv c0) mod c1) * c2 + (x mod c0) * c3 + y",
       "(x mod (c0 * c1)) * c3 + y", "c2 == c0 * c3"},
  };
  return kRules;
}

}  // namespace idxmap
