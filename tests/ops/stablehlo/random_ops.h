// Random valid gather / scatter attribute sets on small shapes, for the randomized tests:
// batching dims, collapsed (inserted) dims, every placement of the index vector, empty
// slices now and then.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "ops/eval/tensor.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter::testing {

// The attributes a gather and a scatter share, in gather's words; a scatter reads offset dims
// as update window dims, collapsed dims as inserted window dims, slice sizes as window sizes.
struct RandomOp {
  std::vector<int64_t> operandShape;
  std::vector<int64_t> indicesShape;
  GatherDimensionNumbers dims;
  std::vector<int64_t> sliceSizes;
  std::vector<int64_t> resultShape;
};

inline int64_t uniform(std::mt19937& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

inline RandomOp randomOp(std::mt19937& rng) {
  RandomOp op;
  const int64_t rank = uniform(rng, 1, 3);
  for (int64_t d = 0; d < rank; ++d) op.operandShape.push_back(uniform(rng, 1, 4));

  // Each operand dim is a batching, collapsed or offset dim.
  std::vector<int64_t> kind(rank);  // 0 offset, 1 collapsed, 2 batching
  for (int64_t d = 0; d < rank; ++d) kind[d] = uniform(rng, 0, 2);
  op.sliceSizes.resize(rank);
  std::vector<int64_t> notBatching;
  for (int64_t d = 0; d < rank; ++d) {
    if (kind[d] == 2) op.dims.operand_batching_dims.push_back(d);
    if (kind[d] == 1) op.dims.collapsed_slice_dims.push_back(d);
    if (kind[d] != 2) notBatching.push_back(d);
    // Now and then an empty slice, so empty results and KNOWN EMPTY maps come up too.
    int64_t smallest = uniform(rng, 0, 9) == 0 ? 0 : 1;
    op.sliceSizes[d] = kind[d] == 0 ? uniform(rng, smallest, op.operandShape[d]) : 1;
  }
  std::shuffle(notBatching.begin(), notBatching.end(), rng);
  notBatching.resize(uniform(rng, 0, static_cast<int64_t>(notBatching.size())));
  op.dims.start_index_map = notBatching;
  const auto indexCount = static_cast<int64_t>(op.dims.start_index_map.size());

  // Indices axes: one per batching dim (same size), some implicit batch axes, and the index
  // vector axis unless the vector is implicit (a single start index may leave it out).
  struct Axis {
    int64_t size;
    int64_t batchingDim;  // the operand batching dim it pairs with, or -1
  };
  std::vector<Axis> axes;
  for (int64_t d : op.dims.operand_batching_dims) axes.push_back({op.operandShape[d], d});
  for (int64_t i = uniform(rng, 0, 2); i > 0; --i) axes.push_back({uniform(rng, 1, 3), -1});
  std::shuffle(axes.begin(), axes.end(), rng);
  const bool implicitVector = indexCount == 1 && uniform(rng, 0, 1) == 1;
  op.dims.index_vector_dim = implicitVector ? static_cast<int64_t>(axes.size())
                                            : uniform(rng, 0, static_cast<int64_t>(axes.size()));
  if (!implicitVector) axes.insert(axes.begin() + op.dims.index_vector_dim, {indexCount, -1});
  for (const Axis& axis : axes) op.indicesShape.push_back(axis.size);
  for (int64_t d : op.dims.operand_batching_dims)
    for (size_t a = 0; a < axes.size(); ++a)
      if (axes[a].batchingDim == d)
        op.dims.start_indices_batching_dims.push_back(static_cast<int64_t>(a));

  // Result: batch axes and offset axes interleaved at random, offset axes in order.
  const int64_t batchRank = static_cast<int64_t>(axes.size()) - (implicitVector ? 0 : 1);
  std::vector<int64_t> offsetSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (kind[d] == 0) offsetSizes.push_back(op.sliceSizes[d]);
  std::vector<bool> isOffset(batchRank + offsetSizes.size(), false);
  std::fill(isOffset.begin(), isOffset.begin() + offsetSizes.size(), true);
  std::shuffle(isOffset.begin(), isOffset.end(), rng);
  for (size_t axis = 0; axis < isOffset.size(); ++axis)
    if (isOffset[axis]) op.dims.offset_dims.push_back(static_cast<int64_t>(axis));
  op.resultShape = inferGatherResultShape(op.dims, op.indicesShape, op.sliceSizes);
  return op;
}

// Start indices from a window's length below 0 to 2 past the largest operand dim: in bounds,
// partly out (a window hanging over either edge) and wholly out.
inline Tensor randomIndices(std::mt19937& rng, const RandomOp& op) {
  Tensor indices = zeros("i32", op.indicesShape);
  int64_t largest = *std::max_element(op.operandShape.begin(), op.operandShape.end());
  for (int64_t& value : indices.ints) value = uniform(rng, -largest - 1, largest + 2);
  return indices;
}

// Distinct values, so reading the wrong element shows.
inline Tensor distinctValues(const std::string& type, const std::vector<int64_t>& shape,
                             int64_t base) {
  Tensor tensor = zeros(type, shape);
  for (size_t i = 0; i < tensor.ints.size(); ++i) tensor.ints[i] = base + static_cast<int64_t>(i);
  return tensor;
}

// The op as a gather with i64 values and i32 indices.
inline GatherOp asGatherOp(const RandomOp& random) {
  GatherOp op;
  op.operand = {random.operandShape, "i64"};
  op.start_indices = {random.indicesShape, "i32"};
  op.dimension_numbers = random.dims;
  op.slice_sizes = random.sliceSizes;
  op.result = TensorType{random.resultShape, "i64"};
  return op;
}

// The op as a scatter of (i64, f64) inputs: gather's result shape is the updates' shape.
inline ScatterOp asScatterOp(const RandomOp& random, UpdateComputation computation) {
  ScatterOp op;
  op.inputs = {{random.operandShape, "i64"}, {random.operandShape, "f64"}};
  op.scatter_indices = {random.indicesShape, "i32"};
  op.updates = {{random.resultShape, "i64"}, {random.resultShape, "f64"}};
  op.dimension_numbers.update_window_dims = random.dims.offset_dims;
  op.dimension_numbers.inserted_window_dims = random.dims.collapsed_slice_dims;
  op.dimension_numbers.input_batching_dims = random.dims.operand_batching_dims;
  op.dimension_numbers.scatter_indices_batching_dims = random.dims.start_indices_batching_dims;
  op.dimension_numbers.scatter_dims_to_operand_dims = random.dims.start_index_map;
  op.dimension_numbers.index_vector_dim = random.dims.index_vector_dim;
  op.update_computation = computation;
  return op;
}

}  // namespace idxmap::gather_scatter::testing
