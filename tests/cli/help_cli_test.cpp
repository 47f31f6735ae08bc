// --help and --version: exit 0, with examples a user can paste.
#include <string>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

TEST(HelpCli, ToolHelpListsCommandsExamplesAndExitCodes) {
  CliResult result = runIdxmap({"--help"});
  EXPECT_EQ(result.exitCode, 0);
  for (std::string expected : {"simplify", "compose", "Examples:", "Exit status"})
    EXPECT_NE(result.out.find(expected), std::string::npos) << expected << "\n" << result.out;
}

TEST(HelpCli, EachCommandHasExamples) {
  for (std::string command : {"simplify", "compose"}) {
    CliResult result = runIdxmap({command, "--help"});
    EXPECT_EQ(result.exitCode, 0) << command;
    EXPECT_NE(result.out.find("Examples:"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("idxmap " + command + " "), std::string::npos) << result.out;
    for (std::string option : {"--json", "--format", "--check"})
      EXPECT_NE(result.out.find(option), std::string::npos) << option << "\n" << result.out;
  }
}

TEST(HelpCli, VersionIsTheProjectVersion) {
  CliResult result = runIdxmap({"--version"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out.rfind("idxmap 0.", 0), 0u) << result.out;
}

// A mistyped command is named, with the commands there are; exit 2.
TEST(HelpCli, UnknownCommandIsNamed) {
  CliResult result = runIdxmap({"simplfy", "x.map"});
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_NE(result.err.find("unknown command 'simplfy' (the commands: simplify, compose"),
            std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace idxmap::cli_test
