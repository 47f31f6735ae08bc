// The oracle: gather, dynamic_gather and scatter computed straight from the spec's formulas
// (spec 000), one result or update index at a time, without any indexing map. Ops must be
// valid (validate first); tensors must match the op's types.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ops/eval/tensor.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

// result[result_index] = operand[operand_index], start indices clamped into the operand.
Tensor referenceGather(const GatherOp& op, const Tensor& operand, const Tensor& startIndices);

// dynamic_gather: gather with the op's slice-size values.
Tensor referenceDynamicGather(const DynamicGatherOp& op, const Tensor& operand,
                              const Tensor& startIndices);

// Updates applied in row-major order of updates[0]; an update whose result index is out of
// bounds is skipped.
// Where scatter's updates go: visit(updatePosition, resultPosition) for every update index in
// row-major order of `updateShape` whose result index is inside `inputShape` (positions are
// row-major). The out-of-bounds ones are skipped, as the spec says.
void forEachReferenceScatterTarget(const ScatterOp& op, const Tensor& scatterIndices,
                                   const std::vector<int64_t>& updateShape,
                                   const std::vector<int64_t>& inputShape,
                                   const std::function<void(int64_t, int64_t)>& visit);

std::vector<Tensor> referenceScatter(const ScatterOp& op, const std::vector<Tensor>& inputs,
                                     const Tensor& scatterIndices,
                                     const std::vector<Tensor>& updates);

}  // namespace idxmap::gather_scatter
