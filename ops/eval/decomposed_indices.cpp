// The old-form op's indices: the original ones with the batch coordinates appended.
#include "ops/eval/decomposed_indices.h"

namespace idxmap::gather_scatter {
namespace {

// Each index vector followed, for batching dim i, by the index's coordinate along
// indicesBatchingDims[i].
Tensor appendBatchIotas(const Tensor& indices, int64_t indexVectorDim,
                        const std::vector<int64_t>& indicesBatchingDims) {
  const bool implicitVector = indexVectorDim == static_cast<int64_t>(indices.shape.size());
  const int64_t originalEntries = implicitVector ? 1 : indices.shape[indexVectorDim];
  Tensor result = zeros(indices.element_type,
                        grownIndicesShape(indices.shape, indexVectorDim,
                                          static_cast<int64_t>(indicesBatchingDims.size())));
  if (isEmptyShape(result.shape)) return result;
  std::vector<int64_t> index(result.shape.size(), 0);
  do {
    int64_t entry = index[indexVectorDim];  // the vector axis sits at the same place
    int64_t& value = result.ints[linearPosition(result.shape, index)];
    if (entry < originalEntries) {
      std::vector<int64_t> original = index;
      if (implicitVector) original.pop_back();
      value = indices.ints[linearPosition(indices.shape, original)];
    } else {
      value = index[indicesBatchingDims[entry - originalEntries]];
    }
  } while (nextIndex(result.shape, index));
  return result;
}

}  // namespace

Tensor startIndicesWithBatchIotas(const GatherOp& op, const Tensor& startIndices) {
  return appendBatchIotas(startIndices, op.dimension_numbers.index_vector_dim,
                          op.dimension_numbers.start_indices_batching_dims);
}

Tensor scatterIndicesWithBatchIotas(const ScatterOp& op, const Tensor& scatterIndices) {
  return appendBatchIotas(scatterIndices, op.dimension_numbers.index_vector_dim,
                          op.dimension_numbers.scatter_indices_batching_dims);
}

}  // namespace idxmap::gather_scatter
