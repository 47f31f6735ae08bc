// Every scatter constraint label, each broken by one hand-written change to the spec's
// example: the label must be among the violations reported.
#include <gtest/gtest.h>

#include <functional>

#include "tests/ops/gather_scatter_test_util.h"

namespace idxmap::gather_scatter {
namespace {

using testing::describe;
using testing::labelsOf;
using testing::specScatterExample;

struct ScatterBreak {
  const char* label;
  std::function<void(ScatterOp&)> mutate;
};

// A second input and update, of the given input shape, with the computation widened to match.
void addSecondOperand(ScatterOp& op, std::vector<int64_t> inputShape,
                      std::vector<int64_t> updateShape) {
  op.inputs.push_back({std::move(inputShape), "i64"});
  op.updates.push_back({std::move(updateShape), "i64"});
  op.computation_argument_types = {"i64", "i64", "i64", "i64"};
  op.computation_result_types = {"i64", "i64"};
  op.results.push_back(op.inputs.back());
}

// Based on the spec example: input 2x3x4x2, scatter_indices 2x2x3x2, updates 2x2x3x2x2,
// update_window_dims [3, 4], inserted [1], input batching [0], indices batching [1],
// scatter_dims_to_operand_dims [2, 1], index_vector_dim 3.
const std::vector<ScatterBreak>& scatterBreaks() {
  static const std::vector<ScatterBreak> breaks = {
      {"I2", [](ScatterOp& op) { op.scatter_indices.element_type = "i1"; }},
      {"C1",
       [](ScatterOp& op) {
         addSecondOperand(op, {2, 3, 4, 3}, {2, 2, 3, 2, 2});
       }},
      {"C2", [](ScatterOp& op) { op.dimension_numbers.update_window_dims = {4}; }},
      {"C3",
       [](ScatterOp& op) {
         addSecondOperand(op, {2, 3, 4, 2}, {2, 2, 3, 2, 1});
       }},
      {"C4",
       [](ScatterOp& op) {
         op.updates[0].shape = {2, 2, 3, 2, 5};
       }},
      {"C4",
       [](ScatterOp& op) {
         op.updates[0].shape = {2, 3, 3, 2, 2};
       }},
      {"C4",
       [](ScatterOp& op) {
         op.updates[0].shape = {2, 2, 3, 2, 2, 1};
       }},
      {"C5", [](ScatterOp& op) { op.updates.clear(); }},
      {"C5", [](ScatterOp& op) { op.inputs.clear(); }},
      {"C6", [](ScatterOp& op) { op.updates[0].element_type = "i32"; }},
      {"C7",
       [](ScatterOp& op) {
         op.dimension_numbers.update_window_dims = {4, 3};
       }},
      {"C8",
       [](ScatterOp& op) {
         op.dimension_numbers.update_window_dims = {3, 5};
       }},
      {"C9", [](ScatterOp& op) { op.dimension_numbers.input_batching_dims = {1}; }},
      {"C10",
       [](ScatterOp& op) {
         op.dimension_numbers.inserted_window_dims = {2, 1};
       }},
      {"C11", [](ScatterOp& op) { op.dimension_numbers.inserted_window_dims = {4}; }},
      {"C12",
       [](ScatterOp& op) {
         op.dimension_numbers.input_batching_dims = {2, 0};
       }},
      {"C13", [](ScatterOp& op) { op.dimension_numbers.input_batching_dims = {5}; }},
      {"C14",
       [](ScatterOp& op) {
         op.dimension_numbers.scatter_indices_batching_dims = {1, 1};
       }},
      {"C15", [](ScatterOp& op) { op.dimension_numbers.scatter_indices_batching_dims = {4}; }},
      {"C16", [](ScatterOp& op) { op.dimension_numbers.scatter_indices_batching_dims = {3}; }},
      {"C17",
       [](ScatterOp& op) {
         op.dimension_numbers.scatter_indices_batching_dims = {1, 2};
       }},
      {"C18",
       [](ScatterOp& op) {
         op.inputs[0].shape = {3, 3, 4, 2};
         op.results[0].shape = {3, 3, 4, 2};
       }},
      {"C19", [](ScatterOp& op) { op.dimension_numbers.scatter_dims_to_operand_dims = {2}; }},
      {"C20",
       [](ScatterOp& op) {
         op.dimension_numbers.scatter_dims_to_operand_dims = {2, 0};
       }},
      {"C21",
       [](ScatterOp& op) {
         op.dimension_numbers.scatter_dims_to_operand_dims = {2, 4};
       }},
      {"C22", [](ScatterOp& op) { op.dimension_numbers.index_vector_dim = 5; }},
      {"C23",
       [](ScatterOp& op) {  // i64 -> i32 narrows: not promotable
         op.computation_argument_types = {"i32", "i32"};
         op.computation_result_types = {"i32"};
       }},
      {"C23",
       [](ScatterOp& op) {
         op.computation_argument_types = {"i64", "f64"};
       }},
      {"C23", [](ScatterOp& op) { op.computation_result_types = {"f64"}; }},
      {"C24",
       [](ScatterOp& op) {
         op.results[0].shape = {2, 3, 4, 3};
       }},
      {"C25", [](ScatterOp& op) { op.results[0].element_type = "i32"; }},
  };
  return breaks;
}

TEST(ScatterValidation, EveryLabelHasAViolatingCase) {
  std::set<std::string> covered;
  for (const ScatterBreak& b : scatterBreaks()) covered.insert(b.label);
  for (int i = 1; i <= 25; ++i) EXPECT_TRUE(covered.count("C" + std::to_string(i))) << i;
}

TEST(ScatterValidation, EachBreakIsReportedWithItsLabel) {
  for (const ScatterBreak& b : scatterBreaks()) {
    ScatterOp op = specScatterExample();
    b.mutate(op);
    std::vector<Violation> violations = validateScatter(op);
    EXPECT_TRUE(labelsOf(violations).count(b.label)) << b.label << ":\n" << describe(violations);
    for (const Violation& v : violations)
      EXPECT_EQ(v.message.rfind("stablehlo.scatter (" + v.label + "): ", 0), 0u) << v.message;
  }
}

// is_promotable allows widening within a kind: i32 inputs into an i64 computation.
TEST(ScatterValidation, WideningComputationIsValid) {
  ScatterOp op = specScatterExample();
  op.inputs[0].element_type = "i32";
  op.updates[0].element_type = "i32";
  op.results[0].element_type = "i64";
  std::vector<Violation> violations = validateScatter(op);
  EXPECT_TRUE(violations.empty()) << describe(violations);
}

TEST(ScatterValidation, WildlyWrongAttributesAreReportedNotFatal) {
  ScatterOp op = specScatterExample();
  op.dimension_numbers.update_window_dims = {-1, 40};
  op.dimension_numbers.inserted_window_dims = {-7};
  op.dimension_numbers.input_batching_dims = {99, 0};
  op.dimension_numbers.scatter_indices_batching_dims = {-2};
  op.dimension_numbers.scatter_dims_to_operand_dims = {8, -8, 1};
  op.dimension_numbers.index_vector_dim = 12;
  op.updates[0].shape = {};
  EXPECT_FALSE(validateScatter(op).empty());
}

}  // namespace
}  // namespace idxmap::gather_scatter
