// `idxmap compose`: maps chained in order, the first applied first.
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

const std::string kFirst = "compose/1_reshape_10x10x10_to_50x20.map";
const std::string kSecond = "compose/2_reshape_50x20_to_10x10x10.map";

TEST(ComposeCli, ReshapeThereAndBackIsTheIdentity) {
  CliResult result = runIdxmap({"compose", "--check", examplePath(kFirst), examplePath(kSecond)});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out,
            "(d0, d1, d2) -> (d0, d1, d2),\n"
            "domain:\n"
            "d0 in [0, 9],\n"
            "d1 in [0, 9],\n"
            "d2 in [0, 9]\n");
}

TEST(ComposeCli, RawCompositionIsTheBundledRoundTrip) {
  CliResult result =
      runIdxmap({"compose", "--no-simplify", examplePath(kFirst), examplePath(kSecond)});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> raw = parseAll(result.out);
  ASSERT_EQ(raw.size(), 1u) << result.out;
  EXPECT_TRUE(sameMeaning(raw[0], parseFile(examplePath("reshape_roundtrip.map"))[0]));
  EXPECT_NE(result.out.find("mod"), std::string::npos) << "not simplified:\n" << result.out;
}

TEST(ComposeCli, ReadsMapsFromStdinInOrder) {
  // d0 -> d0 * 2 on [0, 9], then d0 -> d0 + 1 on [0, 18]: x -> 2x + 1, not 2(x + 1).
  CliResult result = runIdxmap({"compose"},
                               "(d0) -> (d0 * 2),\ndomain:\nd0 in [0, 9]\n\n"
                               "(d0) -> (d0 + 1),\ndomain:\nd0 in [0, 18]\n");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> composed = parseAll(result.out);
  ASSERT_EQ(composed.size(), 1u) << result.out;
  EXPECT_TRUE(
      sameMeaning(composed[0], parseAll("(d0) -> (d0 * 2 + 1),\ndomain:\nd0 in [0, 9]")[0]));
}

TEST(ComposeCli, OneMapIsSimplified) {
  CliResult result = runIdxmap({"compose", examplePath("reshape_roundtrip.map")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out.substr(0, result.out.find('\n')), "(d0, d1, d2) -> (d0, d1, d2),");
}

TEST(ComposeCli, ArityMismatchNamesTheSecondMap) {
  // The first map has one result; the second expects two dimensions.
  CliResult result = runIdxmap({"compose"},
                               "(d0) -> (d0),\ndomain:\nd0 in [0, 9]\n\n"
                               "(d0, d1) -> (d0 + d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 9]\n");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("<stdin>:5:1: error: ", 0), 0u) << result.err;
}

TEST(ComposeCli, NoMapsIsAnError) {
  CliResult result = runIdxmap({"compose"}, "\n");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_NE(result.err.find("no maps"), std::string::npos) << result.err;
}

// The files --help names exist, and the example runs.
TEST(ComposeCli, HelpExamplesNameFilesThatExist) {
  CliResult help = runIdxmap({"compose", "--help"});
  ASSERT_EQ(help.exitCode, 0);
  int named = 0;
  for (size_t at = help.out.find("examples/compose/"); at != std::string::npos;
       at = help.out.find("examples/compose/", at + 1)) {
    std::string path = help.out.substr(at, help.out.find_first_of(" \n\\", at) - at);
    if (path.find('*') != std::string::npos) continue;
    ++named;
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(IDXMAP_SOURCE_DIR) / path)) << path;
  }
  EXPECT_EQ(named, 2);
}

// A raw chain's text doubles at each reshape pair; past the cap it is refused, not printed.
TEST(ComposeCli, RawChainTooLargeToPrintIsRefused) {
  std::string pair = readTextFile(examplePath("compose/1_reshape_10x10x10_to_50x20.map")) + "\n" +
                     readTextFile(examplePath("compose/2_reshape_50x20_to_10x10x10.map")) + "\n";
  std::string chain;
  for (int i = 0; i < 12; ++i) chain += pair;
  CliResult raw = runIdxmap({"compose", "--no-simplify"}, chain);
  EXPECT_EQ(raw.exitCode, 2);
  EXPECT_EQ(raw.out, "");
  EXPECT_NE(raw.err.find("prints more than 1000000 expression nodes"), std::string::npos)
      << raw.err.substr(0, 500);
  // Simplified after each step, the same chain is the identity.
  CliResult simplified = runIdxmap({"compose"}, chain);
  EXPECT_EQ(simplified.exitCode, 0) << simplified.err;
  EXPECT_EQ(simplified.out.rfind("(d0, d1, d2) -> (d0, d1, d2),", 0), 0u) << simplified.out;
  // A short raw chain still prints.
  EXPECT_EQ(runIdxmap({"compose", "--no-simplify"}, pair + pair).exitCode, 0);
}

}  // namespace
}  // namespace idxmap::cli_test
