// The index vectors an op can read, from the value analysis of its indices (ops/provenance)
// and the facts about the tensors they come from (the user's --assume, and the distinct
// elements of an argsort the analysis proves): sets over the points of the
// index conditions (verify/index_conditions.h), [p, x] and [p, x, q, y], that a property's
// violation set is met with. Exact where the analysis is and the facts are about whole vectors
// of one tensor; otherwise larger (two leaves that read one element at some points only are
// taken as free, and facts that are not about the vectors read are not used), so that what
// they prove holds. Private to verify/.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/provenance/index_values.h"
#include "verify/assumptions.h"

namespace idxmap::index_points {

struct PossibleVectors {
  isl::set single;  // [p, x]: the vector x can be read at point p
  // [p, x, q, y]: x at p and y at q can be read together. At p = q (one point, so one vector)
  // it may hold pairs x != y: every pairwise condition asks a point with itself only with x = y
  // (IndexCondition), so it need not be exact there.
  isl::set pairwise;
  std::vector<std::string> assumptions;  // the facts used, as the user wrote them
  // [p, L, x]: `single` before the leaves were projected out, L[i] the value of leaves[i] read
  // at p: what a condition on the function's arguments is computed from.
  isl::set singleWithLeaves;
  isl::set pairwiseWithLeaves;  // [p, L, x, q, M, y]: M the leaves' values read at q
  std::vector<index_provenance::Leaf> leaves;
};

// nullopt when the values are not represented. Throws Error when isl gives up.
std::optional<PossibleVectors> possibleVectors(const index_provenance::IndexValues& values,
                                               int64_t indexVectorDim,
                                               const std::vector<Assumption>& assumptions);

// The sets with entry k of every vector clamped to [0, clampTop[k]] where that is set: what a
// clamping gather's conditions are about.
PossibleVectors clampedVectors(const PossibleVectors& vectors,
                               const std::vector<int64_t>& pointShape,
                               const std::vector<std::optional<int64_t>>& clampTop);

}  // namespace idxmap::index_points
