// What the element-wise evaluators share: an op given as one function per element
// representation (integer, float, boolean), applied over operands of one type. Integer
// results wrap to the element type's width; float results are computed in double and rounded
// once to the element type (see elementwise.cpp for why that rounding is exact).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {

// One element function per representation; a missing one means the op does not take that
// element type (a diagnostic names it).
struct ElementFunctions {
  std::function<int64_t(const std::string& type, int64_t, int64_t)> integer;
  std::function<double(double, double)> floating;
  std::function<int64_t(int64_t, int64_t)> boolean;
};

struct UnaryFunctions {
  std::function<int64_t(const std::string& type, int64_t)> integer;
  std::function<double(double)> floating;
  std::function<int64_t(int64_t)> boolean;
};

// Fails unless `a` and `b` have the same element type and shape.
void expectSameType(const OpContext& ctx, const Tensor& a, const Tensor& b);

// The op applied element by element to its two operands / its one operand.
std::vector<Tensor> binary(const OpContext& ctx, const ElementFunctions& f);
std::vector<Tensor> unary(const OpContext& ctx, const UnaryFunctions& f);

// Arithmetic mod 2^64 (no signed overflow in C++); the caller wraps to the type's width.
int64_t wrapping(int64_t a, int64_t b, uint64_t (*op)(uint64_t, uint64_t));

}  // namespace idxmap::mlir_interpreter
