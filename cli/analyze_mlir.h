// `idxmap analyze FILE.mlir`: the gather / scatter maps of a StableHLO MLIR module, with known
// index values folded in, and `--decompose-batching`. Formatting only; the analysis is
// ops/gather_analysis/gather_maps.h.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "cli/analyze_command.h"
#include "cli/exit_code.h"

namespace idxmap::cli {

ExitCode runAnalyzeMlir(const AnalyzeOptions& options, const std::string& name,
                        const std::string& text, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
