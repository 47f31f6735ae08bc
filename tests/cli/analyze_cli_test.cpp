// `idxmap analyze`, run as a user runs it: XLA's layout, JSON, unknown ops, diagnostics.
#include <nlohmann/json.hpp>

#include "ops/hlo/models/model.h"
#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

constexpr const char* kBroadcast = R"(HloModule m
ENTRY e {
  p0 = f32[20] parameter(0)
  ROOT bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
}
)";

// The text after each "operand id = K " prefix, parsed as maps.
std::vector<IndexingMap> mapsAfterPrefix(const std::string& text, const std::string& prefix) {
  std::string rest;
  size_t at = 0;
  while ((at = text.find(prefix, at)) != std::string::npos) {
    size_t end = text.find("\noperand id = ", at + prefix.size());
    rest += text.substr(at + prefix.size(),
                        end == std::string::npos ? std::string::npos : end - at - prefix.size()) +
            "\n";
    at += prefix.size();
  }
  return parseAll(rest);
}

TEST(AnalyzeCli, IssueExampleOutToIn) {
  std::filesystem::path dir = makeScratchDir();
  writeTextFile(dir / "bc.hlo", kBroadcast);
  CliResult result = runIdxmap({"analyze", (dir / "bc.hlo").string()});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out,
            "operand id = 0 (d0, d1, d2) -> (d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 19],\n"
            "d2 in [0, 29]\n");
  EXPECT_EQ(result.err, "");
}

TEST(AnalyzeCli, InToOutJsonFromStdin) {
  CliResult result =
      runIdxmap({"analyze", "--direction", "in-to-out", "--operand", "0", "--json"}, kBroadcast);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json records = nlohmann::json::parse(result.out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["input"], 0);   // the operand analyzed from
  EXPECT_EQ(records[0]["result"], 0);  // the result its maps reach
  EXPECT_FALSE(records[0].contains("operand"));
  EXPECT_EQ(records[0]["unknown"], false);
  ASSERT_EQ(records[0]["maps"].size(), 1u);
  EXPECT_TRUE(sameMeaning(
      parseIndexingMap(records[0]["maps"][0].get<std::string>()),
      parseIndexingMap(
          "(d0)[s0, s1] -> (s0, d0, s1), domain: d0 in [0, 19], s0 in [0, 9], s1 in [0, 29]")));
}

