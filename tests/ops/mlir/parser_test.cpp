// The StableHLO MLIR reader on op forms: generic and pretty, regions, functions, unknown ops,
// control flow, spec 001 / 003 syntax.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ops/mlir/module.h"
#include "tests/ops/mlir/test_util.h"

namespace idxmap::mlir_ir {
namespace {

TEST(MlirParser, ReadsGenericGatherWithBatchingDims) {
  Module module = parseMlirModule(R"(%result = "stablehlo.gather"(%operand, %start_indices) {
  dimension_numbers = #stablehlo.gather<
    offset_dims = [3, 4],
    collapsed_slice_dims = [1],
    operand_batching_dims = [0],
    start_indices_batching_dims = [1],
    start_index_map = [2, 1],
    index_vector_dim = 3>,
  slice_sizes = array<i64: 1, 1, 2, 2>,
  indices_are_sorted = false
} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>)",
                                  "gather.mlir");
  const Operation& op = onlyOp(module);
  EXPECT_EQ(op.name, "stablehlo.gather");
  EXPECT_TRUE(op.genericForm);
  EXPECT_EQ(op.location.file, "gather.mlir");
  EXPECT_EQ(op.location.line, 1);
  EXPECT_EQ(op.location.column, 11);
  ASSERT_EQ(op.results.size(), 1u);
  EXPECT_EQ(op.results[0].toString(), "%result");
  ASSERT_EQ(op.operands.size(), 2u);
  EXPECT_EQ(op.operands[1].name, "start_indices");
  EXPECT_EQ(typeStrings(op.operandTypes),
            (std::vector<std::string>{"tensor<2x3x4x2xi32>", "tensor<2x2x3x2xi64>"}));
  EXPECT_EQ(typeStrings(op.resultTypes), std::vector<std::string>{"tensor<2x2x3x2x2xi32>"});

