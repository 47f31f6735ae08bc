// Walks a map's domain in row-major order of its dimensions; the runtime variables come from
// the indices tensor, read where the indices map points. Two ways of walking, one result:
// the compiled walk (map_evaluator_walk.h) whenever the maps are affine and provably in
// bounds over tensors that match the op's types, which is every valid op; otherwise each
// point's Exprs are evaluated as they stand, with every check they carry.
#include "ops/eval/map_evaluator.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "ops/eval/map_evaluator_walk.h"

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

// The per-point walks, for what the compiled walk does not cover.
void gatherByPoints(const IndexingMap& toOperand, const IndexingMap& toIndices,
                    const Tensor& operand, const Tensor& startIndices, Tensor& result) {
  const Index& shape = result.shape;
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
    copyElement(operand, linearPosition(operand.shape, operandIndex), result,
                linearPosition(shape, dims));
  } while (nextIndex(shape, dims));
}

// Whether `tensor` has the shape `shape` and holds exactly its element count of values
// (as ints or as floats by its own element type): then positions below the count are safe.
bool holds(const Tensor& tensor, const std::vector<int64_t>& shape) {
  if (tensor.shape != shape) return false;
  auto count = static_cast<size_t>(tensor.elementCount());
  return tensor.isFloat() ? tensor.floats.size() == count : tensor.ints.size() == count;
}

// Start indices are read from `ints`, whatever their element type says.
bool holdsIndices(const Tensor& indices, const std::vector<int64_t>& shape) {
  return indices.shape == shape &&
         indices.ints.size() == static_cast<size_t>(indices.elementCount());
}

template <class T>
void gatherRuns(const AffineWalk& walk, const int64_t* indices, const T* operand, T* result) {
  walkRuns(walk, indices, [&](int64_t from, int64_t stride, int64_t to, int64_t count) {
    if (stride == 1)
      std::copy_n(operand + from, count, result + to);
    else
      for (int64_t t = 0; t < count; ++t) result[to + t] = operand[from + t * stride];
  });
}

template <class T>
void scatterRuns(const AffineWalk& walk, const int64_t* indices, const ElementCombiner& combiner,
                 const T* updates, T* result) {
  walkRuns(walk, indices, [&](int64_t to, int64_t stride, int64_t from, int64_t count) {
    combiner.combineRun(result + to, stride, updates + from, count);
  });
}

}  // namespace

void forEachMapScatterTarget(const ScatterOp& op, const Tensor& scatterIndices,
                             const Index& updateShape, const Index& inputShape,
                             const std::function<void(int64_t, int64_t)>& visit) {
  if (isEmptyShape(updateShape)) return;
  IndexingMap toResult = scatterUpdateToResultMap(op);
  IndexingMap toIndices = scatterUpdateToIndicesMap(op);
  Index dims(updateShape.size(), 0);
  do {
    Index runtimeVars =
        readStartIndices(toIndices, scatterIndices, dims, toResult.runtimeVars.size());
    if (!toResult.contains(dims, {}, runtimeVars)) continue;  // out of bounds: skipped
    Index resultIndex = evaluateResults(toResult, dims, {}, runtimeVars);
    visit(linearPosition(updateShape, dims), linearPosition(inputShape, resultIndex));
  } while (nextIndex(updateShape, dims));
}

Tensor mapGather(const GatherOp& op, const Tensor& operand, const Tensor& startIndices) {
  IndexingMap toOperand = gatherOutputToOperandMap(op);
  IndexingMap toIndices = gatherOutputToStartIndicesMap(op);
  // The result's shape, not the map's domain: a KNOWN EMPTY map no longer carries it.
  Index shape =
      op.result ? op.result->shape
                : inferGatherResultShape(op.dimension_numbers, startIndices.shape, op.slice_sizes);
  Tensor result = zeros(operand.element_type, shape);
  if (isEmptyShape(shape)) return result;
  std::optional<AffineWalk> walk;
  if (holds(operand, op.operand.shape) &&
      (toOperand.runtimeVars.empty() || holdsIndices(startIndices, op.start_indices.shape)))
    walk = planWalk(toOperand, operand.shape, toIndices, startIndices.shape, shape, true);
  if (!walk)
    gatherByPoints(toOperand, toIndices, operand, startIndices, result);
  else if (result.isFloat())
    gatherRuns(*walk, startIndices.ints.data(), operand.floats.data(), result.floats.data());
  else
    gatherRuns(*walk, startIndices.ints.data(), operand.ints.data(), result.ints.data());
  return result;
}

std::vector<Tensor> mapScatter(const ScatterOp& op, const std::vector<Tensor>& inputs,
                               const Tensor& scatterIndices, const std::vector<Tensor>& updates) {
  IndexingMap toResult = scatterUpdateToResultMap(op);
  IndexingMap toIndices = scatterUpdateToIndicesMap(op);
  std::vector<Tensor> results = inputs;
  const Index& shape = updates[0].shape;
  if (isEmptyShape(shape)) return results;
  // kOther throws at the first update applied, if any: the per-point walk keeps that timing.
  bool regular =
      op.update_computation != UpdateComputation::kOther && !op.inputs.empty() &&
      !op.updates.empty() && !inputs.empty() && inputs.size() == updates.size() &&
      (toResult.runtimeVars.empty() || holdsIndices(scatterIndices, op.scatter_indices.shape));
  for (size_t i = 0; regular && i < inputs.size(); ++i)
    regular = holds(inputs[i], op.inputs[0].shape) && holds(updates[i], op.updates[0].shape) &&
              inputs[i].isFloat() == updates[i].isFloat();
  std::optional<AffineWalk> walk;
  if (regular)
    walk = planWalk(toResult, inputs[0].shape, toIndices, scatterIndices.shape, shape, false);
  if (!walk) {
    forEachMapScatterTarget(op, scatterIndices, shape, inputs[0].shape,
                            [&](int64_t updatePosition, int64_t resultPosition) {
                              applyUpdate(op.update_computation, results, resultPosition, updates,
                                          updatePosition);
                            });
    return results;
  }
  // Each result depends only on its own updates, so the results can be walked one at a time.
  for (size_t i = 0; i < results.size(); ++i) {
    ElementCombiner combiner(op.update_computation, results[i].element_type);
    if (results[i].isFloat())
      scatterRuns(*walk, scatterIndices.ints.data(), combiner, updates[i].floats.data(),
                  results[i].floats.data());
    else
      scatterRuns(*walk, scatterIndices.ints.data(), combiner, updates[i].ints.data(),
                  results[i].ints.data());
  }
  return results;
}

}  // namespace idxmap::gather_scatter
