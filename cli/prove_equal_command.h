// `idxmap prove-equal`: two StableHLO MLIR functions compared as data-movement programs
// (verify/replay/prove_equal.h): proven equal for every content of their arguments, refuted
// with argument values the interpreter replays, or unknown with the reason.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"

namespace idxmap::cli {

struct ProveEqualOptions {
  std::vector<std::string> files;  // one or two MLIR files
  std::string function;            // in the first file; default @main or its only function
  std::string other;               // in the second file (or the first); default: `function`
  unsigned timeoutMs = 20000;
  bool json = false;
};

CLI::App* addProveEqualCommand(CLI::App& app, ProveEqualOptions& options);
// Exit 0 proven, 1 refuted (the counterexample is printed), 2 bad input, 3 unknown.
ExitCode runProveEqual(const ProveEqualOptions& options, std::ostream& out,
                       std::ostream& diagnostics);

}  // namespace idxmap::cli
