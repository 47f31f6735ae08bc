// HLO ops and loop fusions as kernels, from their models' maps (ops/hlo/models): one C++
// function per instruction of a module's entry computation, computing a fusion's fused
// computation (or a single op) element by element.
//
// How maps become code. The root, and every reduce, dot or convolution another instruction
// reads, is a *stage*: a loop nest over its output (isl's AST generator), whose element is
// computed by walking the computation from it toward the parameters. At each instruction the
// element's index (Exprs over the loop iterators) goes through the instruction's output->operand
// map, substituted and simplified, so a chain of broadcasts, transposes, reshapes and slices costs
// nothing but the composed index; values are computed once per element and index (shared subtrees
// are not recomputed).
//   - a map with constraints (pad, concatenate, dynamic-update-slice) is a branch: the
//     constraints, printed as C, guard the operand it reads;
//   - runtime variables (dynamic-slice's, dynamic-update-slice's starts) are the scalar
//     operands' values clamped into the variables' ranges;
//   - range variables (reduce's reduced dims) become inner loops around an accumulator that
//     starts at the init value and applies the reducer computation in row-major order; a
//     dot's or convolution's (contracting dims; window positions and input features) around
//     a sum of products, as XLA's evaluator accumulates it.
// Such a stage is materialized in a buffer of its own, so a fusion that reads it many times
// (softmax) computes it once.
//
// Validated as printed (codegen/validate/validation.h): every loop nest, index expression, branch
// condition (and that an else branch holds where it runs) and every offset into a buffer,
// before the text is returned; a failure is a ValidationError and nothing is written.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/cpp/cpp_kernel.h"
#include "codegen/ir/kernel_ir.h"
#include "codegen/kernel/kernel.h"
#include "ops/hlo/module.h"

namespace idxmap::codegen {

// An instruction the kernels cannot compute (an opcode without element code, a tuple
// inside a fusion, a dynamic shape), located where it is written.
class UnsupportedHlo : public LocatedError {
 public:
  using LocatedError::LocatedError;
};

struct HloKernel {
  std::string symbol;
  std::string op;                     // "fusion" or the opcode
  std::string location;               // "file.hlo:23:3"
  std::vector<KernelBuffer> buffers;  // the instruction's operands in order, then its results
  bool int32 = false;                 // index arithmetic in int32_t (else int64_t)
  PrintedKernel printed;
};

// `instruction`: an instruction of the entry computation (a fusion, or any op the kernels
// compute). Throws UnsupportedHlo, ValidationError, or ParseError when the op models reject
// the instruction (e.g. "transpose: dimensions={1,1} is not a permutation").
// `cuda`: printed as CUDA (each stage a __global__ function launched in order; entries as
// codegen/cuda/cuda_kernel.h describes) instead of C++.
// A scatter is the gather/scatter emitter's kernel (hloScatterKernel).
HloKernel hloKernel(const hlo::Instruction& instruction, const std::string& symbol,
                    bool cuda = false);
// The test seam (as printCppKernel's): `edit` changes each stage's IR (C++: its loop nest, or
// its statement where it has no loops; CUDA: its grid loop) after it is built and before it is
// read back and validated.
using StageEdit = std::function<void(std::vector<ir::Node>&)>;
HloKernel hloKernel(const hlo::Instruction& instruction, const std::string& symbol, bool cuda,
                    const StageEdit& edit);

// An entry computation's scatter (one input), or a fusion that wraps one: its index properties
// proved on the HLO values feeding its indices, then codegen/lower/gather_scatter_kernels.h's
// kernel, its stores decided by those proofs; buffers: operand, indices, updates, result
// (row-major; another layout is UnsupportedHlo, as is a variadic scatter or an update
// computation other than replace, add, multiply, minimum or maximum).
HloKernel hloScatterKernel(const hlo::Instruction& instruction, const std::string& symbol,
                           bool cuda = false);
// The scatter a fusion wraps, as XLA wraps one (kind=kInput: the fused computation is the
// scatter of its parameters 0, 1, 2... in order, so the fusion's buffers are the scatter's);
// nullptr for any other instruction.
const hlo::Instruction* wrappedScatter(const hlo::Instruction& fusion);

}  // namespace idxmap::codegen
