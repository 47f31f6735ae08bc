// The StableHLO MLIR reader on types (bounds, scalars, element types) and attributes (dense
// literals in every form, the other attribute forms).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ops/mlir/module.h"
#include "tests/ops/mlir/test_util.h"

namespace idxmap::mlir_ir {
namespace {

TEST(MlirParser, ReadsTypesWithBoundsAndScalars) {
  Module module = parseMlirModule(
      R"(%0 = "test.op"(%a, %b, %c) : (tensor<?x?x?xi32, #stablehlo.bounds<2, 4, 8>>, tensor<?x3xf16, #stablehlo.type_extensions<bounds = [5, ?]>>, i64) -> (tensor<*xf32>, tuple<tensor<f32>, tensor<i1>>, tensor<2xbf16>, tensor<1x2x 3xindex>))",
      "types.mlir");
  const Operation& op = onlyOp(module);
  ASSERT_EQ(op.operandTypes.size(), 3u);
  EXPECT_EQ(op.operandTypes[0].bounds, (std::vector<int64_t>{2, 4, 8}));
  EXPECT_EQ(op.operandTypes[0].toString(), "tensor<?x?x?xi32, #stablehlo.bounds<2, 4, 8>>");
  EXPECT_FALSE(op.operandTypes[0].hasStaticShape());
  EXPECT_EQ(op.operandTypes[0].elementCount(), std::nullopt);
  EXPECT_EQ(op.operandTypes[1].bounds, (std::vector<int64_t>{5, kDynamic}));
  EXPECT_EQ(op.operandTypes[1].elementType().bitWidth(), 16);
  EXPECT_TRUE(op.operandTypes[1].elementType().isFloat());
  EXPECT_FALSE(op.operandTypes[2].isTensor);
  EXPECT_EQ(op.operandTypes[2].rank(), 0);
  EXPECT_EQ(op.operandTypes[2].toString(), "i64");
  EXPECT_TRUE(op.operandTypes[2].elementType().isSigned());
  ASSERT_EQ(op.resultTypes.size(), 4u);
  EXPECT_TRUE(op.resultTypes[0].isOpaque());
  EXPECT_EQ(op.resultTypes[0].toString(), "tensor<*xf32>");
  EXPECT_EQ(op.resultTypes[1].toString(), "tuple<tensor<f32>, tensor<i1>>");
  EXPECT_EQ(op.resultTypes[2].elementType().kind, ElementKind::BF16);
  EXPECT_EQ(op.resultTypes[3].shape, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(op.resultTypes[3].elementCount(), 6);
  EXPECT_EQ(op.resultTypes[3].elementType().kind, ElementKind::Index);
}

TEST(MlirParser, ElementTypesKnowTheirWidthAndSign) {
  struct Case {
    const char* name;
    int bits;
    bool isFloat, isSigned;
  };
  for (const Case& c : {Case{"i1", 1, false, false}, Case{"i8", 8, false, true},
                        Case{"i64", 64, false, true}, Case{"ui16", 16, false, false},
                        Case{"ui64", 64, false, false}, Case{"f16", 16, true, false},
                        Case{"bf16", 16, true, false}, Case{"f64", 64, true, false}}) {
    std::optional<ElementType> type = ElementType::fromName(c.name);
    ASSERT_TRUE(type.has_value()) << c.name;
    EXPECT_EQ(type->bitWidth(), c.bits) << c.name;
    EXPECT_EQ(type->isFloat(), c.isFloat) << c.name;
    EXPECT_EQ(type->isSigned(), c.isSigned) << c.name;
    EXPECT_EQ(type->toString(), c.name);
  }
  EXPECT_FALSE(ElementType::fromName("i4").has_value());
}

TEST(MlirParser, ReadsDenseLiteralsInEveryForm) {
  Module module = parseMlirModule(R"(
%hex = stablehlo.constant dense<"0x0100000002000000FFFFFFFF"> : tensor<3xi32>
%hexSplat = stablehlo.constant dense<"0x0000803F"> : tensor<2x2xf32>
%f16 = stablehlo.constant dense<[1.0, -2.5, 0x7C00]> : tensor<3xf16>
%bool = stablehlo.constant dense<[true, false]> : tensor<2xi1>
%u8 = stablehlo.constant dense<[255, 0]> : tensor<2xui8>
%i8 = stablehlo.constant dense<[255, -128]> : tensor<2xi8>
%empty = stablehlo.constant dense<> : tensor<0xf32>
%huge = stablehlo.constant dense<7> : tensor<1000000000x1000000000xi8>
%ints = stablehlo.constant dense<[1, 2]> : tensor<2xf64>
"test.op"() {v = dense<[[1.5], [2.5]]> : tensor<2x1xbf16>} : () -> ()
)",
                                  "dense.mlir");
  const auto& ops = module.operations;
  ASSERT_EQ(ops.size(), 10u);
  auto dense = [&](size_t i, const char* name = "value") { return ops[i].attribute(name)->dense; };
  EXPECT_EQ(dense(0)->ints, (std::vector<int64_t>{1, 2, -1}));
  EXPECT_TRUE(dense(1)->isSplat);
  EXPECT_EQ(dense(1)->floatAt(3), 1.0);
  EXPECT_EQ(dense(2)->floats.at(1), -2.5);
  EXPECT_TRUE(std::isinf(dense(2)->floats.at(2)));
  EXPECT_EQ(dense(3)->ints, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(dense(4)->ints, (std::vector<int64_t>{255, 0}));
  EXPECT_EQ(dense(5)->ints, (std::vector<int64_t>{-1, -128}));  // signless: 255 is -1
  EXPECT_TRUE(dense(6)->ints.empty() && dense(6)->floats.empty());
  EXPECT_TRUE(dense(7)->isSplat);
  EXPECT_EQ(dense(7)->ints.size(), 1u);  // never expanded
  EXPECT_EQ(dense(7)->intAt(999999999999999999), 7);
  EXPECT_EQ(dense(8)->floats, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(dense(9, "v")->floats, (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(dense(9, "v")->type.toString(), "tensor<2x1xbf16>");
}

TEST(MlirParser, ReadsOtherAttributeForms) {
  Module module = parseMlirModule(
      R"("test.op"() {a = 3 : i64, b = -1.5e-3 : f32, c = "s\"q", d = @sym, e, f = [1, "x"], g = array<i1: true, false>, h = #stablehlo<comparison_direction LT>, i = tensor<2xf32>, j = {k = 1}, l = array<i64>, m = affine_map<(d0) -> (d0)>} : () -> ())",
      "attrs.mlir");
  const Operation& op = onlyOp(module);
  EXPECT_EQ(op.attribute("a")->asInt(), 3);
  EXPECT_EQ(op.attribute("a")->type->toString(), "i64");
  EXPECT_EQ(op.attribute("b")->kind, Attribute::Kind::Float);
  EXPECT_DOUBLE_EQ(op.attribute("b")->floatValue, -1.5e-3);
  EXPECT_EQ(op.attribute("c")->text, "s\"q");
  EXPECT_EQ(op.attribute("d")->kind, Attribute::Kind::SymbolRef);
  EXPECT_EQ(op.attribute("e")->kind, Attribute::Kind::Unit);
  EXPECT_EQ(op.attribute("f")->kind, Attribute::Kind::Array);
  EXPECT_EQ(op.attribute("f")->elements.size(), 2u);
  EXPECT_EQ(op.attribute("g")->asInts(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(op.attribute("h")->kind, Attribute::Kind::Opaque);
  EXPECT_EQ(op.attribute("h")->text, "#stablehlo<comparison_direction LT>");
  EXPECT_EQ(op.attribute("i")->kind, Attribute::Kind::Type);
  EXPECT_EQ(op.attribute("i")->type->toString(), "tensor<2xf32>");
  EXPECT_EQ(op.attribute("j")->field("k")->asInt(), 1);
  EXPECT_EQ(op.attribute("l")->asInts(), std::vector<int64_t>{});
  EXPECT_EQ(op.attribute("m")->text, "affine_map<(d0) -> (d0)>");
}

}  // namespace
}  // namespace idxmap::mlir_ir
