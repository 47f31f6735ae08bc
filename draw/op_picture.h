// Pictures of ops. Of an MLIR module: a gather form (stablehlo.gather / dynamic_gather,
// tensor.gather, tcp.gather / gather_nd) draws result -> operand, a scatter form
// (stablehlo.scatter, tensor.scatter) updates -> result (its first input), through the
// StableHLO op that models it (ops/gather_analysis/modeled_op.h). Start indices are taken from
// index provenance when it knows them at every point (StableHLO's clamped starts and skipped
// updates marked, an index out of range where the op leaves it undefined too), else drawn as
// the region they could reach.
#pragma once

#include <cstddef>
#include <vector>

#include "draw/picture.h"
#include "ops/hlo/module.h"
#include "ops/mlir/module.h"

namespace idxmap::draw {

// The `ordinal`-th (1-based) gather or scatter form of `module` in text order, at `points` of
// its index space (empty: choosePoints'). Throws Error (naming how many there are) when there
// is no such op; LocatedError for an op that breaks its spec's constraints (the first finding,
// at its attribute; idxmap verify lists them all) or has no static model (dynamic shapes).
Picture drawMlirOp(const mlir_ir::Module& module, size_t ordinal, std::vector<Index> points,
                   size_t pointCount = 6);

// An HLO instruction's result -> operand `operand` (XLA's indexing analysis; a fusion's maps
// composed through its computation), at `points` of its result (empty: choosePoints'). A
// point reaches what every map of the operand reaches (an operand read twice, as a
// concatenate of it with itself, has two). HLO index values are not followed: runtime
// variables are drawn as the region they could reach. Throws Error for an operand out of
// range, unknown indexing (an op without a model, or maps it cannot express) or a tuple-shaped
// result.
Picture drawHloInstruction(const hlo::Instruction& instruction, size_t operand,
                           std::vector<Index> points, size_t pointCount = 6);

}  // namespace idxmap::draw
