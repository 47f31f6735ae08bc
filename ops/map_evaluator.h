// The second engine: gather and scatter computed by walking their indexing maps. For each
// index of the op's domain it reads the start indices through the indices map, sets the
// runtime variables from them (clamped into their ranges for gather, raw for scatter) and
// evaluates the map; a scatter update whose point is outside the map's domain is skipped.
// Agreement with the reference evaluator is the evidence that the maps are right.
#pragma once

#include <vector>

#include "ops/eval_tensor.h"
#include "ops/gather_scatter.h"

namespace idxmap::gather_scatter {

Tensor mapGather(const GatherOp& op, const Tensor& operand, const Tensor& startIndices);

std::vector<Tensor> mapScatter(const ScatterOp& op, const std::vector<Tensor>& inputs,
                               const Tensor& scatterIndices, const std::vector<Tensor>& updates);

}  // namespace idxmap::gather_scatter
