// `idxmap emit`: every gather and scatter form of a StableHLO MLIR file as a validated C++
// kernel (codegen/emit.h), written as one self-contained file.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"

namespace idxmap::cli {

struct EmitOptions {
  std::string input = "-";
  std::string output;  // empty: stdout
  std::vector<std::string> assumptions;
  bool json = false;
  std::string target = "cpp";  // cpp | cuda
  bool deterministic = false;  // cuda: no atomics
};

CLI::App* addEmitCommand(CLI::App& app, EmitOptions& options);
// 0 every op emitted; 2 an op invalid or not supported; 1 a kernel refuted by validation;
// 3 a kernel validation could not decide. Nothing is written unless every op is emitted.
ExitCode runEmit(const EmitOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
