// Whether two maps disagree at one input point, decided exactly: by enumerating the range
// variables when their ranges are small (independent of isl), else by isl on the relations
// restricted to the point. Every counterexample a prover reports passes through here, so a
// reported counterexample is always real.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap {

// Whether the maps agree at the point: proven (by "evaluation" of small range variables, or
// by "isl"), refuted with the point as counterexample, explained as in "(d0 = 3, rt0 = 1):
// first gives (4), second gives (5)", or unknown with the reason. The maps must have the same
// number of dims, runtime variables and results.
ProofResult comparePoint(const IndexingMap& first, const IndexingMap& second,
                         std::span<const int64_t> dims, std::span<const int64_t> runtimeVars);

}  // namespace idxmap
