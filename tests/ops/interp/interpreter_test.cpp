// The MLIR interpreter op by op, on tiny inputs whose results are derived by hand from the
// StableHLO spec's semantics.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ops/interp/convert.h"
#include "ops/interp/interpreter.h"
#include "tests/ops/interp/test_util.h"

namespace idxmap::mlir_interpreter {
namespace {

TEST(MlirInterpreter, ConstantsNestedSplatAndHex) {
  EXPECT_EQ(runBody("  %r = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>",
                    "tensor<2x2xi64>"),
            ints("i64", {2, 2}, {1, 2, 3, 4}));
  EXPECT_EQ(runBody("  %r = stablehlo.constant dense<7> : tensor<2x3xi8>", "tensor<2x3xi8>"),
            ints("i8", {2, 3}, {7, 7, 7, 7, 7, 7}));
  // Little-endian i32: 1 and 0xFFFFFFFE = -2.
  EXPECT_EQ(runBody(R"(  %r = stablehlo.constant dense<"0x01000000FEFFFFFF"> : tensor<2xi32>)",
                    "tensor<2xi32>"),
            ints("i32", {2}, {1, -2}));
  // A decimal is rounded to the element type: 0.1 in f32.
  EXPECT_EQ(runBody("  %r = stablehlo.constant dense<0.1> : tensor<f32>", "tensor<f32>"),
            floats("f32", {}, {static_cast<double>(0.1f)}));
  EXPECT_EQ(
      runBody("  %r = stablehlo.constant dense<[true, false]> : tensor<2xi1>", "tensor<2xi1>"),
      ints("i1", {2}, {1, 0}));
}

TEST(MlirInterpreter, AbsurdSplatIsRefusedWithALocatedDiagnostic) {
  InterpretError error = errorOf(R"(func.func @main() {
  %big = stablehlo.constant dense<0> : tensor<100000x100000xi64>
  func.return
})");
  EXPECT_EQ(error.location().line, 2);
  EXPECT_EQ(error.location().column, 10);
  EXPECT_NE(error.message().find("limit"), std::string::npos) << error.message();
}

// 16384 rows of 8192 elements is 2^27 elements, past the 2^26 limit: refused before the
// evaluator allocates anything, under both engines.
TEST(MlirInterpreter, GatherPastTheElementLimitIsRefused) {
  const std::string text = R"(func.func @main() {
  %t = stablehlo.constant dense<1> : tensor<1x8192xi8>
  %i = stablehlo.constant dense<0> : tensor<16384x1xi64>
  %r = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8192>} : (tensor<1x8192xi8>, tensor<16384x1xi64>) -> tensor<16384x8192xi8>
  func.return
})";
  for (Engine engine : {Engine::kReference, Engine::kMaps}) {
    mlir_ir::Module module = mlir_ir::parseMlirModule(text, "big.mlir");
    Interpreter interpreter(module, engine);
    try {
      interpreter.call(*module.function("main"), {});
      ADD_FAILURE() << "no diagnostic";
    } catch (const InterpretError& error) {
      EXPECT_EQ(error.location().line, 4);
      EXPECT_NE(error.message().find("limit"), std::string::npos) << error.message();
    }
  }
}

