// `idxmap simplify` on the bundled examples, stdin and several inputs.
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

TEST(SimplifyCli, ReshapeRoundTripBecomesTheIdentity) {
  CliResult result = runIdxmap({"simplify", examplePath("reshape_roundtrip.map")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out,
            "(d0, d1, d2) -> (d0, d1, d2),\n"
            "domain:\n"
            "d0 in [0, 9],\n"
            "d1 in [0, 9],\n"
            "d2 in [0, 9]\n");
  EXPECT_EQ(result.err, "");
}

TEST(SimplifyCli, Spec004ExamplesKeepTheirMeaning) {
  std::string path = examplePath("spec004.map");
  CliResult result = runIdxmap({"simplify", path});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> inputs = parseFile(path);
  std::vector<IndexingMap> outputs = parseAll(result.out);
  ASSERT_EQ(outputs.size(), 4u) << result.out;
  for (size_t i = 0; i < outputs.size(); ++i) EXPECT_TRUE(sameMeaning(inputs[i], outputs[i]));
  // Three of spec 004's examples simplify to the identity on their dimensions.
  EXPECT_EQ(printExpr(outputs[0].results[0]), "d0");
  EXPECT_EQ(printExpr(outputs[0].results[1]), "d1");
  EXPECT_EQ(printExpr(outputs[1].results[0]), "d0");
  EXPECT_EQ(printExpr(outputs[1].results[1]), "d1");
  EXPECT_EQ(printExpr(outputs[1].results[2]), "d2");
  EXPECT_EQ(printExpr(outputs[3].results[0]), "d0");
}

TEST(SimplifyCli, ReadsStdinWhenNoFileIsGiven) {
  CliResult result = runIdxmap({"simplify"}, "(d0) -> (d0 mod 16),\ndomain:\nd0 in [0, 9]\n");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "(d0) -> (d0),\ndomain:\nd0 in [0, 9]\n");
}

TEST(SimplifyCli, DashMeansStdinAmongFiles) {
  std::string path = examplePath("reshape_roundtrip.map");
  CliResult result =
      runIdxmap({"simplify", "-", path}, "(d0) -> (d0 floordiv 10),\ndomain:\nd0 in [0, 9]\n");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> outputs = parseAll(result.out);
  ASSERT_EQ(outputs.size(), 2u) << result.out;
  EXPECT_EQ(printExpr(outputs[0].results[0]), "0");
  EXPECT_TRUE(sameMeaning(outputs[1], parseFile(path)[0]));
}

TEST(SimplifyCli, SeveralFilesKeepOrderAndBlankLineSeparation) {
  std::vector<std::string> paths = {examplePath("spec004.map"), examplePath("tiling.map")};
  CliResult result = runIdxmap({"simplify", paths[0], paths[1]});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> inputs = parseFile(paths[0]);
  for (IndexingMap& map : parseFile(paths[1])) inputs.push_back(std::move(map));
  std::vector<IndexingMap> outputs = parseAll(result.out);
  ASSERT_EQ(outputs.size(), inputs.size()) << result.out;
  for (size_t i = 0; i < inputs.size(); ++i) EXPECT_TRUE(sameMeaning(inputs[i], outputs[i]));
  // Exactly one blank line between maps, none after the last.
  EXPECT_EQ(result.out.find("\n\n\n"), std::string::npos);
  EXPECT_NE(result.out.find("\n\n"), std::string::npos);
  EXPECT_TRUE(result.out.ends_with("\n") && !result.out.ends_with("\n\n"));
}

TEST(SimplifyCli, KeepsCustomVariableNames) {
  std::string path = examplePath("tiling.map");
  CliResult result = runIdxmap({"simplify", path});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.out.find("th_x in [0, 127]"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("bl_x in [0, 63]"), std::string::npos) << result.out;
}

TEST(SimplifyCli, EmptyInputPrintsNothing) {
  CliResult result = runIdxmap({"simplify"}, "");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "");
  CliResult json = runIdxmap({"simplify", "--json"}, "\n\n");
  EXPECT_EQ(json.exitCode, 0) << json.err;
  EXPECT_EQ(json.out, "[]\n");
}

TEST(SimplifyCli, CheckCertifiesEveryExample) {
  for (std::string name : {"reshape_roundtrip.map", "spec004.map", "tiling.map"}) {
    CliResult result = runIdxmap({"simplify", "--check", examplePath(name)});
    EXPECT_EQ(result.exitCode, 0) << name << ": " << result.err;
    EXPECT_EQ(result.err, "") << name;
  }
}

}  // namespace
}  // namespace idxmap::cli_test
