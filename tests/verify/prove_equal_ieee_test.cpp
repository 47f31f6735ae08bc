// prove-equal on floats, bit for bit (issue 33): "proven" must mean identical bits for every
// argument value (any two NaNs alike), and a refutation's values must replay. The oracle is the
// interpreter (each op in doubles, rounded to the format), run on every f16 and bf16 value for
// one-argument pairs and on special and random bit patterns otherwise. The IEEE terms
// themselves are held against it on random expression programs in every format.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "tests/support/sampling.h"
#include "tests/verify/prove_equal_support.h"

namespace idxmap::program_equality::prove_equal_ieee_test {
namespace {

using namespace program_equality::testing;

// Every element of a function's arguments: 2^16 (all of f16 / bf16 for one argument).
constexpr int64_t kOracleElements = int64_t{1} << 16;

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// A function of `arity` arguments %x, %y, %z of type tensor<N x type>; `body` writes $T for
// that type, $B for its i1 twin, $N for N, and defines %r, which it returns.
std::string function(const std::string& type, int arity, std::string body, int64_t n) {
  const std::string t = "tensor<" + std::to_string(n) + "x" + type + ">";
  const char* names[] = {"%x", "%y", "%z"};
  std::string text = "func.func @f(";
  for (int i = 0; i < arity; ++i) text += std::string(i ? ", " : "") + names[i] + ": " + t;
  text += ") -> " + t + " {\n" + body + "  func.return %r : " + t + "\n}\n";
  replaceAll(text, "$T", t);
  replaceAll(text, "$B", "tensor<" + std::to_string(n) + "xi1>");
  replaceAll(text, "$N", std::to_string(n));
  return text;
}

// A value of `type` from its bit pattern (low 16 bits for f16 / bf16).
double fromBits(const std::string& type, uint64_t bits) {
  if (type == "f64") return std::bit_cast<double>(bits);
  if (type == "f32") return std::bit_cast<float>(static_cast<uint32_t>(bits));
  if (type == "bf16") return std::bit_cast<float>(static_cast<uint32_t>(bits & 0xffff) << 16);
  const bool negative = (bits >> 15) & 1;
  const int exponent = static_cast<int>((bits >> 10) & 0x1f);
  const int fraction = static_cast<int>(bits & 0x3ff);
  double magnitude = exponent == 31  ? (fraction ? std::numeric_limits<double>::quiet_NaN()
                                                 : std::numeric_limits<double>::infinity())
                     : exponent == 0 ? std::ldexp(fraction, -24)
                                     : std::ldexp(1024 + fraction, exponent - 25);
  return negative ? -magnitude : magnitude;
}

// Special values of every format, then random bit patterns and random small reals (whose sums
// round, so orders of operations tell apart).
double sampleValue(const std::string& type, std::mt19937_64& rng, int64_t k) {
  const double specials[] = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             0.5,
                             3.0,
                             65504.0,
                             -6.0e-8,
                             1.0e30,
                             -1.0e30};
  constexpr int64_t kSpecials = sizeof specials / sizeof specials[0];
  double value = k < kSpecials ? specials[k]
                 : rng() % 2   ? fromBits(type, rng())
                               : std::uniform_real_distribution<double>(-4, 4)(rng);
  return gather_scatter::roundToElementType(type, value);
}

std::vector<Tensor> oracleArguments(const std::string& type, int arity, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Tensor> arguments;
  const bool everyValue = arity == 1 && (type == "f16" || type == "bf16");
  for (int i = 0; i < arity; ++i) {
    Tensor value = gather_scatter::zeros(type, {kOracleElements});
    // Two and three arguments: the specials in every pairing first, then random values.
    for (int64_t k = 0; k < kOracleElements; ++k) {
      int64_t special = i == 0 ? k % 13 : i == 1 ? (k / 13) % 13 : (k / 169) % 13;
      value.floats[k] = everyValue ? fromBits(type, static_cast<uint64_t>(k))
                        : k < 2197 ? sampleValue(type, rng, special)
                                   : sampleValue(type, rng, 13 + k);
    }
    arguments.push_back(std::move(value));
  }
  return arguments;
}

bool sameBits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

// How many of the oracle's argument tuples the two bodies give different bits on.
int64_t differences(const std::string& type, int arity, const std::string& first,
                    const std::string& second) {
  mlir_ir::Module a = mlir_ir::parseMlirModule(function(type, arity, first, kOracleElements), "a");
  mlir_ir::Module b = mlir_ir::parseMlirModule(function(type, arity, second, kOracleElements), "b");
  std::vector<Tensor> arguments = oracleArguments(type, arity, 7);
  Tensor x = runFunction(functionOf(a, "f"), arguments, Engine::kReference).at(0);
  Tensor y = runFunction(functionOf(b, "f"), arguments, Engine::kReference).at(0);
  int64_t count = 0;
  for (int64_t k = 0; k < kOracleElements; ++k) count += !sameBits(x.floats[k], y.floats[k]);
  return count;
}

struct Case {
  const char* name;
  const char* type;
  int arity;
  const char* first;
  const char* second;
  Verdict expected;
};

// The identity: convert to the same type changes nothing, and is no arithmetic.
#define IDENTITY "%r = stablehlo.convert %x : ($T) -> $T\n"

const Case kCases[] = {
    {"AddCommutes", "f32", 2, "%r = stablehlo.add %x, %y : $T\n",
     "%r = stablehlo.add %y, %x : $T\n", Verdict::Proven},
    {"MultiplyCommutes", "bf16", 2, "%r = stablehlo.multiply %x, %y : $T\n",
     "%r = stablehlo.multiply %y, %x : $T\n", Verdict::Proven},
    {"SubtractIsAddOfTheNegation", "f32", 2, "%r = stablehlo.subtract %x, %y : $T\n",
     "%n = stablehlo.negate %y : $T\n%r = stablehlo.add %x, %n : $T\n", Verdict::Proven},
    {"MinimumCommutes", "f16", 2, "%r = stablehlo.minimum %x, %y : $T\n",
     "%r = stablehlo.minimum %y, %x : $T\n", Verdict::Proven},
    {"DoubleNegationIsIdentity", "f64", 1,
     "%n = stablehlo.negate %x : $T\n%r = stablehlo.negate %n : $T\n", IDENTITY, Verdict::Proven},
    {"AbsOfTheNegationIsAbs", "f16", 1,
     "%n = stablehlo.negate %x : $T\n%r = stablehlo.abs %n : $T\n", "%r = stablehlo.abs %x : $T\n",
     Verdict::Proven},
    {"AddingNegativeZeroIsIdentity", "f16", 1,
     "%c = stablehlo.constant dense<-0.0> : $T\n%r = stablehlo.add %x, %c : $T\n", IDENTITY,
     Verdict::Proven},
    {"AddingZeroIsNotIdentity", "f32", 1,
     "%c = stablehlo.constant dense<0.0> : $T\n%r = stablehlo.add %x, %c : $T\n", IDENTITY,
     Verdict::Refuted},
    {"MultiplyingByOneIsIdentity", "bf16", 1,
     "%c = stablehlo.constant dense<1.0> : $T\n%r = stablehlo.multiply %x, %c : $T\n", IDENTITY,
     Verdict::Proven},
    {"TwiceIsAddingToItself", "f16", 1,
     "%c = stablehlo.constant dense<2.0> : $T\n%r = stablehlo.multiply %x, %c : $T\n",
     "%r = stablehlo.add %x, %x : $T\n", Verdict::Proven},
    {"HalvingIsMultiplyingByAHalf", "f16", 1,
     "%c = stablehlo.constant dense<2.0> : $T\n%r = stablehlo.divide %x, %c : $T\n",
     "%c = stablehlo.constant dense<0.5> : $T\n%r = stablehlo.multiply %x, %c : $T\n",
     Verdict::Proven},
    {"AdditionDoesNotAssociate", "f32", 3,
     "%s = stablehlo.add %x, %y : $T\n%r = stablehlo.add %s, %z : $T\n",
     "%s = stablehlo.add %y, %z : $T\n%r = stablehlo.add %x, %s : $T\n", Verdict::Refuted},
    {"WideningRoundTripIsIdentity", "f32", 1,
     "%w = stablehlo.convert %x : ($T) -> tensor<$Nxf64>\n"
     "%r = stablehlo.convert %w : (tensor<$Nxf64>) -> $T\n",
     IDENTITY, Verdict::Proven},
    {"NarrowingRoundTripLosesBits", "f32", 1,
     "%w = stablehlo.convert %x : ($T) -> tensor<$Nxf16>\n"
     "%r = stablehlo.convert %w : (tensor<$Nxf16>) -> $T\n",
     IDENTITY, Verdict::Refuted},
    {"NegativeZeroIsNotZero", "f64", 1, "%r = stablehlo.constant dense<-0.0> : $T\n",
     "%r = stablehlo.constant dense<0.0> : $T\n", Verdict::Refuted},
    {"NaNIsNotEqualToItself", "f32", 1,
     "%e = stablehlo.compare EQ, %x, %x : ($T, $T) -> $B\n"
     "%c = stablehlo.constant dense<0.0> : $T\n%r = stablehlo.select %e, %x, %c : $B, $T\n",
     IDENTITY, Verdict::Refuted},
    {"MinimumIsNotASelectOfLess", "f16", 2, "%r = stablehlo.minimum %x, %y : $T\n",
     "%l = stablehlo.compare LT, %x, %y : ($T, $T) -> $B\n"
     "%r = stablehlo.select %l, %x, %y : $B, $T\n",
     Verdict::Refuted},
    {"SquareRootOfASquareIsNotAbs", "f16", 1,
     "%s = stablehlo.multiply %x, %x : $T\n%r = stablehlo.sqrt %s : $T\n",
     "%r = stablehlo.abs %x : $T\n", Verdict::Refuted},
    {"ClampIsTheMinimumOfAMaximum", "f32", 3,
     "%r = stablehlo.clamp %y, %x, %z : ($T, $T, $T) -> $T\n",
     "%m = stablehlo.maximum %x, %y : $T\n%r = stablehlo.minimum %m, %z : $T\n", Verdict::Proven},
};
#undef IDENTITY

class IeeePairs : public ::testing::TestWithParam<Case> {};

TEST_P(IeeePairs, VerdictAgreesWithTheInterpreterOnEveryValueTried) {
  const Case& c = GetParam();
  // Proved on 4 elements (the element index is free), checked on 2^16.
  std::string firstText = function(c.type, c.arity, c.first, 4);
  std::string secondText = function(c.type, c.arity, c.second, 4);
  mlir_ir::Module a = mlir_ir::parseMlirModule(firstText, "first.mlir");
  mlir_ir::Module b = mlir_ir::parseMlirModule(secondText, "second.mlir");
  EqualityVerdict verdict = proveEqual(functionOf(a, "f"), functionOf(b, "f"));
  ASSERT_EQ(verdict.proof.verdict, c.expected) << verdict.proof.reason << "\n"
                                               << firstText << secondText;
  EXPECT_TRUE(verdict.realArithmetic.empty());  // decided bit for bit, never on reals
  const int64_t differing = differences(c.type, c.arity, c.first, c.second);
  if (verdict.proof.isProven()) {
    EXPECT_EQ(differing, 0) << "proven, but the interpreter finds arguments that differ";
  } else {
    expectCounterexampleReplays(verdict, functionOf(a, "f"), functionOf(b, "f"));
    EXPECT_GT(differing, 0) << "the oracle's sample misses what the witness shows";
  }
}

INSTANTIATE_TEST_SUITE_P(Floats, IeeePairs, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

// A random expression over %x, %y, %z of one float type: every op the IEEE terms model, with
// constants that round, overflow, or are -0, and round trips through another format.
std::string randomBody(std::mt19937& rng) {
  const char* unary[] = {"negate", "abs", "sqrt"};
  const char* binary[] = {"add", "subtract", "multiply", "divide", "minimum", "maximum"};
  const char* directions[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  const char* constants[] = {"0.1", "-0.0", "3.0", "1.0e+30", "65519.0", "-2.5", "1.0e-40"};
  const char* formats[] = {"f16", "bf16", "f32", "f64"};
  std::vector<std::string> values = {"%x", "%y", "%z"};
  auto pick = [&] {
    return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
  };
  std::string body;
  const int steps = std::uniform_int_distribution<int>(2, 6)(rng);
  for (int k = 0; k < steps; ++k) {
    const std::string v = "%v" + std::to_string(k), p = "%p" + std::to_string(k);
    switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
      case 0:
        body += v + " = stablehlo." + unary[rng() % 3] + " " + pick() + " : $T\n";
        break;
      case 1:
      case 2:
        body += v + " = stablehlo." + binary[rng() % 6] + " " + pick() + ", " + pick() + " : $T\n";
        break;
      case 3:
        body += p + " = stablehlo.compare " + directions[rng() % 6] + ", " + pick() + ", " +
                pick() + " : ($T, $T) -> $B\n" + v + " = stablehlo.select " + p + ", " + pick() +
                ", " + pick() + " : $B, $T\n";
        break;
      case 4: {
        std::string other = formats[rng() % 4], w = "%w" + std::to_string(k);
        body += w + " = stablehlo.convert " + pick() + " : ($T) -> tensor<$Nx" + other + ">\n" + v +
                " = stablehlo.convert " + w + " : (tensor<$Nx" + other + ">) -> $T\n";
        break;
      }
      default: {  // a constant, clamped between two values
        std::string c = v + "c";
        body += c + " = stablehlo.constant dense<" + constants[rng() % 7] + "> : $T\n";
        values.push_back(c);
        body += v + " = stablehlo.clamp " + pick() + ", " + c + ", " + pick() +
                " : ($T, $T, $T) -> $T\n";
        break;
      }
    }
    values.push_back(v);
  }
  return body + "%r = stablehlo.add " + values.back() + ", " + pick() + " : $T\n";
}

// The IEEE terms compute what the interpreter computes, bit for bit (the oracle the verdicts
// rest on): random programs in every format, each on 16 argument tuples of special and random
// values, every result element compared.
TEST(IeeeTerms, ComputeTheInterpretersBits) {
  sampling::Sample sample = sampling::sampleOf("IeeeTerms.ComputeTheInterpretersBits", 400, 60);
  std::mt19937 rng(sample.seed);
  const char* formats[] = {"f16", "bf16", "f32", "f64"};
  constexpr int64_t kElements = 16;
  for (size_t i = 0; i < sample.count; ++i) {
    const std::string type = formats[i % 4];
    const std::string text = function(type, 3, randomBody(rng), kElements);
    SCOPED_TRACE("program " + std::to_string(i) + ":\n" + text);
    mlir_ir::Module module = mlir_ir::parseMlirModule(text, "random.mlir");
    ComparedFunction f = functionOf(module, "f");
    std::mt19937_64 values(rng());
    std::vector<std::vector<double>> arguments;
    std::vector<Tensor> tensors;
    for (int a = 0; a < 3; ++a) {
      Tensor tensor = gather_scatter::zeros(type, {kElements});
      for (int64_t k = 0; k < kElements; ++k)
        tensor.floats[k] = sampleValue(type, values, static_cast<int64_t>(values() % 26));
      arguments.push_back(tensor.floats);
      tensors.push_back(std::move(tensor));
    }
    std::optional<std::vector<std::vector<double>>> terms =
        program_terms::evaluateTerms(f, arguments, program_terms::FloatModel::kIeee);
    ASSERT_TRUE(terms.has_value());
    Tensor expected = runFunction(f, tensors, Engine::kReference).at(0);
    for (int64_t k = 0; k < kElements; ++k)
      ASSERT_TRUE(sameBits((*terms)[0][k], expected.floats[k]))
          << "element " << k << ": terms " << (*terms)[0][k] << ", interpreter "
          << expected.floats[k] << " (arguments " << arguments[0][k] << ", " << arguments[1][k]
          << ", " << arguments[2][k] << ")";
  }
}

}  // namespace
}  // namespace idxmap::program_equality::prove_equal_ieee_test
