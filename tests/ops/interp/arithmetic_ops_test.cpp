// The one-operand ops, divide, remainder and the shifts against formulas written
// independently of the interpreter's: shifts as multiplication and floor division by powers
// of two, wrapping as arithmetic modulo 2^width, over every value pair of small types.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/checked.h"
#include "tests/ops/interp/test_util.h"

namespace idxmap::mlir_interpreter {
namespace arithmetic_ops_test {
namespace {

std::string list(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

// `%r = OP %a, %b` on two 1-d integer tensors of `type`.
std::vector<int64_t> binaryOp(const std::string& op, const std::string& type,
                              const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::string t = "tensor<" + std::to_string(a.size()) + "x" + type + ">";
  Tensor r = runBody("  %a = stablehlo.constant dense<" + list(a) + "> : " + t +
                         "\n  %b = stablehlo.constant dense<" + list(b) + "> : " + t +
                         "\n  %r = stablehlo." + op + " %a, %b : " + t,
                     t);
  return r.ints;
}

// Value `v` of a `width`-bit type read signed or unsigned from its low bits.
int64_t fromBits(int64_t v, int width, bool isUnsigned) {
  int64_t modulus = int64_t{1} << width;
  int64_t bits = ((v % modulus) + modulus) % modulus;
  return !isUnsigned && bits >= modulus / 2 ? bits - modulus : bits;
}

struct SmallType {
  const char* name;
  int width;
  bool isUnsigned;
};

TEST(InterpreterArithmetic, ShiftsMatchPowersOfTwoOverEveryPairOfSmallValues) {
  for (SmallType type : {SmallType{"i8", 8, false}, SmallType{"ui8", 8, true}}) {
    std::vector<int64_t> a, b;
    for (int x = 0; x < 256; x += 3)
      for (int y = 0; y < 256; y += 1) {
        if (y > 12 && y < 250) continue;  // amounts 0..12 and the large / negative ones
        a.push_back(fromBits(x, 8, type.isUnsigned));
        b.push_back(fromBits(y, 8, type.isUnsigned));
      }
    std::vector<int64_t> left = binaryOp("shift_left", type.name, a, b),
                         logical = binaryOp("shift_right_logical", type.name, a, b),
                         arithmetic = binaryOp("shift_right_arithmetic", type.name, a, b);
    for (size_t i = 0; i < a.size(); ++i) {
      int64_t amount = b[i] & 0xff;  // the amount read unsigned
      int64_t unsignedA = a[i] & 0xff, signedA = fromBits(a[i], 8, false);
      int64_t power = amount < 8 ? int64_t{1} << amount : 0;
      SCOPED_TRACE(std::string(type.name) + " " + std::to_string(a[i]) + ", " +
                   std::to_string(b[i]));
      EXPECT_EQ(left[i], fromBits(a[i] * power, 8, type.isUnsigned));
      EXPECT_EQ(logical[i], fromBits(power ? unsignedA / power : 0, 8, type.isUnsigned));
      int64_t sra = power ? floorDiv(signedA, power) : (signedA < 0 ? -1 : 0);
      EXPECT_EQ(arithmetic[i], fromBits(sra, 8, type.isUnsigned));
    }
  }
}

TEST(InterpreterArithmetic, DivideAndRemainderTruncateWithStableHlosEdgeValues) {
  std::vector<int64_t> a, b;
  for (int x = -128; x < 128; x += 5)
    for (int y = -128; y < 128; y += 7) a.push_back(x), b.push_back(y);
  a.insert(a.end(), {-128, -128, 7, -7, 0});
  b.insert(b.end(), {-1, 0, 0, 0, 0});
  std::vector<int64_t> quotient = binaryOp("divide", "i8", a, b),
                       remainder = binaryOp("remainder", "i8", a, b);
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(std::to_string(a[i]) + " / " + std::to_string(b[i]));
    if (b[i] == 0 || (a[i] == -128 && b[i] == -1)) {  // StableHLO's interpreter gives 0
      EXPECT_EQ(quotient[i], 0);
      EXPECT_EQ(remainder[i], 0);
      continue;
    }
    // Truncation: the quotient is the real quotient rounded toward zero, wrapped to i8.
    double real = static_cast<double>(a[i]) / static_cast<double>(b[i]);
    int64_t q = static_cast<int64_t>(std::trunc(real));
    EXPECT_EQ(quotient[i], fromBits(q, 8, false));
    EXPECT_EQ(remainder[i], fromBits(a[i] - q * b[i], 8, false));
  }
  // 64-bit: the one overflowing quotient gives 0 instead of trapping.
  int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(binaryOp("divide", "i64", {min, 9}, {-1, -2}), (std::vector<int64_t>{0, -4}));
  EXPECT_EQ(binaryOp("remainder", "i64", {min, 9}, {-1, -2}), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(binaryOp("divide", "ui8", {250, 7}, {3, 0}), (std::vector<int64_t>{83, 0}));
}

TEST(InterpreterArithmetic, OneOperandOpsOnFloatsAndIntegers) {
  Tensor f = runBody(
      R"(  %a = stablehlo.constant dense<[-2.5, -0.5, 0.5, 1.5, 2.5, -0.0, 3.7]> : tensor<7xf32>
  %r = stablehlo.round_nearest_even %a : tensor<7xf32>)",
      "tensor<7xf32>");
  std::vector<double> input = {-2.5, -0.5, 0.5, 1.5, 2.5, -0.0, 3.7f};
  for (size_t i = 0; i < input.size(); ++i) {
    double even = std::nearbyint(input[i]);  // the default mode rounds ties to even
    EXPECT_EQ(f.floats[i], even) << input[i];
    EXPECT_EQ(std::signbit(f.floats[i]), std::signbit(even)) << input[i];
  }
  const char* ops[] = {"floor", "ceil", "round_nearest_afz", "negate", "abs", "sign"};
  double (*oracles[])(double) = {[](double x) { return std::floor(x); },
                                 [](double x) { return std::ceil(x); },
                                 [](double x) { return std::round(x); },
                                 [](double x) { return -x; },
                                 [](double x) { return std::fabs(x); },
                                 [](double x) { return x == 0 ? x : (x > 0 ? 1.0 : -1.0); }};
  for (size_t k = 0; k < std::size(ops); ++k) {
    Tensor r = runBody(std::string("  %a = stablehlo.constant dense<[-2.5, -0.5, 0.5, 1.5, 2.5, "
                                   "-0.0, 3.7]> : tensor<7xf32>\n  %r = stablehlo.") +
                           ops[k] + " %a : tensor<7xf32>",
                       "tensor<7xf32>");
    for (size_t i = 0; i < input.size(); ++i)
      EXPECT_EQ(r.floats[i], oracles[k](input[i])) << ops[k] << " " << input[i];
  }
  Tensor n = runBody(R"(  %a = stablehlo.constant dense<[-128, -5, 0, 7, 127]> : tensor<5xi8>
  %r = stablehlo.abs %a : tensor<5xi8>)",
                     "tensor<5xi8>");
  EXPECT_EQ(n.ints, (std::vector<int64_t>{-128, 5, 0, 7, 127}));  // |-128| wraps in i8
  Tensor s = runBody(R"(  %a = stablehlo.constant dense<[-128, -5, 0, 7, 127]> : tensor<5xi8>
  %r = stablehlo.sign %a : tensor<5xi8>)",
                     "tensor<5xi8>");
  EXPECT_EQ(s.ints, (std::vector<int64_t>{-1, -1, 0, 1, 1}));
  Tensor b = runBody(R"(  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %r = stablehlo.not %a : tensor<2xi1>)",
                     "tensor<2xi1>");
  EXPECT_EQ(b.ints, (std::vector<int64_t>{0, 1}));
  Tensor u = runBody(R"(  %a = stablehlo.constant dense<[0, 200]> : tensor<2xui8>
  %r = stablehlo.not %a : tensor<2xui8>)",
                     "tensor<2xui8>");
  EXPECT_EQ(u.ints, (std::vector<int64_t>{255, 55}));
}

