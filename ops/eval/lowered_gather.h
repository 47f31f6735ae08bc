// Evaluating the gather forms that are not StableHLO's (ops/forms/lowering.h) on tensors: the
// index values each form accepts are checked (out of bounds, or repeated under `unique`, is
// an IndexValueError: these forms define no result there, where StableHLO would clamp or
// skip), ONNX's negative indices are wrapped, torch.gather's operand is prefix-sliced, and
// the lowered StableHLO op is run by either engine.
#pragma once

#include <string>
#include <vector>

#include "core/checked.h"
#include "ops/eval/engine.h"
#include "ops/eval/tensor.h"
#include "ops/forms/lowering.h"

namespace idxmap::gather_scatter {

// An index value the op has no result for (out of bounds, or a duplicate under `unique`).
class IndexValueError : public Error {
 public:
  using Error::Error;
};

// The index vectors of `indices` in row-major order of their batch position; entry k of a
// vector is read at position k of index_vector_dim (one entry when it equals the rank).
std::vector<std::vector<int64_t>> indexVectors(const Tensor& indices, int64_t indexVectorDim);

// ONNX's negative-index rule as a value transform: each value v of entry k with
// -bounds[k] <= v < 0 becomes v + bounds[k]; every other value is kept (and later rejected if
// out of bounds).
Tensor wrapNegativeIndices(const Tensor& indices, int64_t indexVectorDim,
                           const std::vector<int64_t>& bounds);

// Throws IndexValueError naming the first index vector with a value outside
// [0, bounds[k]), or, when requireUnique, the first repeated index vector.
void rejectBadIndexValues(const std::string& opName, const Tensor& indices, int64_t indexVectorDim,
                          const std::vector<int64_t>& bounds, bool requireUnique);

// `operand` cut to its leading `prefix[d]` elements along each dim.
Tensor prefixSlice(const Tensor& operand, const std::vector<int64_t>& prefix);

// The form's result: prepare the operand and indices, check the index values, then run the
// StableHLO reference evaluator or the map-driven one on the lowered op.
Tensor evaluateLoweredGather(const LoweredGather& lowered, const Tensor& operand,
                             const Tensor& indices, Engine engine);
// The form's result: dest with the source slices written where the indices say.
Tensor evaluateLoweredScatter(const LoweredScatter& lowered, const Tensor& dest,
                              const Tensor& indices, const Tensor& source, Engine engine);

}  // namespace idxmap::gather_scatter
