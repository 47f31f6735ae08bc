// Brute force for the index provers' tests: the spec's formulas (spec 000) applied point by
// point to a concrete index tensor — full start indices, applied scatter targets, and whether
// unique, sorted and in bounds hold.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <isl/map.h>

#include "core/bridges/isl_bridge.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"
#include "tests/ops/stablehlo/random_ops.h"
#include "verify/index_points.h"

namespace idxmap::index_truth {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using gather_scatter::Tensor;
using Index = std::vector<int64_t>;

// The tensor's values as index provenance states them: { [p] -> [v] } point by point.
inline index_provenance::IndexValues valuesOf(const Tensor& tensor) {
  std::string text;
  if (gather_scatter::isEmptyShape(tensor.shape)) {
    Index zeros(tensor.shape.size(), 0);  // no point: an empty relation of the right arity
    text = "{ " + index_points::text(zeros) + " -> [v] : 1 = 0 }";
  } else {
    Index point(tensor.shape.size(), 0);
    do {
      text += (text.empty() ? "{ " : "; ") + index_points::text(point) + " -> [" +
              std::to_string(tensor.intAt(gather_scatter::linearPosition(tensor.shape, point))) +
              "]";
    } while (gather_scatter::nextIndex(tensor.shape, point));
    text += " }";
  }
  return {tensor.shape, isl_bridge::own(isl_map_read_from_str(islContext().get(), text.c_str())),
          "a test tensor", true};
}

// Index values of three kinds, so that every verdict comes up: random (out of bounds and
// repeated), sorted small values, and an in-bounds permutation-like spread.
inline Tensor indicesFor(std::mt19937& rng, const gather_scatter::testing::RandomOp& op) {
  using namespace gather_scatter::testing;
  Tensor indices = randomIndices(rng, op);
  switch (uniform(rng, 0, 2)) {
    case 0:
      break;
    case 1:
      for (int64_t& value : indices.ints) value = uniform(rng, 0, 2);
      std::sort(indices.ints.begin(), indices.ints.end());
      break;
    default:
      for (size_t i = 0; i < indices.ints.size(); ++i)
        indices.ints[i] = static_cast<int64_t>(i) % 3;
  }
  return indices;
}

// The start index vector at a batch position, from the spec's formula.
inline Index startIndexAt(const Tensor& indices, const Index& batch, int64_t indexVectorDim) {
  const bool explicitVector = indexVectorDim < static_cast<int64_t>(indices.shape.size());
  int64_t length = explicitVector ? indices.shape[indexVectorDim] : 1;
  Index vector;
  for (int64_t k = 0; k < length; ++k) {
    Index point = batch;
    if (explicitVector) point.insert(point.begin() + indexVectorDim, k);
    vector.push_back(indices.intAt(gather_scatter::linearPosition(indices.shape, point)));
  }
  return vector;
}

inline Index select(const Index& index, const Index& axes) {
  Index out;
  for (int64_t axis : axes) out.push_back(index[axis]);
  return out;
}

// The full start index at one point of the index space (spec 000), gather's clamped.
inline Index gatherFullStart(const GatherOp& op, const Tensor& indices, const Index& resultIndex,
                             bool clamp) {
  const auto& dn = op.dimension_numbers;
  Index batchDims = gather_scatter::gatherBatchDims(dn, static_cast<int64_t>(resultIndex.size()));
  Index start = startIndexAt(indices, select(resultIndex, batchDims), dn.index_vector_dim);
  Index full(op.operand.shape.size(), 0);
  for (size_t k = 0; k < dn.start_index_map.size(); ++k) {
    int64_t d = dn.start_index_map[k], top = op.operand.shape[d] - op.slice_sizes[d];
    full[d] = clamp ? std::clamp<int64_t>(start[k], 0, top) : start[k];
  }
  return full;
}

inline Index scatterFullStart(const ScatterOp& op, const Tensor& indices,
                              const Index& updateIndex) {
  const auto& dn = op.dimension_numbers;
  Index scatterDims =
      gather_scatter::scatterUpdateScatterDims(dn, static_cast<int64_t>(updateIndex.size()));
  Index start = startIndexAt(indices, select(updateIndex, scatterDims), dn.index_vector_dim);
  Index full(op.inputs[0].shape.size(), 0);
  for (size_t k = 0; k < dn.scatter_dims_to_operand_dims.size(); ++k)
    full[dn.scatter_dims_to_operand_dims[k]] = start[k];
  return full;
}

// update position -> result position of every applied update (spec 000's exec).
inline std::map<int64_t, int64_t> scatterTargets(const ScatterOp& op, const Tensor& indices) {
  std::map<int64_t, int64_t> targets;
  gather_scatter::forEachReferenceScatterTarget(
      op, indices, op.updates[0].shape, op.inputs[0].shape,
      [&](int64_t update, int64_t result) { targets[update] = result; });
  return targets;
}

// Brute force, following spec 000 point by point.
struct Truth {
  bool unique = true;
  bool sorted = true;
  bool inBounds = true;
};

inline Truth gatherTruth(const GatherOp& op, const Tensor& indices, const Index& resultShape) {
  const auto& dn = op.dimension_numbers;
  Truth truth;
  if (gather_scatter::isEmptyShape(resultShape)) return truth;
  Index batchDims = gather_scatter::gatherBatchDims(dn, static_cast<int64_t>(resultShape.size()));
  Index resultIndex(resultShape.size(), 0);
  std::optional<Index> previous;
  do {
    Index start = startIndexAt(indices, select(resultIndex, batchDims), dn.index_vector_dim);
    Index full(op.operand.shape.size(), 0);
    for (size_t k = 0; k < dn.start_index_map.size(); ++k) {
      int64_t d = dn.start_index_map[k], top = op.operand.shape[d] - op.slice_sizes[d];
      truth.inBounds = truth.inBounds && start[k] >= 0 && start[k] <= top;
      full[d] = std::clamp<int64_t>(start[k], 0, top);
    }
    // Lexicographic order is total: all pairs in order iff every neighbour is.
    if (previous && full < *previous) truth.sorted = false;
    previous = full;
  } while (gather_scatter::nextIndex(resultShape, resultIndex));
  return truth;
}

inline Truth scatterTruth(const ScatterOp& op, const Tensor& indices) {
  const auto& dn = op.dimension_numbers;
  const Index& updateShape = op.updates[0].shape;
  Truth truth;
  int64_t applied = 0;
  std::set<int64_t> written;
  gather_scatter::forEachReferenceScatterTarget(op, indices, updateShape, op.inputs[0].shape,
                                                [&](int64_t, int64_t resultPosition) {
                                                  ++applied;
                                                  if (!written.insert(resultPosition).second)
                                                    truth.unique = false;
                                                });
  if (gather_scatter::isEmptyShape(updateShape)) return truth;
  int64_t updates = 1;
  for (int64_t size : updateShape) updates *= size;
  truth.inBounds = applied == updates;
  Index scatterDims =
      gather_scatter::scatterUpdateScatterDims(dn, static_cast<int64_t>(updateShape.size()));
  Index updateIndex(updateShape.size(), 0);
  std::optional<Index> previous;
  do {
    Index start = startIndexAt(indices, select(updateIndex, scatterDims), dn.index_vector_dim);
    Index full(op.inputs[0].shape.size(), 0);
    for (size_t k = 0; k < dn.scatter_dims_to_operand_dims.size(); ++k)
      full[dn.scatter_dims_to_operand_dims[k]] = start[k];
    if (previous && full < *previous) truth.sorted = false;
    previous = full;
  } while (gather_scatter::nextIndex(updateShape, updateIndex));
  return truth;
}

}  // namespace idxmap::index_truth
