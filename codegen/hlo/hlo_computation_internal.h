// What an HLO kernel computes, read off its instruction (private to codegen/hlo/, used by
// hlo_kernel.cpp): the computation (a fusion's own, or one op over parameters), the checks that
// every instruction in it is one kernels compute, buffer layouts, and array constants.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "codegen/hlo/hlo_stage_internal.h"
#include "ops/hlo/module.h"

namespace idxmap::codegen::hlo_kernel_parts {

int64_t elementsOf(const std::vector<int64_t>& shape);

// The computation a kernel computes: a fusion's own, or one op reading parameters that stand
// for its operands.
struct KernelComputation {
  const hlo::Computation* computation = nullptr;
  std::unique_ptr<hlo::Computation> owned;
};
KernelComputation computationOf(const hlo::Instruction& instruction);

// Every instruction `computation`'s root reaches (added to `seen`) is one kernels compute
// (UnsupportedHlo at the first that is not; ParseError names a bad attribute), with a static
// shape and an element type kernels compute.
void checkInstructions(const hlo::Computation& computation,
                       std::set<const hlo::Instruction*>& seen);

// A buffer's layout as XLA writes it (minor-to-major), empty when it is row-major; a layout
// that is not a permutation of the dims is refused where it is written.
std::vector<int64_t> layoutOf(const hlo::Instruction& instruction, const hlo::Shape& shape);

std::string identifier(size_t index, const std::string& prefix);

// An array constant as a static array of computed values, its definition added to
// `definitions`.
hlo_stage::ValueBuffer constantArray(const hlo::Instruction& constant, size_t number,
                                     std::vector<ir::Node>& definitions);

}  // namespace idxmap::codegen::hlo_kernel_parts