  const NamedAttribute* dims = op.namedAttribute("dimension_numbers");
  ASSERT_NE(dims, nullptr);
  EXPECT_EQ(dims->location.line, 2);
  EXPECT_EQ(dims->location.column, 3);
  EXPECT_EQ(dims->value.kind, Attribute::Kind::Structured);
  EXPECT_EQ(dims->value.text, "stablehlo.gather");
  EXPECT_EQ(dims->value.field("offset_dims")->asInts(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(dims->value.field("operand_batching_dims")->asInts(), std::vector<int64_t>{0});
  EXPECT_EQ(dims->value.field("start_index_map")->asInts(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(dims->value.field("index_vector_dim")->asInt(), 3);
  EXPECT_EQ(dims->value.field("index_vector_dim")->location.line, 8);
  EXPECT_EQ(dims->value.field("no_such_field"), nullptr);
  EXPECT_EQ(op.attribute("slice_sizes")->asInts(), (std::vector<int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(op.attribute("indices_are_sorted")->kind, Attribute::Kind::Bool);
  EXPECT_EQ(op.attribute("indices_are_sorted")->asInt(), 0);
}

TEST(MlirParser, ReadsScatterWithPropertiesRegionAndResultNumbers) {
  Module module = parseMlirModule(R"(
    %2 = "stablehlo.scatter"(%0#0, %c, %0#1) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg0: tensor<ui64>, %arg1: tensor<ui64>):
      %3 = stablehlo.add %arg0, %arg1 : tensor<ui64>
      stablehlo.return %3 : tensor<ui64>
    }) : (tensor<3xui64>, tensor<3x1xi64>, tensor<3xui64>) -> tensor<3xui64>)",
                                  "scatter.mlir");
  const Operation& op = onlyOp(module);
  ASSERT_EQ(op.operands.size(), 3u);
  EXPECT_EQ(op.operands[0], (Value{"0", 0, {}}));
  EXPECT_EQ(op.operands[2], (Value{"0", 1, {}}));
  EXPECT_EQ(op.operands[2].toString(), "%0#1");
  const Attribute* dims = op.attribute("scatter_dimension_numbers");
  ASSERT_NE(dims, nullptr);
  EXPECT_EQ(dims->text, "stablehlo.scatter");
  EXPECT_EQ(dims->field("scatter_dims_to_operand_dims")->asInts(), std::vector<int64_t>{0});
  EXPECT_EQ(op.attribute("unique_indices")->asInt(), 1);
  ASSERT_EQ(op.regions.size(), 1u);
  const Block& block = op.regions[0].blocks.at(0);
  EXPECT_EQ(block.label, "bb0");
  ASSERT_EQ(block.arguments.size(), 2u);
  EXPECT_EQ(block.arguments[1].value.name, "arg1");
  EXPECT_EQ(block.arguments[1].type.toString(), "tensor<ui64>");
  EXPECT_EQ(block.arguments[1].type.elementType().kind, ElementKind::UI64);
  ASSERT_EQ(block.operations.size(), 2u);
  EXPECT_EQ(block.operations[0].name, "stablehlo.add");
  EXPECT_FALSE(block.operations[0].genericForm);
  EXPECT_EQ(typeStrings(block.operations[0].operandTypes),
            (std::vector<std::string>{"tensor<ui64>", "tensor<ui64>"}));
  EXPECT_EQ(block.operations[1].name, "stablehlo.return");
  EXPECT_EQ(block.operations[1].operands.at(0).name, "3");
  EXPECT_EQ(typeStrings(block.operations[1].operandTypes),
            std::vector<std::string>{"tensor<ui64>"});
}

TEST(MlirParser, ReadsFunctionsInAModuleWithAttributesAndLocations) {
  Module module = parseMlirModule(R"(#loc = loc("x.py":1:2)
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<i64> loc("a"), %arg1: tensor<?x5xf32> {mhlo.sharding = ""}) -> (tensor<?x2xf32> {jax.result_info = ""}) attributes {xla.shape = true} {
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32> loc(#loc)
    return %0 : tensor<i32>
  }
  func.func private @declared(tensor<2xf32>) -> tensor<2xf32>
}
)",
                                  "module.mlir");
  ASSERT_EQ(module.functions.size(), 2u);
  EXPECT_EQ(module.attributes.at(0).name, "mhlo.num_partitions");
  EXPECT_EQ(module.attributes.at(0).value.asInt(), 1);
  const Function& main = module.functions[0];
  EXPECT_EQ(main.name, "main");
  EXPECT_EQ(main.visibility, "public");
  EXPECT_EQ(main.location.line, 3);
  ASSERT_EQ(main.arguments.size(), 2u);
  EXPECT_EQ(main.arguments[1].value.name, "arg1");
  EXPECT_EQ(main.arguments[1].type.shape, (std::vector<int64_t>{kDynamic, 5}));
  EXPECT_EQ(main.arguments[1].attributes.at(0).name, "mhlo.sharding");
  EXPECT_EQ(main.arguments[1].attributes.at(0).value.text, "");
  EXPECT_EQ(typeStrings(main.resultTypes), std::vector<std::string>{"tensor<?x2xf32>"});
  EXPECT_EQ(main.attributes.at(0).name, "xla.shape");
  const Operation* ret = main.returnOp();
  ASSERT_NE(ret, nullptr);
  EXPECT_EQ(ret->operands.at(0).name, "0");
  const Operation& convert = bodyOps(module)[0];
  EXPECT_EQ(typeStrings(convert.operandTypes), std::vector<std::string>{"tensor<i64>"});
  EXPECT_EQ(typeStrings(convert.resultTypes), std::vector<std::string>{"tensor<i32>"});
  EXPECT_EQ(main.definingOp(Value{"0", 0, {}}), &convert);
  EXPECT_EQ(main.definingOp(Value{"0", 1, {}}), nullptr);
  EXPECT_EQ(main.definingOp(convert.operands.at(0)), nullptr);
  EXPECT_EQ(main.argument(convert.operands.at(0)), &main.arguments[0]);
  EXPECT_EQ(main.argument(Value{"0", 0, {}}), nullptr);
  EXPECT_EQ(module.function("declared")->visibility, "private");
  EXPECT_TRUE(module.function("declared")->body.blocks.empty());
  EXPECT_EQ(module.function("declared")->arguments.at(0).value.name, "");
  EXPECT_EQ(module.function("missing"), nullptr);
}

TEST(MlirParser, ReadsPrettyFormsOfStableHloTests) {
  Module module = parseMlirModule(R"(func.func @main() {
  %operand = stablehlo.constant dense<[[1, 2], [3, 4],
                                       [5, 6]]> : tensor<3x2xi64>
  %zero = stablehlo.constant dense<0.5> : tensor<2x2xf32>
  %iota = stablehlo.iota dim = 0 : tensor<4xi64>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
  %cat = stablehlo.concatenate %1, %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %cmp = stablehlo.compare  LT, %arg2, %3,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
  %sel = stablehlo.select %32, %35, %22 : tensor<2xi1>, tensor<2xi64>
  %red = stablehlo.reduce(%37 init: %c_14) applies stablehlo.and across dimensions = [1] : (tensor<2x1xi1>, tensor<i1>) -> tensor<2xi1>
  %r2 = stablehlo.reduce(%70 init: %71) across dimensions = [1] : (tensor<?x2xi1>, tensor<i1>) -> tensor<?xi1>
     reducer(%arg3: tensor<i1>, %arg4: tensor<i1>)  {
      %75 = stablehlo.and %arg3, %arg4 : tensor<i1>
      stablehlo.return %75 : tensor<i1>
    }
  %call = stablehlo.custom_call @check.eq(%cst_0, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  %q = stablehlo.uniform_quantize %2 : tensor<10x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
  check.expect_eq_const %operand, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  check.expect_almost_eq_const %zero, dense<0.5> : tensor<2x2xf32>
  check.expect_close %zero, %zero, max_ulp_difference = 3 : tensor<2x2xf32>, tensor<2x2xf32>
  func.return
})",
                                  "pretty.mlir");
  const std::vector<Operation>& ops = bodyOps(module);
  ASSERT_EQ(ops.size(), 15u);
  const Attribute* operand = ops[0].attribute("value");
  ASSERT_NE(operand, nullptr);
  ASSERT_NE(operand->dense, nullptr);
  EXPECT_EQ(operand->dense->ints, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_FALSE(operand->dense->isSplat);
  EXPECT_EQ(typeStrings(ops[0].resultTypes), std::vector<std::string>{"tensor<3x2xi64>"});
  EXPECT_TRUE(ops[1].attribute("value")->dense->isSplat);
  EXPECT_EQ(ops[1].attribute("value")->dense->floatAt(3), 0.5);
  EXPECT_EQ(ops[2].attribute("dim")->asInt(), 0);
  EXPECT_EQ(typeStrings(ops[2].resultTypes), std::vector<std::string>{"tensor<4xi64>"});
  EXPECT_EQ(ops[3].attribute("dims")->asInts(), std::vector<int64_t>{});
  EXPECT_EQ(ops[4].operands.size(), 3u);
  EXPECT_EQ(ops[4].attribute("dim")->asInt(), 0);
  EXPECT_EQ(ops[5].keywords, (std::vector<std::string>{"LT", "SIGNED"}));
  EXPECT_EQ(ops[5].operands.size(), 2u);
  EXPECT_EQ(typeStrings(ops[6].resultTypes), std::vector<std::string>{"tensor<2xi64>"});
  EXPECT_TRUE(ops[6].operandTypes.empty());  // `pred, result` names no operand types
  EXPECT_EQ(ops[7].operands.size(), 2u);
  EXPECT_EQ(ops[7].keywords,
            (std::vector<std::string>{"init", "applies", "stablehlo.and", "across"}));
  EXPECT_EQ(ops[7].attribute("dimensions")->asInts(), std::vector<int64_t>{1});
  ASSERT_EQ(ops[8].regions.size(), 1u);
  const Block& reducer = ops[8].regions[0].blocks.at(0);
  EXPECT_EQ(reducer.arguments.size(), 2u);
  EXPECT_EQ(reducer.operations.size(), 2u);
  EXPECT_EQ(ops[9].attribute("callee")->text, "check.eq");
  EXPECT_EQ(ops[9].operands.size(), 2u);
  EXPECT_EQ(ops[10].resultTypes.at(0).elementType().kind, ElementKind::Other);
  EXPECT_EQ(ops[10].resultTypes.at(0).elementType().text,
            "!quant.uniform<i8:f32, 0.0039215482917486456:-128>");
  EXPECT_EQ(ops[11].name, "check.expect_eq_const");
  EXPECT_EQ(ops[11].attribute("value")->dense->ints, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(typeStrings(ops[11].operandTypes), std::vector<std::string>{"tensor<3x2xi64>"});
  EXPECT_EQ(ops[12].attribute("value")->dense->floatAt(0), 0.5);
  EXPECT_EQ(ops[13].attribute("max_ulp_difference")->asInt(), 3);
  EXPECT_EQ(ops[13].operandTypes.size(), 2u);
  EXPECT_EQ(ops[13].name, "check.expect_close");
  EXPECT_EQ(ops[14].name, "func.return");
  EXPECT_TRUE(ops[14].operands.empty());
}

TEST(MlirParser, CarriesUnknownOpsOpaquely) {
  Module module = parseMlirModule(R"(func.func @f(%a: f32, %b: tensor<2xf32>) -> f32 {
  %add = "llvm.add" (%a, %a) : (f32, f32) -> f32
  %t:2 = mydialect.thing %b, %a {kind = "x"} : tensor<2xf32>, f32
  %w = mydialect.loop(%iter = %b) : tensor<2xf32> body {
    mydialect.yield %iter : tensor<2xf32>
  }
  return %add : f32
})",
                                  "unknown.mlir");
  const auto& ops = bodyOps(module);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].name, "llvm.add");
  EXPECT_EQ(ops[1].name, "mydialect.thing");
  ASSERT_EQ(ops[1].results.size(), 2u);
  EXPECT_EQ(ops[1].results[1].toString(), "%t#1");
  EXPECT_EQ(ops[1].attribute("kind")->text, "x");
  EXPECT_EQ(definingOp(ops, Value{"t", 1, {}}), &ops[1]);
  EXPECT_EQ(definingOp(ops, Value{"t", 2, {}}), nullptr);
  EXPECT_EQ(typeStrings(ops[1].resultTypes), (std::vector<std::string>{"tensor<2xf32>", "f32"}));
  EXPECT_EQ(ops[2].operands.at(0).name, "b");
  EXPECT_EQ(ops[2].keywords, std::vector<std::string>{"body"});
  ASSERT_EQ(ops[2].regions.size(), 1u);
  EXPECT_EQ(ops[2].regions[0].blocks.at(0).operations.at(0).name, "mydialect.yield");
  EXPECT_EQ(ops[3].name, "return");
}

