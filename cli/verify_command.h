// `idxmap verify`: every op's constraints and types in a StableHLO MLIR or HLO file.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"

namespace idxmap::cli {

struct VerifyOptions {
  std::vector<std::string> inputs;  // MLIR or HLO files; "-" or none reads stdin
  bool splitInputFile = false;      // each `// -----` section of a file on its own
  bool json = false;
  std::vector<std::string> assumptions;  // --assume, as written
};

CLI::App* addVerifyCommand(CLI::App& app, VerifyOptions& options);
// kInvalidInput when an op is invalid (or the text or an --assume is malformed: the
// ParseError propagates); else kRefuted when a property an op claims is refuted, kUnknown
// when one is not proven, kSuccess otherwise.
ExitCode runVerify(const VerifyOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
