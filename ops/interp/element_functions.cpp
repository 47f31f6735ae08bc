// The element-wise application of ops/interp/element_functions.h.
#include "ops/interp/element_functions.h"

namespace idxmap::mlir_interpreter {

using gather_scatter::roundToElementType;

void expectSameType(const OpContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.element_type != b.element_type || a.shape != b.shape)
    fail(ctx,
         "operands must have the same type, found " + describeType(a) + " and " + describeType(b));
}

std::vector<Tensor> binary(const OpContext& ctx, const ElementFunctions& f) {
  expectOperandCount(ctx, 2);
  const Tensor &lhs = ctx.operands[0], &rhs = ctx.operands[1];
  expectSameType(ctx, lhs, rhs);
  Tensor result = lhs;
  const std::string& type = lhs.element_type;
  if (result.isFloat()) {
    if (!f.floating) fail(ctx, "does not take float operands (" + type + ")");
    for (size_t i = 0; i < result.floats.size(); ++i)
      result.floats[i] = roundToElementType(type, f.floating(lhs.floats[i], rhs.floats[i]));
  } else if (isBooleanType(type)) {
    if (!f.boolean) fail(ctx, "does not take boolean operands");
    for (size_t i = 0; i < result.ints.size(); ++i)
      result.ints[i] = f.boolean(lhs.ints[i], rhs.ints[i]) & 1;
  } else {
    if (!f.integer) fail(ctx, "does not take integer operands (" + type + ")");
    for (size_t i = 0; i < result.ints.size(); ++i)
      result.ints[i] = wrapInteger(type, f.integer(type, lhs.ints[i], rhs.ints[i]));
  }
  return {result};
}

std::vector<Tensor> unary(const OpContext& ctx, const UnaryFunctions& f) {
  expectOperandCount(ctx, 1);
  Tensor result = ctx.operands[0];
  const std::string& type = result.element_type;
  if (result.isFloat()) {
    if (!f.floating) fail(ctx, "does not take float operands (" + type + ")");
    for (double& value : result.floats) value = roundToElementType(type, f.floating(value));
  } else if (isBooleanType(type)) {
    if (!f.boolean) fail(ctx, "does not take boolean operands");
    for (int64_t& value : result.ints) value = f.boolean(value) & 1;
  } else {
    if (!f.integer) fail(ctx, "does not take integer operands (" + type + ")");
    for (int64_t& value : result.ints) value = wrapInteger(type, f.integer(type, value));
  }
  return {result};
}

int64_t wrapping(int64_t a, int64_t b, uint64_t (*op)(uint64_t, uint64_t)) {
  return static_cast<int64_t>(op(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
}

}  // namespace idxmap::mlir_interpreter
