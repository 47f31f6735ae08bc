// `idxmap analyze --decompose-batching`: a gather (scatter) with batching dims written as its
// old-form equivalent in StableHLO MLIR (spec 000, "Compatibility"), and the proof that the
// two are the same op. The proof does not trust the construction: the printed text is read
// back with the MLIR reader, the old-form op imported and validated, its indices
// (`concatenate(original indices, iota, ...)`) followed by index provenance, which folds the
// iotas into the old form's map, and isl compares that relation with the batching-dims map.
#pragma once

#include <optional>
#include <string>

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::mlir_batching_decomposition {

struct Decomposition {
  std::string mlir;  // a func.func named `functionName` (empty when it cannot be written)
  // isl's verdict on "the old form's folded map equals the original's map"; nullopt when
  // it could not be decided (then `reason` says why).
  std::optional<bool> proven;
  std::string reason;
};

// For valid ops with batching dims and static shapes; anything else gives proven = nullopt
// and a reason. The function takes the op's operands as arguments (%operand, %start_indices;
// %input<i>, %scatter_indices, %update<i>) and returns the old-form op's result(s).
Decomposition decomposeGather(const gather_scatter::GatherOp& op, const std::string& functionName);
Decomposition decomposeScatter(const gather_scatter::ScatterOp& op,
                               const std::string& functionName);

}  // namespace idxmap::mlir_batching_decomposition
