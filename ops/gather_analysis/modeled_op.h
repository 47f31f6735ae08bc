// One gather or scatter form of an MLIR module as the StableHLO op that models it: StableHLO's
// own ops as they are (a dynamic_gather with constant slice sizes as a gather), tensor.gather /
// tensor.scatter (spec 001) and tcp.gather / tcp.gather_nd (spec 003) through their lowering
// (ops/forms/lowering.h). What every consumer of "the op's maps" needs besides the op: which
// operand holds the indices, the form's names for its tensors, and whether an index out of
// range is the op's defined behaviour (StableHLO: clamp or skip) or undefined (the others).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/mlir/module.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::mlir_gather_analysis {

struct ModeledOp {
  std::optional<gather_scatter::GatherOp> gather;  // exactly one of the two
  std::optional<gather_scatter::ScatterOp> scatter;
  size_t indicesOperand = 0;  // the op's operand holding the index values
  // The form's names: index space (a gather's result, a scatter's updates), target, indices.
  std::string indexSpace, target, indices;
  bool outOfRangeIsUndefined = false;  // not StableHLO: every index must be in range
  // The target tensor's shape when the model reads a prefix of it (tcp.gather with indices
  // shorter than its input); empty when the model's operand is the whole target.
  std::vector<int64_t> wholeTarget;
};

// nullopt when `op` is not a gather or scatter form. `op` must be valid (ops/validate);
// `block` holds it. Throws Error naming the reason when the op has no static model (dynamic
// shapes, a dynamic_gather's slice sizes not a constant).
std::optional<ModeledOp> modelOp(const mlir_ir::Operation& op,
                                 const std::vector<mlir_ir::Operation>& block);

}  // namespace idxmap::mlir_gather_analysis
