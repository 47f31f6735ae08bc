// Float functions, square, chlo.mulhi, chlo.top_k, composite and the dynamic_* shape ops against
// oracles independent of the evaluators: identities between functions, the high half of a
// product as floor division by 2^width over every pair of 8-bit values, expected tensors
// written out.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/checked.h"
#include "tests/ops/interp/test_util.h"

namespace idxmap::mlir_interpreter {
namespace more_ops_test {
namespace {

Tensor unaryF32(const std::string& op, const std::vector<double>& values) {
  std::string list;
  char text[40];
  for (size_t i = 0; i < values.size(); ++i) {
    std::snprintf(text, sizeof text, "%.17g", values[i]);  // every bit of the value
    list += (i ? ", " : "") + std::string(text);
  }
  std::string t = "tensor<" + std::to_string(values.size()) + "xf32>";
  return runBody("  %a = stablehlo.constant dense<[" + list + "]> : " + t + "\n  %r = stablehlo." +
                     op + " %a : " + t,
                 t);
}

// Values at most `ulps` f32 steps apart.
bool closeF32(double a, double b, int ulps) {
  float x = static_cast<float>(a), y = static_cast<float>(b);
  for (int i = 0; i < ulps; ++i) x = std::nextafter(x, y);
  return x == y;
}

TEST(InterpreterMoreOps, FloatFunctionsKeepTheirIdentities) {
  std::vector<double> x = {0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 7.5};
  Tensor sine = unaryF32("sine", x), cosine = unaryF32("cosine", x), tan = unaryF32("tan", x);
  Tensor exp = unaryF32("exponential", x), log = unaryF32("log", exp.floats);
  Tensor sqrt = unaryF32("sqrt", x), rsqrt = unaryF32("rsqrt", x),
         square = unaryF32("square", sqrt.floats);
  Tensor logistic = unaryF32("logistic", x), tanh = unaryF32("tanh", x);
  for (size_t i = 0; i < x.size(); ++i) {
    SCOPED_TRACE(x[i]);
    EXPECT_TRUE(closeF32(tan.floats[i], sine.floats[i] / cosine.floats[i], 4));
    EXPECT_TRUE(
        closeF32(sine.floats[i] * sine.floats[i] + cosine.floats[i] * cosine.floats[i], 1.0, 4));
    EXPECT_TRUE(closeF32(log.floats[i], x[i], 4));
    EXPECT_TRUE(closeF32(square.floats[i], x[i], 4));
    EXPECT_TRUE(closeF32(sqrt.floats[i] * rsqrt.floats[i], 1.0, 4));
    EXPECT_TRUE(
        closeF32(2 * logistic.floats[i] - 1, std::tanh(x[i] / 2), 8));  // 2σ(x)-1 = tanh(x/2)
    EXPECT_EQ(tanh.floats[i], static_cast<float>(tanh.floats[i])) << "rounded to f32";
  }
}

TEST(InterpreterMoreOps, SquareWrapsAndMulhiIsTheHighHalf) {
  Tensor s = runBody(R"(  %a = stablehlo.constant dense<[-128, -12, 11, 127]> : tensor<4xi8>
  %r = stablehlo.square %a : tensor<4xi8>)",
                     "tensor<4xi8>");
  EXPECT_EQ(s.ints, (std::vector<int64_t>{0, -112, 121, 1}));  // 144 wraps to -112, 16129 to 1
  for (const char* type : {"i8", "ui8"}) {
    bool isUnsigned = type[0] == 'u';
    std::vector<int64_t> a, b;
    for (int x = 0; x < 256; x += 7)
      for (int y = 0; y < 256; y += 5) {
        a.push_back(isUnsigned ? x : x - 128);
        b.push_back(isUnsigned ? y : y - 128);
      }
    auto list = [](const std::vector<int64_t>& v) {
      std::string text;
      for (size_t i = 0; i < v.size(); ++i) text += (i ? ", " : "") + std::to_string(v[i]);
      return text;
    };
    std::string t = "tensor<" + std::to_string(a.size()) + "x" + type + ">";
    Tensor r = runBody("  %a = stablehlo.constant dense<[" + list(a) + "]> : " + t +
                           "\n  %b = stablehlo.constant dense<[" + list(b) + "]> : " + t +
                           "\n  %r = \"chlo.mulhi\"(%a, %b) : (" + t + ", " + t + ") -> " + t,
                       t);
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(r.ints[i], floorDiv(a[i] * b[i], 256)) << type << " " << a[i] << " * " << b[i];
  }
}

TEST(InterpreterMoreOps, CompositeCallsItsDecomposition) {
  std::vector<Tensor> results = runMain(R"(func.func @twice(%x: tensor<2xi64>) -> tensor<2xi64> {
  %y = stablehlo.add %x, %x : tensor<2xi64>
  func.return %y : tensor<2xi64>
}
func.func @main() -> tensor<2xi64> {
  %a = stablehlo.constant dense<[3, -4]> : tensor<2xi64>
  %r = stablehlo.composite "my.twice" %a {decomposition = @twice} : (tensor<2xi64>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
})");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].ints, (std::vector<int64_t>{6, -8}));
}

TEST(InterpreterMoreOps, DynamicShapeOpsTakeTheirShapeFromAnOperand) {
  Tensor iota = runBody(R"(  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %r = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<?x3xi64>)",
                        "tensor<?x3xi64>");
  EXPECT_EQ(iota.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(iota.ints, (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  Tensor reshaped = runBody(R"(  %x = stablehlo.iota dim = 0 : tensor<6xi64>
  %s = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %r = stablehlo.dynamic_reshape %x, %s : (tensor<6xi64>, tensor<2xi64>) -> tensor<?x?xi64>)",
                            "tensor<?x?xi64>");
  EXPECT_EQ(reshaped.shape, (std::vector<int64_t>{3, 2}));
  Tensor broadcast = runBody(R"(  %x = stablehlo.constant dense<[7, 8]> : tensor<2xi64>
  %s = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %r = "stablehlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2x?xi64>)",
                             "tensor<2x?xi64>");
  EXPECT_EQ(broadcast.ints, (std::vector<int64_t>{7, 7, 8, 8}));
  std::string what = errorOf(R"(func.func @main() {
  %s = stablehlo.constant dense<[4, 3]> : tensor<2xi64>
  %r = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<2x?xi64>
  func.return
})")
                         .what();
  EXPECT_NE(what.find("stablehlo.dynamic_iota: the output shape [4, 3] does not fit "
                      "tensor<2x?xi64>"),
            std::string::npos)
      << what;
}

TEST(InterpreterMoreOps, ReverseMirrorsTheChosenDimensions) {
  std::string values;
  for (int i = 0; i < 24; ++i) values += (i ? ", " : "") + std::to_string(i * 7 % 24);
  Tensor r = runBody("  %a = stablehlo.constant dense<[" + values +
                         "]> : tensor<24xi64>\n  %b = stablehlo.reshape %a : (tensor<24xi64>) -> "
                         "tensor<3x4x2xi64>\n  %r = stablehlo.reverse %b, dims = [0, 2] : "
                         "tensor<3x4x2xi64>",
                     "tensor<3x4x2xi64>");
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 2; ++k) {
        int mirrored = ((2 - i) * 4 + j) * 2 + (1 - k);
        EXPECT_EQ(r.ints[(i * 4 + j) * 2 + k], mirrored * 7 % 24) << i << j << k;
      }
}

// chlo.top_k in JAX's exported form: the k largest of each row, largest first, equal values
// in position order; floats in IEEE's total order (NaN above +inf, +0 above -0). Expected
// values written out by hand.
TEST(InterpreterMoreOps, TopKTakesTheLargestOfEachRowInTotalOrder) {
  std::vector<Tensor> ints = runMain(R"(func.func @main() -> (tensor<2x2xi32>, tensor<2x2xi32>) {
  %x = stablehlo.constant dense<[[3, 1, 3, 2], [-5, 7, 0, 7]]> : tensor<2x4xi32>
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<2x4xi32> -> (tensor<2x2xi32>, tensor<2x2xi32>)
  func.return %values, %indices : tensor<2x2xi32>, tensor<2x2xi32>
})");
  EXPECT_EQ(ints.at(0).ints, (std::vector<int64_t>{3, 3, 7, 7}));
  EXPECT_EQ(ints.at(1).ints, (std::vector<int64_t>{0, 2, 1, 3}));

