// Syntax of StableHLO's test files that no idxmap model reads is carried along as written,
// so the rest of the file is read: dot_general's `algorithm = <...>`, the pretty
// convolution's dim_numbers, a composite's name, check ops' tolerance after the types.
#include <gtest/gtest.h>

#include <string>

#include "ops/mlir/module.h"

namespace idxmap::mlir_ir {
namespace opaque_syntax_test {
namespace {

const Operation& opNamed(const Module& module, std::string_view name) {
  for (const Function& function : module.functions)
    for (const Block& block : function.body.blocks)
      for (const Operation& op : block.operations)
        if (op.name == name) return op;
  throw std::runtime_error("no op " + std::string(name));
}

TEST(MlirOpaqueSyntax, OpsOnlyVerifyCarriesAlong) {
  Module module = parseMlirModule(R"(func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>,
    %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<2x4xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %conv = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  %comp = stablehlo.composite "my.op" %a {decomposition = @my_op} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  "stablehlo.return_like"(%d) : (tensor<2x4xf32>) -> ()
  func.return %d : tensor<2x4xf32>
}
)",
                                  "opaque.mlir");
  const Operation& dot = opNamed(module, "stablehlo.dot_general");
  ASSERT_NE(dot.attribute("algorithm"), nullptr);
  EXPECT_EQ(dot.attribute("algorithm")->kind, Attribute::Kind::Opaque);
  EXPECT_EQ(dot.attribute("algorithm")->text.rfind("<lhs_precision_type = tf32", 0), 0u);
  EXPECT_EQ(dot.resultTypes.at(0).toString(), "tensor<2x4xf32>");

  const Operation& conv = opNamed(module, "stablehlo.convolution");
  ASSERT_NE(conv.attribute("dim_numbers"), nullptr);
  EXPECT_EQ(conv.attribute("dim_numbers")->text, "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]");
  EXPECT_EQ(conv.operands.size(), 2u);
  EXPECT_EQ(conv.resultTypes.at(0).toString(), "tensor<1x8x8x16xf32>");

  const Operation& composite = opNamed(module, "stablehlo.composite");
  ASSERT_NE(composite.attribute("name"), nullptr);
  EXPECT_EQ(composite.attribute("name")->text, "my.op");
  ASSERT_EQ(composite.operands.size(), 1u);
  EXPECT_EQ(composite.operands[0].name, "a");
  // A string on the next line is the next op, in the generic form.
  const Operation& generic = opNamed(module, "stablehlo.return_like");
  EXPECT_TRUE(generic.genericForm);
}

TEST(MlirOpaqueSyntax, ToleranceAfterTheTypes) {
  Module module = parseMlirModule(R"(func.func @main() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_almost_eq_const %0, dense<[1.0, 2.0]> : tensor<2xf32>, tolerance = 0.2
  check.expect_almost_eq_const %0, dense<[1.0, 2.0]> : tensor<2xf32> {tolerance = 0.1 : f64}
  func.return
}
)",
                                  "tolerance.mlir");
  const Block& body = module.functions.at(0).body.blocks.at(0);
  ASSERT_EQ(body.operations.size(), 4u);
  for (size_t i : {1, 2}) {
    const Attribute* tolerance = body.operations[i].attribute("tolerance");
    ASSERT_NE(tolerance, nullptr) << i;
    EXPECT_EQ(tolerance->kind, Attribute::Kind::Float);
    EXPECT_DOUBLE_EQ(tolerance->floatValue, i == 1 ? 0.2 : 0.1);
    EXPECT_EQ(body.operations[i].operands.size(), 1u);
  }
}

// Complex values are read (real, imaginary) for their shape and type checks; no evaluator
// computes with them, and mixing them with plain numbers is a located error.
TEST(MlirOpaqueSyntax, ComplexDenseValues) {
  Module module = parseMlirModule(R"(func.func @main() {
  %a = stablehlo.constant dense<[[(1.5, -2.0), (0.0, 3.25)]]> : tensor<1x2xcomplex<f32>>
  %s = stablehlo.constant dense<(1.0, 2e-3)> : tensor<4xcomplex<f64>>
  func.return
}
)",
                                  "complex.mlir");
  const Operation& list = opNamed(module, "stablehlo.constant");
  ASSERT_TRUE(list.attribute("value") && list.attribute("value")->dense);
  EXPECT_EQ(list.attribute("value")->dense->complexParts,
            (std::vector<double>{1.5, -2.0, 0.0, 3.25}));
  auto errorOf = [](const std::string& text) -> std::string {
    try {
      parseMlirModule(text, "bad.mlir");
    } catch (const ParseError& error) {
      std::string what = error.what();
      return what.substr(0, what.find('\n'));  // the message line, without source and caret
    }
    return "no error";
  };
  EXPECT_EQ(errorOf("%a = stablehlo.constant dense<[1.0, (0.0, 1.0)]> : tensor<2xcomplex<f32>>"),
            "bad.mlir:1:32: error: expected a complex value `(re, im)` in a dense literal of "
            "complex<f32>");
  EXPECT_EQ(errorOf("%a = stablehlo.constant dense<[(0.0, 1.0)]> : tensor<1xf32>"),
            "bad.mlir:1:32: error: complex value in a dense literal of f32");
  EXPECT_NE(errorOf("%a = stablehlo.constant dense<(0.0 1.0)> : tensor<1xcomplex<f32>>")
                .find("expected ',' between a complex value's real and imaginary parts"),
            std::string::npos);
}

}  // namespace
}  // namespace opaque_syntax_test
}  // namespace idxmap::mlir_ir