TEST(AnalyzeCli, FusionPrintsEveryDistinctMap) {
  if (!findOpModel("add") || !findOpModel("transpose")) GTEST_SKIP() << "models missing";
  CliResult result = runIdxmap({"analyze", "-"}, R"(HloModule m
f {
  p0 = f32[1000, 1000] parameter(0)
  transpose_p0 = f32[1000, 1000]{0, 1} transpose(p0), dimensions={1, 0}
  ROOT a0 = f32[1000, 1000] add(p0, transpose_p0)
}
ENTRY e {
  p0 = f32[1000, 1000] parameter(0)
  ROOT fusion = f32[1000, 1000] fusion(p0), kind=kLoop, calls=f
})");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> maps = mapsAfterPrefix(result.out, "operand id = 0 ");
  ASSERT_EQ(maps.size(), 2u) << result.out;
  IndexingMap identity =
      parseIndexingMap("(d0, d1) -> (d0, d1), domain: d0 in [0, 999], d1 in [0, 999]");
  IndexingMap swap =
      parseIndexingMap("(d0, d1) -> (d1, d0), domain: d0 in [0, 999], d1 in [0, 999]");
  bool firstIsIdentity = proveEquivalent(maps[0], identity).verdict == Verdict::Proven;
  EXPECT_TRUE(sameMeaning(maps[firstIsIdentity ? 0 : 1], identity));
  EXPECT_TRUE(sameMeaning(maps[firstIsIdentity ? 1 : 0], swap));

  // --instruction picks an instruction of a non-entry computation.
  CliResult inner = runIdxmap({"analyze", "--instruction", "transpose_p0", "--json"}, R"(HloModule m
f {
  p0 = f32[1000, 1000] parameter(0)
  transpose_p0 = f32[1000, 1000]{0, 1} transpose(p0), dimensions={1, 0}
  ROOT a0 = f32[1000, 1000] add(p0, transpose_p0)
}
ENTRY e {
  p0 = f32[1000, 1000] parameter(0)
  ROOT fusion = f32[1000, 1000] fusion(p0), kind=kLoop, calls=f
})");
  ASSERT_EQ(inner.exitCode, 0) << inner.err;
  nlohmann::json records = nlohmann::json::parse(inner.out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_TRUE(sameMeaning(parseIndexingMap(records[0]["maps"][0].get<std::string>()), swap));
}

TEST(AnalyzeCli, UnknownOpIsReportedAndNothingAborts) {
  CliResult result = runIdxmap({"analyze"}, R"(HloModule m
ENTRY e {
  p1 = f32[4,4] parameter(0)
  p2 = f32[4,3] parameter(1)
  ROOT out = f32[4,3] triangular-solve(f32[4,4] p1, f32[4,3] p2), left_side=true
})");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "operand id = 0 unknown indexing\n\noperand id = 1 unknown indexing\n");
  EXPECT_EQ(result.err,
            "<stdin>:5:23: note: no indexing model for opcode 'triangular-solve'; its indexing is "
            "unknown (in 'out')\n");

  CliResult json = runIdxmap({"analyze", "--json", "--operand", "1"}, R"(HloModule m
ENTRY e {
  p1 = f32[4,4] parameter(0)
  p2 = f32[4,3] parameter(1)
  ROOT out = f32[4,3] triangular-solve(p1, p2), left_side=true
})");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out),
            nlohmann::json::parse(R"([{"operand": 1, "maps": [], "unknown": true}])"));
}

TEST(AnalyzeCli, MalformedModuleIsExit2WithLocatedDiagnostic) {
  CliResult result =
      runIdxmap({"analyze"}, "HloModule m\nENTRY e {\n  ROOT a = f32[2] add(p0)\n}\n");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "<stdin>:3:23: error: unknown operand 'p0' in 'a' (operands must be defined earlier "
            "in 'e')\n  ROOT a = f32[2] add(p0)\n                      ^\n");
}