  std::vector<Tensor> floats = runMain(R"(func.func @main() -> (tensor<5xf32>, tensor<5xi32>) {
  %x = stablehlo.constant dense<[1.0, 0x7FC00000, -0.0, 0.0, 0xFF800000]> : tensor<5xf32>
  %values, %indices = chlo.top_k(%x, k = 5) : tensor<5xf32> -> (tensor<5xf32>, tensor<5xi32>)
  func.return %values, %indices : tensor<5xf32>, tensor<5xi32>
})");
  EXPECT_EQ(floats.at(1).ints, (std::vector<int64_t>{1, 0, 3, 2, 4}));
  EXPECT_TRUE(std::isnan(floats.at(0).floats[0]));
  EXPECT_FALSE(std::signbit(floats.at(0).floats[2]));
  EXPECT_TRUE(std::signbit(floats.at(0).floats[3]));

  std::vector<Tensor> none = runMain(R"(func.func @main() -> tensor<3x0xi32> {
  %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %values, %indices = chlo.top_k(%x, k = 0) : tensor<3x2xi32> -> (tensor<3x0xi32>, tensor<3x0xi32>)
  func.return %indices : tensor<3x0xi32>
})");
  EXPECT_TRUE(none.at(0).ints.empty());

  InterpretError error = errorOf(R"(func.func @main() -> tensor<3xi32> {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %values, %indices = chlo.top_k(%x, k = 3) : tensor<2xi32> -> (tensor<3xi32>, tensor<3xi32>)
  func.return %indices : tensor<3xi32>
})");
  EXPECT_NE(std::string(error.what()).find("k = 3 is outside [0, 2]"), std::string::npos)
      << error.what();
}

}  // namespace
}  // namespace more_ops_test
}  // namespace idxmap::mlir_interpreter
