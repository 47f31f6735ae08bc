// XLA's HLO gather and scatter read into the StableHLO models (ops/stablehlo/gather_scatter.h):
// the dimension numbers as XLA prints them (offset_dims=, collapsed_slice_dims=,
// start_index_map=, operand_batching_dims=, start_indices_batching_dims=, index_vector_dim=,
// slice_sizes=; update_window_dims=, inserted_window_dims=, scatter_dims_to_operand_dims=,
// input_batching_dims=, scatter_indices_batching_dims=), indices_are_sorted=, unique_indices=.
// The semantics are StableHLO's (XLA's gather and scatter are its origin), so the models'
// constraints, labels and maps apply unchanged; what the provers (verify/) need of an HLO
// instruction is read here.
#pragma once

#include <string>

#include "ops/hlo/module.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::ops {

// HLO's element type names in StableHLO's words (s32 -> i32, u8 -> ui8, pred -> i1), which
// the models' type rules (I1, I2) are written in.
std::string stablehloElementType(const std::string& hlo);

// The instruction as the StableHLO model; throws ParseError located at a malformed or
// missing attribute. Constraints are not checked here (the op models' validate does).
gather_scatter::GatherOp hloGatherOp(const hlo::Instruction& instruction);
// Scatter's update computation is recognized (replace, add, multiply, minimum, maximum of one
// input; kOther for anything else), not checked: only its operands and attributes are.
gather_scatter::ScatterOp hloScatterOp(const hlo::Instruction& instruction);

}  // namespace idxmap::ops
