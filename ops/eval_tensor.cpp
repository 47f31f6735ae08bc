// Tensor storage and the element arithmetic of scatter's recognized update computations.
#include "ops/eval_tensor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace idxmap::gather_scatter {
namespace {

// Bit width of an integer element type ("i32" -> 32, "ui8" -> 8), 64 when unknown.
int integerWidth(const std::string& type) {
  size_t digits = type.find_first_of("0123456789");
  if (digits == std::string::npos || type.size() - digits > 2) return 64;
  return std::stoi(type.substr(digits));
}

bool isUnsigned(const std::string& type) { return type.rfind("ui", 0) == 0; }

// Two's-complement wrap of an exact result to the element type's width.
int64_t wrapInteger(const std::string& type, int64_t value) {
  int width = integerWidth(type);
  if (width >= 64) return value;
  uint64_t mask = (uint64_t{1} << width) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  if (isUnsigned(type)) return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((bits ^ sign)) - static_cast<int64_t>(sign);
}

int64_t combineIntegers(UpdateComputation computation, const std::string& type, int64_t current,
                        int64_t update) {
  bool boolean = type == "i1";  // StableHLO's add/mul on booleans are or/and
  switch (computation) {
    case UpdateComputation::kAdd:
      if (boolean) return (current | update) & 1;
      return wrapInteger(type, static_cast<int64_t>(static_cast<uint64_t>(current) +
                                                    static_cast<uint64_t>(update)));
    case UpdateComputation::kMul:
      if (boolean) return current & update & 1;
      return wrapInteger(type, static_cast<int64_t>(static_cast<uint64_t>(current) *
                                                    static_cast<uint64_t>(update)));
    case UpdateComputation::kMin:
      return isUnsigned(type) ? static_cast<int64_t>(std::min<uint64_t>(current, update))
                              : std::min(current, update);
    case UpdateComputation::kMax:
      return isUnsigned(type) ? static_cast<int64_t>(std::max<uint64_t>(current, update))
                              : std::max(current, update);
    case UpdateComputation::kReplace:
      return update;
    case UpdateComputation::kOther:
      break;
  }
  throw std::invalid_argument("the update computation is not one the evaluator models");
}

// Round to a binary format with `mantissaBits` stored bits and smallest normal exponent
// `minExponent`: scaling by a power of two is exact, so one nearbyint (round to nearest even
// in the default mode) rounds once, subnormals included.
double roundToFormat(double value, int mantissaBits, int minExponent, double maxFinite) {
  if (!std::isfinite(value) || value == 0) return value;
  int exponent = 0;
  std::frexp(value, &exponent);  // value = f * 2^exponent with |f| in [0.5, 1)
  double quantum = std::ldexp(1.0, std::max(exponent - 1, minExponent) - mantissaBits);
  double rounded = std::nearbyint(value / quantum) * quantum;
  if (std::abs(rounded) > maxFinite) return std::copysign(INFINITY, value);
  return rounded;
}

double roundToType(const std::string& type, double value) {
  return roundToElementType(type, value);
}

double combineFloats(UpdateComputation computation, const std::string& type, double current,
                     double update) {
  switch (computation) {
    case UpdateComputation::kAdd:
      return roundToType(type, current + update);
    case UpdateComputation::kMul:
      return roundToType(type, current * update);
    case UpdateComputation::kMin:
      return std::min(current, update);
    case UpdateComputation::kMax:
      return std::max(current, update);
    case UpdateComputation::kReplace:
      return update;
    case UpdateComputation::kOther:
      break;
  }
  throw std::invalid_argument("the update computation is not one the evaluator models");
}

}  // namespace

bool isFloatType(const std::string& elementType) {
  return elementType == "bf16" || (!elementType.empty() && elementType[0] == 'f');
}

double roundToElementType(const std::string& elementType, double value) {
  if (elementType == "f32") return static_cast<double>(static_cast<float>(value));
  if (elementType == "f16") return roundToFormat(value, 10, -14, 65504.0);
  if (elementType == "bf16") return roundToFormat(value, 7, -126, 3.3895313892515355e38);
  return value;
}

bool Tensor::isFloat() const { return isFloatType(element_type); }

int64_t Tensor::elementCount() const {
  int64_t count = 1;
  for (int64_t size : shape) count *= size;
  return count;
}

double Tensor::valueAt(int64_t position) const {
  return isFloat() ? floats.at(position) : static_cast<double>(ints.at(position));
}

Tensor zeros(const std::string& elementType, const std::vector<int64_t>& shape) {
  Tensor tensor{elementType, shape, {}, {}};
  if (tensor.isFloat())
    tensor.floats.assign(tensor.elementCount(), 0.0);
  else
    tensor.ints.assign(tensor.elementCount(), 0);
  return tensor;
}

int64_t linearPosition(const std::vector<int64_t>& shape, const std::vector<int64_t>& index) {
  int64_t position = 0;
  for (size_t axis = 0; axis < shape.size(); ++axis)
    position = position * shape[axis] + index[axis];
  return position;
}

bool nextIndex(const std::vector<int64_t>& shape, std::vector<int64_t>& index) {
  for (size_t axis = shape.size(); axis-- > 0;) {
    if (++index[axis] < shape[axis]) return true;
    index[axis] = 0;
  }
  return false;
}

bool isEmptyShape(const std::vector<int64_t>& shape) {
  return std::any_of(shape.begin(), shape.end(), [](int64_t size) { return size == 0; });
}

void applyUpdate(UpdateComputation computation, std::vector<Tensor>& results,
                 int64_t resultPosition, const std::vector<Tensor>& updates,
                 int64_t updatePosition) {
  for (size_t i = 0; i < results.size(); ++i) {
    Tensor& result = results[i];
    if (result.isFloat()) {
      double update = updates[i].valueAt(updatePosition);
      result.floats[resultPosition] =
          combineFloats(computation, result.element_type, result.floats[resultPosition], update);
    } else {
      int64_t update = updates[i].intAt(updatePosition);
      result.ints[resultPosition] =
          combineIntegers(computation, result.element_type, result.ints[resultPosition], update);
    }
  }
}

}  // namespace idxmap::gather_scatter
