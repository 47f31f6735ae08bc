// Options every map-processing command shares, so they read the same everywhere.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/text.h"

namespace idxmap::cli {

enum class OutputFormat { Xla, Isl };

struct CommonOptions {
  std::vector<std::string> inputs;  // files; "-" or none means stdin
  OutputFormat format = OutputFormat::Xla;
  PrintStyle style = PrintStyle::kIdxmap;  // --style: `floordiv` / XLA's `/` and bare KNOWN EMPTY
  bool json = false;
  bool check = false;
  unsigned timeoutMs = 10000;  // per proof, for the Z3 fallback of --check
};

inline constexpr unsigned kMaxTimeoutMs = 86'400'000;  // a day: past it, say so, do not wrap

// Registers the positional inputs, --format, --style, --json, --check and --timeout-ms on
// `command`.
void addCommonOptions(CLI::App& command, CommonOptions& options);
// Registers --style on `command` (analyze has no other common option).
void addStyleOption(CLI::App& command, PrintStyle& style);

}  // namespace idxmap::cli
