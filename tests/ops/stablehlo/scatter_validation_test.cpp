// Every scatter constraint label, each broken by one hand-written change to the spec's
// example: the label must be among the violations reported.
#include <gtest/gtest.h>

#include <functional>

#include "tests/ops/stablehlo/test_util.h"

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
      {"C4", [](ScatterOp& op) { op.updates[0].shape = {2, 2, 3, 2, 2, 1}; }},
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

// Spec 002's compatibility: `?` takes any size within its bound. StableHLO's
// valid_scatter_dimensions_with_dynamic_index_vector_dim: all dynamic is valid.
TEST(ScatterValidation, UnboundedDynamicDimsAreCompatibleWithEverySize) {
  ScatterOp op = specScatterExample();
  auto dynamicLike = [](TensorType& type) { type.shape.assign(type.shape.size(), kDynamic); };
  dynamicLike(op.inputs[0]);
  dynamicLike(op.scatter_indices);
  dynamicLike(op.updates[0]);
  dynamicLike(op.results[0]);
  EXPECT_TRUE(validateScatter(op).empty()) << describe(validateScatter(op));
}

TEST(ScatterValidation, BoundsLimitWhatADynamicDimIsCompatibleWith) {
  // C4: the update window dim 4 has size 2, so dim(inputs[0], 3) must be able to reach 2.
  ScatterOp window = specScatterExample();
  window.inputs[0].shape[3] = window.results[0].shape[3] = kDynamic;
  window.inputs[0].bounds = window.results[0].bounds = {kDynamic, kDynamic, kDynamic, 2};
  EXPECT_TRUE(validateScatter(window).empty()) << describe(validateScatter(window));
  window.inputs[0].bounds[3] = window.results[0].bounds[3] = 1;
  EXPECT_EQ(labelsOf(validateScatter(window)), std::set<std::string>{"C4"});

  // C19: two scatter_dims_to_operand_dims need an index vector dim that can be 2.
  ScatterOp vector = specScatterExample();
  vector.scatter_indices.shape[3] = kDynamic;
  vector.scatter_indices.bounds = {kDynamic, kDynamic, kDynamic, 1};
  EXPECT_EQ(labelsOf(validateScatter(vector)), std::set<std::string>{"C19"});

  // C18 and C24, with spec 002's own example: `?` bounded by 3 is not 7.
  ScatterOp batch = specScatterExample();
  batch.inputs[0].shape = {7, 3, 4, 2};
  batch.results[0].shape = {kDynamic, 3, 4, 2};
  batch.results[0].bounds = {3, kDynamic, kDynamic, kDynamic};
  batch.scatter_indices.shape[1] = kDynamic;
  batch.scatter_indices.bounds = {kDynamic, 3, kDynamic, kDynamic};
  EXPECT_EQ(labelsOf(validateScatter(batch)), (std::set<std::string>{"C18", "C24"}))
      << describe(validateScatter(batch));
}

// is_promotable on quantized types (the spec's definition): the expressed types must agree and
// the storage type may widen. I1/I3: inputs and updates are quantized per tensor, not per axis.
TEST(ScatterValidation, QuantizedTypes) {
  const std::string i8 = "!quant.uniform<i8:f32, 2.000000e+00:15>";
  ScatterOp op = specScatterExample();
  op.inputs[0].element_type = op.updates[0].element_type = i8;
  op.results[0].element_type = "!quant.uniform<i32:f32, 2.000000e+00:15>";
  op.computation_argument_types = {op.results[0].element_type, op.results[0].element_type};
  op.computation_result_types = {op.results[0].element_type};
  EXPECT_TRUE(validateScatter(op).empty()) << describe(validateScatter(op));

  ScatterOp otherExpressed = op;  // StableHLO's scatter_c23 test: f32 vs f64
  otherExpressed.results[0].element_type = "!quant.uniform<i32:f64, 2.000000e+00:15>";
  otherExpressed.computation_argument_types = {otherExpressed.results[0].element_type,
                                               otherExpressed.results[0].element_type};
  otherExpressed.computation_result_types = {otherExpressed.results[0].element_type};
  EXPECT_EQ(labelsOf(validateScatter(otherExpressed)), std::set<std::string>{"C23"});

  ScatterOp narrowing = op;
  narrowing.inputs[0].element_type = narrowing.updates[0].element_type =
      "!quant.uniform<i16<-100:100>:f32, 2.0>";
  narrowing.results[0].element_type = i8;
  narrowing.computation_argument_types = {i8, i8};
  narrowing.computation_result_types = {i8};
  EXPECT_EQ(labelsOf(validateScatter(narrowing)), std::set<std::string>{"C23"});

  ScatterOp perAxis = specScatterExample();
  perAxis.inputs[0].element_type = perAxis.updates[0].element_type =
      perAxis.results[0].element_type = "!quant.uniform<i8:f32:0, {0.1:-30}>";
  perAxis.computation_argument_types = {perAxis.inputs[0].element_type,
                                        perAxis.inputs[0].element_type};
  perAxis.computation_result_types = {perAxis.inputs[0].element_type};
  EXPECT_EQ(labelsOf(validateScatter(perAxis)), (std::set<std::string>{"I1", "I3"}));
}

// C23 wants `tensor<E>` everywhere in the signature: a scalar f32 is not one, even where its
// element type would do.
TEST(ScatterValidation, ComputationTypesMustBeZeroDimTensors) {
  ScatterOp op = specScatterExample();
  op.inputs[0].element_type = op.updates[0].element_type = op.results[0].element_type = "f32";
  op.computation_argument_types = {"f32", "f32"};
  op.computation_result_types = {"f32"};
  EXPECT_TRUE(validateScatter(op).empty()) << describe(validateScatter(op));
  op.computation_argument_types = {ComputationType::notScalarTensor("f32"),
                                   ComputationType::notScalarTensor("f32")};
  op.computation_result_types = {ComputationType::notScalarTensor("f32")};
  EXPECT_EQ(labelsOf(validateScatter(op)), std::set<std::string>{"C23"});
  op.computation_argument_types = {"f32", "f32"};
  op.computation_result_types = {
      ComputationType::notScalarTensor("tuple<tensor<f32>, tensor<f32>>")};
  EXPECT_EQ(labelsOf(validateScatter(op)), std::set<std::string>{"C23"});
}

}  // namespace
}  // namespace idxmap::gather_scatter
