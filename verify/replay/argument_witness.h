// Witnesses of index properties that depend on a function's arguments (issue 31): where
// `idxmap verify` says "in bounds holds if and only if every element of %idx is in [-8, 7]", isl
// also picks argument values outside that condition (core/verdict.h's ArgumentWitness). Here
// they are replayed: the function run by the interpreter on those values, the op's index tensor
// taken as the run computed it, and the property decided on that tensor by the static provers
// (which replay their own counterexample by evaluation). A witness is kept, with what the run
// shows, only when that decision refutes the property; otherwise it is dropped and the verdict
// and its condition stand as they were.
#pragma once

#include <vector>

#include "ops/mlir/module.h"
#include "verify/assumptions.h"
#include "verify/op_properties.h"

namespace idxmap::argument_witness {

// Replays the witnesses of `properties`, the properties of `op` (a stablehlo.gather, scatter or
// dynamic_gather of `block`, proveOpIndexProperties's arguments) under `assumptions`; those of an
// op outside a function's entry block (whose leaves are not that function's arguments) are
// dropped. Under assumptions, a witness is kept only where every assumption is a range of an
// argument that the witness's values keep (what other facts ask of values, a candidate does
// not know).
void replayWitnesses(const mlir_ir::Module& module, const std::vector<mlir_ir::Operation>& block,
                     const mlir_ir::Operation& op, const std::vector<Assumption>& assumptions,
                     OpIndexProperties& properties);

}  // namespace idxmap::argument_witness
