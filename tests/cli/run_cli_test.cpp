// `idxmap run`, run as a user runs it: the spec example under both engines, failing checks,
// stdin, JSON, and exit 2 with a located diagnostic for programs it cannot run.
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

// Two checks: the first holds ([1, 2] + [2, 2] = [3, 4]); the second compares
// [[1, 2], [3, 4]] with [[1, 2], [4, 4]]: element [1, 0] is 3, not 4.
constexpr const char* kOneFailing = R"(func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %b = stablehlo.constant dense<2> : tensor<2xi64>
  %c = stablehlo.add %a, %b : tensor<2xi64>
  check.expect_eq_const %c, dense<[3, 4]> : tensor<2xi64>
  %m = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  check.expect_eq_const %m, dense<[[1, 2], [4, 4]]> : tensor<2x2xi64>
  func.return
}
)";

TEST(RunCli, SpecExamplePassesUnderBothEngines) {
  for (const char* engine : {"reference", "maps"}) {
    CliResult result = runIdxmap({"run", "--engine", engine, examplePath("spec_example.mlir")});
    EXPECT_EQ(result.exitCode, 0) << engine << ": " << result.out << result.err;
    EXPECT_EQ(result.out, "3 checks passed\n") << engine;
    EXPECT_EQ(result.err, "");
  }
}

TEST(RunCli, DefaultEngineIsReference) {
  CliResult result = runIdxmap({"run", examplePath("spec_example.mlir")});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "3 checks passed\n");
}

TEST(RunCli, FailingCheckPrintsItsLocationAndExitsOne) {
  std::filesystem::path dir = makeScratchDir();
  writeTextFile(dir / "t.mlir", kOneFailing);
  CliResult result = runIdxmap({"run", (dir / "t.mlir").string()});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.out, (dir / "t.mlir").string() +
                            ":7:3: check.expect_eq_const failed: element [1, 0] is 3, expected 4\n"
                            "1 of 2 checks failed\n");
}

TEST(RunCli, ReadsStdinAndPrintsJson) {
  CliResult result = runIdxmap({"run", "--json", "-"}, kOneFailing);
  EXPECT_EQ(result.exitCode, 1) << result.err;
  nlohmann::json report = nlohmann::json::parse(result.out);
  EXPECT_EQ(report["checks"], 2);
  EXPECT_EQ(report["passed"], 1);
  ASSERT_EQ(report["failed"].size(), 1u);
  EXPECT_EQ(report["failed"][0]["location"], "<stdin>:7:3");
  EXPECT_EQ(report["failed"][0]["op"], "check.expect_eq_const");
  EXPECT_EQ(report["failed"][0]["message"], "element [1, 0] is 3, expected 4");
}

TEST(RunCli, BadInputExitsTwoWithALocatedDiagnostic) {
  // An op the interpreter does not have.
  CliResult unsupported = runIdxmap({"run", "-"}, R"(func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.cholesky %a : tensor<f32>
  func.return
}
)");
  EXPECT_EQ(unsupported.exitCode, 2);
  EXPECT_NE(unsupported.err.find("<stdin>:3:8: error: unsupported op 'stablehlo.cholesky'"),
            std::string::npos)
      << unsupported.err;
  EXPECT_NE(unsupported.err.find("  %b = stablehlo.cholesky %a : tensor<f32>\n       ^"),
            std::string::npos)
      << unsupported.err;
  // A declared type the value does not have.
  CliResult mismatch = runIdxmap({"run", "-"}, R"(func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = "stablehlo.add"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<3xi32>
  func.return
}
)");
  EXPECT_EQ(mismatch.exitCode, 2);
  EXPECT_NE(mismatch.err.find("<stdin>:3:8: error: "), std::string::npos) << mismatch.err;
  // Malformed text.
  CliResult malformed = runIdxmap({"run", "-"}, "func.func @main( {\n");
  EXPECT_EQ(malformed.exitCode, 2);
  EXPECT_NE(malformed.err.find("<stdin>:1:"), std::string::npos) << malformed.err;
  // Nothing to run, a missing file, an unknown engine.
  EXPECT_EQ(runIdxmap({"run", "-"}, "func.func @f(%x: tensor<i1>) { func.return }\n").exitCode, 2);
  EXPECT_EQ(runIdxmap({"run", "/nonexistent/x.mlir"}).exitCode, 2);
  EXPECT_EQ(runIdxmap({"run", "--engine", "jit", examplePath("spec_example.mlir")}).exitCode, 2);
}

TEST(RunCli, AProgramWithoutChecksPassesWithANote) {
  CliResult result = runIdxmap({"run", "-"}, R"(func.func @main() {
  %a = stablehlo.iota dim = 0 : tensor<4xi32>
  func.return
}
)");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "0 checks passed\n");
  EXPECT_EQ(result.err, "<stdin>: note: no check ops ran\n");
}

