// Float results round to their element type after every update, as StableHLO rounds after
// every operation: values worked by hand from the formats (bf16: 8 significant bits; f16: 11,
// subnormals from 2^-24, largest finite 65504).
#include <gtest/gtest.h>

#include <cmath>

#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

TEST(FloatRounding, Bf16RoundsToNearestEven) {
  EXPECT_EQ(roundToElementType("bf16", 1 + std::ldexp(1, -8)), 1.0);  // tie: to even
  EXPECT_EQ(roundToElementType("bf16", 1 + 3 * std::ldexp(1, -8)), 1 + std::ldexp(1, -6));
  EXPECT_EQ(roundToElementType("bf16", 1 + std::ldexp(1, -7)), 1 + std::ldexp(1, -7));
}

TEST(FloatRounding, F16SubnormalsAndOverflow) {
  EXPECT_EQ(roundToElementType("f16", 65519.0), 65504.0);
  EXPECT_TRUE(std::isinf(roundToElementType("f16", 65520.0)));    // tie to even: 2^16
  EXPECT_EQ(roundToElementType("f16", std::ldexp(1, -25)), 0.0);  // tie: to even (0)
  EXPECT_EQ(roundToElementType("f16", 3 * std::ldexp(1, -26)), std::ldexp(1, -24));
  EXPECT_EQ(roundToElementType("f16", 1.0 / 3), 1365 * std::ldexp(1, -12));
}

TEST(FloatRounding, F32AndF64) {
  EXPECT_EQ(roundToElementType("f32", 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(roundToElementType("f64", 0.1), 0.1);
}

// 1 + 2^-8 + 2^-8 is 1 + 2^-7 exactly, a bf16 value; but each step rounds back to 1.
TEST(FloatRounding, ScatterAddRoundsEachStepInBf16) {
  ScatterOp op;
  op.inputs = {{{1}, "bf16"}};
  op.scatter_indices = {{2, 1}, "i32"};
  op.updates = {{{2}, "bf16"}};
  op.dimension_numbers.inserted_window_dims = {0};
  op.dimension_numbers.scatter_dims_to_operand_dims = {0};
  op.dimension_numbers.index_vector_dim = 1;
  ASSERT_TRUE(validateScatter(op).empty()) << testing::describe(validateScatter(op));
  Tensor input{"bf16", {1}, {}, {1.0}};
  Tensor indices{"i32", {2, 1}, {0, 0}, {}};
  Tensor updates{"bf16", {2}, {}, {std::ldexp(1, -8), std::ldexp(1, -8)}};
  EXPECT_EQ(referenceScatter(op, {input}, indices, {updates})[0].floats, std::vector<double>{1.0});
  EXPECT_EQ(mapScatter(op, {input}, indices, {updates})[0].floats, std::vector<double>{1.0});
}

// StableHLO's minimum / maximum are IEEE-754's: a NaN on either side wins, and -0 < +0.
// std::min / std::max get both wrong (their answer depends on the operand order).
TEST(FloatRounding, ScatterMinMaxPropagateNanAndOrderZeros) {
  struct Case {
    UpdateComputation computation;
    double input, update, expected;
  };
  const double nan = std::nan("");
  const Case cases[] = {
      {UpdateComputation::kMin, 1.0, nan, nan},   {UpdateComputation::kMin, nan, 1.0, nan},
      {UpdateComputation::kMax, 1.0, nan, nan},   {UpdateComputation::kMax, nan, 1.0, nan},
      {UpdateComputation::kMin, 0.0, -0.0, -0.0}, {UpdateComputation::kMin, -0.0, 0.0, -0.0},
      {UpdateComputation::kMax, -0.0, 0.0, 0.0},  {UpdateComputation::kMax, 0.0, -0.0, 0.0},
  };
  for (const Case& c : cases) {
    ScatterOp op;
    op.inputs = {{{1}, "f32"}};
    op.scatter_indices = {{1, 1}, "i32"};
    op.updates = {{{1}, "f32"}};
    op.update_computation = c.computation;
    op.dimension_numbers.inserted_window_dims = {0};
    op.dimension_numbers.scatter_dims_to_operand_dims = {0};
    op.dimension_numbers.index_vector_dim = 1;
    ASSERT_TRUE(validateScatter(op).empty());
    Tensor input{"f32", {1}, {}, {c.input}};
    Tensor indices{"i32", {1, 1}, {0}, {}};
    Tensor updates{"f32", {1}, {}, {c.update}};
    for (const Tensor& result : {referenceScatter(op, {input}, indices, {updates})[0],
                                 mapScatter(op, {input}, indices, {updates})[0]}) {
      double actual = result.floats.at(0);
      if (std::isnan(c.expected)) {
        EXPECT_TRUE(std::isnan(actual)) << c.input << " " << c.update;
      } else {
        EXPECT_EQ(actual, c.expected);
        EXPECT_EQ(std::signbit(actual), std::signbit(c.expected)) << c.input << " " << c.update;
      }
    }
  }
}

}  // namespace
}  // namespace idxmap::gather_scatter
