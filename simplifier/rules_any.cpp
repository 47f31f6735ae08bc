// Rules that apply to an expression of any kind.
#include "simplifier/rule.h"

namespace idxmap {

std::span<const RuleSpec> anyKindRules() {
  static constexpr RuleSpec kRules[] = {
      {"constant-range", "x", "lo(x)", "lo(x) == hi(x)"},
  };
  return kRules;
}

}  // namespace idxmap
