// Deciding an op's index properties by evaluation, when index provenance knows every index
// value but as many isl pieces as the tensor has elements (a constant of random values): isl's
// relational path is quadratic in the pieces there (every pair of points is a pair of pieces),
// while evaluating the op's map at every index point is linear. Exact all the same, over a
// finite domain: the certificate is "evaluation". Private to verify/.
#pragma once

#include <cstdint>
#include <optional>

#include "ops/provenance/index_values.h"
#include "verify/index_properties.h"
#include "verify/indexed_op_internal.h"

namespace idxmap::index_points {

// Evaluation walks every index point (and every index tensor element) once: not above this.
inline constexpr int64_t kMaxEvaluatedPoints = int64_t{1} << 22;

// Whether evaluation is the better way: the values known at every point, in more pieces than
// isl handles pairwise, and few enough points to walk.
bool preferEvaluation(const IndexedOp& op, const index_provenance::IndexValues& values);

// The properties (unique when `uniqueAsked`), each proven or refuted with a counterexample
// read off the evaluation; Error when a value cannot be read.
IndexProperties evaluateIndexProperties(const IndexedOp& op,
                                        const index_provenance::IndexValues& values,
                                        bool uniqueAsked);

}  // namespace idxmap::index_points