TEST(MlirInterpreter, IotaAlongEachDimension) {
  EXPECT_EQ(runBody("  %r = stablehlo.iota dim = 1 : tensor<2x3xi32>", "tensor<2x3xi32>"),
            ints("i32", {2, 3}, {0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(
      runBody(R"(  %r = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<2x2xf32>)",
              "tensor<2x2xf32>"),
      floats("f32", {2, 2}, {0, 0, 1, 1}));
}

TEST(MlirInterpreter, ConcatenateBroadcastReshapeTranspose) {
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %b = stablehlo.constant dense<[3]> : tensor<1xi64>
  %r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>)",
                    "tensor<3xi64>"),
            ints("i64", {3}, {1, 2, 3}));
  // Generic form, along dimension 1: [[1], [2]] ++ [[3, 4], [5, 6]].
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xi64>
  %b = stablehlo.constant dense<[[3, 4], [5, 6]]> : tensor<2x2xi64>
  %r = "stablehlo.concatenate"(%a, %b) {dimension = 1 : i64} : (tensor<2x1xi64>, tensor<2x2xi64>) -> tensor<2x3xi64>)",
                    "tensor<2x3xi64>"),
            ints("i64", {2, 3}, {1, 3, 4, 2, 5, 6}));
  // Operand dim 0 goes to result dim 1: every row is the operand.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<2xi32>) -> tensor<3x2xi32>)",
                    "tensor<3x2xi32>"),
            ints("i32", {3, 2}, {1, 2, 1, 2, 1, 2}));
  // A size-1 dimension broadcasts; generic spelling.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %r = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x1xi32>) -> tensor<2x3xi32>)",
                    "tensor<2x3xi32>"),
            ints("i32", {2, 3}, {5, 5, 5, 6, 6, 6}));
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %r = stablehlo.reshape %a : (tensor<2x3xi64>) -> tensor<3x2xi64>)",
                    "tensor<3x2xi64>"),
            ints("i64", {3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xi64>) -> tensor<3x2xi64>)",
                    "tensor<3x2xi64>"),
            ints("i64", {3, 2}, {1, 4, 2, 5, 3, 6}));
}

// Every op in StableHLO's generic form, attribute names as the dialect spells them.
TEST(MlirInterpreter, GenericFormsReadTheGenericAttributeNames) {
  std::vector<Tensor> results = runMain(R"(func.func @main() -> (tensor<2x2xi64>, tensor<2xf32>) {
  %a = "stablehlo.constant"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
  %t = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3xi64>) -> tensor<3x2xi64>
  %s = "stablehlo.slice"(%t) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 2>, strides = array<i64: 1, 1>} : (tensor<3x2xi64>) -> tensor<2x2xi64>
  %c = "stablehlo.convert"(%a) : (tensor<2x3xi64>) -> tensor<2x3xf32>
  %r = "stablehlo.reshape"(%c) : (tensor<2x3xf32>) -> tensor<6xf32>
  %f = "stablehlo.slice"(%r) {start_indices = array<i64: 4>, limit_indices = array<i64: 6>, strides = array<i64: 1>} : (tensor<6xf32>) -> tensor<2xf32>
  "func.return"(%s, %f) : (tensor<2x2xi64>, tensor<2xf32>) -> ()
})");
  ASSERT_EQ(results.size(), 2u);
  // Transposed: [[1, 4], [2, 5], [3, 6]]; rows 1 and 2.
  EXPECT_EQ(results[0], ints("i64", {2, 2}, {2, 5, 3, 6}));
  EXPECT_EQ(results[1], floats("f32", {2}, {5.0, 6.0}));
}

TEST(MlirInterpreter, ElementwiseArithmeticWrapsAndRounds) {
  // i8: 127 + 1 wraps to -128; ui8: 0 - 1 wraps to 255; i32: 65536 * 65536 wraps to 0.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[127, -128]> : tensor<2xi8>
  %b = stablehlo.constant dense<[1, -1]> : tensor<2xi8>
  %r = stablehlo.add %a, %b : tensor<2xi8>)",
                    "tensor<2xi8>"),
            ints("i8", {2}, {-128, 127}));
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[0, 5]> : tensor<2xui8>
  %b = stablehlo.constant dense<[1, 2]> : tensor<2xui8>
  %r = stablehlo.subtract %a, %b : tensor<2xui8>)",
                    "tensor<2xui8>"),
            ints("ui8", {2}, {255, 3}));
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[65536, -3]> : tensor<2xi32>
  %b = stablehlo.constant dense<[65536, 7]> : tensor<2xi32>
  %r = stablehlo.multiply %a, %b : tensor<2xi32>)",
                    "tensor<2xi32>"),
            ints("i32", {2}, {0, -21}));
  // f16 has 10 fraction bits: 1 + 2^-11 is a tie, rounded to even (1); 1 + 3 * 2^-11 rounds
  // up to 1 + 2^-9.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf16>
  %b = stablehlo.constant dense<[0.00048828125, 0.00146484375]> : tensor<2xf16>
  %r = stablehlo.add %a, %b : tensor<2xf16>)",
                    "tensor<2xf16>"),
            floats("f16", {2}, {1.0, 1.001953125}));
  // Booleans: add is or, multiply is and.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[true, true, false]> : tensor<3xi1>
  %b = stablehlo.constant dense<[true, false, false]> : tensor<3xi1>
  %r = stablehlo.multiply %a, %b : tensor<3xi1>)",
                    "tensor<3xi1>"),
            ints("i1", {3}, {1, 0, 0}));
}

