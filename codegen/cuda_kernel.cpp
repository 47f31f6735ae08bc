#include "codegen/cuda_kernel.h"

#include "codegen/cuda_kernel_internal.h"
#include "codegen/loop_nest.h"
#include "codegen/prelude.h"

namespace idxmap::codegen {
namespace {

constexpr int64_t kThreadsPerBlock = kCudaThreadsPerBlock;

// Whether every dim after d0 with more than one value is, plus a constant, a result coordinate
// that uses no runtime variable: then two points that differ in any of them never write one
// element, whatever the index values.
bool windowOwnsTargets(const IndexingMap& map) {
  for (unsigned d = 1; d < map.dims.size(); ++d) {
    if (map.dims[d].range.hi <= map.dims[d].range.lo) continue;
    bool owns = false;
    for (Expr e : map.results) {
      if (e.kind() == ExprKind::Add && e.rhs().isConstant()) e = e.lhs();
      owns |= e.kind() == ExprKind::Dim && e.variableIndex() == d;
    }
    if (!owns) return false;
  }
  return true;
}

}  // namespace

CudaKernelPrinter::CudaKernelPrinter(const Kernel& kernel, const CudaOptions& options)
    : KernelText(kernel),
      stores_(chooseStores(options)),
      threads_(kernel.map, width_,
               stores_ == Stores::kSegmented ? kSegmentRows : 1),
      points_(threads_.points()),
      linear_(threads_.numberWidth()) {
  for (const Constraint& c : kernel.map.constraints)
    if (usesOnlyDims(c.expr))
      throw Error(kernel.op + " at " + kernel.location +
                  ": the CUDA target decodes points of a box; this map's domain has a "
                  "constraint on dims alone");
  if (points_ == INT64_MAX)
    throw Error(kernel.op + " at " + kernel.location + ": too many points for one launch");
}

PrintedKernel CudaKernelPrinter::print() {
  std::string kernels;
  if (points_ > 0) {
    require(validator_.checkLoopNest(threads_.decodingNest()), "the thread's point decoding");
    if (stores_ == Stores::kSorted)
      kernels = keysKernel() + applyKernel();
    else
      kernels = pointsKernel();
    if (stores_ == Stores::kPlain) kernels += vectorsKernel();
  }
  std::string text = kernels + launcher() + cudaHostEntries(kernel_.symbol, entryBuffers());
  require(validator_.checkBitWidths(), "int32_t arithmetic");
  return {header({describeStores()}) + text, validator_.certificates()};
}

Stores CudaKernelPrinter::chooseStores(const CudaOptions& options) const {
  if (kernel_.strategy == Strategy::kIndependent) return Stores::kPlain;
  if (kernel_.strategy == Strategy::kSegmented && windowOwnsTargets(kernel_.map))
    return Stores::kSegmented;
  if (!options.deterministic) return Stores::kAtomic;
  for (const Transfer& transfer : kernel_.transfers)
    if (!(transfer.to.offset == kernel_.transfers.at(0).to.offset))
      throw Error(kernel_.op + " at " + kernel_.location +
                  ": --deterministic sorts by one target offset; this kernel's targets differ");
  return Stores::kSorted;
}

std::string CudaKernelPrinter::describeStores() const {
  std::string threads = "CUDA: " + std::to_string(points_) + " points, a thread each (" +
                        std::to_string(kThreadsPerBlock) + " a block); ";
  switch (stores_) {
    case Stores::kPlain:
      return threads + "plain stores: no two points write one element (proven above)" +
             (lanes_ == 0 ? ""
                          : "; where every buffer's address is a multiple of 16 bytes, a thread "
                            "a row of " +
                                std::to_string(lanes_) +
                                " consecutive elements of the last dim, moved 16 bytes at a "
                                "time (each offset is a base plus that dim, every base a "
                                "multiple of " +
                                std::to_string(lanes_) + ": validated below)");
    case Stores::kSegmented:
      return "CUDA: " + std::to_string(points_) + " threads (" + std::to_string(kThreadsPerBlock) +
             " a block), one per window element and tile of " + std::to_string(threads_.rows()) +
             " rows of d0: it applies, in row-major order, the updates of each run of equal "
             "index vectors that starts in its tile (the last one past it), holding an "
             "element in a register until its run ends: runs never share an element (sorted, "
             "proven above) and each window dim is a target coordinate (the map's form); "
             "deterministic";
    case Stores::kAtomic:
      return threads +
             "atomic updates (native where CUDA has one): writes may collide, in no fixed "
             "order; a thread merges its consecutive updates of one element first";
    case Stores::kSorted:
      return threads +
             "deterministic: targets sorted stably (CUB radix sort), a thread per target "
             "applies its updates in row-major order";
  }
  return threads;
}

std::string CudaKernelPrinter::statement(const std::vector<CExpr>& point, int indent, Store store,
                                         const std::vector<std::string>& sources) {
  OpenStatement open = openStatement(point, indent, "atomicExch(idxmap_bad_index, 1);");
  std::string out = std::move(open.text);
  const std::string at = pad(open.indent), W = typeName(width_);
  for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
    const Transfer& transfer = kernel_.transfers[t];
    std::string to = offset("store to", transfer.to, Where::kGuarded);
    const KernelBuffer& target = buffer(transfer.to.buffer);
    std::string element = target.name + "[" + to + "]";
    std::string source = sources.empty()
                             ? buffer(transfer.from.buffer).name + "[" +
                                   offset("load from", transfer.from, Where::kGuarded) + "]"
                             : sources.at(t);
    if (store == Store::kVector) {
      out += at + "idxmap_copy16(&" + element + ", &" + source + ");\n";
      continue;
    }
    if (store == Store::kInPlace) {
      out += at + element + " = " +
             (transfer.combine.empty() ? source
                                       : transfer.combine + "(" + element + ", " + source + ")") +
             ";\n";
      continue;
    }
    const std::string n = std::to_string(t), pending = "idxmap_pending" + n,
                      held = "idxmap_held" + n, acc = "idxmap_acc" + n;
    out += at + "const " + W + " idxmap_to" + n + " = " + to + ";\n";
    out += at + "const " + storage(target) + " idxmap_value" + n + " = " + source + ";\n";
    out += at + "if (" + pending + " && idxmap_to" + n + " == " + held + ") {\n";
    out += at + "  " + acc + " = " + combineOf(transfer) + "(" + acc + ", idxmap_value" + n +
           ");\n" + at + "} else {\n";
    out += at + "  if (" + pending + ") " + flush(transfer, n, store) + "\n";
    out += at + "  " + pending + " = true;\n" + at + "  " + held + " = idxmap_to" + n + ";\n";
    // A held element starts from its stored value (a copy needs none).
    std::string first = "idxmap_value" + n;
    if (store == Store::kHeld && !transfer.combine.empty())
      first = transfer.combine + "(" + target.name + "[" + held + "], " + first + ")";
    out += at + "  " + acc + " = " + first + ";\n" + at + "}\n";
  }
  return out + open.closing + pad(indent) + "}\n";
}

