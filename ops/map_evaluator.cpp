// Walks a map's domain in row-major order of its dimensions; the runtime variables come from
// the indices tensor, read where the indices map points.
#include "ops/map_evaluator.h"

#include <algorithm>
#include <stdexcept>

namespace idxmap::gather_scatter {
namespace {

using Index = std::vector<int64_t>;

Index evaluateResults(const IndexingMap& map, const Index& dims, const Index& rangeVars,
                      const Index& runtimeVars) {
  Index point;
  for (Expr result : map.results) point.push_back(result.evaluate(dims, rangeVars, runtimeVars));
  return point;
}

// The raw start indices at domain point `dims`: entry k is read where the indices map sends
// (dims, s0 = k), or (dims) when the index vector is implicit.
Index readStartIndices(const IndexingMap& indicesMap, const Tensor& indices, const Index& dims,
                       size_t count) {
  Index values;
  for (size_t k = 0; k < count; ++k) {
    Index rangeVars;
    if (!indicesMap.rangeVars.empty()) rangeVars.push_back(static_cast<int64_t>(k));
    Index position = evaluateResults(indicesMap, dims, rangeVars, {});
    values.push_back(indices.intAt(linearPosition(indices.shape, position)));
  }
  return values;
}

}  // namespace

Tensor mapGather(const GatherOp& op, const Tensor& operand, const Tensor& startIndices) {
  IndexingMap toOperand = gatherOutputToOperandMap(op);
  IndexingMap toIndices = gatherOutputToStartIndicesMap(op);
  // The result's shape, not the map's domain: a KNOWN EMPTY map no longer carries it.
  Index shape =
      op.result ? op.result->shape
                : inferGatherResultShape(op.dimension_numbers, startIndices.shape, op.slice_sizes);
  Tensor result = zeros(operand.element_type, shape);
  if (isEmptyShape(shape)) return result;
  Index dims(shape.size(), 0);
  do {
    Index runtimeVars =
        readStartIndices(toIndices, startIndices, dims, toOperand.runtimeVars.size());
    for (size_t k = 0; k < runtimeVars.size(); ++k) {
      const Interval& range = toOperand.runtimeVars[k].range;
      runtimeVars[k] = std::clamp(runtimeVars[k], range.lo, range.hi);
    }
    if (!toOperand.contains(dims, {}, runtimeVars))
      throw std::logic_error("a gather map excludes a result element");
    Index operandIndex = evaluateResults(toOperand, dims, {}, runtimeVars);
    int64_t from = linearPosition(operand.shape, operandIndex);
    int64_t to = linearPosition(shape, dims);
    if (result.isFloat())
      result.floats[to] = operand.floats.at(from);
    else
      result.ints[to] = operand.ints.at(from);
  } while (nextIndex(shape, dims));
  return result;
}

std::vector<Tensor> mapScatter(const ScatterOp& op, const std::vector<Tensor>& inputs,
                               const Tensor& scatterIndices, const std::vector<Tensor>& updates) {
  IndexingMap toResult = scatterUpdateToResultMap(op);
  IndexingMap toIndices = scatterUpdateToIndicesMap(op);
  std::vector<Tensor> results = inputs;
  const Index& shape = updates[0].shape;
  if (isEmptyShape(shape)) return results;
  Index dims(shape.size(), 0);
  do {
    Index runtimeVars =
        readStartIndices(toIndices, scatterIndices, dims, toResult.runtimeVars.size());
    if (!toResult.contains(dims, {}, runtimeVars)) continue;  // out of bounds: skipped
    Index resultIndex = evaluateResults(toResult, dims, {}, runtimeVars);
    applyUpdate(op.update_computation, results, linearPosition(inputs[0].shape, resultIndex),
                updates, linearPosition(updates[0].shape, dims));
  } while (nextIndex(shape, dims));
  return results;
}

}  // namespace idxmap::gather_scatter
