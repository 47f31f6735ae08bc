// From MLIR text to the gather/scatter models: attributes, types, defaults, the update
// computation, and located errors for ops whose model cannot be built.
#include "ops/import/stablehlo.h"

#include <gtest/gtest.h>

namespace idxmap::stablehlo_import {
namespace {

using gather_scatter::UpdateComputation;

std::vector<std::string> labels(const std::vector<gather_scatter::Violation>& violations) {
  std::vector<std::string> result;
  for (const gather_scatter::Violation& violation : violations) result.push_back(violation.label);
  return result;
}

const mlir_ir::Operation& onlyOp(const mlir_ir::Module& module) {
  EXPECT_EQ(module.operations.size(), 1u);
  return module.operations.at(0);
}

TEST(StablehloImport, ReadsGatherWithBatchingDims) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
  %res = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3], collapsed_slice_dims = [1, 2], operand_batching_dims = [0],
      start_indices_batching_dims = [1], start_index_map = [1, 2], index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 1, 8>,
    indices_are_sorted = true
  } : (tensor<3x2x4x9xi32>, tensor<1x3x5x2xi32>) -> tensor<1x3x5x8xi32>)");
  gather_scatter::GatherOp op = importGather(onlyOp(module));
  EXPECT_EQ(op.operand.shape, (std::vector<int64_t>{3, 2, 4, 9}));
  EXPECT_EQ(op.operand.element_type, "i32");
  EXPECT_EQ(op.start_indices.shape, (std::vector<int64_t>{1, 3, 5, 2}));
  EXPECT_EQ(op.dimension_numbers.offset_dims, std::vector<int64_t>{3});
  EXPECT_EQ(op.dimension_numbers.collapsed_slice_dims, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(op.dimension_numbers.operand_batching_dims, std::vector<int64_t>{0});
  EXPECT_EQ(op.dimension_numbers.start_indices_batching_dims, std::vector<int64_t>{1});
  EXPECT_EQ(op.dimension_numbers.start_index_map, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(op.dimension_numbers.index_vector_dim, 3);
  EXPECT_EQ(op.slice_sizes, (std::vector<int64_t>{1, 1, 1, 8}));
  EXPECT_TRUE(op.indices_are_sorted);
  ASSERT_TRUE(op.result.has_value());
  EXPECT_EQ(op.result->shape, (std::vector<int64_t>{1, 3, 5, 8}));
  EXPECT_TRUE(gather_scatter::validateGather(op).empty());
}

TEST(StablehloImport, AbsentFieldsTakeStablehloDefaultsAndDynamicDimsAreKept) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
  %res = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], offset_dims = [2],
                                          start_index_map = [0, 1]>,
    slice_sizes = dense<[1, 1, 8]> : tensor<3xi64>
  } : (tensor<?x?x?xi32, #stablehlo.bounds<2, 4, 8>>, tensor<2x?x?xi64>) -> tensor<?x?x8xi32>)");
  gather_scatter::GatherOp op = importGather(onlyOp(module));
  EXPECT_EQ(op.dimension_numbers.index_vector_dim, 0);
  EXPECT_TRUE(op.dimension_numbers.operand_batching_dims.empty());
  EXPECT_FALSE(op.indices_are_sorted);
  EXPECT_EQ(op.slice_sizes, (std::vector<int64_t>{1, 1, 8}));
  EXPECT_EQ(op.operand.shape, (std::vector<int64_t>{kDynamic, kDynamic, kDynamic}));
  EXPECT_EQ(op.operand.bounds, (std::vector<int64_t>{2, 4, 8}));
  EXPECT_FALSE(op.operand.isStatic());
  EXPECT_TRUE(op.start_indices.bounds.empty());
}

TEST(StablehloImport, DynamicGatherTakesSliceSizesWhenKnown) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
  %res = "stablehlo.dynamic_gather"(%operand, %start_indices, %slice_sizes) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], index_vector_dim = 2,
                                          offset_dims = [2], start_index_map = [0, 1]>
  } : (tensor<2x4x9xi32>, tensor<1x5x2xi32>, tensor<3xi32>) -> tensor<1x5x8xi32>)");
  gather_scatter::DynamicGatherOp known =
      importDynamicGather(onlyOp(module), std::vector<int64_t>{1, 1, 8});
  EXPECT_EQ(known.slice_sizes, (std::vector<int64_t>{1, 1, 8}));
  EXPECT_EQ(known.slice_sizes_type.shape, std::vector<int64_t>{3});
  EXPECT_TRUE(gather_scatter::validateDynamicGather(known).empty());
  EXPECT_TRUE(importDynamicGather(onlyOp(module), std::nullopt).slice_sizes.empty());
}