TEST(AnalyzeCli, InvalidAttributeIsExit2WithTheSourceLine) {
  CliResult result = runIdxmap({"analyze"}, R"(HloModule m
ENTRY e {
  p0 = f32[20] parameter(0)
  ROOT t = f32[20] transpose(p0), dimensions={1}
})");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  // The op model locates the error; the command adds the line and the caret.
  EXPECT_NE(result.err.find("<stdin>:4:"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("\n  ROOT t = f32[20] transpose(p0), dimensions={1}\n"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find('^'), std::string::npos) << result.err;
}

TEST(AnalyzeCli, UsageErrorsAreExit2) {
  std::filesystem::path dir = makeScratchDir();
  writeTextFile(dir / "bc.hlo", kBroadcast);
  std::string file = (dir / "bc.hlo").string();

  CliResult direction = runIdxmap({"analyze", file, "--direction", "sideways"});
  EXPECT_EQ(direction.exitCode, 2);
  EXPECT_NE(direction.err.find("sideways"), std::string::npos);

  CliResult operand = runIdxmap({"analyze", file, "--operand", "3"});
  EXPECT_EQ(operand.exitCode, 2);
  EXPECT_EQ(operand.err, file + ": error: --operand 3 is out of range: 'bc0' has 1 operands\n");

  CliResult name = runIdxmap({"analyze", file, "--instruction", "nope"});
  EXPECT_EQ(name.exitCode, 2);
  EXPECT_EQ(name.err, file + ": error: no instruction 'nope' in module 'm'\n");

  CliResult missing = runIdxmap({"analyze", (dir / "absent.hlo").string()});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("cannot read"), std::string::npos);
}

TEST(AnalyzeCli, HelpShowsAnExample) {
  CliResult result = runIdxmap({"analyze", "--help"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_NE(result.out.find("idxmap analyze bc.hlo --direction in-to-out --operand 0 --json"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("--instruction"), std::string::npos);
}

}  // namespace
}  // namespace idxmap::cli_test

namespace idxmap::cli_test {
namespace {

// The bundled softmax fusion: parameter 0 is read elementwise and along its whole row
// (spec 004, "Softmax").
TEST(AnalyzeCli, BundledSoftmaxExample) {
  CliResult result = runIdxmap({"analyze", examplePath("softmax.hlo")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::vector<IndexingMap> maps = mapsAfterPrefix(result.out, "operand id = 0 ");
  ASSERT_EQ(maps.size(), 2u) << result.out;
  IndexingMap elementwise = parseIndexingMap(
      "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 1], d1 in [0, 64], d2 in [0, 124]");
  IndexingMap row = parseIndexingMap(
      "(d0, d1, d2)[s0] -> (d0, d1, s0), domain: d0 in [0, 1], d1 in [0, 64], d2 in [0, 124],"
      " s0 in [0, 124]");
  EXPECT_TRUE((sameMeaning(maps[0], elementwise) && sameMeaning(maps[1], row)) ||
              (sameMeaning(maps[0], row) && sameMeaning(maps[1], elementwise)))
      << result.out;
}

// --style xla end to end: the transpose keeps its point dimension, the dynamic-slice start
// that stays a variable says what it stands for (text and --json); the default style prints
// neither, so each printed map still reads back as one map.
TEST(AnalyzeCli, XlaStyleKeepsPointDimsAndNamesRuntimeVariables) {
  const std::string module = R"(HloModule m
ENTRY e {
  p0 = f32[2,64] parameter(0)
  of = s32[] parameter(1)
  c = s32[] constant(3)
  ds = f32[1,32] dynamic-slice(p0, of, c), dynamic_slice_sizes={1,32}
  ROOT t = f32[32,1] transpose(ds), dimensions={1,0}
}
)";
  CliResult transpose = runIdxmap({"analyze", "--style", "xla", "-"}, module);
  ASSERT_EQ(transpose.exitCode, 0) << transpose.err;
  EXPECT_NE(transpose.out.find("(d0, d1) -> (d1, d0)"), std::string::npos) << transpose.out;
  CliResult slice = runIdxmap({"analyze", "--style", "xla", "--instruction", "ds", "-"}, module);
  ASSERT_EQ(slice.exitCode, 0) << slice.err;
  EXPECT_NE(slice.out.find("(d0, d1){rt0} -> (rt0, d1 + 3)"), std::string::npos) << slice.out;
  EXPECT_NE(slice.out.find("runtime variables:\n\nrt0: parameter(1); (d0, d1) -> ()"),
            std::string::npos)
      << slice.out;
  CliResult plain = runIdxmap({"analyze", "--instruction", "ds", "-"}, module);
  EXPECT_EQ(plain.out.find("runtime variables"), std::string::npos) << plain.out;
  CliResult json = runIdxmap({"analyze", "--json", "--instruction", "ds", "-"}, module);
  ASSERT_EQ(json.exitCode, 0) << json.err;
  nlohmann::json records = nlohmann::json::parse(json.out);
  const nlohmann::json& rt0 = records.at(0).at("runtime_variables").at(0).at(0);
  EXPECT_EQ(rt0.at("name"), "rt0");
  EXPECT_EQ(rt0.at("source"), "parameter(1)");
  EXPECT_EQ(rt0.at("index"), "(d0, d1) -> (),\ndomain:\nd0 in [0, 0],\nd1 in [0, 31]");
}

}  // namespace
}  // namespace idxmap::cli_test
