// A property's condition on the function's arguments rather than on the index vectors (issue
// 31): "every element of %idx is in [-10, 9]", what a person reads off the program. Private to
// verify/.
#pragma once

#include <optional>
#include <string>

#include "verify/index_conditions.h"
#include "verify/possible_vectors_internal.h"

namespace idxmap::index_points {

// A property's condition on the one tensor the index values come from, when it is exact: the
// index vector at every point is a function of one element of one tensor the analysis does not
// see into (an argument, an op it does not follow), and the values of that element that break
// the property are the same at every point (in bounds: "every element of %idx is in [-10, 9]"),
// or for pairs, where index point p reads element p, at every pair of points asked (unique,
// sorted: "no two elements u and w of %idx, u before w in row-major order, satisfy
// { [u, w] : ... }"). nullopt otherwise: the condition on the index vectors stands. `possible` and
// `condition` are about the same vectors (both clamped, for a clamping gather).
std::optional<std::string> argumentCondition(const PossibleVectors& possible,
                                             const IndexCondition& condition);

}  // namespace idxmap::index_points