// A scatter whose region is `body` over (tensor<f32>, tensor<f32>) arguments %a (current)
// and %b (update).
gather_scatter::ScatterOp scatterWithBody(const std::string& body) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
  %r = "stablehlo.scatter"(%input, %indices, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
)" + body + R"(
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    unique_indices = true
  } : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>)");
  return importScatter(onlyOp(module));
}

TEST(StablehloImport, RecognizesUpdateComputations) {
  struct Case {
    std::string body;
    UpdateComputation expected;
  };
  const Case cases[] = {
      {"%s = stablehlo.add %a, %b : tensor<f32>\n stablehlo.return %s : tensor<f32>",
       UpdateComputation::kAdd},
      {"%s = stablehlo.multiply %b, %a : tensor<f32>\n stablehlo.return %s : tensor<f32>",
       UpdateComputation::kMul},
      {"%s = \"stablehlo.minimum\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
       "\"stablehlo.return\"(%s) : (tensor<f32>) -> ()",
       UpdateComputation::kMin},
      {"%s = stablehlo.maximum %a, %b : tensor<f32>\n stablehlo.return %s : tensor<f32>",
       UpdateComputation::kMax},
      {"\"stablehlo.return\"(%b) : (tensor<f32>) -> ()", UpdateComputation::kReplace},
      {"\"stablehlo.return\"(%a) : (tensor<f32>) -> ()", UpdateComputation::kOther},
      {"%s = stablehlo.subtract %a, %b : tensor<f32>\n stablehlo.return %s : tensor<f32>",
       UpdateComputation::kOther},
      {"%s = stablehlo.add %a, %a : tensor<f32>\n stablehlo.return %s : tensor<f32>",
       UpdateComputation::kOther},
  };
  for (const Case& c : cases) {
    gather_scatter::ScatterOp op = scatterWithBody(c.body);
    EXPECT_EQ(op.update_computation, c.expected) << c.body;
    EXPECT_EQ(op.computation_argument_types,
              (std::vector<gather_scatter::ComputationType>{"f32", "f32"}));
    EXPECT_EQ(op.computation_result_types, std::vector<gather_scatter::ComputationType>{"f32"})
        << c.body;
  }
  gather_scatter::ScatterOp add = scatterWithBody(
      "%s = stablehlo.add %a, %b : tensor<f32>\n stablehlo.return %s : tensor<f32>");
  EXPECT_TRUE(add.unique_indices);
  EXPECT_EQ(add.dimension_numbers.index_vector_dim, 1);
  EXPECT_TRUE(gather_scatter::validateScatter(add).empty());
}

TEST(StablehloImport, ReadsVariadicScatter) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
  %0, %1 = "stablehlo.scatter"(%arg0, %arg0, %arg1, %arg2, %arg2) ({
  ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<i32>):
    "stablehlo.return"(%arg5, %arg6) : (tensor<i32>, tensor<i32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3xi32>, tensor<3xi32>, tensor<1x1xi32>, tensor<1xi32>, tensor<1xi32>)
    -> (tensor<3xi32>, tensor<3xi32>))");
  gather_scatter::ScatterOp op = importScatter(onlyOp(module));
  EXPECT_EQ(op.inputs.size(), 2u);
  EXPECT_EQ(op.updates.size(), 2u);
  EXPECT_EQ(op.results.size(), 2u);
  EXPECT_EQ(op.scatter_indices.shape, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(op.update_computation, UpdateComputation::kReplace);
  EXPECT_TRUE(gather_scatter::validateScatter(op).empty());
}

TEST(StablehloImport, NonTensorRegionResultsNeverLookLikeElementTypes) {
  gather_scatter::ScatterOp op = scatterWithBody(
      "%s = stablehlo.add %a, %b : tensor<f32>\n"
      "%t = \"stablehlo.tuple\"(%s, %s) : (tensor<f32>, tensor<f32>) -> "
      "tuple<tensor<f32>, tensor<f32>>\n"
      "\"stablehlo.return\"(%t) : (tuple<tensor<f32>, tensor<f32>>) -> ()");
  ASSERT_EQ(op.computation_result_types.size(), 1u);
  EXPECT_FALSE(op.computation_result_types[0].isScalarTensor());
  EXPECT_EQ(op.computation_result_types[0].toString(), "tuple<tensor<f32>, tensor<f32>>");
  EXPECT_EQ(labels(gather_scatter::validateScatter(op)), std::vector<std::string>{"C23"});
}

