// The indices an old-form gather / scatter reads after the batching-dims decomposition
// (ops/stablehlo/decompose.h): what the decomposed op is evaluated on.
#pragma once

#include "ops/eval/tensor.h"
#include "ops/stablehlo/decompose.h"

namespace idxmap::gather_scatter {

// The start indices the old-form op reads: the original index vector followed, for batching
// dim i, by the coordinate of the index along start_indices_batching_dims[i] (an iota).
Tensor startIndicesWithBatchIotas(const GatherOp& op, const Tensor& startIndices);

// The same for scatter's indices and input_batching_dims.
Tensor scatterIndicesWithBatchIotas(const ScatterOp& op, const Tensor& scatterIndices);

}  // namespace idxmap::gather_scatter
