// What each runtime variable of an instruction's maps stands for, as XLA records it with the
// variable: the operand it is read from and the index it is read at (a dynamic-slice or
// dynamic-update-slice start is scalar operand k; a gather start is element k of the index
// vector its result point reads). The record rides on the variable (core's RuntimeSource), so
// composition through fusions and the folding of known starts carry it; `analyze --style xla`
// prints it as XLA's `runtime variables:` block.
#pragma once

#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"

namespace idxmap {

// The tensor as XLA names a runtime variable's source: parameter(N), constant(V) for a scalar
// constant, otherwise the instruction's name.
std::string runtimeSourceName(const hlo::Instruction& instruction);

// `indexing` (the model's maps of `instruction`, output-to-input when `outputToInput`) with a
// source recorded on each runtime variable that stands for a start index. Maps whose runtime
// variables are not exactly the starts (dynamic shapes add run-time sizes) are left as they
// are: a missing record is better than a wrong one.
InstructionIndexing withRuntimeSources(const hlo::Instruction& instruction,
                                       InstructionIndexing indexing, bool outputToInput);

// XLA's block after an operand's map: "runtime variables:", then per variable
// "rtK: SOURCE; INDEX-MAP". Empty when the map has no recorded source.
std::string printRuntimeSources(const IndexingMap& map, PrintStyle style);

}  // namespace idxmap
