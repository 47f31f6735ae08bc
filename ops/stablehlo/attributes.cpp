// Derived attributes of gather and scatter: the spec's batch_dims / update_scatter_dims and
// C22's result shape; the update computation's signature types.
#include <algorithm>
#include <stdexcept>

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {
namespace {

bool contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::vector<int64_t> axesNotIn(const std::vector<int64_t>& excluded, int64_t rank) {
  std::vector<int64_t> axes;
  for (int64_t axis = 0; axis < rank; ++axis)
    if (!contains(excluded, axis)) axes.push_back(axis);
  return axes;
}

}  // namespace

std::vector<int64_t> gatherBatchDims(const GatherDimensionNumbers& dims, int64_t resultRank) {
  return axesNotIn(dims.offset_dims, resultRank);
}

std::vector<int64_t> scatterUpdateScatterDims(const ScatterDimensionNumbers& dims,
                                              int64_t updateRank) {
  return axesNotIn(dims.update_window_dims, updateRank);
}

bool hasStaticShapes(const GatherOp& op) { return allStatic({&op.operand, &op.start_indices}); }

bool hasStaticShapes(const ScatterOp& op) {
  bool shapesStatic = op.scatter_indices.isStatic();
  for (const TensorType& type : op.inputs) shapesStatic = shapesStatic && type.isStatic();
  for (const TensorType& type : op.updates) shapesStatic = shapesStatic && type.isStatic();
  return shapesStatic;
}

std::vector<int64_t> inferGatherResultShape(const GatherDimensionNumbers& dims,
                                            const std::vector<int64_t>& startIndicesShape,
                                            const std::vector<int64_t>& sliceSizes) {
  const auto indicesRank = static_cast<int64_t>(startIndicesShape.size());
  if (dims.index_vector_dim < 0 || dims.index_vector_dim > indicesRank)
    throw std::invalid_argument("index_vector_dim is outside [0, rank(start_indices)]");
  std::vector<int64_t> batchSizes;
  for (int64_t axis = 0; axis < indicesRank; ++axis)
    if (axis != dims.index_vector_dim) batchSizes.push_back(startIndicesShape[axis]);
  std::vector<int64_t> offsetSizes;
  for (int64_t axis = 0; axis < static_cast<int64_t>(sliceSizes.size()); ++axis)
    if (!contains(dims.collapsed_slice_dims, axis) && !contains(dims.operand_batching_dims, axis))
      offsetSizes.push_back(sliceSizes[axis]);
  if (offsetSizes.size() != dims.offset_dims.size())
    throw std::invalid_argument("offset_dims do not match the uncollapsed slice sizes");

  const auto resultRank = static_cast<int64_t>(batchSizes.size() + offsetSizes.size());
  std::vector<int64_t> shape(resultRank, 0);
  size_t nextOffset = 0;
  size_t nextBatch = 0;
  for (int64_t axis = 0; axis < resultRank; ++axis) {
    if (contains(dims.offset_dims, axis))
      shape[axis] = offsetSizes[nextOffset++];
    else if (nextBatch < batchSizes.size())
      shape[axis] = batchSizes[nextBatch++];
    else
      throw std::invalid_argument("offset_dims are outside the result's rank");
  }
  return shape;
}

ComputationType ComputationType::notScalarTensor(std::string text) {
  ComputationType type("");
  type.other = text.empty() ? "<unknown type>" : std::move(text);
  return type;
}

std::string ComputationType::toString() const {
  return isScalarTensor() ? "tensor<" + element_type + ">" : other;
}

GatherOp asGather(const DynamicGatherOp& op) {
  GatherOp gather;
  gather.operand = op.operand;
  gather.start_indices = op.start_indices;
  gather.dimension_numbers = op.dimension_numbers;
  gather.slice_sizes = op.slice_sizes;
  gather.indices_are_sorted = op.indices_are_sorted;
  gather.result = op.result;
  return gather;
}

}  // namespace idxmap::gather_scatter
