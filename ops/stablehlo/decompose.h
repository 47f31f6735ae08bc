// Spec 000, "Compatibility": a gather (scatter) with batching dims is an old-form gather
// (scatter) without them whose indices have an iota concatenated for each batching dim. The
// batching dims become collapsed slice (inserted window) dims started by those iotas. The
// decomposition is what
// `--decompose-batching` offers and what the batching-dims model is proven against.
#pragma once

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

// The old-form op: operand_batching_dims moved into collapsed_slice_dims and appended to
// start_index_map; the index vector grows by one entry per batching dim (an implicit vector,
// index_vector_dim = rank, becomes an explicit last axis). Offset dims, slice sizes and the
// result are unchanged. Requires a valid op.
GatherOp decomposeBatchingDims(const GatherOp& op);

// The old-form op's output->operand map with the iota start indices folded in: their values
// are known (the batch coordinates of the result), so their runtime variables become those
// dims and only the original start indices stay runtime variables. By the spec it equals
// gatherOutputToOperandMap(op); isl can prove that.
IndexingMap decomposedOutputToOperandMap(const GatherOp& op);

// The same for scatter: input_batching_dims moved into inserted_window_dims and appended to
// scatter_dims_to_operand_dims; updates and results unchanged.
ScatterOp decomposeBatchingDims(const ScatterOp& op);

// The old form's index tensor shape: the index vector grown by `extra` entries (an implicit
// vector, indexVectorDim = rank, becomes an explicit last axis).
std::vector<int64_t> grownIndicesShape(std::vector<int64_t> shape, int64_t indexVectorDim,
                                       int64_t extra);

}  // namespace idxmap::gather_scatter
