// A property of an op with `?` dims as the exact condition on its index vectors, the sizes
// as parameters (verify/symbolic_sizes): what is stated when the sizes and the run-time index
// values decide it together, neither alone. The sets are those of verify/index_conditions.h
// ([p, x] and [p, x, q, y] over the index tensor's points and the vectors read there), with
// the sizes n<j> as isl parameters and the vectors each point can read folded in (an iota's
// entry is its coordinate there): "sorted iff no two points p, q of start_indices (index
// vector x at p, y at q) satisfy [n0, n1] -> { ... }, where n0 is dim 0 of operand ...".
// Exact for every size: the set holds the pairs of points and vectors that break the property,
// whatever else the values are. Private to verify/.
#pragma once

#include <isl/cpp.h>

#include <string>

#include "verify/index_conditions.h"
#include "verify/sized_op_internal.h"

namespace idxmap::symbolic_sizes {

// The op over the vectors its index points can read, built once for the three properties:
// `space` the index points [i] (the sizes' context met), `withVectors` [i, x] the vectors x
// each can read, the sizes the only parameters.
struct VectorView {
  isl::set space, withVectors;
  SizedRelations relations;  // over withVectors
  isl::set read;             // [p, x]: the index tensor's points and the vectors they hold
};
VectorView vectorView(const SizedOp& p, const isl::set& space, const isl::set& withVectors);

IndexCondition sizedInBounds(const SizedOp& p, const VectorView& view);
IndexCondition sizedSorted(const SizedOp& p, const VectorView& view);
IndexCondition sizedUnique(const SizedOp& p, const VectorView& view);

// The condition in words, with the legend of the sizes it names: "no point p of start_indices
// (index vector x at p) satisfies [n0] -> { [p0, x0] : x0 >= n0 }, where n0 is dim 0 of
// operand".
std::string sizedText(const SizedOp& p, const IndexCondition& condition);

}  // namespace idxmap::symbolic_sizes
