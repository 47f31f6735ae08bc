// Spec 000's "Compatibility" decomposition: the old-form gather (scatter) over iota-extended
// indices gives the same result as the op with batching dims, on the spec's example (whose result
// the spec documents) and on random ops.
#include <gtest/gtest.h>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/eval/decomposed_indices.h"
#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/stablehlo/decompose.h"
#include "tests/ops/stablehlo/random_ops.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

// The spec example's attributes, decomposed by hand from the "Compatibility" text: batching
// dim 0 collapsed and started by a third index entry, the iota along indices axis 1.
TEST(GatherDecompose, SpecExampleAttributes) {
  GatherOp old = decomposeBatchingDims(testing::specGatherExample());
  EXPECT_EQ(old.dimension_numbers.collapsed_slice_dims, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(old.dimension_numbers.operand_batching_dims.empty());
  EXPECT_TRUE(old.dimension_numbers.start_indices_batching_dims.empty());
  EXPECT_EQ(old.dimension_numbers.start_index_map, (std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(old.start_indices.shape, (std::vector<int64_t>{2, 2, 3, 3}));
  EXPECT_TRUE(validateGather(old).empty()) << testing::describe(validateGather(old));
}

TEST(GatherDecompose, SpecExampleIndicesAndResult) {
  GatherOp op = testing::specGatherExample();
  Tensor indices = testing::tensorFrom("i64", {2, 2, 3, 2}, testing::kSpecIndices);
  Tensor extended = startIndicesWithBatchIotas(op, indices);
  // Each index vector followed by its coordinate along axis 1.
  EXPECT_EQ(extended, testing::tensorFrom("i64", {2, 2, 3, 3}, R"([
      [[[0, 0, 0], [1, 0, 0], [2, 1, 0]],
       [[0, 1, 1], [1, 1, 1], [0, 9, 1]]],
      [[[0, 0, 0], [2, 1, 0], [2, 2, 0]],
       [[1, 2, 1], [0, 1, 1], [1, 0, 1]]]])"));
  Tensor operand = testing::tensorFrom("i32", {2, 3, 4, 2}, testing::kSpecOperand);
  GatherOp old = decomposeBatchingDims(op);
  EXPECT_EQ(referenceGather(old, operand, extended), referenceGather(op, operand, indices));
  EXPECT_EQ(mapGather(old, operand, extended), referenceGather(op, operand, indices));
}

TEST(GatherDecompose, RandomOpsGiveTheSameResult) {
  std::mt19937 rng(11);
  int withBatching = 0;
  for (int trial = 0; trial < 300; ++trial) {
    testing::RandomOp random = testing::randomOp(rng);
    GatherOp op = testing::asGatherOp(random);
    withBatching += !op.dimension_numbers.operand_batching_dims.empty();
    GatherOp old = decomposeBatchingDims(op);
    std::vector<Violation> violations = validateGather(old);
    ASSERT_TRUE(violations.empty()) << trial << "\n" << testing::describe(violations);
    Tensor operand = testing::distinctValues("i64", random.operandShape, 1);
    Tensor indices = testing::randomIndices(rng, random);
    Tensor extended = startIndicesWithBatchIotas(op, indices);
    EXPECT_EQ(referenceGather(old, operand, extended), referenceGather(op, operand, indices))
        << trial;
  }
  EXPECT_GT(withBatching, 50);
}

// With the iotas folded in, the old form's map is the batching form's map: proven by isl on
// the spec example and on random ops (an exact equality of relations, not a sample).
TEST(GatherDecompose, FoldedIotaMapEqualsTheBatchingMapByIsl) {
  GatherOp spec = testing::specGatherExample();
  EXPECT_EQ(islEqual(decomposedOutputToOperandMap(spec), gatherOutputToOperandMap(spec)).verdict,
            Verdict::Proven)
      << printIndexingMap(decomposedOutputToOperandMap(spec));
  std::mt19937 rng(13);
  int proven = 0;
  for (int trial = 0; trial < 60; ++trial) {
    GatherOp op = testing::asGatherOp(testing::randomOp(rng));
    if (op.dimension_numbers.operand_batching_dims.empty()) continue;
    IndexingMap batching = gatherOutputToOperandMap(op);
    IndexingMap folded = decomposedOutputToOperandMap(op);
    EXPECT_EQ(islEqual(folded, batching).verdict, Verdict::Proven)
        << trial << "\n"
        << printIndexingMap(folded) << "\n"
        << printIndexingMap(batching);
    ++proven;
  }
  EXPECT_GT(proven, 15);
}

TEST(ScatterDecompose, SpecExampleAttributes) {
  ScatterOp old = decomposeBatchingDims(testing::specScatterExample());
  EXPECT_EQ(old.dimension_numbers.inserted_window_dims, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(old.dimension_numbers.input_batching_dims.empty());
  EXPECT_TRUE(old.dimension_numbers.scatter_indices_batching_dims.empty());
  EXPECT_EQ(old.dimension_numbers.scatter_dims_to_operand_dims, (std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(old.scatter_indices.shape, (std::vector<int64_t>{2, 2, 3, 3}));
  EXPECT_TRUE(validateScatter(old).empty()) << testing::describe(validateScatter(old));
}

// Out-of-bounds indices included: the iota entries are always in bounds, so the old form
// skips exactly what the batching form skips.
TEST(ScatterDecompose, RandomOpsGiveTheSameResult) {
  std::mt19937 rng(12);
  const UpdateComputation computations[] = {UpdateComputation::kAdd, UpdateComputation::kMul,
                                            UpdateComputation::kMin, UpdateComputation::kMax,
                                            UpdateComputation::kReplace};
  int withBatching = 0;
  for (int trial = 0; trial < 300; ++trial) {
    testing::RandomOp random = testing::randomOp(rng);
    ScatterOp op = testing::asScatterOp(random, computations[trial % 5]);
    withBatching += !op.dimension_numbers.input_batching_dims.empty();
    ScatterOp old = decomposeBatchingDims(op);
    std::vector<Violation> violations = validateScatter(old);
    ASSERT_TRUE(violations.empty()) << trial << "\n" << testing::describe(violations);
    std::vector<Tensor> inputs = {testing::distinctValues("i64", random.operandShape, 1),
                                  zeros("f64", random.operandShape)};
    std::vector<Tensor> updates = {testing::distinctValues("i64", random.resultShape, 100),
                                   zeros("f64", random.resultShape)};
    Tensor indices = testing::randomIndices(rng, random);
    Tensor extended = scatterIndicesWithBatchIotas(op, indices);
    EXPECT_EQ(referenceScatter(old, inputs, extended, updates),
              referenceScatter(op, inputs, indices, updates))
        << trial;
  }
  EXPECT_GT(withBatching, 50);
}

}  // namespace
}  // namespace idxmap::gather_scatter
