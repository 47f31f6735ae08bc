#include <array>

#include "simplifier/rule.h"

namespace idxmap {

const std::vector<Rule>& allRules() {
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> out;
    for (auto table : {modRules(), floorDivRules(), ceilDivRules(), sumRules(), minMaxRules()})
      for (const RuleSpec& spec : table) out.push_back(parseRule(spec));
    return out;
  }();
  return rules;
}

const std::vector<const Rule*>& rulesFor(ExprKind kind) {
  static const auto byKind = [] {
    std::array<std::vector<const Rule*>, static_cast<size_t>(ExprKind::Max) + 1> table;
    for (const Rule& r : allRules()) table[static_cast<size_t>(r.root)].push_back(&r);
    return table;
  }();
  return byKind[static_cast<size_t>(kind)];
}

}  // namespace idxmap
