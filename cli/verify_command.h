// `idxmap verify`: every op's constraints and types in a StableHLO MLIR or HLO file.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

#include "cli/exit_code.h"

namespace idxmap::cli {

struct VerifyOptions {
  std::string input = "-";  // an MLIR or HLO file; "-" reads stdin
  bool json = false;
};

CLI::App* addVerifyCommand(CLI::App& app, VerifyOptions& options);
// kSuccess when every checked op is valid, kInvalidInput when any is (or the text is
// malformed: the reader's ParseError propagates).
ExitCode runVerify(const VerifyOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
