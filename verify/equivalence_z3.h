// The Z3 half of proveEquivalent (verify/equivalence.h), used when isl gives up; exposed
// so tests can exercise it on maps isl would settle first.
#pragma once

#include "verify/equivalence.h"

namespace idxmap {

// Requires maps with the same number of dims, runtime variables and results.
ProofResult proveEquivalentWithZ3(const IndexingMap& a, const IndexingMap& b,
                                  const EquivalenceOptions& options);

}  // namespace idxmap