TEST(MlirInterpreter, MinimumMaximumCompareSelectAndClamp) {
  // ui8 compares unsigned: 200 > 100.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[200, 1]> : tensor<2xui8>
  %b = stablehlo.constant dense<[100, 2]> : tensor<2xui8>
  %r = stablehlo.minimum %a, %b : tensor<2xui8>)",
                    "tensor<2xui8>"),
            ints("ui8", {2}, {100, 1}));
  // IEEE maximum: NaN propagates.
  Tensor max = runBody(R"(  %a = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %b = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %r = stablehlo.maximum %a, %b : tensor<2xf32>)",
                       "tensor<2xf32>");
  EXPECT_EQ(max.floats.at(0), 2.0);
  EXPECT_TRUE(std::isnan(max.floats.at(1)));
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1, 5, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[3, 3, 3]> : tensor<3xi32>
  %r = stablehlo.compare  LT, %a, %b,  SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>)",
                    "tensor<3xi1>"),
            ints("i1", {3}, {1, 0, 0}));
  // Generic compare of floats: NaN is unordered, so GE is false for it.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %r = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>)",
                    "tensor<2xi1>"),
            ints("i1", {2}, {1, 0}));
  EXPECT_EQ(runBody(R"(  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %b = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  %r = stablehlo.select %p, %a, %b : tensor<3xi1>, tensor<3xi64>)",
                    "tensor<3xi64>"),
            ints("i64", {3}, {1, 20, 3}));
  EXPECT_EQ(runBody(R"(  %p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %q = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %r = stablehlo.and %p, %q : tensor<2xi1>)",
                    "tensor<2xi1>"),
            ints("i1", {2}, {1, 0}));
  EXPECT_EQ(runBody(R"(  %lo = stablehlo.constant dense<0> : tensor<i64>
  %x = stablehlo.constant dense<[-1, 3, 9]> : tensor<3xi64>
  %hi = stablehlo.constant dense<5> : tensor<i64>
  %r = stablehlo.clamp %lo, %x, %hi : (tensor<i64>, tensor<3xi64>, tensor<i64>) -> tensor<3xi64>)",
                    "tensor<3xi64>"),
            ints("i64", {3}, {0, 3, 5}));
}

