// Spec 000's scatter example: documented result under both evaluators, and the update->result
// map written by hand, compared by meaning (isl), out-of-bounds skip included.
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
using testing::specScatterExample;
using testing::tensorFrom;

constexpr const char* kSpecUpdates = R"([
  [[[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]],
   [[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]]],
  [[[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]],
   [[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]]]])";

// The spec's %result, transcribed.
constexpr const char* kSpecScatterResult = R"([
  [[[3, 4], [6, 7], [6, 7], [7, 8]],
   [[9, 10],[11, 12], [15, 16], [17, 18]],
   [[17, 18], [19, 20], [22, 23], [24, 25]]],
  [[[25, 26], [28, 29], [30, 31], [31, 32]],
   [[35, 36], [38, 39], [38, 39], [39, 40]],
   [[41, 42], [44, 45], [46, 47], [47, 48]]]])";

// The spec writes %update with the shape 2x2x3x2 in its comment but types it 2x2x3x2x2; the
// type is the op's, and every element is 1 either way.
TEST(ScatterSpecExample, IsValid) {
  std::vector<Violation> violations = validateScatter(specScatterExample());
  EXPECT_TRUE(violations.empty()) << testing::describe(violations);
}

TEST(ScatterSpecExample, ReferenceEvaluatorGivesTheDocumentedResult) {
  std::vector<Tensor> results =
      referenceScatter(specScatterExample(), {tensorFrom("i64", {2, 3, 4, 2}, kSpecOperand)},
                       tensorFrom("i64", {2, 2, 3, 2}, kSpecIndices),
                       {tensorFrom("i64", {2, 2, 3, 2, 2}, kSpecUpdates)});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0], tensorFrom("i64", {2, 3, 4, 2}, kSpecScatterResult));
}

TEST(ScatterSpecExample, MapEvaluatorGivesTheDocumentedResult) {
  std::vector<Tensor> results =
      mapScatter(specScatterExample(), {tensorFrom("i64", {2, 3, 4, 2}, kSpecOperand)},
                 tensorFrom("i64", {2, 2, 3, 2}, kSpecIndices),
                 {tensorFrom("i64", {2, 2, 3, 2, 2}, kSpecUpdates)});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0], tensorFrom("i64", {2, 3, 4, 2}, kSpecScatterResult));
}

// Input dim 0 is the batching dim read from update dim 1; dim 1 is inserted, at rt1; dim 2 is
// rt0 plus window dim 3; dim 3 is window dim 4. No clamping: the constraints keep the result
// inside the input, so out-of-bounds updates have no image. The runtime ranges here are
// wider than the library's on purpose: values whose every element is out of bounds have no
// image either way, so the relation is the same.
TEST(ScatterSpecExample, UpdateToResultMapSkipsOutOfBounds) {
  IndexingMap expected = parseIndexingMap(R"(
(d0, d1, d2, d3, d4){rt0, rt1} -> (d1, rt1, rt0 + d3, d4),
domain:
d0 in [0, 1],
d1 in [0, 1],
d2 in [0, 2],
d3 in [0, 1],
d4 in [0, 1],
rt0 in [-100, 100],
rt1 in [-100, 100],
rt0 + d3 in [0, 3],
rt1 + 0 in [0, 2]
)");
  IndexingMap actual = scatterUpdateToResultMap(specScatterExample());
  EXPECT_EQ(islEqual(actual, expected).verdict, Verdict::Proven) << printIndexingMap(actual);
}

TEST(ScatterSpecExample, UpdateToIndicesMap) {
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
  IndexingMap actual = scatterUpdateToIndicesMap(specScatterExample());
  EXPECT_EQ(islEqual(actual, expected).verdict, Verdict::Proven) << printIndexingMap(actual);
}

// Per element, not per window: a window hanging over the edge keeps its in-bounds part.
// Row-major order decides replace: the later update wins.
TEST(ScatterEvaluators, PartialWindowAndOrder) {
  ScatterOp op;
  op.inputs = {{{4}, "i32"}};
  op.scatter_indices = {{3, 1}, "i32"};
  op.updates = {{{3, 2}, "i32"}};
  op.dimension_numbers.update_window_dims = {1};
  op.dimension_numbers.scatter_dims_to_operand_dims = {0};
  op.dimension_numbers.index_vector_dim = 1;
  op.update_computation = UpdateComputation::kReplace;
  ASSERT_TRUE(validateScatter(op).empty()) << testing::describe(validateScatter(op));
  Tensor input = tensorFrom("i32", {4}, "[0, 0, 0, 0]");
  Tensor indices = tensorFrom("i32", {3, 1}, "[[3], [-1], [0]]");
  Tensor updates = tensorFrom("i32", {3, 2}, "[[1, 2], [3, 4], [5, 6]]");
  // [3] gets 1 (2 falls off); [-1] drops 3, puts 4 at 0; [0] puts 5, 6 at 0, 1.
  Tensor expected = tensorFrom("i32", {4}, "[5, 6, 0, 1]");
  EXPECT_EQ(referenceScatter(op, {input}, indices, {updates})[0], expected);
  EXPECT_EQ(mapScatter(op, {input}, indices, {updates})[0], expected);
}

// Two inputs updated together; i8 addition wraps; min and max by hand.
TEST(ScatterEvaluators, VariadicAndComputations) {
  ScatterOp op;
  op.inputs = {{{3}, "i8"}, {{3}, "f32"}};
  op.scatter_indices = {{2}, "i64"};
  op.updates = {{{2}, "i8"}, {{2}, "f32"}};
  op.dimension_numbers.inserted_window_dims = {0};
  op.dimension_numbers.scatter_dims_to_operand_dims = {0};
  op.dimension_numbers.index_vector_dim = 1;
  ASSERT_TRUE(validateScatter(op).empty()) << testing::describe(validateScatter(op));
  std::vector<Tensor> inputs = {tensorFrom("i8", {3}, "[120, 0, -5]"),
                                tensorFrom("f32", {3}, "[0.5, 1.5, 2.5]")};
  Tensor indices = tensorFrom("i64", {2}, "[0, 2]");
  std::vector<Tensor> updates = {tensorFrom("i8", {2}, "[10, 7]"),
                                 tensorFrom("f32", {2}, "[0.25, -4.0]")};
  struct Case {
    UpdateComputation computation;
    const char* ints;
    const char* floats;
  };
  for (const Case& c : {Case{UpdateComputation::kAdd, "[-126, 0, 2]", "[0.75, 1.5, -1.5]"},
                        Case{UpdateComputation::kMul, "[-80, 0, -35]", "[0.125, 1.5, -10.0]"},
                        Case{UpdateComputation::kMin, "[10, 0, -5]", "[0.25, 1.5, -4.0]"},
                        Case{UpdateComputation::kMax, "[120, 0, 7]", "[0.5, 1.5, 2.5]"}}) {
    op.update_computation = c.computation;
    std::vector<Tensor> expected = {tensorFrom("i8", {3}, c.ints),
                                    tensorFrom("f32", {3}, c.floats)};
    EXPECT_EQ(referenceScatter(op, inputs, indices, updates), expected) << c.ints;
    EXPECT_EQ(mapScatter(op, inputs, indices, updates), expected) << c.ints;
  }
}

}  // namespace
}  // namespace idxmap::gather_scatter
