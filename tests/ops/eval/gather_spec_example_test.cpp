// Spec 000's gather example: documented result under both evaluators, the inferred result
// shape, and the maps written by hand from the spec's formula, compared by meaning (isl).
#include <gtest/gtest.h>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using testing::kSpecIndices;
using testing::kSpecOperand;
using testing::specGatherExample;
using testing::tensorFrom;

// The spec's %result, transcribed.
constexpr const char* kSpecGatherResult = R"([
  [[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]],
   [[[33, 34], [35, 36]], [[35, 36], [37, 38]], [[41, 42], [43, 44]]]],
  [[[[1, 2], [3, 4]], [[13, 14], [15, 16]], [[21, 22], [23, 24]]],
   [[[43, 44], [45, 46]], [[33, 34], [35, 36]], [[27, 28], [29, 30]]]]])";

TEST(GatherSpecExample, IsValid) {
  std::vector<Violation> violations = validateGather(specGatherExample());
  EXPECT_TRUE(violations.empty()) << testing::describe(violations);
}

TEST(GatherSpecExample, InferredResultShapeIsTheDeclaredOne) {
  GatherOp op = specGatherExample();
  EXPECT_EQ(inferGatherResultShape(op.dimension_numbers, op.start_indices.shape, op.slice_sizes),
            (std::vector<int64_t>{2, 2, 3, 2, 2}));
}

TEST(GatherSpecExample, ReferenceEvaluatorGivesTheDocumentedResult) {
  GatherOp op = specGatherExample();
  Tensor result = referenceGather(op, tensorFrom("i32", {2, 3, 4, 2}, kSpecOperand),
                                  tensorFrom("i64", {2, 2, 3, 2}, kSpecIndices));
  EXPECT_EQ(result, tensorFrom("i32", {2, 2, 3, 2, 2}, kSpecGatherResult));
}

TEST(GatherSpecExample, MapEvaluatorGivesTheDocumentedResult) {
  GatherOp op = specGatherExample();
  Tensor result = mapGather(op, tensorFrom("i32", {2, 3, 4, 2}, kSpecOperand),
                            tensorFrom("i64", {2, 2, 3, 2}, kSpecIndices));
  EXPECT_EQ(result, tensorFrom("i32", {2, 2, 3, 2, 2}, kSpecGatherResult));
}

TEST(GatherSpecExample, WithoutADeclaredResultTheInferredShapeIsUsed) {
  GatherOp op = specGatherExample();
  op.result.reset();
  Tensor result = mapGather(op, tensorFrom("i32", {2, 3, 4, 2}, kSpecOperand),
                            tensorFrom("i64", {2, 2, 3, 2}, kSpecIndices));
  EXPECT_EQ(result, tensorFrom("i32", {2, 2, 3, 2, 2}, kSpecGatherResult));
}

// Operand dim 0 is the batching dim read from result dim 1 (start_indices_batching_dims = [1]
// sits before index_vector_dim 3); dim 1 is collapsed, started by rt1 (start_index_map[1]);
// dim 2 starts at rt0 and moves with offset dim 3; dim 3 is offset dim 4. Clamping bounds
// rt0 by 4 - 2 and rt1 by 3 - 1.
TEST(GatherSpecExample, OutputToOperandMap) {
  IndexingMap expected = parseIndexingMap(R"(
(d0, d1, d2, d3, d4){rt0, rt1} -> (d1, rt1, rt0 + d3, d4),
domain:
d0 in [0, 1],
d1 in [0, 1],
d2 in [0, 2],
d3 in [0, 1],
d4 in [0, 1],
rt0 in [0, 2],
rt1 in [0, 2]
)");
  IndexingMap actual = gatherOutputToOperandMap(specGatherExample());
  EXPECT_EQ(islEqual(actual, expected).verdict, Verdict::Proven) << printIndexingMap(actual);
}

TEST(GatherSpecExample, OutputToStartIndicesMap) {
  IndexingMap expected = parseIndexingMap(R"(
(d0, d1, d2, d3, d4)[s0] -> (d0, d1, d2, s0),
domain:
d0 in [0, 1],
d1 in [0, 1],
d2 in [0, 2],
d3 in [0, 1],
d4 in [0, 1],
s0 in [0, 1]
)");
  IndexingMap actual = gatherOutputToStartIndicesMap(specGatherExample());
  EXPECT_EQ(islEqual(actual, expected).verdict, Verdict::Proven) << printIndexingMap(actual);
}

// index_vector_dim = rank(start_indices): each start index is one scalar, no range variable.
TEST(GatherMaps, ImplicitIndexVector) {
  GatherOp op;
  op.operand = {{5, 3}, "f32"};
  op.start_indices = {{4}, "i32"};
  op.dimension_numbers.offset_dims = {1};
  op.dimension_numbers.collapsed_slice_dims = {0};
  op.dimension_numbers.start_index_map = {0};
  op.dimension_numbers.index_vector_dim = 1;
  op.slice_sizes = {1, 3};
  ASSERT_TRUE(validateGather(op).empty()) << testing::describe(validateGather(op));
  IndexingMap toOperand = parseIndexingMap(R"(
(d0, d1){rt0} -> (rt0, d1),
domain:
d0 in [0, 3],
d1 in [0, 2],
rt0 in [0, 4]
)");
  IndexingMap toIndices = parseIndexingMap(R"(
(d0, d1) -> (d0),
domain:
d0 in [0, 3],
d1 in [0, 2]
)");
  EXPECT_EQ(islEqual(gatherOutputToOperandMap(op), toOperand).verdict, Verdict::Proven)
      << printIndexingMap(gatherOutputToOperandMap(op));
  EXPECT_EQ(islEqual(gatherOutputToStartIndicesMap(op), toIndices).verdict, Verdict::Proven)
      << printIndexingMap(gatherOutputToStartIndicesMap(op));
}

// Clamping, worked by hand: start 9 in a dim of 4 with slice 2 reads from 2; start -3 from 0.
TEST(GatherEvaluators, ClampStartIndices) {
  GatherOp op;
  op.operand = {{4}, "i64"};
  op.start_indices = {{2, 1}, "i64"};
  op.dimension_numbers.offset_dims = {1};
  op.dimension_numbers.start_index_map = {0};
  op.dimension_numbers.index_vector_dim = 1;
  op.slice_sizes = {2};
  ASSERT_TRUE(validateGather(op).empty()) << testing::describe(validateGather(op));
  Tensor operand = tensorFrom("i64", {4}, "[10, 11, 12, 13]");
  Tensor indices = tensorFrom("i64", {2, 1}, "[[9], [-3]]");
  Tensor expected = tensorFrom("i64", {2, 2}, "[[12, 13], [10, 11]]");
  EXPECT_EQ(referenceGather(op, operand, indices), expected);
  EXPECT_EQ(mapGather(op, operand, indices), expected);
}

}  // namespace
}  // namespace idxmap::gather_scatter
