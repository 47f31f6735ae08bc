// Each engine computes where every update goes (a result position, or -1 when skipped); one
// loop then applies the caller's combine in row-major order of the updates.
#include "ops/scatter_with_region.h"

#include <algorithm>
#include <stdexcept>

namespace idxmap::gather_scatter {
namespace {

using Index = std::vector<int64_t>;

bool has(const Index& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// The spec's start_index: the index vector at `scatterIndex`, `:` inserted at
// index_vector_dim (or the single element when index_vector_dim is the rank).
Index startIndexAt(const Tensor& indices, const Index& scatterIndex, int64_t indexVectorDim) {
  if (indexVectorDim >= static_cast<int64_t>(indices.shape.size()))
    return {indices.intAt(linearPosition(indices.shape, scatterIndex))};
  Index start;
  for (int64_t k = 0; k < indices.shape[indexVectorDim]; ++k) {
    Index position = scatterIndex;
    position.insert(position.begin() + indexVectorDim, k);
    start.push_back(indices.intAt(linearPosition(indices.shape, position)));
  }
  return start;
}

// Spec 000, scatter, "More formally": full_start_index + full_batching_index +
// full_window_index, for every update index in row-major order.
Index referenceTargets(const ScatterOp& op, const Tensor& indices, const Index& updateShape,
                       const Index& inputShape) {
  const ScatterDimensionNumbers& dn = op.dimension_numbers;
  const size_t rank = inputShape.size();
  Index updateScatterDims;
  for (int64_t d = 0; d < static_cast<int64_t>(updateShape.size()); ++d)
    if (!has(dn.update_window_dims, d)) updateScatterDims.push_back(d);
  Index targets;
  Index updateIndex(updateShape.size(), 0);
  do {
    Index scatterIndex;
    for (int64_t d : updateScatterDims) scatterIndex.push_back(updateIndex[d]);
    Index start = startIndexAt(indices, scatterIndex, dn.index_vector_dim);
    Index resultIndex(rank, 0);
    for (size_t k = 0; k < dn.scatter_dims_to_operand_dims.size(); ++k)
      resultIndex[dn.scatter_dims_to_operand_dims[k]] += start[k];
    for (size_t i = 0; i < dn.input_batching_dims.size(); ++i) {
      int64_t dStart = dn.scatter_indices_batching_dims[i];
      resultIndex[dn.input_batching_dims[i]] +=
          scatterIndex[dStart - (dStart < dn.index_vector_dim ? 0 : 1)];
    }
    size_t window = 0;
    for (size_t d = 0; d < rank; ++d)
      if (!has(dn.inserted_window_dims, d) && !has(dn.input_batching_dims, d))
        resultIndex[d] += updateIndex[dn.update_window_dims[window++]];
    bool inBounds = true;
    for (size_t d = 0; d < rank; ++d)
      inBounds = inBounds && resultIndex[d] >= 0 && resultIndex[d] < inputShape[d];
    targets.push_back(inBounds ? linearPosition(inputShape, resultIndex) : -1);
  } while (nextIndex(updateShape, updateIndex));
  return targets;
}

Index evaluateResults(const IndexingMap& map, const Index& dims, const Index& rangeVars,
                      const Index& runtimeVars) {
  Index point;
  for (Expr result : map.results) point.push_back(result.evaluate(dims, rangeVars, runtimeVars));
  return point;
}

// The update -> result map walked point by point; the indices map supplies the runtime
// variables, and a point outside the map's domain is a skipped update.
Index mapTargets(const ScatterOp& op, const Tensor& indices, const Index& updateShape,
                 const Index& inputShape) {
  IndexingMap toResult = scatterUpdateToResultMap(op);
  IndexingMap toIndices = scatterUpdateToIndicesMap(op);
  Index targets;
  Index dims(updateShape.size(), 0);
  do {
    Index runtimeVars;
    for (size_t k = 0; k < toResult.runtimeVars.size(); ++k) {
      Index rangeVars;
      if (!toIndices.rangeVars.empty()) rangeVars.push_back(static_cast<int64_t>(k));
      Index at = evaluateResults(toIndices, dims, rangeVars, {});
      runtimeVars.push_back(indices.intAt(linearPosition(indices.shape, at)));
    }
    if (!toResult.contains(dims, {}, runtimeVars)) {
      targets.push_back(-1);
      continue;
    }
    targets.push_back(linearPosition(inputShape, evaluateResults(toResult, dims, {}, runtimeVars)));
  } while (nextIndex(updateShape, dims));
  return targets;
}

Tensor scalarOf(const Tensor& tensor, int64_t position) {
  Tensor scalar{tensor.element_type, {}, {}, {}};
  if (tensor.isFloat())
    scalar.floats.push_back(tensor.floats.at(position));
  else
    scalar.ints.push_back(tensor.ints.at(position));
  return scalar;
}

std::vector<Tensor> applyInOrder(const std::vector<Tensor>& inputs, const Index& targets,
                                 const std::vector<Tensor>& updates, const RegionCombine& combine) {
  std::vector<Tensor> results = inputs;
  for (size_t u = 0; u < targets.size(); ++u) {
    if (targets[u] < 0) continue;
    std::vector<Tensor> currents, values;
    for (size_t i = 0; i < results.size(); ++i) {
      currents.push_back(scalarOf(results[i], targets[u]));
      values.push_back(scalarOf(updates[i], static_cast<int64_t>(u)));
    }
    std::vector<Tensor> combined = combine(currents, values);
    if (combined.size() != results.size())
      throw std::invalid_argument("the update computation returned " +
                                  std::to_string(combined.size()) + " values for " +
                                  std::to_string(results.size()) + " inputs");
    for (size_t i = 0; i < results.size(); ++i) {
      const Tensor& value = combined[i];
      if (value.element_type != results[i].element_type || !value.shape.empty())
        throw std::invalid_argument("the update computation returned a " + value.element_type +
                                    " value of rank " + std::to_string(value.shape.size()) +
                                    " for a 0-d " + results[i].element_type + " result");
      if (value.isFloat())
        results[i].floats[targets[u]] = value.floats.at(0);
      else
        results[i].ints[targets[u]] = value.ints.at(0);
    }
  }
  return results;
}

}  // namespace

std::vector<Tensor> referenceScatterWithRegion(const ScatterOp& op,
                                               const std::vector<Tensor>& inputs,
                                               const Tensor& scatterIndices,
                                               const std::vector<Tensor>& updates,
                                               const RegionCombine& combine) {
  if (isEmptyShape(updates.at(0).shape)) return inputs;
  return applyInOrder(inputs,
                      referenceTargets(op, scatterIndices, updates[0].shape, inputs.at(0).shape),
                      updates, combine);
}

std::vector<Tensor> mapScatterWithRegion(const ScatterOp& op, const std::vector<Tensor>& inputs,
                                         const Tensor& scatterIndices,
                                         const std::vector<Tensor>& updates,
                                         const RegionCombine& combine) {
  if (isEmptyShape(updates.at(0).shape)) return inputs;
  return applyInOrder(inputs, mapTargets(op, scatterIndices, updates[0].shape, inputs.at(0).shape),
                      updates, combine);
}

}  // namespace idxmap::gather_scatter
