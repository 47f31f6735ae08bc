// Internal to codegen/hlo: a scatter's update computation that the prelude has no function for
// (an argmax: a compare and selects over both inputs of a variadic scatter) as C++ the scatter
// kernel calls (Kernel::coupled).
#pragma once

#include <string>
#include <vector>

#include "codegen/lower/update_functions.h"
#include "ops/hlo/module.h"

namespace idxmap::codegen {

// Every instruction of the computation is computed as element_code computes it (XLA's
// semantics to the bit); one it does not compute is an UnsupportedHlo at that instruction.
UpdateFunctions scatterUpdateFunctions(const hlo::Instruction& scatter, const std::string& symbol,
                                       bool cuda);

}  // namespace idxmap::codegen
