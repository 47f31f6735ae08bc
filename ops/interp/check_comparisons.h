// The comparisons of StableHLO's `check` dialect (stablehlo/tests/CheckOps.td), on tensors of
// the same type. Each answers nothing when the check passes, else the first differing element
// (`element [1, 0] is 3, expected 4`) and how many differ.
//
// Tolerances are StableHLO's own:
// - expect_eq / expect_eq_const: exact; a float pair is equal when == holds (so -0 equals +0)
//   or both are NaN.
// - expect_almost_eq / expect_almost_eq_const: the interpreter's areApproximatelyEqual —
//   equal, or both NaN, or both finite with the same sign and |actual - expected| <=
//   tolerance (absolute; the op's `tolerance` attribute, default 1e-4). An infinity matches
//   only itself.
// - expect_close: min_ulp_difference <= ULP distance <= max_ulp_difference (defaults 0 and
//   1), the distance being the number of values of the element type in [min, max) of the
//   pair, counted in that type (f16, bf16, f32, f64). A non-finite value matches only a
//   bitwise-equal one, or NaN any NaN.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ops/eval/tensor.h"

namespace idxmap::mlir_interpreter {

inline constexpr double kDefaultAlmostEqTolerance = 1e-4;
inline constexpr uint64_t kDefaultMaxUlpDifference = 1;
inline constexpr uint64_t kDefaultMinUlpDifference = 0;

std::optional<std::string> expectEqual(const gather_scatter::Tensor& actual,
                                       const gather_scatter::Tensor& expected);
std::optional<std::string> expectAlmostEqual(const gather_scatter::Tensor& actual,
                                             const gather_scatter::Tensor& expected,
                                             double tolerance);
std::optional<std::string> expectClose(const gather_scatter::Tensor& actual,
                                       const gather_scatter::Tensor& expected,
                                       uint64_t maxUlpDifference, uint64_t minUlpDifference);

// The number of values of float type `type` in [min(a, b), max(a, b)); both finite and
// representable in the type.
uint64_t ulpDistance(const std::string& type, double a, double b);

}  // namespace idxmap::mlir_interpreter
