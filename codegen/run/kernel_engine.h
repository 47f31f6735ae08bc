// Emitted kernels run on tensors: what `idxmap run --engine kernel` and compiler authors' own
// tests use. A module's gather and scatter forms are emitted into one C++ file
// (codegen/emit.h), compiled once by the JIT runner (cached by content), and called in place of
// the interpreter's engines.
#pragma once

#include <memory>
#include <vector>

#include "codegen/emit.h"
#include "codegen/run/jit.h"
#include "ops/interp/interpreter.h"

namespace idxmap::codegen {

// Runs `kernel` (compiled into `library`) on `reads`, the tensors of its read buffers in
// parameter order; returns its written buffers as tensors. Throws Error when a tensor's type
// is not the one the kernel was emitted for, gather_scatter::IndexValueError when a checked
// kernel (a framework form) met an index value out of range.
std::vector<gather_scatter::Tensor> runKernel(
    const LoadedLibrary& library, const Kernel& kernel,
    const std::vector<const gather_scatter::Tensor*>& reads);

class KernelEngine : public mlir_interpreter::ExternalEngine {
 public:
  // Emits and compiles every kernel of `module` for `target` (JitError when the compiler fails;
  // CUDA kernels want cudaJitOptions(), or a C++ compiler to run them emulated). `threads`:
  // the C++ kernels' OpenMP threads, 0 for the default.
  explicit KernelEngine(const mlir_ir::Module& module, const JitOptions& options = {},
                        int threads = 0, const std::vector<Assumption>& assumptions = {},
                        const EmitTarget& target = {});

  gather_scatter::Tensor gather(const mlir_ir::Operation& op, const gather_scatter::GatherOp& model,
                                const gather_scatter::Tensor& operand,
                                const gather_scatter::Tensor& indices) override;
  std::vector<gather_scatter::Tensor> scatter(
      const mlir_ir::Operation& op, const gather_scatter::ScatterOp& model,
      const std::vector<gather_scatter::Tensor>& inputs, const gather_scatter::Tensor& indices,
      const std::vector<gather_scatter::Tensor>& updates) override;

  const EmittedModule& emitted() const { return emitted_; }

 private:
  // The op's kernel; InterpretError at the op saying why there is none.
  const EmittedKernel& kernelFor(const mlir_ir::Operation& op) const;

  EmittedModule emitted_;
  std::shared_ptr<LoadedLibrary> library_;
};

}  // namespace idxmap::codegen