// The index-provenance ops of issue 4 in the pretty forms StableHLO prints.
TEST(MlirParser, ReadsPrettyDataMovementOps) {
  Module module = parseMlirModule(R"(
%s = stablehlo.slice %operand [1:3, 4:8:2] : (tensor<3x8xi64>) -> tensor<2x2xi64>
%t = stablehlo.transpose %operand, dims = [1, 0] : (tensor<3x8xi64>) -> tensor<8x3xi64>
%r = stablehlo.reshape %t : (tensor<8x3xi64>) -> tensor<24xi64>
%c = stablehlo.clamp %lo, %r, %hi : tensor<24xi64>
%d = stablehlo.dynamic_slice %operand, %i, %j, sizes = [2, 2] : (tensor<3x8xi64>, tensor<i64>, tensor<i64>) -> tensor<2x2xi64>
%g = stablehlo.get_dimension_size %operand, dim = 1 : (tensor<3x8xi64>) -> tensor<i32>
%p = stablehlo.pad %operand, %zero, low = [0, 1], high = [2, 0], interior = [1, 1] : (tensor<3x8xi64>, tensor<i64>) -> tensor<7x16xi64>
)",
                                  "movement.mlir");
  const auto& ops = module.operations;
  ASSERT_EQ(ops.size(), 7u);
  EXPECT_EQ(ops[0].operands.size(), 1u);
  EXPECT_EQ(ops[0].attribute("start_indices")->asInts(), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(ops[0].attribute("limit_indices")->asInts(), (std::vector<int64_t>{3, 8}));
  EXPECT_EQ(ops[0].attribute("strides")->asInts(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(ops[1].attribute("dims")->asInts(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(typeStrings(ops[2].resultTypes), std::vector<std::string>{"tensor<24xi64>"});
  EXPECT_EQ(ops[3].operandTypes.size(), 3u);
  EXPECT_EQ(ops[4].operands.size(), 3u);
  EXPECT_EQ(ops[4].attribute("sizes")->asInts(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(ops[5].attribute("dim")->asInt(), 1);
  EXPECT_EQ(ops[6].attribute("interior")->asInts(), (std::vector<int64_t>{1, 1}));
}

TEST(MlirParser, ReadsWhileCallAndCaseForms) {
  Module module =
      parseMlirModule(R"(func.func @f(%arg0: tensor<i64>, %arg1: tensor<i64>) -> tensor<i64> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i64>, tensor<i64>
   cond {
    %1 = stablehlo.compare  LT, %iterArg, %iterArg_0 : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = func.call @g(%iterArg) : (tensor<i64>) -> tensor<i64>
    stablehlo.return %2, %iterArg_0 : tensor<i64>, tensor<i64>
  }
  %3 = "stablehlo.case"(%i) ({
    stablehlo.return %0#0 : tensor<i64>
  }, {
    stablehlo.return %0#1 : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  return %3 : tensor<i64>
})",
                      "control.mlir");
  const auto& ops = bodyOps(module);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].results.size(), 2u);
  EXPECT_EQ(ops[0].operands.size(), 2u);
  EXPECT_EQ(typeStrings(ops[0].resultTypes),
            (std::vector<std::string>{"tensor<i64>", "tensor<i64>"}));
  EXPECT_EQ(ops[0].keywords, (std::vector<std::string>{"cond", "do"}));
  ASSERT_EQ(ops[0].regions.size(), 2u);
  const Operation& call = ops[0].regions[1].blocks.at(0).operations.at(0);
  EXPECT_EQ(call.attribute("callee")->text, "g");
  EXPECT_EQ(call.operands.size(), 1u);
  EXPECT_EQ(ops[0].regions[1].blocks.at(0).operations.at(1).operandTypes.size(), 2u);
  EXPECT_EQ(ops[1].regions.size(), 2u);
  EXPECT_EQ(ops[1].regions[1].blocks.at(0).operations.at(0).operands.at(0).toString(), "%0#1");
}

// Spec 001 (MLIR tensor.gather / tensor.scatter RFC), every spelling it uses.
TEST(MlirParser, ReadsSpec001TensorGatherAndScatter) {
  Module module = parseMlirModule(R"(
%out = tensor.gather %input[%indices] :
  tensor<4x4x4xf32>[tensor<1x2x 3xindex>] -> tensor<1x2xf32>
%out2 = tensor.gather %input[%indices] gather_along_dimension(1) :
  tensor<2x3x4xf32>[tensor<5x6x 1xindex>] -> tensor<5x6x2x1x4xf32>
%out3 = tensor.gather %input[%indices] gather_along_dimensions(0, 2) :
  (tensor<2x3x4xf32>, tensor<5x6x 2xindex>) -> tensor<5x6x3xf32>
%out4 = tensor.gather %source[%idx] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<7x2xindex>) -> tensor<7x4x1x1xf32>
%4 = scatter %3, %dest[%unique_indices] unique:
  tensor<?x6xf32> into tensor<?x6xf32>[tensor<4x?x 2xindex>]
%5 = tensor.scatter %src into %dest[%idx] scatter_dims([1]) unique : (tensor<7x4x1xf32>, tensor<4x5xf32>, tensor<7x1xindex>) -> tensor<4x5xf32>
)",
                                  "spec001.mlir");
  const auto& ops = module.operations;
  ASSERT_EQ(ops.size(), 6u);
  EXPECT_EQ(ops[0].name, "tensor.gather");
  EXPECT_EQ(ops[0].operands.size(), 2u);
  EXPECT_EQ(typeStrings(ops[0].operandTypes),
            (std::vector<std::string>{"tensor<4x4x4xf32>", "tensor<1x2x3xindex>"}));
  EXPECT_EQ(typeStrings(ops[0].resultTypes), std::vector<std::string>{"tensor<1x2xf32>"});
  EXPECT_EQ(ops[1].attribute("gather_along_dimension")->asInts(), std::vector<int64_t>{1});
  EXPECT_EQ(ops[2].attribute("gather_along_dimensions")->asInts(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(ops[3].attribute("gather_dims")->asInts(), (std::vector<int64_t>{1, 2}));
  EXPECT_NE(ops[3].attribute("unique"), nullptr);
  EXPECT_EQ(ops[3].attribute("unique")->kind, Attribute::Kind::Unit);
  EXPECT_EQ(ops[4].name, "scatter");
  EXPECT_EQ(ops[4].operands.size(), 3u);
  EXPECT_EQ(typeStrings(ops[4].resultTypes), std::vector<std::string>{"tensor<?x6xf32>"});
  EXPECT_EQ(ops[4].operandTypes.size(), 3u);
  EXPECT_EQ(ops[5].keywords, (std::vector<std::string>{"into", "unique"}));
  EXPECT_EQ(ops[5].operands.size(), 3u);
  EXPECT_EQ(ops[5].attribute("scatter_dims")->asInts(), std::vector<int64_t>{1});
  EXPECT_EQ(typeStrings(ops[5].resultTypes), std::vector<std::string>{"tensor<4x5xf32>"});
}

// Spec 003 (TCP gather ops).
TEST(MlirParser, ReadsSpec003TcpGather) {
  Module module = parseMlirModule(R"(
%x = tcp.gather %input, %indices { dim = 1 } :
        (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
%y = tcp.gather_nd %input, %indices :
        (tensor<5x7x3xf32>, tensor<4x2xi64>) -> tensor<4x3xf32>
)",
                                  "spec003.mlir");
  const auto& ops = module.operations;
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].name, "tcp.gather");
  EXPECT_EQ(ops[0].attribute("dim")->asInt(), 1);
  EXPECT_EQ(ops[0].operands.size(), 2u);
  EXPECT_EQ(typeStrings(ops[0].resultTypes), std::vector<std::string>{"tensor<3x2xf32>"});
  EXPECT_EQ(ops[1].name, "tcp.gather_nd");
  EXPECT_TRUE(ops[1].attributes.empty());
  EXPECT_EQ(typeStrings(ops[1].operandTypes),
            (std::vector<std::string>{"tensor<5x7x3xf32>", "tensor<4x2xi64>"}));
}

// What the CLI and the API read a program as.
TEST(LooksLikeMlir, BySuffixThenByFirstToken) {
  EXPECT_TRUE(looksLikeMlir("a.mlir", "HloModule m"));
  EXPECT_FALSE(looksLikeMlir("a.hlo", "func.func @f()"));
  for (const char* text : {"module {", "func.func @f()", "%0 = x", "\"stablehlo.add\"(%a)",
                           "#map = affine_map<(d0) -> (d0)>", "stablehlo.add"})
    EXPECT_TRUE(looksLikeMlir("<stdin>", text)) << text;
  EXPECT_TRUE(looksLikeMlir("<stdin>", "  // a comment\n\n  func.func @f()"));
  EXPECT_FALSE(looksLikeMlir("<stdin>", "// a comment\nHloModule m"));
  EXPECT_FALSE(looksLikeMlir("<stdin>", "// only a comment"));
  EXPECT_FALSE(looksLikeMlir("<stdin>", ""));
}

}  // namespace
}  // namespace idxmap::mlir_ir
