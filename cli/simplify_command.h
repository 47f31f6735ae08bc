// `idxmap simplify`: each input map, simplified, in the same order.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/exit_code.h"
#include "cli/options.h"

namespace idxmap::cli {

CLI::App* addSimplifyCommand(CLI::App& app, CommonOptions& options);
ExitCode runSimplify(const CommonOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
