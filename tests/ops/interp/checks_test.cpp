// The check ops against StableHLO's tolerances: outcomes recorded with the first difference,
// ULP distances counted in the element type.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ops/interp/check_comparisons.h"
#include "ops/interp/interpreter.h"
#include "tests/ops/interp/test_util.h"

namespace idxmap::mlir_interpreter {
namespace {

TEST(MlirInterpreter, ChecksRecordOutcomesWithTheFirstDifference) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(func.func @main() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  check.expect_eq_const %a, dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  check.expect_eq_const %a, dense<[[1, 2], [4, 5]]> : tensor<2x2xi64>
  %f = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %g = stablehlo.constant dense<[1.00005, 2.0]> : tensor<2xf32>
  check.expect_almost_eq_const %f, dense<[1.00005, 2.0]> : tensor<2xf32>
  check.expect_close %f, %g, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%f, %f) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
})",
                                                    "checks.mlir");
  Interpreter interpreter(module, Engine::kReference);
  interpreter.call(*module.function("main"), {});
  const std::vector<CheckOutcome>& checks = interpreter.checks();
  ASSERT_EQ(checks.size(), 5u);
  EXPECT_FALSE(checks[0].failure);
  ASSERT_TRUE(checks[1].failure);
  EXPECT_EQ(*checks[1].failure, "element [1, 0] is 3, expected 4; 2 of 4 elements differ");
  EXPECT_EQ(checks[1].location.line, 4);
  EXPECT_EQ(checks[1].op, "check.expect_eq_const");
  EXPECT_FALSE(checks[2].failure);  // 5e-5 apart, within the default 1e-4
  // 1.00005 in f32 is 419 ULPs (2^-23 each) above 1.
  ASSERT_TRUE(checks[3].failure);
  EXPECT_NE(checks[3].failure->find("419 ULPs apart"), std::string::npos) << *checks[3].failure;
  EXPECT_FALSE(checks[4].failure);
  EXPECT_EQ(checks[4].op, "check.expect_eq");
}

TEST(MlirInterpreter, UlpDistanceCountsValuesOfTheElementType) {
  EXPECT_EQ(ulpDistance("f32", 1.0, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(ulpDistance("f16", 1.0, 1.0009765625), 1u);  // 2^-10 apart
  EXPECT_EQ(ulpDistance("bf16", 1.0, 1.0078125), 1u);    // 2^-7 apart
  EXPECT_EQ(ulpDistance("bf16", 1.0, 2.0), 128u);        // every 7-bit fraction in [1, 2)
  double tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ulpDistance("f32", -tiny, tiny), 2u);  // -tiny, 0 (both zeros), tiny
  EXPECT_EQ(ulpDistance("f32", -0.0, 0.0), 0u);
  EXPECT_EQ(ulpDistance("f64", 1.0, 1.0 + 0x1p-52 * 3), 3u);
  Tensor inf = floats("f32", {1}, {INFINITY});
  EXPECT_FALSE(expectClose(inf, inf, 0, 0));
  EXPECT_TRUE(expectClose(inf, floats("f32", {1}, {3.0e38}), 1000, 0));
  EXPECT_TRUE(expectAlmostEqual(floats("f32", {1}, {1e-5}), floats("f32", {1}, {-1e-5}), 1e-4))
      << "opposite signs are never almost equal";
}

}  // namespace
}  // namespace idxmap::mlir_interpreter
