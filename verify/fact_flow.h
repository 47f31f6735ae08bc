// The user's facts about a value (--assume), carried to the values computed from it by ops
// that keep them, elementwise:
//   add / subtract a constant   unique kept; sorted kept (c - x reverses it: dropped); ranges
//                               shifted;
//   multiply by a constant c    unique kept for c != 0; sorted kept for c > 0; ranges scaled;
//   convert to an integer type  everything kept;
// each only where the values provably stay inside the element type (a wrapping add reorders;
// a wrapping multiply may merge values), which a range fact must show. `permutation` travels
// as `unique` alone (its range is about a count the consumer decides). A derived fact keeps
// the text the user wrote: that is what a proof relies on.
#pragma once

#include <vector>

#include "ops/mlir/module.h"
#include "verify/assumptions.h"

namespace idxmap {

// The facts about `value` as defined in `block`: those naming it, and those carried from the
// values it is computed from.
std::vector<Assumption> factsAbout(const mlir_ir::Value& value,
                                   const std::vector<mlir_ir::Operation>& block,
                                   const std::vector<Assumption>& assumptions);

}  // namespace idxmap
