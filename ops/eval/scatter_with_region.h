// Scatter whose update computation is not one the evaluators model (UpdateComputation::kOther):
// the caller supplies it as a function of 0-d tensors (the interpreter evaluates the op's
// region). Both engines are here, so a region-computed scatter is still checked twice: one
// traversal from the spec's formulas, one through scatterUpdateToResultMap. Updates are
// applied in row-major order of updates[0]; an update with an out-of-bounds target is skipped.
#pragma once

#include <functional>
#include <vector>

#include "ops/eval/tensor.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

// (current values of results[0..N), update values of updates[0..N)) -> new values, all 0-d.
using RegionCombine =
    std::function<std::vector<Tensor>(const std::vector<Tensor>&, const std::vector<Tensor>&)>;

std::vector<Tensor> referenceScatterWithRegion(const ScatterOp& op,
                                               const std::vector<Tensor>& inputs,
                                               const Tensor& scatterIndices,
                                               const std::vector<Tensor>& updates,
                                               const RegionCombine& combine);

std::vector<Tensor> mapScatterWithRegion(const ScatterOp& op, const std::vector<Tensor>& inputs,
                                         const Tensor& scatterIndices,
                                         const std::vector<Tensor>& updates,
                                         const RegionCombine& combine);

}  // namespace idxmap::gather_scatter
