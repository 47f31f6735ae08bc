// Folding known index values (ops/provenance/index_values.h) into a gather's or scatter's
// map: the runtime variables whose values are known at every point the op reads are replaced
// by those values (clamped for gather, raw for scatter, whose map skips out-of-bounds
// updates). The folded relation is still exact.
#pragma once

#include <isl/cpp.h>

#include <optional>
#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::index_provenance {

// An op's map with the known index values composed in.
struct FoldedMap {
  // [rt_k of the entries not folded] -> { [d] -> [o] }, coalesced.
  isl::map relation;
  // The relation as an IndexingMap, simplified, when it is a single convex piece.
  std::optional<IndexingMap> map;
  std::vector<bool> folded;  // per index vector entry k: rt_k replaced by its values
  bool anyFolded() const;
};

// Gather: rt_k becomes clamp(value of entry k, 0, dim(operand) - slice_size), as the op clamps.
// An entry is folded when its value is known at every index point the op reads.
// With clampIndices = false (tensor.gather, tcp.gather lowered to StableHLO: an out-of-bounds
// index is undefined behavior there, not clamped) a value outside the op's range of start
// indices reads nothing: such result points have no image.
FoldedMap foldGatherIndices(const gather_scatter::GatherOp& op, const IndexValues& values,
                            bool clampIndices = true);
// Scatter: rt_k becomes the raw value (no clamp); the map's constraints skip the
// out-of-bounds updates, as the op does.
FoldedMap foldScatterIndices(const gather_scatter::ScatterOp& op, const IndexValues& values);

// The relation as isl prints it.
std::string islText(const isl::map& relation);

}  // namespace idxmap::index_provenance
