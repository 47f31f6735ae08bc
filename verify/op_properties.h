// The index properties of one MLIR op, as `idxmap verify` reports them: every
// stablehlo.gather, dynamic_gather and scatter, and tensor.gather / tensor.scatter / tcp.gather /
// tcp.gather_nd through their StableHLO lowering, with the values of their indices from index
// provenance and the user's facts about them (verify/index_properties.h), and what the op
// claims:
//   stablehlo.scatter   unique_indices, indices_are_sorted (attributes, false when absent);
//   stablehlo.gather    indices_are_sorted; its in bounds is not claimable (it clamps);
//   tensor.gather       `unique`; in bounds is required (out of range is undefined behavior);
//   tensor.scatter      `unique` and in bounds, both required;
//   tcp.gather[_nd]     in bounds, required.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/verdict.h"
#include "ops/forms/lowering.h"
#include "ops/hlo/module.h"
#include "ops/mlir/module.h"
#include "verify/assumptions.h"
#include "verify/index_conditions.h"
#include "verify/int32_safety.h"

namespace idxmap {

struct IndexProperty {
  // How the op claims it, as its text writes it ("unique_indices", "`unique`",
  // "in-range indices"); empty when the op has no way to.
  std::string claim;
  std::optional<bool> claimed;  // nullopt when the op cannot claim it
  ProofResult result;
};

struct OpIndexProperties {
  std::optional<IndexProperty> unique;  // scatters, and tensor.gather
  IndexProperty sorted;
  IndexProperty inBounds;
  // The op's maps (index space -> target, -> indices, and the index space itself) evaluated
  // in 32 bits: every expression and the offsets into the tensors (verify/int32_safety.h).
  // Nothing claims it.
  IndexProperty int32Safe;
  std::vector<ExpressionSafety> int32Expressions;
  std::string indices;  // where the index values come from ("iota", "%arg2")
};

// nullopt for an op without index properties (not a gather or scatter form). The op must be
// valid; `block` is the block holding it, `module` (optional) the module, whose functions the
// value analysis follows calls into. `assumptions` may name any value: the indices' values are
// followed back to the values assumed about (and to the function's arguments), and the facts
// hold there.
std::optional<OpIndexProperties> proveOpIndexProperties(
    const mlir_ir::Operation& op, const std::vector<mlir_ir::Operation>& block,
    const std::vector<Assumption>& assumptions, const mlir_ir::Module* module = nullptr);

// XLA's HLO gather and scatter (ops/hlo/models/gather_scatter.h): the same properties and
// claims as StableHLO's. HLO index values are not followed: they count as known at run time
// only (conditions, structure, element type and `assumptions` naming the indices' instruction).
// A gather form lowered to a StableHLO gather (ops/forms/lowering.h: torch.gather,
// index_select, tf.gather, onnx.Gather / GatherElements / GatherND, ...), its index values known
// at run time only. In bounds means every index value is in range, which these forms require
// (out of range is an error or undefined); unique is decided when the form requires it.
// `facts`: what the caller knows about the index values as the lowered op reads them (after
// ONNX's negative-index wrap); `names`: the form's names for its tensors.
OpIndexProperties proveLoweredGatherProperties(const gather_scatter::LoweredGather& lowered,
                                               const IndexOpForm::Names& names,
                                               const std::vector<IndexFact>& facts = {});

std::optional<OpIndexProperties> proveHloOpIndexProperties(
    const hlo::Instruction& instruction, const std::vector<Assumption>& assumptions);

}  // namespace idxmap
