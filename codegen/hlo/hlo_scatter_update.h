// Internal to codegen/hlo: a scatter's update computation that the prelude has no function for
// (an argmax: a compare and selects over both inputs of a variadic scatter) as C++ the scatter
// kernel calls (Kernel::coupled).
#pragma once

#include <string>
#include <vector>

#include "ops/hlo/module.h"

namespace idxmap::codegen {

struct ScatterUpdateFunctions {
  // One an input, `<symbol>_update<i>`: input i's new value from every input's current value,
  // then every update value (stored elements, in operand order).
  std::vector<std::string> names;
  std::string text;  // their definitions, `static inline` (`__host__ __device__` too for CUDA)
};

// Every instruction of the computation is computed as element_code computes it (XLA's
// semantics to the bit); one it does not compute is an UnsupportedHlo at that instruction.
ScatterUpdateFunctions scatterUpdateFunctions(const hlo::Instruction& scatter,
                                              const std::string& symbol, bool cuda);

}  // namespace idxmap::codegen
