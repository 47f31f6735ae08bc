// Tensor storage and the element arithmetic of scatter's recognized update computations.
#include "ops/eval/tensor.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

[[noreturn]] void throwUnmodeled() {
  throw std::invalid_argument("the update computation is not one the evaluator models");
}

}  // namespace

ElementCombiner::ElementCombiner(UpdateComputation computation, const std::string& elementType)
    : computation_(computation),
      boolean_(false),
      unsigned_(false),
      width_(64),
      rounding_(Rounding::kNone) {
  // Only what the type's kind needs: the reference evaluator builds one per element.
  if (isFloatType(elementType)) {
    rounding_ = elementType == "f32"    ? Rounding::kF32
                : elementType == "f16"  ? Rounding::kF16
                : elementType == "bf16" ? Rounding::kBF16
                                        : Rounding::kNone;
  } else {
    boolean_ = elementType == "i1";
    unsigned_ = isUnsigned(elementType);
    width_ = integerWidth(elementType);
  }
}

int64_t ElementCombiner::combine(int64_t current, int64_t update) const {
  // Two's-complement wrap of an exact (mod 2^64) result to the element type's width.
  auto wrap = [this](uint64_t value) {
    if (width_ >= 64) return static_cast<int64_t>(value);
    uint64_t bits = value & ((uint64_t{1} << width_) - 1);
    if (unsigned_) return static_cast<int64_t>(bits);
    uint64_t sign = uint64_t{1} << (width_ - 1);
    return static_cast<int64_t>((bits ^ sign)) - static_cast<int64_t>(sign);
  };
  switch (computation_) {
    case UpdateComputation::kAdd:
      if (boolean_) return (current | update) & 1;  // StableHLO's add on booleans is or
      return wrap(static_cast<uint64_t>(current) + static_cast<uint64_t>(update));
    case UpdateComputation::kMul:
      if (boolean_) return current & update & 1;  // and mul is and
      return wrap(static_cast<uint64_t>(current) * static_cast<uint64_t>(update));
    case UpdateComputation::kMin:
      return unsigned_ ? static_cast<int64_t>(std::min<uint64_t>(current, update))
                       : std::min(current, update);
    case UpdateComputation::kMax:
      return unsigned_ ? static_cast<int64_t>(std::max<uint64_t>(current, update))
                       : std::max(current, update);
    case UpdateComputation::kReplace:
      return update;
    case UpdateComputation::kOther:
      break;
  }
  throwUnmodeled();
}

double ElementCombiner::combine(double current, double update) const {
  auto round = [this](double value) {
    switch (rounding_) {
      case Rounding::kF32:
        return static_cast<double>(static_cast<float>(value));
      case Rounding::kF16:
        return roundToFormat(value, 10, -14, 65504.0);
      case Rounding::kBF16:
        return roundToFormat(value, 7, -126, 3.3895313892515355e38);
      case Rounding::kNone:
        break;
    }
    return value;
  };
  switch (computation_) {
    case UpdateComputation::kAdd:
      return round(current + update);
    case UpdateComputation::kMul:
      return round(current * update);
    case UpdateComputation::kMin:
      return ieeeMinimum(current, update);
    case UpdateComputation::kMax:
      return ieeeMaximum(current, update);
    case UpdateComputation::kReplace:
      return update;
    case UpdateComputation::kOther:
      break;
  }
  throwUnmodeled();
}

double ieeeMinimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

double ieeeMaximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

namespace {

// The loop of combineRun with the operation fixed, so that the compiler can vectorize it.
template <class T, class Operation>
void combineEach(T* current, int64_t stride, const T* updates, int64_t count, Operation op) {
  if (stride == 1) {
    for (int64_t t = 0; t < count; ++t) current[t] = op(current[t], updates[t]);
  } else {
    for (int64_t t = 0; t < count; ++t) current[t * stride] = op(current[t * stride], updates[t]);
  }
}

}  // namespace

void ElementCombiner::combineRun(int64_t* current, int64_t stride, const int64_t* updates,
                                 int64_t count) const {
  combineEach(current, stride, updates, count,
              [this](int64_t a, int64_t b) { return combine(a, b); });
}

