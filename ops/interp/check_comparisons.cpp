#include "ops/interp/check_comparisons.h"

#include <cmath>
#include <cstring>
#include <functional>

#include "ops/interp/convert.h"
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

using gather_scatter::Tensor;

std::vector<int64_t> indexOf(const std::vector<int64_t>& shape, int64_t position) {
  std::vector<int64_t> index(shape.size());
  for (size_t axis = shape.size(); axis-- > 0;) {
    index[axis] = position % shape[axis];
    position /= shape[axis];
  }
  return index;
}

// Runs `differs` over every element; describes the first that differs and the count.
std::optional<std::string> compareElements(
    const Tensor& actual, const Tensor& expected,
    const std::function<std::optional<std::string>(int64_t)>& differs) {
  if (actual.element_type != expected.element_type || actual.shape != expected.shape)
    return "the value is " + describeType(actual) + ", the expectation " + describeType(expected);
  std::optional<std::string> first;
  int64_t differing = 0, count = actual.elementCount();
  for (int64_t i = 0; i < count; ++i) {
    std::optional<std::string> detail = differs(i);
    if (!detail) continue;
    if (!first)
      first = "element " + formatIndex(indexOf(actual.shape, i)) + " is " +
              formatElement(actual, i) + ", expected " + formatElement(expected, i) + *detail;
    ++differing;
  }
  if (first && differing > 1)
    *first +=
        "; " + std::to_string(differing) + " of " + std::to_string(count) + " elements differ";
  return first;
}

// |value|'s rank among the non-negative values of the format (0 for zero): the value's bit
// pattern without its sign, computed from the value so that it serves every format.
uint64_t magnitudeRank(double value, const FloatFormat& format) {
  value = std::fabs(value);
  if (value == 0) return 0;
  int exponent;
  std::frexp(value, &exponent);
  int e = exponent - 1;  // value in [2^e, 2^(e+1))
  const uint64_t normalStep = uint64_t{1} << (format.precision - 1);
  if (e < format.minExponent)  // subnormal: a multiple of the smallest subnormal
    return static_cast<uint64_t>(std::ldexp(value, format.precision - 1 - format.minExponent));
  auto significand = static_cast<uint64_t>(std::ldexp(value, format.precision - 1 - e));
  return static_cast<uint64_t>(e - format.minExponent + 1) * normalStep +
         (significand - normalStep);
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

uint64_t ulpDistance(const std::string& type, double a, double b) {
  FloatFormat format = floatFormat(type);
  uint64_t ra = magnitudeRank(a, format), rb = magnitudeRank(b, format);
  bool na = std::signbit(a) && ra != 0, nb = std::signbit(b) && rb != 0;
  if (na == nb) return ra > rb ? ra - rb : rb - ra;
  return ra + rb;  // opposite signs: through zero (-0 and +0 are one value here)
}

std::optional<std::string> expectEqual(const Tensor& actual, const Tensor& expected) {
  return compareElements(actual, expected, [&](int64_t i) -> std::optional<std::string> {
    if (!actual.isFloat()) {
      if (actual.ints[i] == expected.ints[i]) return std::nullopt;
      return "";
    }
    double a = actual.floats[i], e = expected.floats[i];
    if (a == e || (std::isnan(a) && std::isnan(e))) return std::nullopt;
    return "";
  });
}

std::optional<std::string> expectAlmostEqual(const Tensor& actual, const Tensor& expected,
                                             double tolerance) {
  if (!actual.isFloat()) return expectEqual(actual, expected);
  return compareElements(actual, expected, [&](int64_t i) -> std::optional<std::string> {
    double a = actual.floats[i], e = expected.floats[i];
    if (a == e || (std::isnan(a) && std::isnan(e))) return std::nullopt;
    if (std::isfinite(a) && std::isfinite(e) && std::signbit(a) == std::signbit(e) &&
        std::fabs(a - e) <= tolerance)
      return std::nullopt;
    char detail[96];
    std::snprintf(detail, sizeof detail, " (difference %g, tolerance %g)", std::fabs(a - e),
                  tolerance);
    return std::string(detail);
  });
}

std::optional<std::string> expectClose(const Tensor& actual, const Tensor& expected,
                                       uint64_t maxUlpDifference, uint64_t minUlpDifference) {
  if (!actual.isFloat()) return expectEqual(actual, expected);
  return compareElements(actual, expected, [&](int64_t i) -> std::optional<std::string> {
    double a = actual.floats[i], e = expected.floats[i];
    if (!std::isfinite(a) || !std::isfinite(e)) {
      if (sameBits(a, e) || (std::isnan(a) && std::isnan(e))) return std::nullopt;
      return " (a non-finite value matches only itself)";
    }
    uint64_t distance = ulpDistance(actual.element_type, a, e);
    if (distance >= minUlpDifference && distance <= maxUlpDifference) return std::nullopt;
    return " (" + std::to_string(distance) + " ULPs apart, allowed " +
           std::to_string(minUlpDifference) + " to " + std::to_string(maxUlpDifference) + ")";
  });
}

}  // namespace idxmap::mlir_interpreter
