// The second engine: gather and scatter computed by walking their indexing maps. For each
// index of the op's domain it reads the start indices through the indices map, sets the
// runtime variables from them (clamped into their ranges for gather, raw for scatter) and
// evaluates the map; a scatter update whose point is outside the map's domain is skipped.
// Agreement with the reference evaluator is the evidence that the maps are right.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ops/eval/tensor.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

Tensor mapGather(const GatherOp& op, const Tensor& operand, const Tensor& startIndices);

// Where scatter's updates go by its maps, point by point: visit(updatePosition,
// resultPosition) for every update index, in row-major order of `updateShape`, that lies in
// the domain of scatterUpdateToResultMap once the indices set its runtime variables
// (positions row-major in updateShape / inputShape). Points outside the domain are skipped.
void forEachMapScatterTarget(const ScatterOp& op, const Tensor& scatterIndices,
                             const std::vector<int64_t>& updateShape,
                             const std::vector<int64_t>& inputShape,
                             const std::function<void(int64_t, int64_t)>& visit);

std::vector<Tensor> mapScatter(const ScatterOp& op, const std::vector<Tensor>& inputs,
                               const Tensor& scatterIndices, const std::vector<Tensor>& updates);

}  // namespace idxmap::gather_scatter
