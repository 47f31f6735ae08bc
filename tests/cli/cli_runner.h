// Runs the built idxmap binary (IDXMAP_CLI_PATH) the way a user would, capturing its exit
// status, stdout and stderr; helpers to compare maps by meaning.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/text.h"
#include "tests/support/scratch.h"
#include "verify/equivalence.h"

extern char** environ;

namespace idxmap::cli_test {

struct CliResult {
  int exitCode = -1;  // 128 + signal when the process was killed by one
  std::string out;
  std::string err;
};

inline std::string readTextFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

inline void writeTextFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A fresh directory per call, removed when the test process exits.
inline std::filesystem::path makeScratchDir() { return scratch::directory("idxmap_cli"); }

// The lines of `text`, without their newlines.
inline std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of a diagnostic stream without the source line and caret under each error, for
// tests about which diagnostics are printed rather than how they are shown.
inline std::vector<std::string> diagnosticLines(const std::string& text) {
  std::vector<std::string> all = linesOf(text), kept;
  for (size_t i = 0; i < all.size(); ++i) {
    kept.push_back(all[i]);
    bool caretFollows = i + 2 < all.size() &&
                        all[i + 2].find_first_not_of(' ') != std::string::npos &&
                        all[i + 2].find_first_not_of(" ^") == std::string::npos;
    if (all[i].find(": error: ") != std::string::npos && caretFollows) i += 2;
  }
  return kept;
}

inline std::string examplePath(const std::string& name) {
  return (std::filesystem::path(IDXMAP_SOURCE_DIR) / "examples" / name).string();
}

// Runs `idxmap args...` with `stdinText` on stdin (empty when not given: never a terminal, so
// a test cannot hang waiting for input). Output goes through files, not pipes, so a chatty
// child cannot deadlock against the parent.
inline CliResult runIdxmap(const std::vector<std::string>& args,
                           const std::string& stdinText = "") {
  std::filesystem::path dir = makeScratchDir();
  std::string inPath = dir / "stdin", outPath = dir / "stdout", errPath = dir / "stderr";
  writeTextFile(inPath, stdinText);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, inPath.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::vector<std::string> argvStorage = {IDXMAP_CLI_PATH};
  argvStorage.insert(argvStorage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argvStorage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  CliResult result;
  pid_t pid;
  int spawnError = posix_spawn(&pid, IDXMAP_CLI_PATH, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawnError != 0) {
    ADD_FAILURE() << "cannot run " << IDXMAP_CLI_PATH << ": " << std::strerror(spawnError);
    return result;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = readTextFile(outPath);
  result.err = readTextFile(errPath);
  std::filesystem::remove_all(dir);
  return result;
}

inline std::vector<IndexingMap> parseAll(const std::string& text) {
  std::vector<IndexingMap> maps;
  for (ParsedMap& parsed : parseMaps(text, "<test>")) maps.push_back(std::move(parsed.map));
  return maps;
}

inline std::vector<IndexingMap> parseFile(const std::string& path) {
  return parseAll(readTextFile(path));
}

// Whether `a` and `b` denote the same relation, with the prover's explanation on failure.
inline testing::AssertionResult sameMeaning(const IndexingMap& a, const IndexingMap& b) {
  ProofResult proof = proveEquivalent(a, b);
  if (proof.verdict == Verdict::Proven) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << printIndexingMap(a) << "\nand\n"
         << printIndexingMap(b) << "\nare not proven equal: "
         << (proof.counterexample ? proof.counterexample->explanation : proof.reason);
}

}  // namespace idxmap::cli_test
