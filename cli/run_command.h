// `idxmap run`: evaluates a StableHLO MLIR file (ops/interp/interpreter.h) and executes its
// check.* ops.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"
#include "ops/interp/interpreter.h"

namespace idxmap::cli {

struct RunOptions {
  std::vector<std::string> inputs;  // MLIR files; "-" or none reads stdin
  bool splitInputFile = false;      // each `// -----` section of a file on its own
  std::string engine =
      "reference";             // "maps", "kernel" or "cuda": how gather / scatter are computed
  int threads = 0;             // --engine kernel: OpenMP threads (0: the default)
  bool deterministic = false;  // --engine cuda: no atomics
  bool json = false;
  std::string valuesFile;     // --inputs: `[dense<..> : tensor<..>, ...]` for @main's arguments
  std::string args;           // --args: the same list inline, or `@FILE`
  bool printResults = false;  // print @main's results (always with --inputs / --args)
  int64_t maxIterations = mlir_interpreter::kDefaultMaxWhileIterations;  // a while loop's limit
};

CLI::App* addRunCommand(CLI::App& app, RunOptions& options);
// Exit 0 when every check passes (or there are none), 1 when one fails, 2 on bad input.
ExitCode runRun(const RunOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