TEST(MlirInterpreter, ConvertRoundsWrapsAndSaturates) {
  // Float -> int truncates toward zero, saturates, NaN -> 0.
  EXPECT_EQ(
      runBody(R"(  %a = stablehlo.constant dense<[2.7, -2.7, 1.0e10, 0x7FC00000]> : tensor<4xf32>
  %r = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>)",
              "tensor<4xi32>"),
      ints("i32", {4}, {2, -2, 2147483647, 0}));
  // Int -> int wraps: 300 = 256 + 44; -1 as ui16 is 65535.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[300, -1]> : tensor<2xi32>
  %r = stablehlo.convert %a : (tensor<2xi32>) -> tensor<2xi8>)",
                    "tensor<2xi8>"),
            ints("i8", {2}, {44, -1}));
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[-1]> : tensor<1xi8>
  %r = stablehlo.convert %a : (tensor<1xi8>) -> tensor<1xui16>)",
                    "tensor<1xui16>"),
            ints("ui16", {1}, {65535}));
  // Int -> f32 rounds to nearest even: 2^24 + 1 is a tie between 2^24 and 2^24 + 2.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[16777217, 16777219]> : tensor<2xi64>
  %r = stablehlo.convert %a : (tensor<2xi64>) -> tensor<2xf32>)",
                    "tensor<2xf32>"),
            floats("f32", {2}, {16777216.0, 16777220.0}));
  // To i1: non-zero is true.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[0.0, -0.5]> : tensor<2xf32>
  %r = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xi1>)",
                    "tensor<2xi1>"),
            ints("i1", {2}, {0, 1}));
  // f32 -> bf16 (8 significant bits): 1 + 2^-8 is a tie, to even 1; 1 + 3 * 2^-8 -> 1 + 2^-6.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1.00390625, 1.01171875]> : tensor<2xf32>
  %r = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xbf16>)",
                    "tensor<2xbf16>"),
            floats("bf16", {2}, {1.0, 1.015625}));
  // ui64 above 2^63 converts as unsigned: 2^64 - 1 rounds to 2^64 in f64.
  EXPECT_EQ(integerToFloat("ui64", -1, "f64"), 18446744073709551616.0);
  EXPECT_EQ(integerToFloat("i64", std::numeric_limits<int64_t>::min(), "f32"),
            -9223372036854775808.0);
  EXPECT_EQ(floatToInteger(-3.0, "ui8"), 0);
  EXPECT_EQ(floatToInteger(1e30, "ui64"), -1);  // all ones
  EXPECT_EQ(floatToInteger(-1e30, "i16"), -32768);
}

TEST(MlirInterpreter, SlicesClampTheirStarts) {
  EXPECT_EQ(
      runBody(
          R"(  %a = stablehlo.constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8]]> : tensor<3x3xi64>
  %r = stablehlo.slice %a [1:3, 0:3:2] : (tensor<3x3xi64>) -> tensor<2x2xi64>)",
          "tensor<2x2xi64>"),
      ints("i64", {2, 2}, {3, 5, 6, 8}));
  // Start 4 of a size-2 window in 5 elements is clamped to 3.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.iota dim = 0 : tensor<5xi64>
  %i = stablehlo.constant dense<4> : tensor<i64>
  %r = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<5xi64>, tensor<i64>) -> tensor<2xi64>)",
                    "tensor<2xi64>"),
            ints("i64", {2}, {3, 4}));
  // A negative start is clamped to 0.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.iota dim = 0 : tensor<5xi64>
  %i = stablehlo.constant dense<-3> : tensor<i32>
  %r = "stablehlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 3>} : (tensor<5xi64>, tensor<i32>) -> tensor<3xi64>)",
                    "tensor<3xi64>"),
            ints("i64", {3}, {0, 1, 2}));
  // Start 3 of a size-2 update in 4 elements is clamped to 2.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<0> : tensor<4xi64>
  %u = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %i = stablehlo.constant dense<3> : tensor<i64>
  %r = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xi64>, tensor<2xi64>, tensor<i64>) -> tensor<4xi64>)",
                    "tensor<4xi64>"),
            ints("i64", {4}, {0, 0, 1, 2}));
  EXPECT_EQ(runBody(R"(  %a = stablehlo.iota dim = 0 : tensor<6xi64>
  %s = stablehlo.constant dense<[1]> : tensor<1xi64>
  %l = stablehlo.constant dense<[5]> : tensor<1xi64>
  %t = stablehlo.constant dense<[2]> : tensor<1xi64>
  %r = stablehlo.real_dynamic_slice %a, %s, %l, %t : (tensor<6xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>)",
                    "tensor<2xi64>"),
            ints("i64", {2}, {1, 3}));
}

