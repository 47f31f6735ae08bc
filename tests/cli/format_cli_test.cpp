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

// --style xla: `/` for floor division (read back to the same relation, proven by isl) and a
// KNOWN EMPTY map as those two words alone; the default keeps `floordiv` and the domain.
TEST(FormatCli, XlaStylePrintsAsCurrentXlaDoes) {
  std::string path = examplePath("spec004.map");
  CliResult xla = runIdxmap({"simplify", "--style", "xla", path});
  ASSERT_EQ(xla.exitCode, 0) << xla.err;
  EXPECT_EQ(xla.out.find("floordiv"), std::string::npos) << xla.out;
  std::vector<IndexingMap> inputs = parseFile(path);
  std::vector<ParsedMap> outputs = parseMaps(xla.out, "<stdout>");
  ASSERT_EQ(outputs.size(), inputs.size()) << xla.out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ProofResult equal = islEqual(inputs[i], outputs[i].map);
    EXPECT_TRUE(equal.isProven()) << outputs[i].text << equal.reason;
  }
  const std::string divides = "(d0) -> (d0 floordiv 4, d0 mod 4), domain: d0 in [0, 15]\n";
  EXPECT_EQ(runIdxmap({"simplify", "--style", "xla", "-"}, divides).out,
            "(d0) -> (d0 / 4, d0 mod 4),\ndomain:\nd0 in [0, 15]\n");
  EXPECT_EQ(runIdxmap({"simplify", "-"}, divides).out,
            "(d0) -> (d0 floordiv 4, d0 mod 4),\ndomain:\nd0 in [0, 15]\n");
  const std::string empty = "(d0) -> (d0), domain: d0 in [10, 0]\n";
  EXPECT_EQ(runIdxmap({"simplify", "--style", "xla", "-"}, empty).out, "KNOWN EMPTY\n");
  EXPECT_NE(runIdxmap({"simplify", "-"}, empty).out.find("d0 in [0, -1],\nKNOWN EMPTY"),
            std::string::npos);
  CliResult analyze = runIdxmap({"analyze", "--style", "xla", "-"}, R"(HloModule m
ENTRY e {
  p0 = f32[16,4] parameter(0)
  ROOT r = f32[64] reshape(p0)
})");
  EXPECT_EQ(analyze.out, "operand id = 0 (d0) -> (d0 / 4, d0 mod 4),\ndomain:\nd0 in [0, 63]\n");
  CliResult bad = runIdxmap({"simplify", "--style", "mlir", "-"}, divides);
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("--style"), std::string::npos) << bad.err;
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
