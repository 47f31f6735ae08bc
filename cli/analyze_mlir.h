// `idxmap analyze FILE.mlir`: the gather / scatter maps of a StableHLO MLIR module, with known
// index values folded in, and `--decompose-batching`. Formatting only; the analysis is
// ops/mlir_gather_analysis.h.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "cli/analyze_command.h"
#include "cli/exit_code.h"

namespace idxmap::cli {

// Whether the input is MLIR: a `.mlir` name, or text that starts as MLIR does (a module,
// a function, an SSA value or a quoted op name) rather than `HloModule`.
bool looksLikeMlir(const std::string& name, std::string_view text);

ExitCode runAnalyzeMlir(const AnalyzeOptions& options, const std::string& name,
                        const std::string& text, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