TEST(MlirInterpreter, DynamicSizesAndPadding) {
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<0> : tensor<2x3xf32>
  %r = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>)",
                    "tensor<i32>"),
            ints("i32", {}, {3}));
  // Spec 002's example: [1, 2, 3, 4] with size 2 keeps the first two elements.
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %n = stablehlo.constant dense<2> : tensor<i32>
  %r = stablehlo.set_dimension_size %a, %n, dim = 0 : (tensor<4xi32>, tensor<i32>) -> tensor<?xi32, #stablehlo.bounds<4>>)",
                    "tensor<?xi32, #stablehlo.bounds<4>>"),
            ints("i32", {2}, {1, 2}));
  // low 1, high 2, interior 1: [p, 1, p, 2, p, p].
  EXPECT_EQ(runBody(R"(  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %p = stablehlo.constant dense<9> : tensor<i64>
  %lo = stablehlo.constant dense<[1]> : tensor<1xi64>
  %hi = stablehlo.constant dense<[2]> : tensor<1xi64>
  %in = stablehlo.constant dense<[1]> : tensor<1xi64>
  %r = stablehlo.dynamic_pad %a, %p, %lo, %hi, %in : (tensor<2xi64>, tensor<i64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xi64>)",
                    "tensor<6xi64>"),
            ints("i64", {6}, {9, 1, 9, 2, 9, 9}));
}

TEST(MlirInterpreter, CallsFunctions) {
  EXPECT_EQ(runMain(R"(func.func private @twice(%x: tensor<2xi64>) -> tensor<2xi64> {
  %y = stablehlo.add %x, %x : tensor<2xi64>
  return %y : tensor<2xi64>
}
func.func @main() -> tensor<2xi64> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %r = call @twice(%a) : (tensor<2xi64>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
})")
                .at(0),
            ints("i64", {2}, {2, 4}));
}

// A region the evaluators do not model (current * 10 + update) is evaluated by the
// interpreter, in row-major order of the updates: position 0 gets 1, then 1 * 10 + 2 = 12;
// position 2 gets 3; index 5 is out of bounds and skipped.
TEST(MlirInterpreter, ScatterWithAnArbitraryRegionUnderBothEngines) {
  const std::string body = R"(  %in = stablehlo.constant dense<0> : tensor<3xi64>
  %idx = stablehlo.constant dense<[[0], [0], [2], [5]]> : tensor<4x1xi64>
  %up = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %r = "stablehlo.scatter"(%in, %idx, %up) ({
    ^bb0(%cur: tensor<i64>, %new: tensor<i64>):
      %ten = stablehlo.constant dense<10> : tensor<i64>
      %m = stablehlo.multiply %cur, %ten : tensor<i64>
      %s = stablehlo.add %m, %new : tensor<i64>
      stablehlo.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xi64>, tensor<4x1xi64>, tensor<4xi64>) -> tensor<3xi64>)";
  for (Engine engine : {Engine::kReference, Engine::kMaps})
    EXPECT_EQ(runBody(body, "tensor<3xi64>", engine), ints("i64", {3}, {12, 0, 3}));
}

// take_along_axis over a batching dimension: result[b, j] = table[b, clamp(idx[b, j], 0, 2)].
TEST(MlirInterpreter, GatherAndDynamicGatherUnderBothEngines) {
  const std::string gather =
      R"(  %t = stablehlo.constant dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi64>
  %i = stablehlo.constant dense<[[[2], [0]], [[1], [7]]]> : tensor<2x2x1xi64>
  %r = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>} : (tensor<2x3xi64>, tensor<2x2x1xi64>) -> tensor<2x2xi64>)";
  // Rows of a 3x2 table starting at row 2 (clamped to 1) and row 0, two rows each.
  const std::string dynamicGather =
      R"(  %t = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %i = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %s = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %r = "stablehlo.dynamic_gather"(%t, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>} : (tensor<3x2xi64>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<2x2x2xi64>)";
  for (Engine engine : {Engine::kReference, Engine::kMaps}) {
    EXPECT_EQ(runBody(gather, "tensor<2x2xi64>", engine), ints("i64", {2, 2}, {12, 10, 21, 22}));
    EXPECT_EQ(runBody(dynamicGather, "tensor<2x2x2xi64>", engine),
              ints("i64", {2, 2, 2}, {3, 4, 5, 6, 1, 2, 3, 4}));
  }
}

}  // namespace
}  // namespace idxmap::mlir_interpreter
