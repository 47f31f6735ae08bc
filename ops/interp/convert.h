// stablehlo.convert's element conversions, as StableHLO's interpreter performs them:
// integer -> integer wraps (sign- or zero-extends, then truncates to the width); integer ->
// float rounds to nearest even, exactly, from the integer (no detour through a double that
// could round twice); float -> integer truncates toward zero and saturates at the type's
// limits, NaN giving 0 (APFloat::convertToInteger); float -> float rounds to nearest even;
// anything -> i1 is `!= 0`.
#pragma once

#include <cstdint>
#include <string>

#include "ops/eval/tensor.h"

namespace idxmap::mlir_interpreter {

// What the interpreter needs of each float element type (f16, bf16, f32; anything else is f64).
struct FloatFormat {
  int precision;     // significand bits, the implicit one included
  int minExponent;   // of the smallest normal value
  double maxFinite;  // the largest finite value (f64: infinity, every finite double fits)
};
FloatFormat floatFormat(const std::string& type);

// `value` (of integer element type `fromType`, held as Tensor holds it) as a value of the
// float type `toType`.
double integerToFloat(const std::string& fromType, int64_t value, const std::string& toType);
// `value` as a value of the integer (or i1) element type `toType`.
int64_t floatToInteger(double value, const std::string& toType);

// Every element of `tensor` converted to `toType`.
gather_scatter::Tensor convertTensor(const gather_scatter::Tensor& tensor,
                                     const std::string& toType);

}  // namespace idxmap::mlir_interpreter
