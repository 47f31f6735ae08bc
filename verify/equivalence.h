// Proves that two indexing maps denote the same relation (DESIGN.md: the relation
// { (d, rt) -> results : domain }), with isl when it can, Z3 otherwise.
#pragma once

#include <cstdint>

#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap {

struct EquivalenceOptions {
  unsigned z3TimeoutMs = 10000;
};

ProofResult proveEquivalent(const IndexingMap& a, const IndexingMap& b,
                            const EquivalenceOptions& options = {});

}  // namespace idxmap
