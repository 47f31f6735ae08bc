// prove-equal on the specs' lowerings (examples/prove_equal): spec 003's three TCP lowerings
// and a wrong broadcast axis, spec 000's batched gather and scatter against their
// decomposition and a wrong iota, spec 001's tensor.gather / tensor.scatter against StableHLO.
// Every "proven" is checked on 100 random argument sets, every "refuted" by running the printed
// counterexample; then bad input.
#include <gtest/gtest.h>

#include "tests/verify/prove_equal_support.h"

namespace idxmap::program_equality::prove_equal_examples_test {
namespace {

using namespace program_equality::testing;

struct Case {
  const char* first;
  const char* second;
  const char* function;
  Verdict expected;
  int64_t lo, hi;  // random index values every op of both accepts
  bool unique = false;
};

const Case kCases[] = {
    {"index_select.mlir", "index_select_tcp.mlir", "main", Verdict::Proven, 0, 2},
    {"tf_gather.mlir", "tf_gather_tcp.mlir", "main", Verdict::Proven, 0, 3},
    {"onnx_gather.mlir", "onnx_gather_tcp.mlir", "main", Verdict::Proven, 0, 2},
    {"torch_gather.mlir", "torch_gather_tcp.mlir", "main", Verdict::Proven, 0, 3},
    {"tf_gather.mlir", "tf_gather_wrong_axis.mlir", "main", Verdict::Refuted, 0, 3},
    {"batched.mlir", "decomposed.mlir", "gather_fn", Verdict::Proven, -2, 5},
    // f32 updates summed in the same row-major order: bit-identical under any rounding.
    {"batched.mlir", "decomposed.mlir", "scatter_fn", Verdict::Proven, -2, 5},
    {"batched.mlir", "decomposed_wrong_iota.mlir", "gather_fn", Verdict::Refuted, -2, 5},
    {"batched.mlir", "decomposed_wrong_iota.mlir", "scatter_fn", Verdict::Refuted, -2, 5},
    {"tensor_gather.mlir", "tensor_gather_stablehlo.mlir", "coordinates", Verdict::Proven, 0, 3},
    {"tensor_gather.mlir", "tensor_gather_stablehlo.mlir", "slices", Verdict::Proven, 0, 1},
    {"tensor_gather.mlir", "tensor_gather_stablehlo.mlir", "rows", Verdict::Proven, 0, 3, true},
};

class SpecLowerings : public ::testing::TestWithParam<Case> {};

TEST_P(SpecLowerings, VerdictAndItsIndependentCheck) {
  const Case& c = GetParam();
  mlir_ir::Module a = readExample(c.first), b = readExample(c.second);
  ComparedFunction first = functionOf(a, c.function), second = functionOf(b, c.function);
  EqualityVerdict verdict = proveEqual(first, second);
  ASSERT_EQ(verdict.proof.verdict, c.expected) << verdict.proof.reason;
  if (verdict.proof.isProven() || verdict.proof.verdict == Verdict::EqualOverReals)
    expectSameOnRandomArguments(first, second, c.lo, c.hi, c.unique);
  else
    expectCounterexampleReplays(verdict, first, second);
}

// `tf_gather_vs_tf_gather_wrong_axis_main`: the files and the function, as a test name.
std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name =
      std::string(info.param.first) + "_vs_" + info.param.second + "_" + info.param.function;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Examples, SpecLowerings, ::testing::ValuesIn(kCases), caseName);

TEST(ProveEqual, TcpLoweringsStateWhatTheyAssume) {
  mlir_ir::Module a = readExample("index_select.mlir"), b = readExample("index_select_tcp.mlir");
  EqualityVerdict verdict = proveEqual(functionOf(a, "main"), functionOf(b, "main"));
  ASSERT_TRUE(verdict.proof.isProven());
  ASSERT_EQ(verdict.assumptions.size(), 1u);
  EXPECT_NE(verdict.assumptions[0].find("tcp.gather at index_select_tcp.mlir:9:8"),
            std::string::npos);
  EXPECT_TRUE(verdict.realArithmetic.empty());
}

TEST(ProveEqual, WrongAxisNamesTheElementsRead) {
  mlir_ir::Module a = readExample("tf_gather.mlir"), b = readExample("tf_gather_wrong_axis.mlir");
  EqualityVerdict verdict = proveEqual(functionOf(a, "main"), functionOf(b, "main"));
  ASSERT_TRUE(verdict.proof.isRefuted());
  // out[i, j, k] reads input[i, indices[j], k] in the first, input[i, indices[i], k] in the
  // second: the descriptions are reads of %input whose middle coordinates differ.
  EXPECT_EQ(verdict.first.rfind("%input[", 0), 0u) << verdict.first;
  EXPECT_EQ(verdict.second.rfind("%input[", 0), 0u) << verdict.second;
  EXPECT_NE(verdict.first, verdict.second);
}

// --- bad input ------------------------------------------------------------------------------

EqualityVerdict proveText(const std::string& first, const std::string& second) {
  mlir_ir::Module a = mlir_ir::parseMlirModule(first, "a.mlir");
  mlir_ir::Module b = mlir_ir::parseMlirModule(second, "b.mlir");
  return proveEqual({&a, &a.functions.at(0)}, {&b, &b.functions.at(0)});
}

const char* kCopy = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
})";

