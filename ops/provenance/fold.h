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

// Any map whose runtime variable rt_k is entry k of the index vector that `indicesMap` reads
// (its range variable s0 walks the vector axis when indexVectorDim < indicesRank): rt_k
// becomes clamp(value, 0, clampTop[k]) where clampTop[k] is set, else the raw value, which
// must lie in rt_k's range for the point to keep an image. Entries not known at every point
// read keep their runtime variable. Throws Error when isl gives up.
FoldedMap foldIndexValues(const IndexingMap& opMap, const IndexingMap& indicesMap,
                          int64_t indexVectorDim, int64_t indicesRank,
                          const std::vector<std::optional<int64_t>>& clampTop,
                          const IndexValues& values);

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

// The folded relation as maps: the one map when it is one piece (with the runtime variables
// that were not folded), else one map per piece when every variable was folded; nullopt
// otherwise, when a piece is not expressible (unbounded, past int64), or past `maxPieces`.
std::optional<std::vector<IndexingMap>> foldedPieces(const FoldedMap& folded,
                                                     size_t maxPieces = 16);

// The relation as isl prints it.
std::string islText(const isl::map& relation);

}  // namespace idxmap::index_provenance
