// `idxmap annotate`: writes what `verify` proves of gathers and scatters back into the program,
// as the claims XLA reads (`unique_indices = true`, `indices_are_sorted = true`), so that XLA
// takes its faster scatter and gather paths with no other change to the text.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"

namespace idxmap::cli {

struct AnnotateOptions {
  std::string input = "-";               // MLIR or HLO text; "-" reads stdin
  std::string output;                    // -o; empty writes stdout
  bool inPlace = false;                  // --in-place: the input file rewritten
  std::vector<std::string> assumptions;  // --assume, as verify takes them
};

CLI::App* addAnnotateCommand(CLI::App& app, AnnotateOptions& options);
// kInvalidInput when an op is invalid (nothing written) or the text, an --assume or the
// options are malformed; kRefuted when a claim the program makes is refuted (the annotated
// text is still written, that claim left as it was); kSuccess otherwise.
ExitCode runAnnotate(const AnnotateOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
