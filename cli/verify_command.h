// `idxmap verify`: every op's constraints and types in a StableHLO MLIR or HLO file.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"
#include "cli/input.h"
#include "ops/hlo/module.h"
#include "ops/mlir/module.h"
#include "ops/validate/report.h"
#include "verify/assumptions.h"
#include "verify/op_properties.h"

namespace idxmap::cli {

struct VerifyOptions {
  std::vector<std::string> inputs;  // MLIR or HLO files; "-" or none reads stdin
  bool splitInputFile = false;      // each `// -----` section of a file on its own
  bool json = false;
  std::vector<std::string> assumptions;  // --assume, as written
};

CLI::App* addVerifyCommand(CLI::App& app, VerifyOptions& options);

// A source read and validated as verify reads it (MLIR or HLO by isMlir); the report points
// into the module, so the whole is filled in place and never moved.
struct ValidatedSource {
  std::optional<mlir_ir::Module> mlir;
  std::optional<hlo::Module> hlo;
  validation::Report report;

  explicit ValidatedSource(const Source& source);
  ValidatedSource(const ValidatedSource&) = delete;
  ValidatedSource& operator=(const ValidatedSource&) = delete;

  // The index properties of a valid checked op of the report; nullopt for an op without them
  // or with constraint findings.
  std::optional<OpIndexProperties> properties(const validation::CheckedOp& checked,
                                              const std::vector<Assumption>& assumptions) const;
};
// kInvalidInput when an op is invalid (or the text or an --assume is malformed: the
// ParseError propagates); else kRefuted when a property an op claims is refuted, kUnknown
// when one is not proven, kSuccess otherwise.
ExitCode runVerify(const VerifyOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
