// Whether two maps disagree at one input point, decided exactly: by enumerating the range
// variables when their ranges are small (independent of isl), else by isl on the relations
// restricted to the point. Every counterexample a prover reports passes through here, so a
// reported counterexample is always real.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/indexing_map.h"

namespace idxmap {

struct PointDifference {
  enum Kind { Same, Different, Undecided } kind = Undecided;
  // For Different: e.g. "(d0 = 3, rt0 = 1): first gives (4), second gives (5)".
  // For Undecided: why.
  std::string explanation;
};

// The maps must have the same number of dims, runtime variables and results.
PointDifference comparePoint(const IndexingMap& first, const IndexingMap& second,
                             std::span<const int64_t> dims, std::span<const int64_t> runtimeVars);

}  // namespace idxmap
