#include <algorithm>

#include "verify/indexed_op_internal.h"

namespace idxmap::index_points {

IndexedOp indexedOp(const gather_scatter::GatherOp& op, const IndexOpForm& form) {
  const gather_scatter::GatherDimensionNumbers& dn = op.dimension_numbers;
  IndexedOp indexed;
  indexed.names = form.names.value_or(IndexOpForm::Names{"result", "operand", "start_indices"});
  indexed.indexShape =
      gather_scatter::inferGatherResultShape(dn, op.start_indices.shape, op.slice_sizes);
  indexed.startIndexMap = dn.start_index_map;
  indexed.tensorRank = op.operand.shape.size();
  indexed.indicesMap = gather_scatter::gatherOutputToStartIndicesMap(op);
  indexed.indexVectorDim = dn.index_vector_dim;
  indexed.indicesRank = op.start_indices.rank();
  indexed.indicesShape = op.start_indices.shape;
  indexed.pointAxes =
      gather_scatter::gatherBatchDims(dn, static_cast<int64_t>(indexed.indexShape.size()));
  for (int64_t d : dn.start_index_map)
    indexed.clampTop.push_back(!form.outOfRangeIsUndefined
                                   ? std::optional(op.operand.shape[d] - op.slice_sizes[d])
                                   : std::nullopt);
  indexed.outOfRange = form.outOfRangeIsUndefined ? OutOfRange::Undefined : OutOfRange::Clamped;
  indexed.map = gather_scatter::gatherOutputToOperandMap(op);
  return indexed;
}

IndexedOp indexedOp(const gather_scatter::ScatterOp& op, const IndexOpForm& form) {
  const gather_scatter::ScatterDimensionNumbers& dn = op.dimension_numbers;
  IndexedOp indexed;
  indexed.names = form.names.value_or(IndexOpForm::Names{"updates", "result", "scatter_indices"});
  indexed.indexShape = op.updates.at(0).shape;
  indexed.startIndexMap = dn.scatter_dims_to_operand_dims;
  indexed.tensorRank = op.inputs.at(0).shape.size();
  indexed.indicesMap = gather_scatter::scatterUpdateToIndicesMap(op);
  indexed.indexVectorDim = dn.index_vector_dim;
  indexed.indicesRank = op.scatter_indices.rank();
  indexed.indicesShape = op.scatter_indices.shape;
  indexed.pointAxes =
      gather_scatter::scatterUpdateScatterDims(dn, static_cast<int64_t>(indexed.indexShape.size()));
  indexed.clampTop.assign(dn.scatter_dims_to_operand_dims.size(), std::nullopt);
  indexed.outOfRange = form.outOfRangeIsUndefined ? OutOfRange::Undefined : OutOfRange::Skipped;
  indexed.map = gather_scatter::scatterUpdateToResultMap(op);
  return indexed;
}

std::vector<int64_t> fullStartIndex(const IndexedOp& op, const std::vector<int64_t>& vector,
                                    bool clamp) {
  std::vector<int64_t> full(op.tensorRank, 0);
  for (size_t k = 0; k < vector.size(); ++k)
    full[op.startIndexMap[k]] =
        clamp && op.clampTop[k] ? std::clamp<int64_t>(vector[k], 0, *op.clampTop[k]) : vector[k];
  return full;
}

}  // namespace idxmap::index_points
