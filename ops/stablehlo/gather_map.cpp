// Gather's indexing maps, built term by term from the spec's formula
//   operand_index = full_start_index + full_batching_index + full_offset_index.
// The start indices are values read at run time: each becomes a runtime variable whose range
// is what clamping leaves, [0, dim(operand) - slice_size].
#include "ops/stablehlo/gather_scatter.h"
#include "ops/stablehlo/index_space_map.h"

namespace idxmap::gather_scatter {
namespace {

std::vector<int64_t> resultShapeOf(const GatherOp& op) {
  if (op.result) return op.result->shape;
  return inferGatherResultShape(op.dimension_numbers, op.start_indices.shape, op.slice_sizes);
}

}  // namespace

IndexingMap gatherOutputToOperandMap(const GatherOp& op) {
  const GatherDimensionNumbers& dn = op.dimension_numbers;
  std::vector<int64_t> resultShape = resultShapeOf(op);
  IndexingMap map = domainOver(resultShape);
  std::vector<int64_t> batchDims = gatherBatchDims(dn, static_cast<int64_t>(resultShape.size()));

  std::vector<Expr> operandIndex(op.operand.shape.size(), Expr::constant(0));
  for (size_t k = 0; k < dn.start_index_map.size(); ++k) {
    int64_t d = dn.start_index_map[k];
    map.runtimeVars.push_back({{0, op.operand.shape[d] - op.slice_sizes[d]}, ""});
    operandIndex[d] = operandIndex[d] + Expr::runtimeVar(static_cast<unsigned>(k));
  }
  for (size_t i = 0; i < dn.operand_batching_dims.size(); ++i) {
    int64_t d = dn.operand_batching_dims[i];
    int64_t position = batchPosition(dn.start_indices_batching_dims[i], dn.index_vector_dim);
    operandIndex[d] = operandIndex[d] + Expr::dim(static_cast<unsigned>(batchDims[position]));
  }
  size_t nextOffset = 0;
  for (size_t d = 0; d < operandIndex.size(); ++d) {
    auto axis = static_cast<int64_t>(d);
    if (isIn(dn.collapsed_slice_dims, axis) || isIn(dn.operand_batching_dims, axis)) continue;
    unsigned offsetDim = static_cast<unsigned>(dn.offset_dims[nextOffset++]);
    operandIndex[d] = operandIndex[d] + Expr::dim(offsetDim);
  }
  map.results = std::move(operandIndex);
  return markEmptyDomain(std::move(map));
}

IndexingMap gatherOutputToStartIndicesMap(const GatherOp& op) {
  std::vector<int64_t> resultShape = resultShapeOf(op);
  std::vector<int64_t> batchDims =
      gatherBatchDims(op.dimension_numbers, static_cast<int64_t>(resultShape.size()));
  return indicesMap(resultShape, batchDims, op.start_indices.shape,
                    op.dimension_numbers.index_vector_dim);
}

}  // namespace idxmap::gather_scatter
