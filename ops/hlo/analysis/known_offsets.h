// XLA's simplification of runtime variables from the HLO that computes them (its
// FusionWithRTVarsSimplification): a start index of dynamic-slice or dynamic-update-slice, or
// a gather's start indices, that its computation builds from constants and iotas (through
// broadcast, reshape, bitcast, transpose, concatenate, add, subtract, multiply, clamp,
// convert) is replaced in the op's maps by its values, clamped as the op clamps. The values
// come from index provenance (ops/provenance), the code that folds MLIR gathers' indices: the
// producing HLO is read as the StableHLO ops it is, one implementation for both front ends.
// A start index known only at run time (a parameter, an unfollowed op) keeps its variable,
// so the folded maps are exact, never a guess.
#pragma once

#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"
#include "ops/provenance/index_values.h"

namespace idxmap {

// The values of `instruction`'s result where its computation fixes them; unknown (with the
// reason) where a value depends on a parameter or on an op the tracer does not follow.
index_provenance::IndexValues hloIndexValues(const hlo::Instruction& instruction);

// The values as verify reads them: through every op the value analysis follows (also select,
// compare, min / max, logic, slice, reverse, pad, dynamic-slice, get-dimension-size), the
// computation's parameters as arguments, with `context`'s assumed values as leaves.
index_provenance::IndexValues hloProgramValues(const hlo::Instruction& instruction,
                                               const index_provenance::ValueContext& context);

// `indexing` (the op model's output-to-input maps of `instruction`) with the runtime
// variables of known start indices folded. Other instructions come back unchanged; so does a
// map whose folded form is not one convex piece.
InstructionIndexing foldKnownStarts(const hlo::Instruction& instruction,
                                    InstructionIndexing indexing);

}  // namespace idxmap