void ElementCombiner::combineRun(double* current, int64_t stride, const double* updates,
                                 int64_t count) const {
  // The common cases get a loop each, computing exactly what combine() computes for them;
  // the rest (f16, bf16, kOther) go through combine() element by element.
  auto toF32 = [](double value) { return static_cast<double>(static_cast<float>(value)); };
  const bool f32 = rounding_ == Rounding::kF32, exact = rounding_ == Rounding::kNone;
  switch (computation_) {
    case UpdateComputation::kAdd:
      if (f32)
        return combineEach(current, stride, updates, count,
                           [&](double a, double b) { return toF32(a + b); });
      if (exact)
        return combineEach(current, stride, updates, count,
                           [](double a, double b) { return a + b; });
      break;
    case UpdateComputation::kMul:
      if (f32)
        return combineEach(current, stride, updates, count,
                           [&](double a, double b) { return toF32(a * b); });
      if (exact)
        return combineEach(current, stride, updates, count,
                           [](double a, double b) { return a * b; });
      break;
    case UpdateComputation::kMin:
      return combineEach(current, stride, updates, count, ieeeMinimum);
    case UpdateComputation::kMax:
      return combineEach(current, stride, updates, count, ieeeMaximum);
    case UpdateComputation::kReplace:
      return combineEach(current, stride, updates, count, [](double, double b) { return b; });
    case UpdateComputation::kOther:
      break;
  }
  combineEach(current, stride, updates, count,
              [this](double a, double b) { return combine(a, b); });
}

bool isFloatType(const std::string& elementType) {
  return elementType == "bf16" || (!elementType.empty() && elementType[0] == 'f');
}

double roundToElementType(const std::string& elementType, double value) {
  if (elementType == "f32") return static_cast<double>(static_cast<float>(value));
  if (elementType == "f16") return roundToFormat(value, 10, -14, 65504.0);
  if (elementType == "bf16") return roundToFormat(value, 7, -126, 3.3895313892515355e38);
  return value;
}

bool isComplexType(const std::string& elementType) {
  return elementType == "complex<f32>" || elementType == "complex<f64>";
}

bool Tensor::isFloat() const { return isFloatType(element_type); }
bool Tensor::isComplex() const { return isComplexType(element_type); }

int64_t Tensor::elementCount() const {
  int64_t count = 1;
  for (int64_t size : shape) count *= size;
  return count;
}

double Tensor::valueAt(int64_t position) const {
  return isFloat() ? floats.at(position) : static_cast<double>(ints.at(position));
}

void copyElement(const Tensor& from, int64_t position, Tensor& into, int64_t to) {
  if (into.isComplex()) into.imags.at(to) = from.imags.at(position);
  if (into.isFloat() || into.isComplex())
    into.floats.at(to) = from.floats.at(position);
  else
    into.ints.at(to) = from.ints.at(position);
}

Tensor scalarAt(const Tensor& tensor, int64_t position) {
  Tensor scalar{tensor.element_type, {}, {}, {}};
  if (tensor.isComplex()) scalar.imags.push_back(tensor.imags.at(position));
  if (tensor.isFloat() || tensor.isComplex())
    scalar.floats.push_back(tensor.floats.at(position));
  else
    scalar.ints.push_back(tensor.ints.at(position));
  return scalar;
}

Tensor zeros(const std::string& elementType, const std::vector<int64_t>& shape) {
  Tensor tensor{elementType, shape, {}, {}};
  if (tensor.isComplex()) tensor.imags.assign(tensor.elementCount(), 0.0);
  if (tensor.isFloat() || tensor.isComplex())
    tensor.floats.assign(tensor.elementCount(), 0.0);
  else
    tensor.ints.assign(tensor.elementCount(), 0);
  return tensor;
}

bool isEmptyShape(const std::vector<int64_t>& shape) {
  return std::any_of(shape.begin(), shape.end(), [](int64_t size) { return size == 0; });
}

void applyUpdate(UpdateComputation computation, std::vector<Tensor>& results,
                 int64_t resultPosition, const std::vector<Tensor>& updates,
                 int64_t updatePosition) {
  for (size_t i = 0; i < results.size(); ++i) {
    Tensor& result = results[i];
    ElementCombiner combiner(computation, result.element_type);
    if (result.isFloat()) {
      double update = updates[i].valueAt(updatePosition);
      result.floats[resultPosition] = combiner.combine(result.floats[resultPosition], update);
    } else {
      int64_t update = updates[i].intAt(updatePosition);
      result.ints[resultPosition] = combiner.combine(result.ints[resultPosition], update);
    }
  }
}

}  // namespace idxmap::gather_scatter
