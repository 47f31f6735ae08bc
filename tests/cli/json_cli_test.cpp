// --json: one record per map, {"input", "output", "certified"}, and with --check the verdict.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

using nlohmann::json;

TEST(JsonCli, OneRecordPerMapWithInputAsWritten) {
  std::string path = examplePath("spec004.map");
  CliResult result = runIdxmap({"simplify", "--json", path});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  json records = json::parse(result.out);
  std::vector<ParsedMap> inputs = parseMaps(readTextFile(path), path);
  ASSERT_TRUE(records.is_array());
  ASSERT_EQ(records.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const json& record = records[i];
    EXPECT_EQ(record.at("input"), inputs[i].text);
    EXPECT_EQ(record.at("certified"), false) << "no --check, no certificate";
    EXPECT_FALSE(record.contains("verdict"));
    std::vector<IndexingMap> output = parseAll(record.at("output").get<std::string>());
    ASSERT_EQ(output.size(), 1u);
    EXPECT_TRUE(sameMeaning(inputs[i].map, output[0]));
  }
}

TEST(JsonCli, CheckNamesTheProof) {
  CliResult result =
      runIdxmap({"simplify", "--json", "--check", examplePath("tiling.map"), "-"},
                "(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16),\ndomain:\nd0 in [0, 6],\n"
                "d1 in [0, 14]\n");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  json records = json::parse(result.out);
  ASSERT_EQ(records.size(), 4u);
  for (const json& record : records) {
    EXPECT_EQ(record.at("verdict"), "proven") << record.dump();
    ASSERT_TRUE(record.at("certified").is_string()) << record.dump();
    std::string method = record.at("certified");
    EXPECT_TRUE(method == "isl" || method == "z3") << method;
    EXPECT_FALSE(record.contains("counterexample"));
  }
  EXPECT_EQ(records[3].at("output"),
            "(d0, d1) -> (d0, d1),\ndomain:\nd0 in [0, 6],\nd1 in [0, 14]");
}

TEST(JsonCli, ComposeRecordListsItsInputs) {
  std::vector<std::string> paths = {examplePath("compose/1_reshape_10x10x10_to_50x20.map"),
                                    examplePath("compose/2_reshape_50x20_to_10x10x10.map")};
  CliResult result = runIdxmap({"compose", "--json", "--check", paths[0], paths[1]});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  json record = json::parse(result.out);
  ASSERT_TRUE(record.is_object());
  ASSERT_EQ(record.at("inputs").size(), 2u);
  EXPECT_EQ(record.at("inputs")[0], parseMaps(readTextFile(paths[0]), paths[0])[0].text);
  EXPECT_EQ(record.at("inputs")[1], parseMaps(readTextFile(paths[1]), paths[1])[0].text);
  EXPECT_EQ(record.at("verdict"), "proven");
  EXPECT_TRUE(record.at("certified").is_string());
  std::string output = record.at("output");
  EXPECT_EQ(output.substr(0, output.find('\n')), "(d0, d1, d2) -> (d0, d1, d2),");
}

}  // namespace
}  // namespace idxmap::cli_test
