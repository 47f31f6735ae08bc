// `idxmap draw` as a user runs it: an SVG file from an MLIR gather, the drawn pairs as JSON,
// chosen points, spec 000's scatter, and bad input (no such op, a point outside the domain,
// malformed --points, an invalid op, an option for another kind of input) as a diagnostic with
// exit 2 and no file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace draw_cli_tests {

TEST(DrawCli, WritesAnSvgAndJsonOfTheDrawnPairs) {
  std::filesystem::path dir = makeScratchDir();
  std::string svg = (dir / "gather.svg").string();
  CliResult result = runIdxmap({"draw", examplePath("gather.mlir"), "--op", "2", "--points",
                                "1,1;3,2", "-o", svg, "--json"});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json picture = nlohmann::json::parse(result.out);
  EXPECT_EQ(picture["source"]["name"], "result");
  EXPECT_EQ(picture["target"]["name"], "operand");
  ASSERT_EQ(picture["points"].size(), 2u);
  // The second gather of the example reads row 2 * r (its indices are multiply(iota, 2)).
  EXPECT_EQ(picture["points"][0]["targets"], nlohmann::json::parse("[[2, 1]]"));
  EXPECT_EQ(picture["points"][1]["targets"], nlohmann::json::parse("[[6, 2]]"));
  std::string text = readTextFile(svg);
  EXPECT_EQ(text.rfind("<svg", 0), 0u);
  EXPECT_NE(text.find("result[3, 2] → operand[6, 2]"), std::string::npos);
}

TEST(DrawCli, AMapFileDrawsItsMapsWithTheirFanOut) {
  std::filesystem::path dir = makeScratchDir();
  writeTextFile(dir / "window.map",
                "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [0, 2], d0 + s0 in [0, 6]\n");
  CliResult result = runIdxmap({"draw", (dir / "window.map").string(), "--points", "5", "--json"});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json picture = nlohmann::json::parse(result.out);
  EXPECT_EQ(picture["points"][0]["targets"], nlohmann::json::parse("[[5], [6]]"));
}

TEST(DrawCli, HloInstructionsDrawTheirOperandMaps) {
  CliResult result = runIdxmap(
      {"draw", examplePath("softmax.hlo"), "--points", "1,64,0", "--operand", "0", "--json"});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json picture = nlohmann::json::parse(result.out);
  EXPECT_EQ(picture["source"]["name"], "f");
  EXPECT_EQ(picture["target"]["name"], "p0");
  // Softmax reads the whole row of its input (max and sum) for every element of it.
  EXPECT_EQ(picture["points"][0]["targets"].size(), 125u);
  CliResult noSuch = runIdxmap({"draw", examplePath("softmax.hlo"), "--instruction", "nope"});
  EXPECT_EQ(noSuch.exitCode, 2);
  EXPECT_NE(noSuch.err.find("no instruction 'nope'"), std::string::npos) << noSuch.err;
}

TEST(DrawCli, BadInputIsADiagnosticAndExit2) {
  std::filesystem::path dir = makeScratchDir();
  std::string svg = (dir / "never.svg").string();
  CliResult noOp = runIdxmap({"draw", examplePath("gather.mlir"), "--op", "9", "-o", svg});
  EXPECT_EQ(noOp.exitCode, 2);
  EXPECT_NE(noOp.err.find("there is no op 9"), std::string::npos) << noOp.err;
  CliResult outside = runIdxmap({"draw", examplePath("gather.mlir"), "--points", "4,0", "-o", svg});
  EXPECT_EQ(outside.exitCode, 2);
  EXPECT_NE(outside.err.find("outside the domain"), std::string::npos) << outside.err;
  CliResult malformed =
      runIdxmap({"draw", examplePath("gather.mlir"), "--points", "1,x", "-o", svg});
  EXPECT_EQ(malformed.exitCode, 2);
  EXPECT_NE(malformed.err.find("--points"), std::string::npos) << malformed.err;
  CliResult wrongRank =
      runIdxmap({"draw", examplePath("reshape_roundtrip.map"), "--points", "0,0", "-o", svg});
  EXPECT_EQ(wrongRank.exitCode, 2);
  EXPECT_NE(wrongRank.err.find("a point has 2 coordinates, the map 3 dims"), std::string::npos)
      << wrongRank.err;
  EXPECT_FALSE(std::filesystem::exists(svg));
}

// An op breaking its spec is located at the attribute, with the line and a caret; an option
// for another kind of input is an error, not ignored.
TEST(DrawCli, InvalidOpsAndMisplacedOptionsAreDiagnostics) {
  CliResult invalid = runIdxmap({"draw", examplePath("bad_gather.mlir")});
  EXPECT_EQ(invalid.exitCode, 2);
  EXPECT_NE(invalid.err.find("bad_gather.mlir:6:30: error: stablehlo.gather (C6)"),
            std::string::npos)
      << invalid.err;
  EXPECT_NE(invalid.err.find("collapsed_slice_dims = [1, 2],\n                             ^"),
            std::string::npos)
      << invalid.err;
  CliResult misplaced = runIdxmap({"draw", examplePath("gather.mlir"), "--instruction", "x"});
  EXPECT_EQ(misplaced.exitCode, 2);
  EXPECT_NE(misplaced.err.find("--instruction applies to HLO, and the input is MLIR"),
            std::string::npos)
      << misplaced.err;
  CliResult mapOnHlo = runIdxmap({"draw", examplePath("softmax.hlo"), "--map", "2"});
  EXPECT_EQ(mapOnHlo.exitCode, 2);
  EXPECT_NE(mapOnHlo.err.find("--map applies to a .map file"), std::string::npos) << mapOnHlo.err;
}

// Spec 000's scatter (the second op of the example): the update window at scatter_indices
// [0, 9] lies outside the input and is skipped; the others land where the spec adds them.
TEST(DrawCli, TheSpecScatterSaysItsSkippedUpdate) {
  CliResult result = runIdxmap({"draw", examplePath("spec_example.mlir"), "--op", "2", "--points",
                                "0,1,2,1,1;1,1,0,0,1", "--json", "-o",
                                (makeScratchDir() / "scatter.svg").string()});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json picture = nlohmann::json::parse(result.out);
  EXPECT_EQ(picture["source"]["name"], "updates");
  EXPECT_EQ(picture["points"][0]["skipped"], true);
  EXPECT_EQ(picture["points"][0]["targets"], nlohmann::json::array());
  // updates[1, 1, 0, 0, 1]: batch 1, scatter_indices[1, 1, 0] = [1, 2] -> input dim 2 = 1,
  // dim 1 = 2; window (0, 1) over dims 2, 3: input[1, 2, 1, 1].
  EXPECT_EQ(picture["points"][1]["targets"], nlohmann::json::parse("[[1, 2, 1, 1]]"));
}

}  // namespace draw_cli_tests
}  // namespace idxmap::cli_test
