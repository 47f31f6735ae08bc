#include "ops/gather_lowering.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "ops/map_evaluator.h"
#include "ops/reference_evaluator.h"

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

void checkIndexValues(const std::string& opName, const Tensor& indices, int64_t indexVectorDim,
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

namespace {

// Slice size 1 along an indexed or batching dim, 0 when the dim is empty (StableHLO's C21
// bounds a slice size by its dim; an empty dim leaves no element to read anyway).
int64_t unitSlice(int64_t dimSize) { return std::min<int64_t>(1, dimSize); }

Index range(int64_t from, int64_t to) {
  Index values;
  for (int64_t v = from; v < to; ++v) values.push_back(v);
  return values;
}

}  // namespace

LoweredGather lowerElementsGather(const std::string& opName, const TensorType& operand,
                                  const TensorType& indices, int64_t axis) {
  const int64_t rank = operand.rank();
  LoweredGather lowered;
  lowered.op_name = opName;
  GatherOp& g = lowered.op;
  Index prefix = indices.shape;
  prefix[axis] = operand.shape[axis];
  if (prefix != operand.shape) lowered.operand_prefix = prefix;
  g.operand = {prefix, operand.element_type};
  g.start_indices = indices;
  GatherDimensionNumbers& dn = g.dimension_numbers;
  dn.index_vector_dim = rank;  // one index per element: the vector is implicit
  dn.start_index_map = {axis};
  dn.collapsed_slice_dims = {axis};
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) dn.operand_batching_dims.push_back(d);
  dn.start_indices_batching_dims = dn.operand_batching_dims;
  for (int64_t size : prefix) g.slice_sizes.push_back(unitSlice(size));
  g.result = TensorType{indices.shape, operand.element_type};
  lowered.index_bounds = {operand.shape[axis]};
  return lowered;
}

LoweredGather lowerAxisGather(const std::string& opName, const TensorType& operand,
                              const TensorType& indices, int64_t axis, int64_t batchDims) {
  const int64_t rank = operand.rank(), indicesRank = indices.rank();
  LoweredGather lowered;
  lowered.op_name = opName;
  GatherOp& g = lowered.op;
  g.operand = operand;
  g.start_indices = indices;
  GatherDimensionNumbers& dn = g.dimension_numbers;
  dn.index_vector_dim = indicesRank;
  dn.start_index_map = {axis};
  dn.collapsed_slice_dims = {axis};
  dn.operand_batching_dims = range(0, batchDims);
  dn.start_indices_batching_dims = range(0, batchDims);
  g.slice_sizes = operand.shape;
  g.slice_sizes[axis] = unitSlice(operand.shape[axis]);
  for (int64_t d = 0; d < batchDims; ++d) g.slice_sizes[d] = unitSlice(operand.shape[d]);
  // The operand dims between the batch dims and the axis stay in place; those after the axis
  // follow the indices' own dims.
  dn.offset_dims = range(batchDims, axis);
  for (int64_t d : range(axis + indicesRank - batchDims, rank - 1 + indicesRank - batchDims))
    dn.offset_dims.push_back(d);
  TensorType result{Index(operand.shape.begin(), operand.shape.begin() + axis),
                    operand.element_type};
  result.shape.insert(result.shape.end(), indices.shape.begin() + batchDims, indices.shape.end());
  result.shape.insert(result.shape.end(), operand.shape.begin() + axis + 1, operand.shape.end());
  g.result = result;
  lowered.index_bounds = {operand.shape[axis]};
  return lowered;
}

LoweredGather lowerNdGather(const std::string& opName, const TensorType& operand,
                            const TensorType& indices, int64_t batchDims) {
  const int64_t rank = operand.rank(), indicesRank = indices.rank();
  const int64_t coordinates = indices.shape.back();
  LoweredGather lowered;
  lowered.op_name = opName;
  GatherOp& g = lowered.op;
  g.operand = operand;
  g.start_indices = indices;
  GatherDimensionNumbers& dn = g.dimension_numbers;
  dn.index_vector_dim = indicesRank - 1;
  dn.start_index_map = range(batchDims, batchDims + coordinates);
  dn.collapsed_slice_dims = dn.start_index_map;
  dn.operand_batching_dims = range(0, batchDims);
  dn.start_indices_batching_dims = range(0, batchDims);
  g.slice_sizes = operand.shape;
  for (int64_t d = 0; d < batchDims + coordinates; ++d)
    g.slice_sizes[d] = unitSlice(operand.shape[d]);
  const int64_t tailRank = rank - batchDims - coordinates;
  dn.offset_dims = range(indicesRank - 1, indicesRank - 1 + tailRank);
  TensorType result{Index(indices.shape.begin(), indices.shape.end() - 1), operand.element_type};
  result.shape.insert(result.shape.end(), operand.shape.begin() + batchDims + coordinates,
                      operand.shape.end());
  g.result = result;
  for (int64_t d : dn.start_index_map) lowered.index_bounds.push_back(operand.shape[d]);
  return lowered;
}

Tensor evaluateLoweredGather(const LoweredGather& lowered, const Tensor& operand,
                             const Tensor& indices, GatherEngine engine) {
  const int64_t indexVectorDim = lowered.op.dimension_numbers.index_vector_dim;
  Tensor prepared = lowered.wrap_negative_indices
                        ? wrapNegativeIndices(indices, indexVectorDim, lowered.index_bounds)
                        : indices;
  checkIndexValues(lowered.op_name, prepared, indexVectorDim, lowered.index_bounds,
                   lowered.require_unique_indices);
  Tensor source =
      lowered.operand_prefix.empty() ? operand : prefixSlice(operand, lowered.operand_prefix);
  return engine == GatherEngine::kReference ? referenceGather(lowered.op, source, prepared)
                                            : mapGather(lowered.op, source, prepared);
}

Tensor evaluateLoweredScatter(const LoweredScatter& lowered, const Tensor& dest,
                              const Tensor& indices, const Tensor& source, GatherEngine engine) {
  checkIndexValues(lowered.op_name, indices, lowered.op.dimension_numbers.index_vector_dim,
                   lowered.index_bounds, lowered.require_unique_indices);
  std::vector<Tensor> results = engine == GatherEngine::kReference
                                    ? referenceScatter(lowered.op, {dest}, indices, {source})
                                    : mapScatter(lowered.op, {dest}, indices, {source});
  return results.at(0);
}

}  // namespace idxmap::gather_scatter
