// Several modules per run: --split-input-file sections and several files, for analyze and
// verify. The oracle is each section written to a file of its own and run alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace units_cli_test {
namespace {

const char* kTranspose = R"(HloModule a
ENTRY main {
  p0 = f32[10,20] parameter(0)
  ROOT t = f32[20,10] transpose(p0), dimensions={1,0}
}
)";
const char* kBroadcast = R"(ENTRY main {
  p0 = f32[4] parameter(0)
  ROOT b = f32[4,5] broadcast(p0), dimensions={0}
}
)";
const char* kBad = R"(HloModule bad
ENTRY main {
  p0 = f32[4] parameter(0)
  ROOT b = f32[4,5] broadcast(p0), dimensions={7}
}
)";

std::filesystem::path write(const std::filesystem::path& dir, const std::string& name,
                            const std::string& text) {
  writeTextFile(dir / name, text);
  return dir / name;
}

TEST(UnitsCli, SplitSectionsAnalyzeAsSeparateFiles) {
  std::filesystem::path dir = makeScratchDir();
  // A trailing marker and an empty section between two are not modules.
  std::string joined = std::string(kTranspose) +
                       "// -----\n\n// a comment\n// -----\nHloModule b\n" + kBroadcast +
                       "// -----\n";
  std::string both = write(dir, "both.hlo", joined).string();
  CliResult split = runIdxmap({"analyze", "--split-input-file", both});
  ASSERT_EQ(split.exitCode, 0) << split.err;
  CliResult first = runIdxmap({"analyze", write(dir, "first.hlo", kTranspose).string()});
  CliResult second = runIdxmap(
      {"analyze", write(dir, "second.hlo", std::string("HloModule b\n") + kBroadcast).string()});
  EXPECT_EQ(split.out, first.out + "// -----\n" + second.out);

  // Without the option, the second module is a located error that names the option.
  CliResult whole = runIdxmap({"analyze", both});
  EXPECT_EQ(whole.exitCode, 2);
  EXPECT_EQ(whole.err.rfind(both + ":10:1: error: a second module starts here", 0), 0u)
      << whole.err;
  EXPECT_NE(whole.err.find("--split-input-file"), std::string::npos);
}

// A bad section is reported at its line in the file, the others still run, the status is 2.
TEST(UnitsCli, ABadSectionDoesNotStopTheOthers) {
  std::filesystem::path dir = makeScratchDir();
  std::string text = std::string(kTranspose) + "// -----\n" + kBad + "// -----\n" + kBroadcast;
  std::string path = write(dir, "three.hlo", text).string();
  CliResult result = runIdxmap({"verify", "--split-input-file", path});
  EXPECT_EQ(result.exitCode, 2);
  std::vector<std::string> lines = diagnosticLines(result.err);
  ASSERT_EQ(lines.size(), 4u) << result.err;
  EXPECT_EQ(lines[0], path + ":1: 2 ops verified, all valid");
  EXPECT_EQ(lines[1].rfind(path + ":10:", 0), 0u) << lines[1];  // kBad's broadcast: 4 + 6
  EXPECT_EQ(lines[2], path + ":7: 2 ops verified, 1 invalid (1 violation)");
  EXPECT_EQ(lines[3], path + ":13: 2 ops verified, all valid");

  CliResult json = runIdxmap({"analyze", "--json", "--split-input-file", path});
  EXPECT_EQ(json.exitCode, 2);
  nlohmann::json records = nlohmann::json::parse(json.out);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]["line"], 1);
  EXPECT_EQ(records[0]["exit"], 0);
  EXPECT_EQ(records[0]["output"][0]["maps"].size(), 1u);
  EXPECT_EQ(records[1]["line"], 7);
  EXPECT_EQ(records[1]["exit"], 2);
  EXPECT_TRUE(records[1]["output"].is_null());
  EXPECT_EQ(records[2]["file"], path);
  EXPECT_EQ(records[2]["line"], 13);
  EXPECT_EQ(records[2]["exit"], 0);
}

