// Domain simplification: XLA's constraint loop, made exact.
#pragma once

#include "core/indexing_map.h"

namespace idxmap {

// Rewrites constraints into simpler equivalent ones, folds single-variable constraints into
// variable ranges, drops constraints that always hold, merges mod constraints, and marks
// the map KNOWN EMPTY when the domain is provably empty. The relation never changes.
void simplifyDomain(IndexingMap& map);

// Marks the map KNOWN EMPTY when isl proves its domain empty (a witness point skips isl).
void detectEmptyDomain(IndexingMap& map);

// Replaces a range variable s constrained by `s mod c in [r, r]` with `s * c + r`; returns
// whether it replaced any.
bool rescaleRangeVariables(IndexingMap& map);

// Removes range variables that no result uses and no constraint ties to a used variable.
void removeUnusedRangeVariables(IndexingMap& map);

}  // namespace idxmap
