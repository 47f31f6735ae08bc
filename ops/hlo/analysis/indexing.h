// XLA's HLO indexing analysis over the op models, including fusion: the indexing of a fused
// computation from its root to each parameter, composed along the graph and simplified.
#pragma once

#include <string>

#include "ops/hlo/models/model.h"

namespace idxmap {

// What a map's runtime variables stand for.
enum class RuntimeVariables {
  // As XLA's analysis gives them: start indices the HLO computes from constants and iotas
  // are folded into the maps (ops/hlo/analysis/known_offsets.h); the others stay, in order.
  kFolded,
  // As the op model defines them: rt_k is the op's start index k (dynamic-slice,
  // dynamic-update-slice) or index vector entry k (gather), what a kernel binds by position.
  kPositional,
};

// ComputeOutputToInputIndexing: for result `outputId`, the maps to each operand. An opcode
// without a model gives unknown indexing for every operand.
// With PointDims::kPreserve, maps that XLA prints as built keep their point dimensions; the
// ones it simplifies (fusions, reduce-window, convolution: built by composition) fold them,
// as XLA does, so the output diffs against XLA's.
InstructionIndexing computeOutputToInputIndexing(
    const hlo::Instruction& instruction, int outputId = 0,
    RuntimeVariables runtimeVariables = RuntimeVariables::kFolded,
    PointDims pointDims = PointDims::kReplace);
// ComputeInputToOutputIndexing: from operand `inputId` to each result.
InstructionIndexing computeInputToOutputIndexing(const hlo::Instruction& instruction, int inputId,
                                                 PointDims pointDims = PointDims::kReplace);

// XLA's layout: "operand id = K <map>" per map ("unknown indexing" where there is none),
// so the output can be diffed against XLA's; `label` is "operand" or "result".
std::string printIndexing(const InstructionIndexing& indexing, const std::string& label,
                          PrintStyle style = PrintStyle::kIdxmap);
// One entry of it: "<label> id = <id> <map>" per map, blank-line separated, with a final
// newline.
std::string printEntryIndexing(const OperandIndexing& entry, const std::string& label, size_t id,
                               PrintStyle style = PrintStyle::kIdxmap);

}  // namespace idxmap