TEST(UnitsCli, SeveralFilesAndMlirSections) {
  std::filesystem::path dir = makeScratchDir();
  std::string a = write(dir, "a.hlo", kTranspose).string();
  std::string b = write(dir, "b.hlo", kBroadcast).string();
  CliResult both = runIdxmap({"analyze", a, b});
  ASSERT_EQ(both.exitCode, 0) << both.err;
  EXPECT_EQ(both.out, runIdxmap({"analyze", a}).out + "// -----\n" + runIdxmap({"analyze", b}).out);

  // MLIR sections: the bundled invalid gather next to a valid one; each verified alone.
  std::string bad = readTextFile(examplePath("bad_gather.mlir"));
  std::string good = readTextFile(examplePath("gather.mlir"));
  std::string path = write(dir, "two.mlir", good + "\n// -----\n" + bad).string();
  CliResult split = runIdxmap({"verify", "--split-input-file", path});
  EXPECT_EQ(split.exitCode, 2);
  CliResult alone = runIdxmap({"verify", examplePath("bad_gather.mlir")});
  int offset = static_cast<int>(linesOf(good + "\n// -----\n").size());
  // The bad op's line moves by the lines before its section, nothing else changes.
  std::string expected = alone.err.substr(alone.err.find(':') + 1);
  int line = std::stoi(expected);
  expected = std::to_string(line + offset) + expected.substr(expected.find(':'));
  EXPECT_NE(split.err.find(path + ":" + expected.substr(0, expected.find('\n'))), std::string::npos)
      << split.err << "\nwanted line " << line + offset;
}

// run: each section's checks on their own; one that fails to run is reported, the others run.
TEST(UnitsCli, RunEachSection) {
  std::filesystem::path dir = makeScratchDir();
  std::string spec = readTextFile(examplePath("spec_example.mlir"));
  std::string path = write(dir, "runs.mlir",
                           spec + "// -----\nfunc.func @main() {\n  func.return\n}\n// -----\n" +
                               "func.func @main() {\n  %0 = stablehlo.frobnicate\n}\n")
                         .string();
  CliResult result = runIdxmap({"run", "--split-input-file", path});
  EXPECT_EQ(result.exitCode, 2);  // the third section is malformed
  CliResult alone = runIdxmap({"run", examplePath("spec_example.mlir")});
  ASSERT_EQ(alone.exitCode, 0) << alone.err;
  EXPECT_EQ(result.out, alone.out + "// -----\n0 checks passed\n// -----\n");
  EXPECT_NE(result.err.find(path + ":" + std::to_string(linesOf(spec).size() + 2) +
                            ": note: no check ops ran"),
            std::string::npos)
      << result.err;
}

// As MLIR's splitter, a marker inside a comment line splits (`// // -----`, a commented-out
// test in StableHLO's files); one after code on its line does not cut the code.
TEST(UnitsCli, MarkerInsideACommentLineSplits) {
  std::string one =
      "func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<i64>\n"
      "  check.expect_eq_const %a, dense<1> : tensor<i64>\n  func.return\n}\n";
  CliResult result = runIdxmap({"run", "--split-input-file", "-"},
                               one + "// // -----\n" + one + "  // ----- (indented)\n" + one);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "1 check passed\n// -----\n1 check passed\n// -----\n1 check passed\n");
  CliResult code = runIdxmap({"run", "--split-input-file", "-"},
                             "func.func @main() { // -----\n  func.return\n}\n");
  EXPECT_EQ(code.exitCode, 0) << code.err;
  EXPECT_EQ(code.out, "0 checks passed\n");
}

