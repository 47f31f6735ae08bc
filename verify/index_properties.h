// Provers for what gather and scatter let users promise about their indices (spec 000):
//   unique    scatter: no two applied updates write the same result element
//             (`unique_indices`); gather, when asked (tensor.gather's `unique`): no two result
//             points read the same element;
//   sorted    for all index points i1 < i2 in row-major order (of the result for gather, of
//             the updates for scatter), full_start_index(i1) <= full_start_index(i2)
//             lexicographically — the spec's definition of `indices_are_sorted`, with gather's
//             start indices clamped as the op clamps them;
//   in bounds gather: no start index is ever clamped; scatter: no update is ever skipped;
//             where out of range is undefined (IndexOpForm): every index in range.
// Decided exactly when index provenance knows the index values at every point: with isl, or,
// when the values are a table of as many pieces as elements, by evaluating the op's map at
// every index point (certificate "evaluation"; isl's pairwise questions are quadratic there). A
// refutation names the elements that show it (two updates and the result element both write,
// say), and is reported only after evaluation confirms it: the op's own map evaluated at those
// points with the index values read there.
//
// When the values are known only at run time (verify/index_conditions.h), a property is
// proven when it holds for every value (by the op's structure) or for every value the user's
// assumptions allow (the verdict lists them); otherwise it is unknown with the exact condition
// on the values under which it holds. A limit hit is unknown with the reason.
#pragma once

#include <optional>

#include "core/verdict.h"
#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"
#include "verify/assumptions.h"
#include "verify/index_conditions.h"

namespace idxmap {

struct IndexProperties {
  std::optional<ProofResult> unique;  // scatter; gather when IndexOpForm::uniqueAsked
  ProofResult sorted;
  ProofResult inBounds;
};

// When the indices are a concatenation along the index vector dim (a batched op's indices
// beside iotas, as the batching-dims decomposition writes them), one block of every vector's
// entries per operand: the user's facts about that operand, and its values when index
// provenance knows them all (an iota). Both sharpen the run-time conditions.
struct VectorBlock {
  size_t firstEntry = 0, entries = 0;
  std::vector<Assumption> assumptions;
  std::optional<index_provenance::IndexValues> values;  // the operand's, known at every point
};

// `startIndices`: the values of the op's start_indices (index provenance); `assumptions`: the
// user's facts about that value. The op must be valid, with static shapes.
IndexProperties proveGatherIndexProperties(const gather_scatter::GatherOp& op,
                                           const index_provenance::IndexValues& startIndices,
                                           const IndexOpForm& form = {},
                                           const std::vector<Assumption>& assumptions = {},
                                           const std::vector<VectorBlock>& blocks = {});
IndexProperties proveScatterIndexProperties(const gather_scatter::ScatterOp& op,
                                            const index_provenance::IndexValues& scatterIndices,
                                            const IndexOpForm& form = {},
                                            const std::vector<Assumption>& assumptions = {},
                                            const std::vector<VectorBlock>& blocks = {});

}  // namespace idxmap