// WEAKORDER: every NaN equals every other and lies above every number, -0 equals +0; the
// oracle is the rank of each value in that order.
TEST(InterpreterArithmetic, CompareInWeakOrder) {
  std::vector<double> values = {-INFINITY, -1.5, -0.0, 0.0, 2.0, INFINITY, NAN, -NAN};
  auto rank = [](double x) {  // (is NaN, value): NaN above +inf
    return std::pair<bool, double>{std::isnan(x), std::isnan(x) || x == 0 ? 0.0 : x};
  };
  std::string list, lhs, rhs;
  std::vector<std::pair<double, double>> pairs;
  for (double a : values)
    for (double b : values) pairs.push_back({a, b});
  auto text = [](double x) -> std::string {
    if (std::isnan(x)) return std::signbit(x) ? "0xFFF8000000000000" : "0x7FF8000000000000";
    if (std::isinf(x)) return x < 0 ? "0xFFF0000000000000" : "0x7FF0000000000000";
    return x == 0 && std::signbit(x) ? "-0.0" : std::to_string(x);
  };
  for (size_t i = 0; i < pairs.size(); ++i) {
    lhs += (i ? ", " : "") + text(pairs[i].first);
    rhs += (i ? ", " : "") + text(pairs[i].second);
  }
  std::string t = "tensor<" + std::to_string(pairs.size()) + "xf64>";
  for (const char* direction : {"EQ", "NE", "LT", "LE", "GT", "GE"}) {
    Tensor r = runBody("  %a = stablehlo.constant dense<[" + lhs + "]> : " + t +
                           "\n  %b = stablehlo.constant dense<[" + rhs + "]> : " + t +
                           "\n  %r = stablehlo.compare " + direction + ", %a, %b, WEAKORDER : (" +
                           t + ", " + t + ") -> tensor<" + std::to_string(pairs.size()) + "xi1>",
                       "tensor<" + std::to_string(pairs.size()) + "xi1>");
    for (size_t i = 0; i < pairs.size(); ++i) {
      std::pair<bool, double> a = rank(pairs[i].first), b = rank(pairs[i].second);
      std::string d = direction;
      bool expected = d == "EQ"   ? a == b
                      : d == "NE" ? a != b
                      : d == "LT" ? a < b
                      : d == "LE" ? a <= b
                      : d == "GT" ? a > b
                                  : a >= b;
      EXPECT_EQ(r.ints[i], expected) << pairs[i].first << " " << d << " " << pairs[i].second;
    }
  }
  EXPECT_NE(std::string(errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %r = stablehlo.compare EQ, %a, %a, WEIRDORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return
})")
                            .what())
                .find("stablehlo.compare: unknown comparison type 'WEIRDORDER'"),
            std::string::npos);
}

