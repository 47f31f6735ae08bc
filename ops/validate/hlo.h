// Validates an HLO module: every instruction whose opcode has a model (ops/hlo/models) is
// validated by it — attributes against operand shapes, the declared shape against the
// inferred one (spec 002's compatibility). Instructions without a model are not checked.
#pragma once

#include "ops/hlo/module.h"
#include "ops/validate/report.h"

namespace idxmap::validation {

// One finding per invalid instruction (a model stops at the first broken rule), located
// where the model points: the attribute's value, the opcode or the instruction.
Report validateHloModule(const hlo::Module& module);

}  // namespace idxmap::validation