// StableHLO's scatter_c23 tests: a region over scalar `f32` (not `tensor<f32>`) is rejected,
// although its element type is the input's.
TEST(StablehloImport, ScalarRegionTypesAreNotZeroDimTensors) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
  %r = "stablehlo.scatter"(%input, %indices, %updates) ({
  ^bb0(%a: f32, %b: f32):
    %s = "llvm.add"(%a, %b) : (f32, f32) -> f32
    "stablehlo.return"(%s) : (f32) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>)");
  gather_scatter::ScatterOp op = importScatter(onlyOp(module));
  ASSERT_EQ(op.computation_argument_types.size(), 2u);
  EXPECT_FALSE(op.computation_argument_types[0].isScalarTensor());
  EXPECT_EQ(op.computation_argument_types[0].toString(), "f32");
  ASSERT_EQ(op.computation_result_types.size(), 1u);
  EXPECT_EQ(op.computation_result_types[0].toString(), "f32");
  std::vector<gather_scatter::Violation> violations = gather_scatter::validateScatter(op);
  EXPECT_EQ(labels(violations), std::vector<std::string>{"C23"});
  EXPECT_NE(violations.at(0).message.find("has type f32, not a 0-d tensor"), std::string::npos)
      << violations.at(0).message;
}

TEST(StablehloImport, DynamicGatherWithoutKnownSliceSizesSkipsTheirChecks) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
  %res = "stablehlo.dynamic_gather"(%operand, %start_indices, %slice_sizes) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], index_vector_dim = 2,
                                          offset_dims = [2], start_index_map = [0, 1]>
  } : (tensor<2x4x9xi32>, tensor<1x5x2xi32>, tensor<3xi32>) -> tensor<1x5x?xi32>)");
  gather_scatter::DynamicGatherOp unknown = importDynamicGather(onlyOp(module), std::nullopt);
  EXPECT_FALSE(unknown.slice_sizes_known);
  EXPECT_TRUE(gather_scatter::validateDynamicGather(unknown).empty());
  // Known sizes too large for the operand break C12 (0 <= slice_sizes <= shape(operand)).
  gather_scatter::DynamicGatherOp tooLarge =
      importDynamicGather(onlyOp(module), std::vector<int64_t>{1, 1, 10});
  EXPECT_TRUE(tooLarge.slice_sizes_known);
  EXPECT_EQ(labels(gather_scatter::validateDynamicGather(tooLarge)),
            std::vector<std::string>{"C12"});
}

void expectImportError(const std::string& text, const std::string& fragment, int line) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "bad.mlir");
  try {
    const mlir_ir::Operation& op = onlyOp(module);
    if (op.name == "stablehlo.scatter")
      importScatter(op);
    else
      importGather(op);
    ADD_FAILURE() << "no error for " << text;
  } catch (const ImportError& e) {
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(e.location().file, "bad.mlir");
    EXPECT_EQ(e.location().line, line) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.mlir:" + std::to_string(line) + ":", 0), 0u);
  }
}

TEST(StablehloImport, OpsWhoseModelCannotBeBuiltAreLocatedErrors) {
  expectImportError(R"(%r = "stablehlo.gather"(%a) {slice_sizes = array<i64: 1>,
    dimension_numbers = #stablehlo.gather<>} : (tensor<2xf32>) -> tensor<1xf32>)",
                    "takes 2 operands", 1);
  expectImportError(
      "\n%r = \"stablehlo.gather\"(%a, %b) {slice_sizes = array<i64: 1>} : "
      "(tensor<2xf32>, tensor<1xi32>) -> tensor<1xf32>",
      "missing attribute `dimension_numbers`", 2);
  expectImportError(R"(%r = "stablehlo.gather"(%a, %b) {
    dimension_numbers = 3, slice_sizes = array<i64: 1>} : (tensor<2xf32>, tensor<1xi32>) -> tensor<1xf32>)",
                    "#stablehlo.gather", 2);
  expectImportError(R"(%r = "stablehlo.gather"(%a, %b) {dimension_numbers = #stablehlo.gather<>,
    slice_sizes = array<i64: 1>} : (tensor<*xf32>, tensor<1xi32>) -> tensor<1xf32>)",
                    "operand 0 of stablehlo.gather must be a ranked tensor", 1);
  expectImportError(R"(%r = "stablehlo.gather"(%a, %b) {dimension_numbers = #stablehlo.gather<>,
    slice_sizes = array<i64: 1>, indices_are_sorted = 1} : (tensor<2xf32>, tensor<1xi32>) -> tensor<1xf32>)",
                    "`indices_are_sorted` must be true or false", 2);
  expectImportError(R"(%r = "stablehlo.scatter"(%a, %b) ({
  }) {scatter_dimension_numbers = #stablehlo.scatter<>} : (tensor<2xf32>, tensor<1xi32>) -> tensor<2xf32>)",
                    "an odd number of operands", 1);
}

}  // namespace
}  // namespace idxmap::stablehlo_import
