// Proves that two indexing maps denote the same relation (DESIGN.md: the relation
// { (d, rt) -> results : domain }), with isl when it can, Z3 otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap {

enum class Verdict { Proven, Refuted, Unknown };

// An input point where the maps disagree: one is defined where the other is not, or they
// produce different results.
struct Counterexample {
  std::vector<int64_t> dims;
  std::vector<int64_t> runtimeVars;
  std::string explanation;  // e.g. "(d0 = 3): first gives (4), second gives (5)"
};

struct ProofResult {
  Verdict verdict = Verdict::Unknown;
  std::string method;  // "isl" or "z3" ("shape": the arities differ); empty when unknown
  std::optional<Counterexample> counterexample;  // when refuted
  std::string reason;                            // when unknown: why
};

struct EquivalenceOptions {
  unsigned z3TimeoutMs = 10000;
};

ProofResult checkEquivalent(const IndexingMap& a, const IndexingMap& b,
                            const EquivalenceOptions& options = {});

}  // namespace idxmap