// Every file of the StableHLO-syntax corpus is read (verify) and its checks pass (run);
// complex values are read, but no evaluator computes with them.
TEST(UnitsCli, StableHloSyntaxCorpusRuns) {
  std::filesystem::path corpus =
      std::filesystem::path(IDXMAP_SOURCE_DIR) / "tests/data/stablehlo_syntax";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".mlir") continue;
    ++files;
    std::string path = entry.path().string();
    CliResult verify = runIdxmap({"verify", "--split-input-file", path});
    EXPECT_EQ(verify.exitCode, 0) << path << "\n" << verify.err;
    EXPECT_EQ(verify.err.find("error"), std::string::npos) << path << "\n" << verify.err;
    std::vector<std::string> args = {"run", "--split-input-file", path};
    std::filesystem::path values = entry.path();
    values.replace_extension(".args");
    if (std::filesystem::exists(values))
      args.insert(args.begin() + 1, {"--inputs", values.string()});
    CliResult run = runIdxmap(args);
    if (entry.path().filename() == "complex_values.mlir") {
      EXPECT_EQ(run.exitCode, 2);
      EXPECT_NE(run.err.find("element type complex<f32> is not supported"), std::string::npos)
          << run.err;
      continue;
    }
    EXPECT_EQ(run.exitCode, 0) << path << "\n" << run.out << run.err;
    EXPECT_EQ(run.out.find("failed"), std::string::npos) << path << "\n" << run.out;
  }
  EXPECT_GE(files, 8);
}

TEST(UnitsCli, OutputPicksAResultOfATuple) {
  std::filesystem::path dir = makeScratchDir();
  std::string path = write(dir, "tuple.hlo", R"(HloModule m
ENTRY main {
  p0 = f32[10,20] parameter(0)
  p1 = f32[5] parameter(1)
  t0 = f32[20,10] transpose(p0), dimensions={1,0}
  ROOT t = (f32[20,10], f32[5]) tuple(t0, p1)
}
)")
                         .string();
  // Result 1 of the tuple is p1 itself: the only operand it reads, element for element.
  CliResult second = runIdxmap({"analyze", "--output", "1", path});
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.out, "operand id = 1 (d0) -> (d0),\ndomain:\nd0 in [0, 4]\n");
  EXPECT_NE(second.err.find("'t' has 2 results"), std::string::npos) << second.err;
  CliResult first = runIdxmap({"analyze", path});
  EXPECT_EQ(first.out.find("operand id = 1"), std::string::npos) << first.out;  // not read
  EXPECT_EQ(first.out.rfind("operand id = 0 (d0, d1) -> (d0, d1)", 0), 0u) << first.out;

  CliResult outOfRange = runIdxmap({"analyze", "--output", "2", path});
  EXPECT_EQ(outOfRange.exitCode, 2);
  EXPECT_NE(outOfRange.err.find("--output 2 is out of range: 't' has 2 results"), std::string::npos)
      << outOfRange.err;
  CliResult empty = runIdxmap(
      {"analyze"}, "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT t = () tuple()\n}\n");
  EXPECT_EQ(empty.exitCode, 0) << empty.err;
  EXPECT_EQ(empty.out, "");
  EXPECT_EQ(empty.err, "<stdin>:4:15: note: 't' has no results (an empty tuple)\n");
}

// Every file of the corpus written in XLA's syntax (tests/data/xla_syntax) is read: analyze
// and verify succeed on each section, and what they cannot model is named, not skipped.
TEST(UnitsCli, XlaSyntaxCorpusIsRead) {
  std::filesystem::path corpus = std::filesystem::path(IDXMAP_SOURCE_DIR) / "tests/data/xla_syntax";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".hlo") continue;
    ++files;
    std::string path = entry.path().string();
    CliResult analyze = runIdxmap({"analyze", "--split-input-file", path});
    EXPECT_EQ(analyze.exitCode, 0) << path << "\n" << analyze.err;
    EXPECT_EQ(analyze.err.find("error"), std::string::npos) << path << "\n" << analyze.err;
    CliResult verify = runIdxmap({"verify", "--split-input-file", path});
    EXPECT_EQ(verify.exitCode, 0) << path << "\n" << verify.err;
    EXPECT_NE(verify.err.find("verified, all valid"), std::string::npos) << path << verify.err;
  }
  EXPECT_GE(files, 16);
}

}  // namespace
}  // namespace units_cli_test
}  // namespace idxmap::cli_test
