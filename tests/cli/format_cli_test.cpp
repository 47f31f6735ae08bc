// --format isl prints isl's syntax for the same relation.
#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

TEST(FormatCli, IslOutputIsTheSameRelation) {
  std::string path = examplePath("spec004.map");
  CliResult result = runIdxmap({"simplify", "--format", "isl", path});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> inputs = parseFile(path);
  std::vector<ParsedMap> outputs = parseMaps(result.out, "<stdout>");
  ASSERT_EQ(outputs.size(), inputs.size()) << result.out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(outputs[i].syntax, MapSyntax::Isl) << outputs[i].text;
    ProofResult equal = islEqual(inputs[i], outputs[i].map);
    ASSERT_FALSE(equal.isUnknown()) << equal.reason;
    EXPECT_TRUE(equal.isProven()) << outputs[i].text;
  }
}

TEST(FormatCli, XlaIsTheDefault) {
  std::string path = examplePath("reshape_roundtrip.map");
  CliResult xla = runIdxmap({"simplify", "--format", "xla", path});
  CliResult byDefault = runIdxmap({"simplify", path});
  ASSERT_EQ(xla.exitCode, 0) << xla.err;
  EXPECT_EQ(xla.out, byDefault.out);
}

TEST(FormatCli, FormatNamesIgnoreCase) {
  std::string path = examplePath("reshape_roundtrip.map");
  CliResult upper = runIdxmap({"simplify", "--format", "ISL", path});
  CliResult lower = runIdxmap({"simplify", "--format", "isl", path});
  ASSERT_EQ(upper.exitCode, 0) << upper.err;
  EXPECT_EQ(upper.out, lower.out);
  EXPECT_EQ(upper.out.front(), '{') << upper.out;
}

TEST(FormatCli, UnknownFormatIsAUsageError) {
  CliResult result =
      runIdxmap({"simplify", "--format", "latex"}, "(d0) -> (d0), domain: d0 in [0, 1]");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("latex"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace idxmap::cli_test
