// `idxmap prove-equal` as a user runs it: the exit status of each verdict (0 proven, 1 refuted,
// 2 bad input, 3 unknown, 4 equal over the reals only), the refutation's printed arguments and
// replay, --json, and bad input located with a caret.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace prove_equal_cli_tests {

std::string example(const std::string& name) { return examplePath("prove_equal/" + name); }

TEST(ProveEqualCli, ProvenSaysWhatItAssumes) {
  CliResult result =
      runIdxmap({"prove-equal", example("index_select.mlir"), example("index_select_tcp.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_EQ(result.out.rfind("proven (z3): @main in both files computes the same result for "
                             "every value of %indices\n",
                             0),
            0u)
      << result.out;
  EXPECT_NE(result.out.find("assuming tcp.gather at"), std::string::npos) << result.out;
}

TEST(ProveEqualCli, RefutedPrintsTheIndicesAndTheReplay) {
  CliResult result =
      runIdxmap({"prove-equal", example("tf_gather.mlir"), example("tf_gather_wrong_axis.mlir")});
  ASSERT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_EQ(result.out.rfind("refuted: for %indices = [", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("(and %input arbitrary)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("in the first and %input["), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("replayed: the interpreter (both engines) computes"), std::string::npos)
      << result.out;
}

// Reassociated f32 sums differ in IEEE arithmetic: refuted with the values that tell them
// apart, which `idxmap run` on each file confirms bit for bit (issue 33).
TEST(ProveEqualCli, ReassociatedFloatSumsAreRefutedWithTheirValues) {
  const std::string left = example("sum_left.mlir"), right = example("sum_right.mlir");
  CliResult result = runIdxmap({"prove-equal", left, right});
  ASSERT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_EQ(result.out.rfind("refuted: for %a = [", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("is (%a[0] + %b[0]) + %c[0] in the first and %a[0] + (%b[0] + "
                            "%c[0]) in the second"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("compared bit for bit in IEEE-754 formats"), std::string::npos)
      << result.out;
  CliResult json = runIdxmap({"prove-equal", left, right, "--json"});
  nlohmann::json record = nlohmann::json::parse(json.out);
  ASSERT_EQ(record["verdict"], "refuted") << json.out;
  EXPECT_EQ(record["ieee_arithmetic"], nlohmann::json::parse(R"(["stablehlo.add"])"));
  // The printed arguments, run by `idxmap run` on each function: results differ in bits.
  std::string args = "[";
  for (const auto& argument : record["counterexample"]["arguments"]) {
    ASSERT_TRUE(argument["shown"].get<bool>()) << json.out;  // float values decide: shown
    args += (args.size() > 1 ? ", " : "") + std::string("dense<") +
            argument["value"].get<std::string>() + "> : " + argument["type"].get<std::string>();
  }
  args += "]";
  // --json prints each value in the shortest text that reads back (every bit shows).
  CliResult first = runIdxmap({"run", left, "--args", args, "--json"});
  CliResult second = runIdxmap({"run", right, "--args", args, "--json"});
  ASSERT_EQ(first.exitCode, 0) << first.err;
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_NE(nlohmann::json::parse(first.out)["results"][0]["value"],
            nlohmann::json::parse(second.out)["results"][0]["value"])
      << args;
}

TEST(ProveEqualCli, CommutedFloatSumsAreProvenBitForBit) {
  CliResult result =
      runIdxmap({"prove-equal", example("sum_left.mlir"), example("sum_commuted.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_EQ(result.out.rfind("proven (z3, IEEE-754 under any rounding): @main", 0), 0u)
      << result.out;
}

// An IEEE identity whose bit-level proof is out of reach in the time given: equal over the
// reals only, exit status 4, "equal-over-reals" in JSON, and why it is not proven.
TEST(ProveEqualCli, OutOfReachIsEqualOverTheRealsWithExit4) {
  std::filesystem::path dir = makeScratchDir();
  const std::string first = (dir / "a.mlir").string(), second = (dir / "b.mlir").string();
  writeTextFile(first, R"(func.func @main(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %c = stablehlo.constant dense<-0.0> : tensor<f64>
  %p = stablehlo.multiply %x, %y : tensor<f64>
  %r = stablehlo.add %p, %c : tensor<f64>
  func.return %r : tensor<f64>
}
)");
  writeTextFile(second, R"(func.func @main(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %r = stablehlo.multiply %y, %x : tensor<f64>
  func.return %r : tensor<f64>
}
)");
  CliResult result = runIdxmap({"prove-equal", first, second, "--timeout-ms", "500"});
  EXPECT_EQ(result.exitCode, 4) << result.out << result.err;
  EXPECT_EQ(result.out.rfind("equal over the reals, not proven: ", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("the IEEE-754 query ran out of time (500 ms"), std::string::npos)
      << result.out;
  CliResult json = runIdxmap({"prove-equal", first, second, "--timeout-ms", "500", "--json"});
  EXPECT_EQ(nlohmann::json::parse(json.out)["verdict"], "equal-over-reals") << json.out;
}

TEST(ProveEqualCli, FunctionsByNameAndJson) {
  CliResult result = runIdxmap({"prove-equal", example("batched.mlir"), example("decomposed.mlir"),
                                "--function", "scatter_fn", "--json"});
  // The scatter adds f32 updates in the same order in both: bit-identical under any rounding.
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  nlohmann::json record = nlohmann::json::parse(result.out);
  EXPECT_EQ(record["verdict"], "proven");
  EXPECT_EQ(record["method"], "z3, IEEE-754 under any rounding");
  EXPECT_EQ(record["real_arithmetic"], nlohmann::json::array());
  EXPECT_EQ(record["ieee_arithmetic"], nlohmann::json::parse(R"(["stablehlo.add"])"));

  CliResult wrong =
      runIdxmap({"prove-equal", example("batched.mlir"), example("decomposed_wrong_iota.mlir"),
                 "--function", "gather_fn", "--json"});
  ASSERT_EQ(wrong.exitCode, 1) << wrong.out << wrong.err;
  nlohmann::json refuted = nlohmann::json::parse(wrong.out);
  EXPECT_EQ(refuted["verdict"], "refuted");
  EXPECT_EQ(refuted["counterexample"]["arguments"][1]["name"], "%start_indices");
  EXPECT_NE(refuted["counterexample"]["first_value"], refuted["counterexample"]["second_value"]);
}

TEST(ProveEqualCli, TwoFunctionsOfOneFile) {
  std::filesystem::path dir = makeScratchDir();
  std::string file = (dir / "two.mlir").string();
  writeTextFile(file, R"(func.func @a(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
func.func @b(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
)");
  CliResult result = runIdxmap({"prove-equal", file, "--function", "a", "--other", "b"});
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("refuted: for arguments (and %x arbitrary)"), std::string::npos)
      << result.out;
  CliResult same = runIdxmap({"prove-equal", file, "--function", "a", "--other", "a"});
  EXPECT_EQ(same.exitCode, 0) << same.out << same.err;
  CliResult unnamed = runIdxmap({"prove-equal", file});
  EXPECT_EQ(unnamed.exitCode, 2);
  EXPECT_NE(unnamed.err.find("name one with --function"), std::string::npos) << unnamed.err;
}

TEST(ProveEqualCli, DifferentTypesAreLocatedWithACaret) {
  CliResult result =
      runIdxmap({"prove-equal", example("index_select.mlir"), example("tf_gather.mlir")});
  ASSERT_EQ(result.exitCode, 2) << result.out;
  EXPECT_NE(result.err.find("tf_gather.mlir:3:17: error: argument 0 is tensor<3x4x5xf32> here"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("^"), std::string::npos) << result.err;
}

TEST(ProveEqualCli, UnsupportedIsUnknownWithExit3) {
  std::filesystem::path dir = makeScratchDir();
  std::string file = (dir / "dot.mlir").string();
  writeTextFile(file, R"(func.func @a(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
)");
  CliResult result = runIdxmap({"prove-equal", file, "--function", "a", "--other", "a"});
  EXPECT_EQ(result.exitCode, 3) << result.out << result.err;
  EXPECT_NE(result.out.find("unknown: "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("stablehlo.dot_general: no term model"), std::string::npos)
      << result.out;
}

}  // namespace prove_equal_cli_tests
}  // namespace idxmap::cli_test
