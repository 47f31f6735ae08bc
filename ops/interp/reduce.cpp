// Reductions: reduce and reduce_window. The body (a region, or the op a pretty
// `applies stablehlo.add` names) folds each element into an accumulator that starts at the
// init value, in row-major order of the reduced positions: one order among those the spec
// allows, the one StableHLO's own interpreter takes.
#include <algorithm>
#include <functional>
#include <memory>

#include "core/checked.h"
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

using gather_scatter::linearPosition;
using gather_scatter::nextIndex;

using Combine = std::function<std::vector<Tensor>(const std::vector<Tensor>& accumulators,
                                                  const std::vector<Tensor>& elements)>;

// The body of a reduce-like op over `count` inputs: its region, or the pretty form's
// `applies OP` (the op applied to the accumulator and the element).
Combine combineOf(const OpContext& ctx, size_t count) {
  const std::vector<std::string>& words = ctx.op.keywords;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] != "applies") continue;
    auto applied = std::make_shared<mlir_ir::Operation>();
    applied->name = words[i + 1];
    applied->location = ctx.op.location;
    return [&ctx, applied](const std::vector<Tensor>& accumulators,
                           const std::vector<Tensor>& elements) {
      std::vector<Tensor> combined;
      for (size_t k = 0; k < accumulators.size(); ++k) {
        std::vector<Tensor> one =
            ctx.interpreter.evaluate(*applied, {accumulators[k], elements[k]});
        combined.push_back(std::move(one.at(0)));
      }
      return combined;
    };
  }
  const mlir_ir::Block& block = regionBlock(ctx, 0, "the body");
  return [&ctx, &block, count](const std::vector<Tensor>& accumulators,
                               const std::vector<Tensor>& elements) {
    std::vector<Tensor> arguments = accumulators;
    arguments.insert(arguments.end(), elements.begin(), elements.end());
    std::vector<Tensor> combined = ctx.interpreter.runBlock(block, arguments);
    if (combined.size() != count)
      fail(ctx, "the body returns " + std::to_string(combined.size()) + " value(s) for " +
                    std::to_string(count) + " input(s)");
    for (size_t k = 0; k < count; ++k)
      if (combined[k].element_type != accumulators[k].element_type || !combined[k].shape.empty())
        fail(ctx, "the body returns " + describeType(combined[k]) + " where tensor<" +
                      accumulators[k].element_type + "> is needed");
    return combined;
  };
}

// Inputs and init values: the operands' two halves, checked against each other.
size_t inputCount(const OpContext& ctx) {
  size_t count = ctx.operands.size() / 2;
  if (count == 0 || ctx.operands.size() % 2 != 0)
    fail(ctx, "takes inputs and as many init values, found " + std::to_string(ctx.operands.size()) +
                  " operand(s)");
  for (size_t k = 0; k < count; ++k) {
    const Tensor &input = ctx.operands[k], &init = ctx.operands[count + k];
    if (input.shape != ctx.operands[0].shape)
      fail(ctx, "inputs must have one shape, found " + describeType(ctx.operands[0]) + " and " +
                    describeType(input));
    if (!init.shape.empty() || init.element_type != input.element_type)
      fail(ctx, "init value " + std::to_string(k) + " must be tensor<" + input.element_type +
                    ">, found " + describeType(init));
  }
  return count;
}

// The elements at `position` of tensors[first, first + count) as 0-d tensors.
std::vector<Tensor> elementsAt(const std::vector<Tensor>& tensors, size_t first, size_t count,
                               int64_t position) {
  std::vector<Tensor> elements;
  for (size_t k = 0; k < count; ++k) elements.push_back(scalarAt(tensors[first + k], position));
  return elements;
}

std::vector<Tensor> reduce(const OpContext& ctx) {
  size_t count = inputCount(ctx);
  const std::vector<int64_t>& shape = ctx.operands[0].shape;
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t d : intsAttribute(ctx, {"dimensions"})) {
    if (d < 0 || d >= rank || reduced[d])
      fail(ctx, "dimensions must be distinct dimensions of the rank-" + std::to_string(rank) +
                    " inputs, found " + std::to_string(d));
    reduced[d] = true;
  }
  std::vector<int64_t> resultShape;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d]) resultShape.push_back(shape[d]);
  std::vector<Tensor> results;
  for (size_t k = 0; k < count; ++k) {
    results.push_back(makeTensor(ctx, ctx.operands[k].element_type, resultShape));
    for (int64_t i = 0; i < results[k].elementCount(); ++i)
      copyElement(ctx.operands[count + k], 0, results[k], i);
  }
  if (ctx.operands[0].elementCount() == 0) return results;
  Combine combine = combineOf(ctx, count);
  std::vector<int64_t> index(shape.size(), 0), kept;
  do {
    kept.clear();
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d]) kept.push_back(index[d]);
    int64_t from = linearPosition(shape, index), to = linearPosition(resultShape, kept);
    std::vector<Tensor> combined =
        combine(elementsAt(results, 0, count, to), elementsAt(ctx.operands, 0, count, from));
    for (size_t k = 0; k < count; ++k) copyElement(combined[k], 0, results[k], to);
  } while (nextIndex(shape, index));
  return results;
}