TEST(ProveEqual, DifferentResultTypesAreADiagnostic) {
  const char* other = R"(func.func @main(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.reshape %x : (tensor<4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
})";
  EXPECT_THROW(proveText(kCopy, other), program_terms::IncomparablePrograms);
}

TEST(ProveEqual, DifferentArgumentTypesAreADiagnostic) {
  const char* other = R"(func.func @main(%x: tensor<4xf64>) -> tensor<4xf32> {
  %0 = stablehlo.convert %x : (tensor<4xf64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
})";
  EXPECT_THROW(proveText(kCopy, other), program_terms::IncomparablePrograms);
}

TEST(ProveEqual, AnOpWithoutATermModelIsUnknownWithItsName) {
  const char* sorted = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
})";
  EqualityVerdict verdict = proveText(kCopy, sorted);
  ASSERT_TRUE(verdict.proof.isUnknown());
  EXPECT_NE(verdict.proof.reason.find("stablehlo.sort"), std::string::npos) << verdict.proof.reason;
  EXPECT_NE(verdict.proof.reason.find("b.mlir:2:"), std::string::npos) << verdict.proof.reason;
}

TEST(ProveEqual, AnOpThatBreaksItsSpecIsADiagnosticWithTheLabel) {
  const char* broken = R"(func.func @main(%x: tensor<4xf32>, %i: tensor<2x1xi64>) -> tensor<2xf32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<
      offset_dims = [], collapsed_slice_dims = [0, 0], start_index_map = [0],
      index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<4xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
})";
  try {
    proveText(broken, broken);
    FAIL() << "expected a diagnostic";
  } catch (const program_terms::IncomparablePrograms& error) {
    EXPECT_NE(std::string(error.what()).find("stablehlo.gather (C"), std::string::npos)
        << error.what();
  }
}

TEST(ProveEqual, AnOpTheTermsCannotModelIsUnknownAtTheOpNeverProven) {
  // A dim the tensor does not have, and an add of f32 and i32 elements: the same invalid
  // program on both sides is still no proof.
  const char* badDim = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reverse %x, dims = [3] : tensor<4xf32>
  func.return %0 : tensor<4xf32>
})";
  const char* mixed = R"(func.func @main(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%x, %i) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
})";
  for (const char* text : {badDim, mixed}) {
    EqualityVerdict verdict = proveText(text, text);
    ASSERT_TRUE(verdict.proof.isUnknown()) << text;
    EXPECT_NE(verdict.proof.reason.find("a.mlir:2:8: stablehlo."), std::string::npos)
        << verdict.proof.reason;
  }
}

TEST(ProveEqual, ElementwiseFloatOpsAreTheSameFunctionOnlyOfTheSameElements) {
  // exp(x)[i] against exp(reverse(x))[i]: different elements of x, refuted and replayed.
  const char* exp = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
})";
  const char* reversed = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reverse %x, dims = [0] : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
})";
  EXPECT_TRUE(proveText(exp, exp).proof.isProven());
  EqualityVerdict verdict = proveText(exp, reversed);
  EXPECT_TRUE(verdict.proof.isRefuted()) << verdict.proof.reason;
}

TEST(ProveEqual, IntegerArithmeticWrapsAsTheInterpreterComputes) {
  // x + 1 - 1 wraps back in i8 for every x, so it equals x; x * 2 / 2 is not modeled.
  const char* identity = R"(func.func @main(%x: tensor<3xi8>) -> tensor<3xi8> {
  func.return %x : tensor<3xi8>
})";
  const char* roundTrip = R"(func.func @main(%x: tensor<3xi8>) -> tensor<3xi8> {
  %one = stablehlo.constant dense<1> : tensor<3xi8>
  %0 = stablehlo.add %x, %one : tensor<3xi8>
  %1 = stablehlo.subtract %0, %one : tensor<3xi8>
  func.return %1 : tensor<3xi8>
})";
  const char* clamped = R"(func.func @main(%x: tensor<3xi8>) -> tensor<3xi8> {
  %one = stablehlo.constant dense<1> : tensor<3xi8>
  %0 = stablehlo.add %x, %one : tensor<3xi8>
  func.return %0 : tensor<3xi8>
})";
  EXPECT_TRUE(proveText(identity, roundTrip).proof.isProven());
  EqualityVerdict verdict = proveText(identity, clamped);
  EXPECT_TRUE(verdict.proof.isRefuted()) << verdict.proof.reason;
}

}  // namespace
}  // namespace idxmap::program_equality::prove_equal_examples_test
