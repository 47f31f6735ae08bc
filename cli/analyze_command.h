// `idxmap analyze`: XLA's indexing analysis of one instruction of an HLO module, or the
// gather / scatter maps of a StableHLO MLIR module (cli/analyze_mlir.h).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"
#include "cli/options.h"

namespace idxmap::cli {

struct AnalyzeOptions {
  std::vector<std::string> inputs;      // HLO or MLIR files; "-" or none reads stdin
  bool splitInputFile = false;          // each `// -----` section of a file on its own
  std::string direction = "out-to-in";  // or "in-to-out"
  std::string instruction;              // empty: the ENTRY computation's root
  std::optional<int> output;            // out-to-in: from this result (XLA's output_id)
  std::optional<int> operand;           // out-to-in: only this operand; in-to-out: this input
  bool json = false;
  std::string format = "xla";              // MLIR: the maps' syntax, "xla" or "isl"
  bool decomposeBatching = false;          // MLIR: print batching-dims ops in the old form, proven
  PrintStyle style = PrintStyle::kIdxmap;  // --style xla: print maps as current XLA does
};

CLI::App* addAnalyzeCommand(CLI::App& app, AnalyzeOptions& options);
ExitCode runAnalyze(const AnalyzeOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
