#include "codegen/run/kernel_engine.h"

#include "codegen/run/tensor_buffers.h"
#include "ops/eval/lowered_gather.h"

namespace idxmap::codegen {

using gather_scatter::Tensor;

namespace {

using PackedEntry = int (*)(void* const*, const int64_t*);

std::string shapeText(const std::vector<int64_t>& shape, const std::string& elementType) {
  std::string out = "tensor<";
  for (int64_t size : shape) out += std::to_string(size) + "x";
  return out + elementType + ">";
}

}  // namespace

std::vector<Tensor> runKernel(const LoadedLibrary& library, const Kernel& kernel,
                              const std::vector<const Tensor*>& reads) {
  std::vector<Buffer> buffers;
  std::vector<void*> pointers;
  std::vector<int64_t> elements;
  size_t next = 0;
  for (const KernelBuffer& b : kernel.buffers) {
    if (b.written) {
      buffers.emplace_back(bufferElementBytes(b.elementType) * static_cast<size_t>(b.elements()));
    } else {
      if (next >= reads.size()) throw Error(kernel.symbol + ": too few tensors");
      const Tensor& tensor = *reads[next++];
      if (tensor.shape != b.shape || tensor.element_type != b.elementType)
        throw Error(kernel.op + ": the kernel was emitted for " + b.name + " of type " +
                    shapeText(b.shape, b.elementType) + ", not " +
                    shapeText(tensor.shape, tensor.element_type));
      buffers.push_back(toBuffer(tensor));
    }
    elements.push_back(b.elements());
  }
  if (next != reads.size()) throw Error(kernel.symbol + ": too many tensors");
  for (Buffer& buffer : buffers) pointers.push_back(buffer.data());
  auto entry = reinterpret_cast<PackedEntry>(library.symbol(kernel.symbol + "_packed"));
  int status = entry(pointers.data(), elements.data());
  if (status == 2)
    throw gather_scatter::IndexValueError(kernel.op + " (" + kernel.symbol +
                                          "): an index value is out of range");
  if (status == 3) {
    auto cudaStatus = reinterpret_cast<const char* (*)()>(library.symbol("idxmap_cuda_status"));
    throw Error(kernel.symbol + ": a CUDA call failed: " + cudaStatus());
  }
  if (status != 0) throw Error(kernel.symbol + ": the kernel refused the buffers' sizes");
  std::vector<Tensor> out;
  for (size_t i = 0; i < kernel.buffers.size(); ++i)
    if (kernel.buffers[i].written)
      out.push_back(fromBuffer(buffers[i], kernel.buffers[i].elementType, kernel.buffers[i].shape));
  return out;
}

KernelEngine::KernelEngine(const mlir_ir::Module& module, const JitOptions& options, int threads,
                           const std::vector<Assumption>& assumptions, const EmitTarget& target)
    : emitted_(emitMlirModule(module, assumptions, target)) {
  if (emitted_.kernels.empty()) return;
  // nvcc compiling for a machine with no GPU takes seconds for nothing: say so first, at the
  // first op that would run on it.
  if (options.language == "cu" && !cudaDeviceMissing().empty())
    throw mlir_interpreter::InterpretError(
        emitted_.kernels.front().op ? emitted_.kernels.front().op->location : SourceLocation{},
        "no CUDA device to run its kernel on: " + cudaDeviceMissing());
  library_ = compileAndLoad(emitted_.source(), options);
  if (threads > 0 && target.kind == EmitTarget::Kind::kCpp)
    reinterpret_cast<void (*)(int)>(library_->symbol("idxmap_set_num_threads"))(threads);
}

const EmittedKernel& KernelEngine::kernelFor(const mlir_ir::Operation& op) const {
  for (const EmittedKernel& kernel : emitted_.kernels)
    if (kernel.op == &op) return kernel;
  auto at = [&](const SourceLocation& location) {
    return location.line == op.location.line && location.column == op.location.column;
  };
  for (const EmitProblem& problem : emitted_.problems)
    if (at(problem.location) || at(problem.op))
      throw mlir_interpreter::InterpretError(problem.location, "no kernel: " + problem.message);
  throw mlir_interpreter::InterpretError(op.location, op.name + ": no kernel was emitted for it");
}

Tensor KernelEngine::gather(const mlir_ir::Operation& op, const gather_scatter::GatherOp&,
                            const Tensor& operand, const Tensor& indices) {
  const EmittedKernel& kernel = kernelFor(op);
  try {
    return runKernel(*library_, kernel.kernel, {&operand, &indices}).at(0);
  } catch (const mlir_interpreter::InterpretError&) {
    throw;
  } catch (const Error& error) {
    throw mlir_interpreter::InterpretError(op.location, error.what());
  }
}

std::vector<Tensor> KernelEngine::scatter(const mlir_ir::Operation& op,
                                          const gather_scatter::ScatterOp&,
                                          const std::vector<Tensor>& inputs, const Tensor& indices,
                                          const std::vector<Tensor>& updates) {
  const EmittedKernel& kernel = kernelFor(op);
  std::vector<const Tensor*> reads;
  for (const Tensor& t : inputs) reads.push_back(&t);
  reads.push_back(&indices);
  for (const Tensor& t : updates) reads.push_back(&t);
  try {
    return runKernel(*library_, kernel.kernel, reads);
  } catch (const Error& error) {
    throw mlir_interpreter::InterpretError(op.location, error.what());
  }
}

}  // namespace idxmap::codegen
