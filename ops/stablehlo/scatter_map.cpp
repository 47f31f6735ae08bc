// Scatter's indexing maps, from the spec's formula
//   result_index = full_start_index + full_batching_index + full_window_index.
// Scatter does not clamp: an update whose result index falls outside the input is skipped.
// The map says so exactly: a constraint keeps each coordinate that depends on a start index
// inside the input, so such update indices have no image; the other coordinates are inside by
// C4 unless the input has no element at all.
#include <algorithm>

#include "ops/stablehlo/gather_scatter.h"
#include "ops/stablehlo/index_space_map.h"

namespace idxmap::gather_scatter {

IndexingMap scatterUpdateToResultMap(const ScatterOp& op) {
  const ScatterDimensionNumbers& dn = op.dimension_numbers;
  const std::vector<int64_t>& updateShape = op.updates[0].shape;
  const std::vector<int64_t>& inputShape = op.inputs[0].shape;
  IndexingMap map = domainOver(updateShape);
  std::vector<int64_t> scatterDims =
      scatterUpdateScatterDims(dn, static_cast<int64_t>(updateShape.size()));

  std::vector<Expr> resultIndex(inputShape.size(), Expr::constant(0));
  std::vector<int64_t> windowSize(inputShape.size(), 1);
  size_t nextWindow = 0;
  for (size_t d = 0; d < inputShape.size(); ++d) {
    auto axis = static_cast<int64_t>(d);
    if (isIn(dn.inserted_window_dims, axis) || isIn(dn.input_batching_dims, axis)) continue;
    int64_t updateAxis = dn.update_window_dims[nextWindow++];
    windowSize[d] = updateShape[updateAxis];
    resultIndex[d] = resultIndex[d] + Expr::dim(static_cast<unsigned>(updateAxis));
  }
  for (size_t i = 0; i < dn.input_batching_dims.size(); ++i) {
    int64_t d = dn.input_batching_dims[i];
    int64_t position = batchPosition(dn.scatter_indices_batching_dims[i], dn.index_vector_dim);
    resultIndex[d] = resultIndex[d] + Expr::dim(static_cast<unsigned>(scatterDims[position]));
  }
  for (size_t k = 0; k < dn.scatter_dims_to_operand_dims.size(); ++k) {
    int64_t d = dn.scatter_dims_to_operand_dims[k];
    // Start values outside this range put every window element out of bounds; giving them no
    // image is the same as the constraint below rejecting them.
    // (A zero-sized window has no points: the range then only needs to stay non-empty.)
    map.runtimeVars.push_back({{std::min<int64_t>(0, 1 - windowSize[d]), inputShape[d] - 1}, ""});
    resultIndex[d] = resultIndex[d] + Expr::runtimeVar(static_cast<unsigned>(k));
    map.constraints.push_back({resultIndex[d], {0, inputShape[d] - 1}});
  }
  map.results = std::move(resultIndex);
  // A result with no element takes no update (every result index is out of bounds), even one
  // whose coordinate on an empty axis is the constant 0 of an inserted dim no index starts.
  if (std::count(inputShape.begin(), inputShape.end(), 0) > 0) map.markKnownEmpty();
  return markEmptyDomain(std::move(map));
}

IndexingMap scatterUpdateToIndicesMap(const ScatterOp& op) {
  const std::vector<int64_t>& updateShape = op.updates[0].shape;
  std::vector<int64_t> scatterDims =
      scatterUpdateScatterDims(op.dimension_numbers, static_cast<int64_t>(updateShape.size()));
  return indicesMap(updateShape, scatterDims, op.scatter_indices.shape,
                    op.dimension_numbers.index_vector_dim);
}

}  // namespace idxmap::gather_scatter
