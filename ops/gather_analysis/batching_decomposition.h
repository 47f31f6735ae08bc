// `idxmap analyze --decompose-batching`: a gather (scatter) with batching dims written as its
// old-form equivalent in StableHLO MLIR (spec 000, "Compatibility"), and the proof that the
// two are the same op. The proof does not trust the construction: the printed text is read
// back with the MLIR reader, the old-form op imported and validated, its indices
// (`concatenate(original indices, iota, ...)`) followed by index provenance, which folds the
// iotas into the old form's map, and isl compares that relation with the batching-dims map.
#pragma once

#include <optional>
#include <string>

#include "core/verdict.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::mlir_batching_decomposition {

struct Decomposition {
  std::string mlir;  // a func.func named `functionName` (empty when it cannot be written)
  // "The old form's folded map equals the original's map": proven or refuted by isl, or
  // unknown with the reason (the op is unsupported, the text did not read back, isl gave up).
  ProofResult proof;
};

// For valid ops with batching dims and static shapes; anything else is unknown with the
// reason. The function takes the op's operands as arguments (%operand, %start_indices;
// %input<i>, %scatter_indices, %update<i>) and returns the old-form op's result(s).
Decomposition decomposeGather(const gather_scatter::GatherOp& op, const std::string& functionName);
Decomposition decomposeScatter(const gather_scatter::ScatterOp& op,
                               const std::string& functionName);

}  // namespace idxmap::mlir_batching_decomposition
