// Bad input and bad usage: a diagnostic on stderr and exit 2, never a crash and never
// partial output.
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

// Checks the compiler-style diagnostic: `file:line:col: error: ...`, then the source line,
// then a caret under column `col` of that line.
void expectLocatedDiagnostic(const std::string& err, const std::string& file, int line,
                             const std::string& sourceLine) {
  std::smatch match;
  ASSERT_TRUE(std::regex_search(err, match, std::regex("^(.*):([0-9]+):([0-9]+): error: .+")))
      << err;
  EXPECT_EQ(match[1].str(), file);
  EXPECT_EQ(std::stoi(match[2].str()), line);
  int column = std::stoi(match[3].str());
  ASSERT_GE(column, 1);
  ASSERT_LE(column, static_cast<int>(sourceLine.size()) + 1);

  std::istringstream lines(err);
  std::string text, echoed, caret;
  std::getline(lines, text);
  std::getline(lines, echoed);
  std::getline(lines, caret);
  size_t indent = echoed.find(sourceLine);
  ASSERT_NE(indent, std::string::npos) << "the source line is not shown:\n" << err;
  EXPECT_EQ(caret.find('^'), indent + column - 1) << err;
}

TEST(ErrorsCli, DivisionByZeroPointsAtTheDivisor) {
  std::string source = "(d0) -> (d0 floordiv 0)";
  CliResult result = runIdxmap({"simplify"}, source + "\n");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  expectLocatedDiagnostic(result.err, "<stdin>", 1, source);
}

TEST(ErrorsCli, ParseErrorInALaterMapOfAFileNamesItsLine) {
  std::filesystem::path dir = makeScratchDir();
  std::string path = dir / "maps.txt";
  std::string bad = "(d0) -> (d0 +* 2),";
  writeTextFile(path,
                "(d0) -> (d0),\ndomain:\nd0 in [0, 3]\n\n" + bad + "\ndomain:\nd0 in [0, 3]\n");
  CliResult result = runIdxmap({"simplify", path});
  EXPECT_EQ(result.exitCode, 2);
  // The good map is still simplified; the bad one is reported at its line.
  EXPECT_EQ(result.out, "(d0) -> (d0),\ndomain:\nd0 in [0, 3]\n");
  expectLocatedDiagnostic(result.err, path, 5, bad);
  CliResult json = runIdxmap({"simplify", "--json", path});
  EXPECT_EQ(json.exitCode, 2);
  nlohmann::json records = nlohmann::json::parse(json.out);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["output"], "(d0) -> (d0),\ndomain:\nd0 in [0, 3]");
  EXPECT_EQ(records[1]["input"], bad + "\ndomain:\nd0 in [0, 3]");
  EXPECT_EQ(records[1]["error"].get<std::string>().rfind(path + ":5:", 0), 0u) << json.out;
  std::filesystem::remove_all(dir);
}

TEST(ErrorsCli, OverflowingConstantIsADiagnostic) {
  CliResult result = runIdxmap({"simplify"}, "(d0) -> (d0 * 99999999999999999999999)\n");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_NE(result.err.find("<stdin>:1:"), std::string::npos) << result.err;
}

TEST(ErrorsCli, MissingFileIsExit2WithItsName) {
  CliResult result = runIdxmap({"simplify", "/nonexistent/idxmap/maps.txt"});
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("/nonexistent/idxmap/maps.txt: error: ", 0), 0u) << result.err;
}

TEST(ErrorsCli, DirectoryIsNotAnInput) {
  std::filesystem::path dir = makeScratchDir();
  CliResult result = runIdxmap({"compose", dir.string()});
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_NE(result.err.find(dir.string() + ": error: "), std::string::npos) << result.err;
  std::filesystem::remove_all(dir);
}

TEST(ErrorsCli, GarbageAndDeepNestingAreDiagnosticsNotCrashes) {
  std::string garbage("\x00\xff\x01(((->", 9);
  CliResult result = runIdxmap({"simplify"}, garbage);
  EXPECT_EQ(result.exitCode, 2) << result.err;
  EXPECT_FALSE(result.err.empty());

  std::string deep = "(d0) -> (" + std::string(20000, '(') + "d0" + std::string(20000, ')') +
                     "), domain: d0 in [0, 1]";
  CliResult nested = runIdxmap({"simplify"}, deep);
  EXPECT_TRUE(nested.exitCode == 0 || nested.exitCode == 2) << "exit " << nested.exitCode << "\n"
                                                            << nested.err.substr(0, 2000);
}

TEST(ErrorsCli, UsageErrorsExit2) {
  EXPECT_EQ(runIdxmap({}).exitCode, 2) << "a subcommand is required";
  EXPECT_EQ(runIdxmap({"frobnicate"}).exitCode, 2);
  EXPECT_EQ(runIdxmap({"simplify", "--no-such-flag"}).exitCode, 2);
  // A bad time limit says what is accepted, in milliseconds (not CLI11's double range).
  for (const char* bad : {"0", "abc", "-5", "99999999999999", "86400001"}) {
    CliResult timeout = runIdxmap({"simplify", "--timeout-ms", bad});
    EXPECT_EQ(timeout.exitCode, 2) << bad;
    EXPECT_EQ(timeout.err.rfind("--timeout-ms: expected a whole number of milliseconds from 1 to "
                                "86400000 (a day), got '" +
                                    std::string(bad) + "'",
                                0),
              0u)
        << timeout.err;
  }
  EXPECT_EQ(
      runIdxmap({"simplify", "--timeout-ms", "86400000"}, "(d0) -> (d0), domain: d0 in [0, 1]")
          .exitCode,
      0);
  CliResult exclusive = runIdxmap({"compose", "--check", "--no-simplify"});
  EXPECT_EQ(exclusive.exitCode, 2);
  EXPECT_NE(exclusive.err.find("--no-simplify"), std::string::npos) << exclusive.err;
}

}  // namespace
}  // namespace idxmap::cli_test
