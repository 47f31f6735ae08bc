// Each function follows the spec's "More formally" list line by line; the names are the
// spec's. Deliberately independent of gather_map.cpp / scatter_map.cpp: it is their oracle.
#include "ops/eval/reference_evaluator.h"

#include <algorithm>

namespace idxmap::gather_scatter {
namespace {

using Index = std::vector<int64_t>;

bool has(const Index& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

Index axesNotIn(const Index& excluded, size_t rank) {
  Index axes;
  for (int64_t d = 0; d < static_cast<int64_t>(rank); ++d)
    if (!has(excluded, d)) axes.push_back(d);
  return axes;
}

Index select(const Index& index, const Index& axes) {
  Index selected;
  for (int64_t axis : axes) selected.push_back(index[axis]);
  return selected;
}

// The spec's start_index: the index vector at batch_index (`:` inserted at index_vector_dim),
// or the single element start_indices[batch_index].
Index startIndexAt(const Tensor& indices, const Index& batchIndex, int64_t indexVectorDim) {
  const auto rank = static_cast<int64_t>(indices.shape.size());
  if (indexVectorDim >= rank) return {indices.intAt(linearPosition(indices.shape, batchIndex))};
  Index start;
  for (int64_t k = 0; k < indices.shape[indexVectorDim]; ++k) {
    Index position = batchIndex;
    position.insert(position.begin() + indexVectorDim, k);
    start.push_back(indices.intAt(linearPosition(indices.shape, position)));
  }
  return start;
}

// `[wi0, ..., 0, ..., wiN]`: the window (offset) index with 0 at the excluded axes.
Index fullWindowIndex(const Index& windowIndex, const Index& zeroAt1, const Index& zeroAt2,
                      size_t rank) {
  Index full(rank, 0);
  size_t next = 0;
  for (size_t d = 0; d < rank; ++d)
    if (!has(zeroAt1, static_cast<int64_t>(d)) && !has(zeroAt2, static_cast<int64_t>(d)))
      full[d] = windowIndex[next++];
  return full;
}

Index fullBatchingIndex(const Index& batchIndex, const Index& operandBatchingDims,
                        const Index& indicesBatchingDims, int64_t indexVectorDim, size_t rank) {
  Index full(rank, 0);
  for (size_t i = 0; i < operandBatchingDims.size(); ++i) {
    int64_t dStart = indicesBatchingDims[i];
    full[operandBatchingDims[i]] = batchIndex[dStart - (dStart < indexVectorDim ? 0 : 1)];
  }
  return full;
}

}  // namespace

Tensor referenceGather(const GatherOp& op, const Tensor& operand, const Tensor& startIndices) {
  const GatherDimensionNumbers& dn = op.dimension_numbers;
  Index resultShape =
      op.result ? op.result->shape : inferGatherResultShape(dn, startIndices.shape, op.slice_sizes);
  Tensor result = zeros(operand.element_type, resultShape);
  if (isEmptyShape(resultShape)) return result;
  const size_t operandRank = operand.shape.size();
  Index batchDims = axesNotIn(dn.offset_dims, resultShape.size());
  Index resultIndex(resultShape.size(), 0);
  do {
    Index batchIndex = select(resultIndex, batchDims);
    Index startIndex = startIndexAt(startIndices, batchIndex, dn.index_vector_dim);
    Index fullStartIndex(operandRank, 0);
    for (size_t dStart = 0; dStart < dn.start_index_map.size(); ++dStart) {
      int64_t d = dn.start_index_map[dStart];
      fullStartIndex[d] =
          std::clamp<int64_t>(startIndex[dStart], 0, operand.shape[d] - op.slice_sizes[d]);
    }
    Index fullBatching =
        fullBatchingIndex(batchIndex, dn.operand_batching_dims, dn.start_indices_batching_dims,
                          dn.index_vector_dim, operandRank);
    Index fullOffset = fullWindowIndex(select(resultIndex, dn.offset_dims), dn.collapsed_slice_dims,
                                       dn.operand_batching_dims, operandRank);
    Index operandIndex(operandRank);
    for (size_t d = 0; d < operandRank; ++d)
      operandIndex[d] = fullStartIndex[d] + fullBatching[d] + fullOffset[d];
    copyElement(operand, linearPosition(operand.shape, operandIndex), result,
                linearPosition(resultShape, resultIndex));
  } while (nextIndex(resultShape, resultIndex));
  return result;
}

Tensor referenceDynamicGather(const DynamicGatherOp& op, const Tensor& operand,
                              const Tensor& startIndices) {
  return referenceGather(asGather(op), operand, startIndices);
}

void forEachReferenceScatterTarget(const ScatterOp& op, const Tensor& scatterIndices,
                                   const Index& updateShape, const Index& inputShape,
                                   const std::function<void(int64_t, int64_t)>& visit) {
  const ScatterDimensionNumbers& dn = op.dimension_numbers;
  if (isEmptyShape(updateShape)) return;
  Index updateScatterDims = axesNotIn(dn.update_window_dims, updateShape.size());
  Index updateIndex(updateShape.size(), 0);
  do {
    Index updateScatterIndex = select(updateIndex, updateScatterDims);
    Index startIndex = startIndexAt(scatterIndices, updateScatterIndex, dn.index_vector_dim);
    Index fullStartIndex(inputShape.size(), 0);
    for (size_t dStart = 0; dStart < dn.scatter_dims_to_operand_dims.size(); ++dStart)
      fullStartIndex[dn.scatter_dims_to_operand_dims[dStart]] = startIndex[dStart];
    Index fullBatching =
        fullBatchingIndex(updateScatterIndex, dn.input_batching_dims,
                          dn.scatter_indices_batching_dims, dn.index_vector_dim, inputShape.size());
    Index fullWindow =
        fullWindowIndex(select(updateIndex, dn.update_window_dims), dn.inserted_window_dims,
                        dn.input_batching_dims, inputShape.size());
    Index resultIndex(inputShape.size());
    bool inBounds = true;
    for (size_t d = 0; d < inputShape.size(); ++d) {
      resultIndex[d] = fullStartIndex[d] + fullBatching[d] + fullWindow[d];
      inBounds = inBounds && resultIndex[d] >= 0 && resultIndex[d] < inputShape[d];
    }
    if (inBounds)
      visit(linearPosition(updateShape, updateIndex), linearPosition(inputShape, resultIndex));
  } while (nextIndex(updateShape, updateIndex));
}

std::vector<Tensor> referenceScatter(const ScatterOp& op, const std::vector<Tensor>& inputs,
                                     const Tensor& scatterIndices,
                                     const std::vector<Tensor>& updates) {
  std::vector<Tensor> results = inputs;
  forEachReferenceScatterTarget(op, scatterIndices, updates[0].shape, inputs[0].shape,
                                [&](int64_t updatePosition, int64_t resultPosition) {
                                  applyUpdate(op.update_computation, results, resultPosition,
                                              updates, updatePosition);
                                });
  return results;
}

}  // namespace idxmap::gather_scatter