// A while loop stops at --max-iterations with the op's location (exit 2); the limit must be
// positive.
TEST(RunCli, MaxIterationsStopsALoopThatRunsLonger) {
  const std::string loop = R"(func.func @main() -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.while"(%zero) ({
    ^bb0(%i: tensor<i64>):
      %n = stablehlo.constant dense<50> : tensor<i64>
      %more = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %more : tensor<i1>
  }, {
    ^bb0(%i: tensor<i64>):
      %one = stablehlo.constant dense<1> : tensor<i64>
      %next = stablehlo.add %i, %one : tensor<i64>
      stablehlo.return %next : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}
)";
  CliResult stopped = runIdxmap({"run", "--max-iterations", "10", "--print-results", "-"}, loop);
  EXPECT_EQ(stopped.exitCode, 2) << stopped.out;
  EXPECT_NE(stopped.err.find("<stdin>:3:8: error: stablehlo.while: stopped after 10 iterations"),
            std::string::npos)
      << stopped.err;
  CliResult ended = runIdxmap({"run", "--max-iterations", "50", "--print-results", "-"}, loop);
  EXPECT_EQ(ended.exitCode, 0) << ended.err;
  EXPECT_EQ(ended.out, "tensor<i64> {50}\n");
  CliResult zero = runIdxmap({"run", "--max-iterations", "0", "-"}, loop);
  EXPECT_EQ(zero.exitCode, 2);
  EXPECT_NE(zero.err.find("--max-iterations"), std::string::npos) << zero.err;
}

TEST(RunCli, HelpShowsExamples) {
  CliResult result = runIdxmap({"run", "--help"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_NE(result.out.find("idxmap run --engine maps examples/spec_example.mlir"),
            std::string::npos);
  EXPECT_NE(result.out.find("--engine"), std::string::npos);
  // The op list is the interpreter's table, so every family shows up.
  for (const char* op : {"stablehlo.gather,", "stablehlo.scatter,", "stablehlo.reduce,",
                         "stablehlo.sort,", "stablehlo.while,", "stablehlo.shift_left,"})
    EXPECT_NE(result.out.find(op), std::string::npos) << op;
}

// @main with arguments: values from a file (--inputs) or inline / @FILE (--args, as
// stablehlo-translate takes them); the results are printed, [1, 1] + [2, 5] = [3, 6].
TEST(RunCli, MainTakesArgumentValuesAndPrintsItsResults) {
  std::filesystem::path dir = makeScratchDir();
  writeTextFile(dir / "main.mlir",
                R"(func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %b : tensor<2xi32>
  return %0 : tensor<2xi32>
}
)");
  const std::string values = "[dense<1> : tensor<2xi32>, dense<[2, 5]> : tensor<2xi32>]";
  writeTextFile(dir / "values.txt", "// two arguments\n" + values + "\n");
  std::string program = (dir / "main.mlir").string(), file = (dir / "values.txt").string();
  const std::string printed = "tensor<2xi32> {\n  [3, 6]\n}\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--inputs", file, program},
        std::vector<std::string>{"run", "--args", values, program},
        std::vector<std::string>{"run", "--args", "@" + file, program}}) {
    CliResult result = runIdxmap(args);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(result.out, printed);
    EXPECT_EQ(result.err, "");
  }
  CliResult json = runIdxmap({"run", "--json", "--inputs", file, program});
  nlohmann::json record = nlohmann::json::parse(json.out);
  EXPECT_EQ(record["results"][0]["type"], "tensor<2xi32>");
  EXPECT_EQ(record["results"][0]["value"], "[3, 6]");

  CliResult none = runIdxmap({"run", program});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.err.find("main.mlir:1:11: error: @main takes arguments: give their values with "
                          "--inputs FILE"),
            std::string::npos)
      << none.err;
  CliResult wrongType =
      runIdxmap({"run", "--args",
                 "[dense<1> : tensor<3xi32>, " + values.substr(values.find(",") + 2), program});
  EXPECT_EQ(wrongType.exitCode, 2);
  EXPECT_NE(wrongType.err.find("main.mlir:1:17: error: argument %a is declared tensor<2xi32> but "
                               "is given tensor<3xi32>"),
            std::string::npos)
      << wrongType.err;
  CliResult tooFew = runIdxmap({"run", "--args", "[dense<1> : tensor<2xi32>]", program});
  EXPECT_EQ(tooFew.exitCode, 2);
  EXPECT_NE(tooFew.err.find("@main takes 2 argument(s), given 1 value"), std::string::npos);
  writeTextFile(dir / "bad.txt", "[dense<1> : tensor<2xi32>,\n 7]\n");
  CliResult untyped = runIdxmap({"run", "--inputs", (dir / "bad.txt").string(), program});
  EXPECT_EQ(untyped.exitCode, 2);
  EXPECT_EQ(untyped.err, (dir / "bad.txt").string() +
                             ":2:2: error: expected a typed dense value `dense<...> : "
                             "tensor<...>`, found '7]'\n 7]\n ^\n");
}

// StableHLO's check ops write the tolerance after the types, in either form.
TEST(RunCli, ToleranceAfterTheTypesInBothForms) {
  CliResult result = runIdxmap({"run"}, R"(func.func @main() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_almost_eq_const %0, dense<[1.05, 2.0]> : tensor<2xf32>, tolerance = 0.1
  check.expect_almost_eq_const %0, dense<[1.05, 2.0]> : tensor<2xf32> {tolerance = 0.1 : f64}
  check.expect_almost_eq_const %0, dense<[1.05, 2.0]> : tensor<2xf32>, tolerance = 0.01
  check.expect_almost_eq_const %0, dense<[1.05, 2.0]> : tensor<2xf32> {tolerance = 0.01 : f64}
  func.return
}
)");
  EXPECT_EQ(result.exitCode, 1) << result.err;
  EXPECT_EQ(result.out,
            "<stdin>:5:3: check.expect_almost_eq_const failed: element [0] is 1, expected 1.05 "
            "(difference 0.05, tolerance 0.01)\n"
            "<stdin>:6:3: check.expect_almost_eq_const failed: element [0] is 1, expected 1.05 "
            "(difference 0.05, tolerance 0.01)\n"
            "2 of 4 checks failed\n");
}

}  // namespace
}  // namespace idxmap::cli_test
