// The batching-dims decomposition of spec 000's "Compatibility" section.
#include "ops/stablehlo/decompose.h"

#include <algorithm>

namespace idxmap::gather_scatter {
namespace {

// Batching dims become dims started by the new index entries: appended to the start map,
// merged (sorted) into the collapsed / inserted dims.
void moveBatchingDims(std::vector<int64_t>& batchingDims, std::vector<int64_t>& startMap,
                      std::vector<int64_t>& collapsedDims) {
  startMap.insert(startMap.end(), batchingDims.begin(), batchingDims.end());
  collapsedDims.insert(collapsedDims.end(), batchingDims.begin(), batchingDims.end());
  std::sort(collapsedDims.begin(), collapsedDims.end());
  batchingDims.clear();
}

}  // namespace

std::vector<int64_t> grownIndicesShape(std::vector<int64_t> shape, int64_t indexVectorDim,
                                       int64_t extra) {
  if (indexVectorDim == static_cast<int64_t>(shape.size()))
    shape.push_back(1 + extra);
  else
    shape[indexVectorDim] += extra;
  return shape;
}

GatherOp decomposeBatchingDims(const GatherOp& op) {
  GatherOp old = op;
  GatherDimensionNumbers& dn = old.dimension_numbers;
  old.start_indices.shape =
      grownIndicesShape(op.start_indices.shape, dn.index_vector_dim,
                        static_cast<int64_t>(dn.operand_batching_dims.size()));
  moveBatchingDims(dn.operand_batching_dims, dn.start_index_map, dn.collapsed_slice_dims);
  dn.start_indices_batching_dims.clear();
  return old;
}

IndexingMap decomposedOutputToOperandMap(const GatherOp& op) {
  const GatherDimensionNumbers& dn = op.dimension_numbers;
  IndexingMap map = gatherOutputToOperandMap(decomposeBatchingDims(op));
  if (map.knownEmpty) return map;
  const size_t originalEntries = dn.start_index_map.size();
  std::vector<int64_t> batchDims = gatherBatchDims(dn, static_cast<int64_t>(map.dims.size()));
  std::vector<Expr> dims, runtimeVars;
  for (size_t d = 0; d < map.dims.size(); ++d) dims.push_back(Expr::dim(static_cast<unsigned>(d)));
  for (size_t k = 0; k < originalEntries; ++k)
    runtimeVars.push_back(Expr::runtimeVar(static_cast<unsigned>(k)));
  for (size_t i = 0; i < dn.start_indices_batching_dims.size(); ++i) {
    int64_t dStart = dn.start_indices_batching_dims[i];
    int64_t batchDim = batchDims[dStart - (dStart < dn.index_vector_dim ? 0 : 1)];
    Expr iota = Expr::dim(static_cast<unsigned>(batchDim));
    // The iota value stays in the range its runtime variable had: clamping must not move it.
    map.constraints.push_back({iota, map.runtimeVars[originalEntries + i].range});
    runtimeVars.push_back(iota);
  }
  for (Expr& result : map.results) result = result.replaceVariables(dims, {}, runtimeVars);
  map.runtimeVars.resize(originalEntries);
  return map;
}

ScatterOp decomposeBatchingDims(const ScatterOp& op) {
  ScatterOp old = op;
  ScatterDimensionNumbers& dn = old.dimension_numbers;
  old.scatter_indices.shape =
      grownIndicesShape(op.scatter_indices.shape, dn.index_vector_dim,
                        static_cast<int64_t>(dn.input_batching_dims.size()));
  moveBatchingDims(dn.input_batching_dims, dn.scatter_dims_to_operand_dims,
                   dn.inserted_window_dims);
  dn.scatter_indices_batching_dims.clear();
  return old;
}

}  // namespace idxmap::gather_scatter