std::string CudaKernelPrinter::flush(const Transfer& transfer, const std::string& n,
                                     Store store) const {
  const std::string element = buffer(transfer.to.buffer).name + "[idxmap_held" + n + "]";
  if (store == Store::kAtomic)
    return atomicFunction(combineOf(transfer)) + "(&" + element + ", idxmap_acc" + n + ");";
  return element + " = idxmap_acc" + n + ";";
}

std::string CudaKernelPrinter::pendingUpdates(bool flushing, int indent, Store store) const {
  std::string out;
  for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
    const Transfer& transfer = kernel_.transfers[t];
    const std::string n = std::to_string(t);
    if (flushing)
      out += pad(indent) + "if (idxmap_pending" + n + ") " + flush(transfer, n, store) + "\n";
    else
      out += pad(indent) + "bool idxmap_pending" + n + " = false;\n" + pad(indent) +
             typeName(width_) + " idxmap_held" + n + " = 0;\n" + pad(indent) +
             storage(buffer(transfer.to.buffer)) + " idxmap_acc" + n + "{};\n";
  }
  return out;
}

std::string CudaKernelPrinter::kernelFunction(const std::string& part,
                                              const std::string& extraParameters,
                                              const std::string& body) const {
  std::vector<CudaBuffer> buffers;
  for (const KernelBuffer& b : kernel_.buffers)
    buffers.push_back({(b.written ? "" : "const ") + storage(b), b.name});
  return cudaKernelFunction(name(part), buffers,
                            (kernel_.check ? ", int* idxmap_bad_index" : "") + extraParameters,
                            body);
}

