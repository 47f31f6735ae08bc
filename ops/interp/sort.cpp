// Permutations along dimensions: stablehlo.reverse, stablehlo.sort (every slice along
// `dimension` of the inputs permuted together, ordered by the comparator region, whose
// arguments are lhs and rhs of input 0, then of input 1, ...), and chlo.top_k (the k largest
// elements of each slice along the last dimension, largest first, and their positions; equal
// values in position order; floats in IEEE's total order, so a NaN is above +inf as in XLA's
// TopK).
//
// The sort is a bottom-up merge sort written here rather than std::stable_sort: the
// comparator is the program's, and a comparator that is not a strict weak order (`LE`, a
// NaN-unaware `LT`) must give some permutation, never out-of-bounds reads, which
// std::sort's unguarded insertion may do. Stable for is_stable = true and false alike.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

// Positions [0, n) sorted by `less`, stably; `less` is called only on positions in range.
template <class Less>
std::vector<int64_t> mergeSort(int64_t n, Less less) {
  std::vector<int64_t> order(n), merged(n);
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t low = 0; low < n; low += 2 * width) {
      int64_t mid = std::min(low + width, n), high = std::min(low + 2 * width, n);
      int64_t left = low, right = mid, out = low;
      while (left < mid && right < high)  // the right element first only when strictly less
        merged[out++] = less(order[right], order[left]) ? order[right++] : order[left++];
      while (left < mid) merged[out++] = order[left++];
      while (right < high) merged[out++] = order[right++];
    }
    order.swap(merged);
  }
  return order;
}

std::vector<Tensor> sort(const OpContext& ctx) {
  if (ctx.operands.empty()) fail(ctx, "takes at least one input");
  const std::vector<int64_t>& shape = ctx.operands[0].shape;
  for (const Tensor& input : ctx.operands)
    if (input.shape != shape)
      fail(ctx, "inputs must have one shape, found " + describeType(ctx.operands[0]) + " and " +
                    describeType(input));
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t dimension = findAttribute(ctx, {"dimension"}) ? intAttribute(ctx, {"dimension"}) : -1;
  if (dimension < -rank || dimension >= std::max<int64_t>(rank, 1))
    fail(ctx, "dimension " + std::to_string(dimension) + " is outside the rank-" +
                  std::to_string(rank) + " inputs");
  if (dimension < 0) dimension += rank;
  std::vector<Tensor> results = ctx.operands;
  if (rank == 0 || ctx.operands[0].elementCount() == 0) return results;
  const mlir_ir::Block& comparator = regionBlock(ctx, 0, "a comparator");
  // Position of element k of a slice: base + k * stride.
  int64_t length = shape[dimension], stride = 1;
  for (int64_t d = rank - 1; d > dimension; --d) stride *= shape[d];
  int64_t total = ctx.operands[0].elementCount();
  for (int64_t base = 0; base < total; ++base) {
    if ((base / stride) % length != 0) continue;  // not the first element of a slice
    auto less = [&](int64_t a, int64_t b) {
      std::vector<Tensor> arguments;
      for (const Tensor& input : ctx.operands) {
        arguments.push_back(scalarAt(input, base + a * stride));
        arguments.push_back(scalarAt(input, base + b * stride));
      }
      std::vector<Tensor> answer = ctx.interpreter.runBlock(comparator, arguments);
      if (answer.size() != 1) fail(ctx, "the comparator must return one tensor<i1>");
      return predicateValue(ctx, answer[0], "the comparator's result");
    };
    std::vector<int64_t> order = mergeSort(length, less);
    for (size_t k = 0; k < results.size(); ++k)
      for (int64_t i = 0; i < length; ++i)
        copyElement(ctx.operands[k], base + order[i] * stride, results[k], base + i * stride);
  }
  return results;
}

// Whether element a of `tensor` is above element b in the order top_k takes: integers by value,
// floats in IEEE-754's total order (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN).
bool above(const Tensor& tensor, int64_t a, int64_t b) {
  if (!tensor.isFloat()) return tensor.ints[a] > tensor.ints[b];
  // The bits as a signed integer, negative values' magnitudes flipped: ordered as the total
  // order orders the floats.
  auto key = [](double x) {
    auto bits = std::bit_cast<int64_t>(x);
    return bits ^ ((bits >> 63) & INT64_MAX);
  };
  return key(tensor.floats[a]) > key(tensor.floats[b]);
}

std::vector<Tensor> topK(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  const Tensor& operand = ctx.operands[0];
  if (operand.shape.empty()) fail(ctx, "takes an operand of rank 1 or more, found a 0-d tensor");
  const int64_t length = operand.shape.back();
  const int64_t k = intAttribute(ctx, {"k"});
  if (k < 0 || k > length)
    fail(ctx, "k = " + std::to_string(k) + " is outside [0, " + std::to_string(length) +
                  "], the last dimension's size");
  std::vector<int64_t> shape = operand.shape;
  shape.back() = k;
  Tensor values = gather_scatter::zeros(operand.element_type, shape);
  Tensor indices = gather_scatter::zeros("i32", shape);
  const int64_t rows = length == 0 ? 0 : operand.elementCount() / length;
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t base = row * length;
    std::vector<int64_t> order =
        mergeSort(length, [&](int64_t a, int64_t b) { return above(operand, base + a, base + b); });
    for (int64_t i = 0; i < k; ++i) {
      copyElement(operand, base + order[i], values, row * k + i);
      indices.ints[row * k + i] = order[i];
    }
  }
  return {values, indices};
}

std::vector<Tensor> reverse(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  const Tensor& operand = ctx.operands[0];
  int64_t rank = static_cast<int64_t>(operand.shape.size());
  std::vector<bool> reversed(operand.shape.size(), false);
  for (int64_t d : intsAttribute(ctx, {"dims", "dimensions"})) {
    if (d < 0 || d >= rank || reversed[d])
      fail(ctx, "dimensions must be distinct dimensions of the rank-" + std::to_string(rank) +
                    " operand, found " + std::to_string(d));
    reversed[d] = true;
  }
  Tensor result = operand;
  if (operand.elementCount() == 0) return {result};
  std::vector<int64_t> index(operand.shape.size(), 0), mirrored(operand.shape.size());
  int64_t position = 0;
  do {
    for (int64_t d = 0; d < rank; ++d)
      mirrored[d] = reversed[d] ? operand.shape[d] - 1 - index[d] : index[d];
    copyElement(operand, gather_scatter::linearPosition(operand.shape, mirrored), result,
                position++);
  } while (gather_scatter::nextIndex(operand.shape, index));
  return {result};
}

}  // namespace

const std::vector<OpRule>& sortRules() {
  static const std::vector<OpRule> rules = {
      {"stablehlo.reverse", reverse},
      {"stablehlo.sort", sort},
      {"chlo.top_k", topK},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