// `padding`: a rank x 2 dense attribute (`dense<[[0, 0], [1, 1]]>`), zeros when absent.
std::vector<std::pair<int64_t, int64_t>> paddingAttribute(const OpContext& ctx, size_t rank) {
  std::vector<std::pair<int64_t, int64_t>> padding(rank, {0, 0});
  const mlir_ir::Attribute* written = findAttribute(ctx, {"padding"});
  if (!written) return padding;
  if (!written->dense || !written->dense->floats.empty() ||
      written->dense->type.elementCount() != static_cast<int64_t>(2 * rank))
    throw InterpretError(written->location,
                         ctx.op.name + ": padding must be " + std::to_string(rank) + "x2 integers");
  for (size_t d = 0; d < rank; ++d)
    padding[d] = {written->dense->intAt(2 * d), written->dense->intAt(2 * d + 1)};
  return padding;
}

std::vector<int64_t> sizesOr(const OpContext& ctx, std::string_view name, size_t rank) {
  if (!findAttribute(ctx, {name})) return std::vector<int64_t>(rank, 1);
  std::vector<int64_t> sizes = intsAttribute(ctx, {name});
  if (sizes.size() != rank)
    fail(ctx, std::string(name) + " must have " + std::to_string(rank) + " entries");
  for (int64_t size : sizes)
    if (size <= 0) fail(ctx, std::string(name) + " must be positive");
  return sizes;
}

std::vector<Tensor> reduceWindow(const OpContext& ctx) {
  size_t count = inputCount(ctx);
  const std::vector<int64_t>& shape = ctx.operands[0].shape;
  size_t rank = shape.size();
  if (!findAttribute(ctx, {"window_dimensions"})) fail(ctx, "missing `window_dimensions`");
  std::vector<int64_t> window = sizesOr(ctx, "window_dimensions", rank);
  std::vector<int64_t> strides = sizesOr(ctx, "window_strides", rank),
                       baseDilations = sizesOr(ctx, "base_dilations", rank),
                       windowDilations = sizesOr(ctx, "window_dilations", rank);
  std::vector<std::pair<int64_t, int64_t>> padding = paddingAttribute(ctx, rank);
  std::vector<int64_t> resultShape(rank);
  for (size_t d = 0; d < rank; ++d) {  // absurd attributes overflow: a located error
    int64_t dilated = shape[d] == 0 ? 0 : checkedAdd(checkedMul(shape[d] - 1, baseDilations[d]), 1);
    int64_t padded = checkedAdd(checkedAdd(dilated, padding[d].first), padding[d].second);
    int64_t span = checkedAdd(checkedMul(window[d] - 1, windowDilations[d]), 1);
    resultShape[d] = padded < span ? 0 : (padded - span) / strides[d] + 1;
  }
  std::vector<Tensor> results;
  for (size_t k = 0; k < count; ++k)
    results.push_back(makeTensor(ctx, ctx.operands[k].element_type, resultShape));
  if (results[0].elementCount() == 0) return results;
  // Every result element visits its whole window: refuse work no test program needs.
  if (checkedElementCount(ctx, window) > kMaxElements / results[0].elementCount())
    fail(ctx, "windows of " + std::to_string(checkedElementCount(ctx, window)) + " elements over " +
                  std::to_string(results[0].elementCount()) +
                  " results exceed the interpreter's limit of " + std::to_string(kMaxElements) +
                  " visits");
  Combine combine = combineOf(ctx, count);
  std::vector<Tensor> inits = elementsAt(ctx.operands, count, count, 0);
  std::vector<int64_t> out(rank, 0), offset(rank, 0), at(rank);
  do {
    std::vector<Tensor> accumulators = inits;
    std::fill(offset.begin(), offset.end(), 0);
    do {
      // Padding and the holes of base dilation hold the init value, as the spec pads.
      bool inside = true;
      for (size_t d = 0; d < rank && inside; ++d) {
        int64_t q = out[d] * strides[d] + offset[d] * windowDilations[d] - padding[d].first;
        inside = q >= 0 && q % baseDilations[d] == 0 && q / baseDilations[d] < shape[d];
        at[d] = inside ? q / baseDilations[d] : 0;
      }
      accumulators =
          combine(accumulators,
                  inside ? elementsAt(ctx.operands, 0, count, linearPosition(shape, at)) : inits);
    } while (nextIndex(window, offset));
    int64_t to = linearPosition(resultShape, out);
    for (size_t k = 0; k < count; ++k) copyElement(accumulators[k], 0, results[k], to);
  } while (nextIndex(resultShape, out));
  return results;
}

}  // namespace

const std::vector<OpRule>& reduceRules() {
  static const std::vector<OpRule> rules = {
      {"stablehlo.reduce", reduce},
      {"stablehlo.reduce_window", reduceWindow},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
