// `idxmap compose`: the input maps chained, the first applied first.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/exit_code.h"
#include "cli/options.h"

namespace idxmap::cli {

struct ComposeOptions {
  CommonOptions common;
  bool noSimplify = false;
};

CLI::App* addComposeCommand(CLI::App& app, ComposeOptions& options);
ExitCode runCompose(const ComposeOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