std::string CudaKernelPrinter::pointsKernel() {
  if (stores_ == Stores::kAtomic)
    return kernelFunction("points", "",
                          pendingUpdates(false, 2, Store::kAtomic) + pointLoop() + declaredDims(4) +
                              statement(dimVariables(), 4, Store::kAtomic) + "  }\n" +
                              pendingUpdates(true, 2, Store::kAtomic) + "}\n");
  if (stores_ == Stores::kSegmented) return segmentedKernel();
  return kernelFunction(
      "points", "",
      pointLoop() + declaredDims(4) + statement(dimVariables(), 4, Store::kInPlace) + "  }\n}\n");
}

std::string CudaKernelPrinter::launcher() {
  std::vector<EntryBuffer> entry = entryBuffers();
  std::string out = cudaLaunchSignature(kernel_.symbol, entry) + " {\n" + sizeChecks(entry);
  for (auto [into, from] : kernel_.initialCopies)
    out += "  if (" + buffer(into).name + " != " + buffer(from).name + " && cudaMemcpyAsync(" +
           buffer(into).name + ", " + buffer(from).name + ", sizeof(" + storage(buffer(into)) +
           ") * " + std::to_string(buffer(into).elements()) +
           ", cudaMemcpyDeviceToDevice, stream) != cudaSuccess)\n    return 3;\n";
  if (points_ == 0) return out + "  return 0;\n}\n";
  if (kernel_.check)
    out +=
        "  int* idxmap_bad_index = nullptr;\n  if (cudaMalloc(&idxmap_bad_index, sizeof(int)) "
        "!= cudaSuccess) return 3;\n  cudaMemsetAsync(idxmap_bad_index, 0, sizeof(int), "
        "stream);\n";
  if (lanes_ > 0) {
    std::string test;
    for (const std::string& name : aligned_)
      test +=
          (test.empty() ? "" : " | ") + std::string("reinterpret_cast<uintptr_t>(") + name + ")";
    out += "  if ((" + test + ") % 16 == 0)\n  " +
           cudaLaunch(name("vectors"), vectorThreads_, arguments()) + "  else\n  " +
           launch("points");
  } else if (stores_ != Stores::kSorted) {
    out += launch("points");
  } else {
    const std::string L = typeName(linear_), K = keyType(), n = std::to_string(points_);
    out += "  " + K + "* idxmap_keys[2] = {};\n  " + L + "* idxmap_points[2] = {};\n";
    out += "  cudaError_t idxmap_status = cudaSuccess;\n  for (int i = 0; i < 2; ++i)\n";
    out += "    if (cudaMallocAsync(&idxmap_keys[i], sizeof(" + K + ") * " + n +
           ", stream) != cudaSuccess ||\n        cudaMallocAsync(&idxmap_points[i], sizeof(" + L +
           ") * " + n +
           ", stream) != cudaSuccess)\n      idxmap_status = cudaErrorMemoryAllocation;\n";
    out += "  if (idxmap_status == cudaSuccess) {\n  " +
           launch("keys", ", idxmap_keys[0], idxmap_points[0]");
    out +=
        "    idxmap_status = idxmap_sort_pairs(idxmap_keys[0], idxmap_keys[1], "
        "idxmap_points[0], idxmap_points[1], " +
        n + ", " + std::to_string(keyBits()) + ", stream);\n";
    out += "  }\n  if (idxmap_status == cudaSuccess) {\n  " +
           launch("apply", ", idxmap_keys[1], idxmap_points[1]") + "  }\n";
    out +=
        "  for (int i = 0; i < 2; ++i) {  // stream-ordered: after the kernels that use them\n"
        "    if (idxmap_keys[i]) cudaFreeAsync(idxmap_keys[i], stream);\n"
        "    if (idxmap_points[i]) cudaFreeAsync(idxmap_points[i], stream);\n  }\n"
        "  if (idxmap_status != cudaSuccess) return 3;\n";
  }
  if (kernel_.check)
    out +=
        "  int idxmap_bad = 0;\n  cudaMemcpyAsync(&idxmap_bad, idxmap_bad_index, sizeof(int), "
        "cudaMemcpyDeviceToHost, stream);\n  cudaStreamSynchronize(stream);\n"
        "  cudaFree(idxmap_bad_index);\n  if (cudaGetLastError() != cudaSuccess) return 3;\n"
        "  return idxmap_bad ? 2 : 0;\n}\n";
  else
    out += "  return cudaGetLastError() == cudaSuccess ? 0 : 3;\n}\n";
  return out;
}

PrintedKernel printCudaKernel(const Kernel& kernel, const CudaOptions& options) {
  CudaKernelPrinter printer(kernel, options);
  return printer.print();
}

}  // namespace idxmap::codegen
