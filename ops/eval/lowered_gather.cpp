#include "ops/eval/lowered_gather.h"

#include <set>
#include <stdexcept>

#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"

namespace idxmap::gather_scatter {
namespace {

using Index = std::vector<int64_t>;

bool hasExplicitVector(const Tensor& indices, int64_t indexVectorDim) {
  return indexVectorDim < static_cast<int64_t>(indices.shape.size());
}

// The batch shape: the indices' shape without the index vector axis.
Index batchShape(const Tensor& indices, int64_t indexVectorDim) {
  Index shape = indices.shape;
  if (hasExplicitVector(indices, indexVectorDim)) shape.erase(shape.begin() + indexVectorDim);
  return shape;
}

Index positionOf(const Index& batchIndex, int64_t k, const Tensor& indices,
                 int64_t indexVectorDim) {
  Index position = batchIndex;
  if (hasExplicitVector(indices, indexVectorDim))
    position.insert(position.begin() + indexVectorDim, k);
  return position;
}

std::string join(const Index& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

}  // namespace

std::vector<Index> indexVectors(const Tensor& indices, int64_t indexVectorDim) {
  std::vector<Index> vectors;
  Index shape = batchShape(indices, indexVectorDim);
  if (isEmptyShape(shape)) return vectors;
  int64_t length = hasExplicitVector(indices, indexVectorDim) ? indices.shape[indexVectorDim] : 1;
  Index batchIndex(shape.size(), 0);
  do {
    Index vector;
    for (int64_t k = 0; k < length; ++k)
      vector.push_back(indices.intAt(
          linearPosition(indices.shape, positionOf(batchIndex, k, indices, indexVectorDim))));
    vectors.push_back(std::move(vector));
  } while (nextIndex(shape, batchIndex));
  return vectors;
}

Tensor wrapNegativeIndices(const Tensor& indices, int64_t indexVectorDim, const Index& bounds) {
  Tensor wrapped = indices;
  if (isEmptyShape(indices.shape)) return wrapped;
  Index position(indices.shape.size(), 0);
  do {
    int64_t k = hasExplicitVector(indices, indexVectorDim) ? position[indexVectorDim] : 0;
    int64_t& value = wrapped.ints[linearPosition(indices.shape, position)];
    if (value < 0 && value >= -bounds.at(k)) value += bounds[k];
  } while (nextIndex(indices.shape, position));
  return wrapped;
}

void rejectBadIndexValues(const std::string& opName, const Tensor& indices, int64_t indexVectorDim,
                          const Index& bounds, bool requireUnique) {
  std::set<Index> seen;
  for (const Index& vector : indexVectors(indices, indexVectorDim)) {
    for (size_t k = 0; k < vector.size(); ++k)
      if (vector[k] < 0 || vector[k] >= bounds.at(k))
        throw IndexValueError(opName + ": index vector " + join(vector) + " has " +
                              std::to_string(vector[k]) + " at entry " + std::to_string(k) +
                              ", outside [0, " + std::to_string(bounds[k]) +
                              "): the op defines no result for an out-of-bounds index");
    if (requireUnique && !seen.insert(vector).second)
      throw IndexValueError(opName + ": index vector " + join(vector) +
                            " repeats although the indices are declared unique");
  }
}

Tensor prefixSlice(const Tensor& operand, const Index& prefix) {
  if (prefix.size() != operand.shape.size())
    throw std::invalid_argument("prefixSlice: the prefix and the operand differ in rank");
  Tensor sliced = zeros(operand.element_type, prefix);
  if (isEmptyShape(prefix)) return sliced;
  Index position(prefix.size(), 0);
  do {
    copyElement(operand, linearPosition(operand.shape, position), sliced,
                linearPosition(prefix, position));
  } while (nextIndex(prefix, position));
  return sliced;
}

Tensor evaluateLoweredGather(const LoweredGather& lowered, const Tensor& operand,
                             const Tensor& indices, Engine engine) {
  const int64_t indexVectorDim = lowered.op.dimension_numbers.index_vector_dim;
  Tensor prepared = lowered.wrap_negative_indices
                        ? wrapNegativeIndices(indices, indexVectorDim, lowered.index_bounds)
                        : indices;
  rejectBadIndexValues(lowered.op_name, prepared, indexVectorDim, lowered.index_bounds,
                       lowered.require_unique_indices);
  Tensor source =
      lowered.operand_prefix.empty() ? operand : prefixSlice(operand, lowered.operand_prefix);
  return engine == Engine::kReference ? referenceGather(lowered.op, source, prepared)
                                      : mapGather(lowered.op, source, prepared);
}

Tensor evaluateLoweredScatter(const LoweredScatter& lowered, const Tensor& dest,
                              const Tensor& indices, const Tensor& source, Engine engine) {
  rejectBadIndexValues(lowered.op_name, indices, lowered.op.dimension_numbers.index_vector_dim,
                       lowered.index_bounds, lowered.require_unique_indices);
  std::vector<Tensor> results = engine == Engine::kReference
                                    ? referenceScatter(lowered.op, {dest}, indices, {source})
                                    : mapScatter(lowered.op, {dest}, indices, {source});
  return results.at(0);
}

}  // namespace idxmap::gather_scatter