// Results print as StableHLO's interpreter prints them (its printing test's layout).
TEST(InterpreterArithmetic, ResultsPrintAsStableHloPrintsThem) {
  EXPECT_EQ(formatTensor(ints("ui8", {}, {1})), "tensor<ui8> {1}");
  EXPECT_EQ(formatTensor(ints("i8", {0}, {})), "tensor<0xi8> {\n  []\n}");
  EXPECT_EQ(formatTensor(floats("f16", {2}, {1.0, -3.0})),
            "tensor<2xf16> {\n  [1.000000e+00, -3.000000e+00]\n}");
  EXPECT_EQ(formatTensor(ints("i64", {2, 1, 2}, {0, 1, 2, 3})),
            "tensor<2x1x2xi64> {\n  [\n    [\n      [0, 1]\n    ],\n    [\n      [2, 3]\n"
            "    ]\n  ]\n}");
  EXPECT_EQ(formatTensor(ints("i1", {2}, {1, 0})), "tensor<2xi1> {\n  [true, false]\n}");
}

TEST(InterpreterArithmetic, TypesAnOpDoesNotTakeAreNamed) {
  EXPECT_NE(std::string(errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r = stablehlo.floor %a : tensor<2xi32>
  func.return
})")
                            .what())
                .find("stablehlo.floor: does not take integer operands (i32)"),
            std::string::npos);
  EXPECT_NE(std::string(errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xui32>
  %r = stablehlo.abs %a : tensor<2xui32>
  func.return
})")
                            .what())
                .find("takes signed integer or float operands"),
            std::string::npos);
}

}  // namespace
}  // namespace arithmetic_ops_test
}  // namespace idxmap::mlir_interpreter
