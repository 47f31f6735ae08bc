// Provers for what gather and scatter let users promise about their indices (spec 000):
//   unique    scatter: no two applied updates write the same result element
//             (`unique_indices`);
//   sorted    for all index points i1 < i2 in row-major order (of the result for gather, of
//             the updates for scatter), full_start_index(i1) <= full_start_index(i2)
//             lexicographically — the spec's definition of `indices_are_sorted`, with gather's
//             start indices clamped as the op clamps them;
//   in bounds gather: no start index is ever clamped; scatter: no update is ever skipped.
// Decided exactly with isl when index provenance knows the index values at every point. A
// refutation names the elements that show it (two updates and the result element both write,
// say), and is reported only after evaluation confirms it: the op's own map evaluated at those
// points with the index values read there. Anything else is unknown with the reason (values
// known only at run time, isl's budget).
#pragma once

#include <optional>

#include "core/verdict.h"
#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap {

struct IndexProperties {
  std::optional<ProofResult> unique;  // scatter only
  ProofResult sorted;
  ProofResult inBounds;
};

// `startIndices`: the values of the op's start_indices (index provenance). The op must be
// valid, with static shapes.
IndexProperties proveGatherIndexProperties(const gather_scatter::GatherOp& op,
                                           const index_provenance::IndexValues& startIndices);
IndexProperties proveScatterIndexProperties(const gather_scatter::ScatterOp& op,
                                            const index_provenance::IndexValues& scatterIndices);

}  // namespace idxmap
