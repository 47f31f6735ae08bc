// `idxmap emit` as a library call: every gather and scatter form of a StableHLO MLIR module
// (and every op and fusion of an HLO module's entry, codegen/hlo/hlo_kernel.h) becomes a validated
// C++ kernel (codegen/cpp/cpp_kernel.h), its code decided by the index properties verify/ proves
// for it (with the user's --assume facts). An op that is invalid, unsupported, or whose kernel
// fails validation is a located problem instead, never a kernel.
#pragma once

#include <string>
#include <vector>

#include "codegen/cpp/cpp_kernel.h"
#include "codegen/cuda/cuda_kernel.h"
#include "codegen/hlo/hlo_kernel.h"
#include "codegen/kernel/kernel.h"
#include "core/text.h"
#include "ops/forms/lowering.h"
#include "ops/hlo/module.h"
#include "ops/mlir/module.h"
#include "verify/assumptions.h"

namespace idxmap::codegen {

struct EmittedKernel {
  const mlir_ir::Operation* op;  // owned by the module; null for a lowered framework form
  Kernel kernel;
  PrintedKernel printed;
};

struct EmitProblem {
  enum class Kind : uint8_t {
    kInvalidOp,          // the op breaks a constraint of its spec (idxmap verify says which)
    kUnsupported,        // outside what kernels compute (dynamic shapes, another region)
    kValidationRefuted,  // the kernel as printed differs from its map
    kValidationUnknown,  // validation could not decide
  };
  Kind kind;
  SourceLocation location;  // where the problem is: the op, or an op of its region
  std::string message;
  SourceLocation op = {};  // the op that gets no kernel, where that is not `location`
};

// What kernels are printed as: C++ (codegen/cpp/cpp_kernel.h) or CUDA
// (codegen/cuda/cuda_kernel.h).
struct EmitTarget {
  enum class Kind : uint8_t { kCpp, kCuda };
  Kind kind = Kind::kCpp;
  CudaOptions cuda;
};

struct EmittedModule {
  std::vector<EmittedKernel> kernels;  // printed for `target`
  std::vector<EmitProblem> problems;
  EmitTarget target;
  // The self-contained file of every kernel: C++, or a .cu file for CUDA.
  std::string source() const;
};

// The kernel's entry point for an op: idxmap_<op name>_<line>_<column>, e.g.
// idxmap_stablehlo_gather_17_11.
std::string kernelSymbol(const std::string& opName, const SourceLocation& location);

// An HLO module's kernels: one per instruction of its entry computation that computes
// something (a fusion, or an op with a model; parameters, constants, tuples and
// get-tuple-element are not kernels). An instruction kernels cannot compute, or that its op
// model rejects, is a problem located at it.
struct EmittedHloModule {
  std::vector<HloKernel> kernels;
  std::vector<EmitProblem> problems;
  EmitTarget target;
  std::string source() const;
};

EmittedHloModule emitHloModule(const hlo::Module& module, const EmitTarget& target = {});

// A gather form that has no text form here (torch.gather, index_select, tf.gather, onnx.Gather /
// GatherElements / GatherND: ops/forms/framework_gather.h), lowered, as a validated kernel
// named `symbol` over buffers `input`, `indices`, `result`. Its code is decided by
// proveLoweredGatherProperties with `facts` about the index values (after ONNX's wrap): without
// a proof that they are in range, the kernel checks each and returns 2 on one that is not.
// `input`: the operand as the framework passes it. Throws ValidationError when the kernel fails
// validation, Error when kernels cannot compute it.
EmittedKernel emitLoweredGather(const gather_scatter::LoweredGather& lowered,
                                const TensorType& input, const std::vector<IndexFact>& facts,
                                const std::string& symbol, const EmitTarget& target = {});

EmittedModule emitMlirModule(const mlir_ir::Module& module,
                             const std::vector<Assumption>& assumptions = {},
                             const EmitTarget& target = {});

}  // namespace idxmap::codegen
