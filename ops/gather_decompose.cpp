// The batching-dims decomposition of spec 000's "Compatibility" section.
#include "ops/gather_decompose.h"

#include <algorithm>

namespace idxmap::gather_scatter {

GatherOp decomposeBatchingDims(const GatherOp& op) {
  const GatherDimensionNumbers& dn = op.dimension_numbers;
  GatherOp old = op;
  GatherDimensionNumbers& oldDn = old.dimension_numbers;
  const auto batching = static_cast<int64_t>(dn.operand_batching_dims.size());
  std::vector<int64_t>& shape = old.start_indices.shape;
  if (dn.index_vector_dim == op.start_indices.rank())
    shape.push_back(1 + batching);  // the implicit one-entry vector made an explicit axis
  else
    shape[dn.index_vector_dim] += batching;
  oldDn.start_index_map.insert(oldDn.start_index_map.end(), dn.operand_batching_dims.begin(),
                               dn.operand_batching_dims.end());
  oldDn.collapsed_slice_dims.insert(oldDn.collapsed_slice_dims.end(),
                                    dn.operand_batching_dims.begin(),
                                    dn.operand_batching_dims.end());
  std::sort(oldDn.collapsed_slice_dims.begin(), oldDn.collapsed_slice_dims.end());
  oldDn.operand_batching_dims.clear();
  oldDn.start_indices_batching_dims.clear();
  return old;
}

Tensor startIndicesWithBatchIotas(const GatherOp& op, const Tensor& startIndices) {
  const GatherDimensionNumbers& dn = op.dimension_numbers;
  const GatherOp old = decomposeBatchingDims(op);
  const int64_t vectorAxis = dn.index_vector_dim;  // the same axis in the new tensor
  const bool implicitVector = vectorAxis == static_cast<int64_t>(startIndices.shape.size());
  const int64_t originalEntries = implicitVector ? 1 : startIndices.shape[vectorAxis];
  Tensor result = zeros(startIndices.element_type, old.start_indices.shape);
  if (isEmptyShape(result.shape)) return result;
  std::vector<int64_t> index(result.shape.size(), 0);
  do {
    int64_t entry = index[vectorAxis];
    if (entry < originalEntries) {
      std::vector<int64_t> original = index;
      if (implicitVector) original.pop_back();
      result.ints[linearPosition(result.shape, index)] =
          startIndices.ints[linearPosition(startIndices.shape, original)];
    } else {
      int64_t axis = dn.start_indices_batching_dims[entry - originalEntries];
      result.ints[linearPosition(result.shape, index)] = index[axis];
    }
  } while (nextIndex(result.shape, index));
  return result;
}

}  // namespace idxmap::gather_scatter
