#include "ops/interp/convert.h"

#include <bit>
#include <cmath>

#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {

FloatFormat floatFormat(const std::string& type) {
  if (type == "f16") return {11, -14, 65504.0};
  if (type == "bf16") return {8, -126, 3.3895313892515355e38};
  if (type == "f32") return {24, -126, 3.4028234663852886e38};
  return {53, -1022, INFINITY};
}

double integerToFloat(const std::string& fromType, int64_t value, const std::string& toType) {
  bool negative = !isUnsignedType(fromType) && !isBooleanType(fromType) && value < 0;
  uint64_t magnitude =
      negative ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  FloatFormat format = floatFormat(toType);
  int length = 64 - std::countl_zero(magnitude);
  double rounded;
  if (length > format.precision) {
    // Round the integer itself to `precision` significant bits, ties to even.
    int shift = length - format.precision;
    uint64_t kept = magnitude >> shift;
    uint64_t rest = magnitude & ((uint64_t{1} << shift) - 1);
    uint64_t half = uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) ++kept;
    rounded = std::ldexp(static_cast<double>(kept), shift);
  } else {
    rounded = static_cast<double>(magnitude);
  }
  if (rounded > format.maxFinite) rounded = INFINITY;
  return negative ? -rounded : rounded;
}

int64_t floatToInteger(double value, const std::string& toType) {
  if (isBooleanType(toType)) return value != 0;
  if (std::isnan(value)) return 0;
  double truncated = std::trunc(value);
  int width = integerBitWidth(toType);
  if (isUnsignedType(toType)) {
    if (truncated <= 0) return 0;
    if (truncated >= std::ldexp(1.0, width))  // saturate: all ones (ui64: bit pattern -1)
      return width >= 64 ? -1 : static_cast<int64_t>((uint64_t{1} << width) - 1);
    return static_cast<int64_t>(static_cast<uint64_t>(truncated));
  }
  double limit = std::ldexp(1.0, width - 1);
  if (truncated >= limit) return static_cast<int64_t>((uint64_t{1} << (width - 1)) - 1);
  if (truncated < -limit) return static_cast<int64_t>(uint64_t{0} - (uint64_t{1} << (width - 1)));
  return static_cast<int64_t>(truncated);
}

gather_scatter::Tensor convertTensor(const gather_scatter::Tensor& tensor,
                                     const std::string& toType) {
  gather_scatter::Tensor result{toType, tensor.shape, {}, {}};
  const int64_t count = tensor.elementCount();
  bool toFloat = result.isFloat();
  for (int64_t i = 0; i < count; ++i) {
    if (tensor.isFloat()) {
      double value = tensor.floats[i];
      if (toFloat)
        result.floats.push_back(gather_scatter::roundToElementType(toType, value));
      else
        result.ints.push_back(floatToInteger(value, toType));
    } else {
      int64_t value = tensor.ints[i];
      if (toFloat)
        result.floats.push_back(integerToFloat(tensor.element_type, value, toType));
      else if (isBooleanType(toType))
        result.ints.push_back(value != 0);
      else
        result.ints.push_back(wrapInteger(toType, value));
    }
  }
  return result;
}

}  // namespace idxmap::mlir_interpreter
