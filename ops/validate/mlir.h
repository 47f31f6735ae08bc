// Validates a StableHLO MLIR module: every stablehlo.gather, stablehlo.dynamic_gather and
// stablehlo.scatter — bare, in functions, or nested in regions — is read into its model and
// checked against every constraint of the spec (ops/stablehlo/gather_scatter.h); tensor.gather /
// tensor.scatter (spec 001) and tcp.gather / tcp.gather_nd (spec 003) by their own rules.
// Ops without a model are not checked.
#pragma once

#include <string>
#include <vector>

#include "ops/mlir/module.h"
#include "ops/validate/report.h"

namespace idxmap::validation {

// Findings at each op's location. A dynamic_gather's slice sizes are read from the
// `stablehlo.constant` that defines its third operand when there is one; otherwise the checks
// that need their values are skipped.
Report validateMlirModule(const mlir_ir::Module& module);

// The op names validateMlirModule checks, for --help and tests.
std::vector<std::string> validatedMlirOps();

}  // namespace idxmap::validation
