// Random valid gathers and scatters on small shapes, batching dims and every placement of the
// index vector included: the map-driven evaluator must agree exactly with the reference
// evaluator. Start indices run past both ends of the operand, so gather's clamping and
// scatter's out-of-bounds skip are exercised on every op.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"
#include "tests/ops/stablehlo/random_ops.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using namespace testing;

TEST(GatherRandom, MapsAgreeWithReference) {
  std::mt19937 rng(20240311);
  int withBatching = 0, withImplicitVector = 0, withVectorInside = 0;
  for (int trial = 0; trial < 400; ++trial) {
    RandomOp random = randomOp(rng);
    withBatching += !random.dims.operand_batching_dims.empty();
    withImplicitVector +=
        random.dims.index_vector_dim == static_cast<int64_t>(random.indicesShape.size());
    withVectorInside +=
        random.dims.index_vector_dim + 1 < static_cast<int64_t>(random.indicesShape.size());
    GatherOp op = asGatherOp(random);
    std::vector<Violation> violations = validateGather(op);
    ASSERT_TRUE(violations.empty()) << "trial " << trial << "\n" << describe(violations);
    EXPECT_EQ(gatherOutputToOperandMap(op).brokenInvariant(), std::nullopt) << "trial " << trial;
    EXPECT_EQ(gatherOutputToStartIndicesMap(op).brokenInvariant(), std::nullopt)
        << "trial " << trial;
    Tensor operand = distinctValues("i64", random.operandShape, 100);
    Tensor indices = randomIndices(rng, random);
    EXPECT_EQ(mapGather(op, operand, indices), referenceGather(op, operand, indices))
        << "trial " << trial;
  }
  // The generator reaches the cases that matter, not only the easy ones.
  EXPECT_GT(withBatching, 50);
  EXPECT_GT(withImplicitVector, 20);
  EXPECT_GT(withVectorInside, 50);
}

TEST(ScatterRandom, MapsAgreeWithReference) {
  std::mt19937 rng(20240312);
  const UpdateComputation computations[] = {UpdateComputation::kAdd, UpdateComputation::kMul,
                                            UpdateComputation::kMin, UpdateComputation::kMax,
                                            UpdateComputation::kReplace};
  for (int trial = 0; trial < 400; ++trial) {
    RandomOp random = randomOp(rng);
    ScatterOp op = asScatterOp(random, computations[trial % 5]);
    std::vector<Violation> violations = validateScatter(op);
    ASSERT_TRUE(violations.empty()) << "trial " << trial << "\n" << describe(violations);
    EXPECT_EQ(scatterUpdateToResultMap(op).brokenInvariant(), std::nullopt) << "trial " << trial;
    EXPECT_EQ(scatterUpdateToIndicesMap(op).brokenInvariant(), std::nullopt) << "trial " << trial;
    Tensor floats = zeros("f64", random.resultShape);
    for (size_t i = 0; i < floats.floats.size(); ++i) floats.floats[i] = 0.5 * i - 3;
    std::vector<Tensor> inputs = {distinctValues("i64", random.operandShape, 1),
                                  zeros("f64", random.operandShape)};
    std::vector<Tensor> updates = {distinctValues("i64", random.resultShape, 1000), floats};
    Tensor indices = randomIndices(rng, random);
    EXPECT_EQ(mapScatter(op, inputs, indices, updates),
              referenceScatter(op, inputs, indices, updates))
        << "trial " << trial;
  }
}

}  // namespace
}  // namespace idxmap::gather_scatter
