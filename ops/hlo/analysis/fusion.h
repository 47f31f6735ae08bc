// Indexing through a fused computation (spec 004, "Indexing Maps for Fusion"): the maps of
// the fused ops composed along every path of the graph, simplified, and deduplicated by
// meaning per operand.
#pragma once

#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"

namespace idxmap {

// From result `outputId` of the fusion (its root, or element `outputId` of a tuple root) to
// every fusion operand. Throws ParseError when the fusion and its computation disagree.
InstructionIndexing fusionOutputToInput(const hlo::Instruction& fusion, int outputId);
// From fusion operand `inputId` to every result of the fusion.
InstructionIndexing fusionInputToOutput(const hlo::Instruction& fusion, int inputId);

}  // namespace idxmap
