// Rules for min and max (both commutative: patterns match either operand order).
#include "simplifier/rule.h"

namespace idxmap {

std::span<const RuleSpec> minMaxRules() {
  static constexpr RuleSpec kRules[] = {
      {"min-decided-by-ranges", "min(x, y)", "x", "hi(x) <= lo(y)"},
      {"max-decided-by-ranges", "max(x, y)", "x", "lo(x) >= hi(y)"},
      // The difference has one sign over the domain: min(d0, d0 + 1) -> d0.
      {"min-decided-by-difference", "min(x, y)", "x", "hi(x - y) <= 0"},
      {"max-decided-by-difference", "max(x, y)", "x", "lo(x - y) >= 0"},
      {"min-of-offsets", "min(x, x + c0)", "x + c0", "c0 <= 0"},
      {"max-of-offsets", "max(x, x + c0)", "x + c0", "c0 >= 0"},
  };
  return kRules;
}

}  // namespace idxmap
