#include "codegen/cuda_kernel.h"

#include "codegen/cuda_threads_internal.h"
#include "codegen/kernel_text_internal.h"
#include "codegen/loop_nest.h"
#include "codegen/prelude.h"

namespace idxmap::codegen {
namespace {

constexpr int64_t kThreadsPerBlock = kCudaThreadsPerBlock;
// Rows of d0 a thread of a segmented kernel walks (besides finishing its last run): enough
// loads in flight to hide memory latency (on an H100, sorted scatter-add of 16M f32 elements
// ran at 0.63 of copy bandwidth with a thread per row, 1.04 with 8 rows prefetched, 0.90
// with 16, whose registers cut occupancy).
constexpr int64_t kSegmentRows = 8;

// How a kernel's stores are made (cuda_kernel.h).
enum class Stores : uint8_t { kPlain, kSegmented, kAtomic, kSorted };

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

class CudaKernelPrinter : KernelText {
 public:
  CudaKernelPrinter(const Kernel& kernel, const CudaOptions& options)
      : KernelText(kernel),
        stores_(chooseStores(options)),
        threads_(kernel.map, width_,
                 stores_ == Stores::kSegmented && kernel.map.dims.size() >= 2 ? kSegmentRows : 1),
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

  PrintedKernel print() {
    std::string kernels;
    if (points_ > 0) {
      require(validator_.checkLoopNest(threads_.decodingNest()), "the thread's point decoding");
      if (stores_ == Stores::kSorted)
        kernels = keysKernel() + applyKernel();
      else
        kernels = pointsKernel();
    }
    std::string text = kernels + launcher() + cudaHostEntries(kernel_.symbol, entryBuffers());
    require(validator_.checkBitWidths(), "int32_t arithmetic");
    return {header({describeStores()}) + text, validator_.certificates()};
  }

 private:
  Stores chooseStores(const CudaOptions& options) const {  // before threads_: no members
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

  std::string describeStores() const {
    std::string threads = "CUDA: " + std::to_string(points_) + " points, a thread each (" +
                          std::to_string(kThreadsPerBlock) + " a block); ";
    switch (stores_) {
      case Stores::kPlain:
        return threads + "plain stores: no two points write one element (proven above)";
      case Stores::kSegmented:
        return "CUDA: " + std::to_string(points_) + " threads (" +
               std::to_string(kThreadsPerBlock) + " a block), one per window element and tile of " +
               std::to_string(threads_.rows()) +
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

  std::string declaredDims(int indent) const { return threads_.declaredDims(indent); }

  std::vector<CExpr> dimVariables() const {
    std::vector<CExpr> out;
    for (size_t i = 0; i < kernel_.map.dims.size(); ++i)
      out.push_back(variable("d" + std::to_string(i), width_));
    return out;
  }

  std::string arguments() const {
    std::string out;
    for (const KernelBuffer& b : kernel_.buffers) out += (out.empty() ? "" : ", ") + b.name;
    if (kernel_.check) out += ", idxmap_bad_index";
    return out;
  }

  std::string name(const std::string& part) const { return kernel_.symbol + "_" + part; }

  std::string pointLoop() const { return threads_.loop(); }

  // The combine function of a transfer: a copy is a replace.
  std::string combineOf(const Transfer& transfer) const {
    if (!transfer.combine.empty()) return transfer.combine;
    return *combineFunction(gather_scatter::UpdateComputation::kReplace,
                            buffer(transfer.to.buffer).elementType);
  }

  // How a statement stores: each update read-modify-written in place; held in a register while
  // the thread's next points update the same element, then stored once (a segmented thread,
  // which alone writes the elements of its runs); or merged the same way into a pending update
  // applied atomically when the element changes (a thread's points, one grid stride apart,
  // often share it: all-equal indices are the worst case of contention). Merging regroups an
  // element's updates, which atomics leave in no fixed order anyway; every update computation
  // is associative (float add and multiply up to rounding, as atomics are).
  enum class Store : uint8_t { kInPlace, kHeld, kAtomic };

  // The stores of one point (its statement). `sources`: transfer t's source value as an
  // expression already loaded (a segmented thread's prefetch); empty: loaded here.
  std::string statement(const std::vector<CExpr>& point, int indent, Store store,
                        const std::vector<std::string>& sources = {}) {
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

  // Stores (kHeld) or applies atomically (kAtomic) transfer n's pending update.
  std::string flush(const Transfer& transfer, const std::string& n, Store store) const {
    const std::string element = buffer(transfer.to.buffer).name + "[idxmap_held" + n + "]";
    if (store == Store::kAtomic)
      return atomicFunction(combineOf(transfer)) + "(&" + element + ", idxmap_acc" + n + ");";
    return element + " = idxmap_acc" + n + ";";
  }

  // The pending updates of a thread, one per transfer: declared (`!flushing`) before the points
  // that may share them, flushed after.
  std::string pendingUpdates(bool flushing, int indent, Store store) const {
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

  // A __global__ function over the kernel's buffers (and a checked kernel's flag): `body`
  // follows its opening brace.
  std::string kernelFunction(const std::string& part, const std::string& extraParameters,
                             const std::string& body) const {
    std::vector<CudaBuffer> buffers;
    for (const KernelBuffer& b : kernel_.buffers)
      buffers.push_back({(b.written ? "" : "const ") + storage(b), b.name});
    return cudaKernelFunction(name(part), buffers,
                              (kernel_.check ? ", int* idxmap_bad_index" : "") + extraParameters,
                              body);
  }

  std::string pointsKernel() {
    if (stores_ == Stores::kAtomic)
      return kernelFunction("points", "",
                            pendingUpdates(false, 2, Store::kAtomic) + pointLoop() +
                                declaredDims(4) + statement(dimVariables(), 4, Store::kAtomic) +
                                "  }\n" + pendingUpdates(true, 2, Store::kAtomic) + "}\n");
    if (stores_ == Stores::kSegmented) return segmentedKernel();
    return kernelFunction(
        "points", "",
        pointLoop() + declaredDims(4) + statement(dimVariables(), 4, Store::kInPlace) + "  }\n}\n");
  }

  // A segmented thread takes a tile of d0's rows at one window element (its d0 is the tile's
  // first row). A run of equal index vectors along d0 starts where d0's vector differs from the
  // one before; the thread applies the runs that start in its tile, the last one to its end
  // past the tile, and skips the rows before its first run start (the tile before finishes
  // that run). When every source offset uses dims alone, the tile's sources are loaded first,
  // all at once (they lie in the box), for the loads to overlap.
  std::string segmentedKernel() {
    const Interval d0 = kernel_.map.dims.at(0).range;
    const std::string W = typeName(width_), hi = std::to_string(d0.hi);
    const std::string rows = std::to_string(threads_.rows());
    // Transfers that share a target could update one element: then no element is held.
    Store store = Store::kHeld;
    for (size_t a = 0; a < kernel_.transfers.size(); ++a)
      for (size_t b = 0; b < a; ++b)
        if (kernel_.transfers[a].to.buffer == kernel_.transfers[b].to.buffer)
          store = Store::kInPlace;
    std::string out = pointLoop() + declaredDims(4) + runStartTest(d0.lo, d0.hi, 4);
    out += "    const " + W + " idxmap_first = d0;\n    const " + W + " idxmap_rows = " + hi +
           " - idxmap_first < " + rows + " ? " + hi + " - idxmap_first + 1 : " + rows + ";\n";
    std::vector<std::string> sources;
    std::vector<CExpr> row = dimVariables();
    row[0] = binary(COp::kAdd, variable("idxmap_first", width_), variable("idxmap_row", width_));
    if (segmentSourcesPrefetched()) {
      std::string loads;
      for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
        const Transfer& transfer = kernel_.transfers[t];
        const std::string array = "idxmap_source" + std::to_string(t);
        out += "    " + storage(buffer(transfer.to.buffer)) + " " + array + "[" + rows + "];\n";
        loads += "        " + array + "[idxmap_row] = " + buffer(transfer.from.buffer).name + "[" +
                 offset("load from", transfer.from, Where::kBox) + "];\n";
        sources.push_back(array + "[idxmap_row]");
      }
      out += "    IDXMAP_UNROLL\n    for (" + W + " idxmap_row = 0; idxmap_row < " + rows +
             "; ++idxmap_row)\n      if (idxmap_row < idxmap_rows) {\n        const " + W +
             " d0 = idxmap_first + idxmap_row;\n" + loads + "      }\n";
    }
    out += "    " + W +
           " idxmap_skip = 0;  // rows of a run the tile before applies\n"
           "    while (idxmap_skip < idxmap_rows && !idxmap_run_starts_at(idxmap_first + "
           "idxmap_skip)) ++idxmap_skip;\n";
    out += pendingUpdates(false, 4, store);
    out += "    IDXMAP_UNROLL\n    for (" + W + " idxmap_row = 0; idxmap_row < " + rows +
           "; ++idxmap_row)\n      if (idxmap_row >= idxmap_skip && idxmap_row < idxmap_rows)\n" +
           statement(row, 8, store, sources);
    // The last run, past the tile: row idxmap_rows on (d0's `first + rows - 1` never overflows).
    row[0] = binary(COp::kAdd, variable("idxmap_first", width_), variable("idxmap_row", width_));
    out += "    if (idxmap_skip < idxmap_rows)\n      for (" + W +
           " idxmap_row = idxmap_rows; idxmap_row <= " + hi +
           " - idxmap_first && !idxmap_run_starts_at(idxmap_first + idxmap_row); ++idxmap_row)\n" +
           statement(row, 8, store);
    return kernelFunction("points", "", out + pendingUpdates(true, 4, store) + "  }\n}\n");
  }

  // Whether a segmented thread loads its tile's sources first: every source offset uses dims
  // alone (valid over the whole box, whatever the index values).
  bool segmentSourcesPrefetched() const {
    for (const Transfer& transfer : kernel_.transfers)
      if (!usesOnlyDims(transfer.from.offset)) return false;
    return true;
  }

  // Deterministic mode, step 1: each point's target offset (the sort key; `idxmap_skipped` for
  // an update that is not applied) and its number.
  std::string keysKernel() {
    const std::string L = typeName(linear_);
    std::string out = pointLoop() + declaredDims(4);
    out += "    idxmap_keys[idxmap_point] = " + skippedKey() +
           ";\n    idxmap_points[idxmap_point] = idxmap_point;\n";
    OpenStatement open = openStatement(dimVariables(), 4, "atomicExch(idxmap_bad_index, 1);");
    std::string to = offset("store to", kernel_.transfers.at(0).to, Where::kGuarded);
    return kernelFunction("keys", ", " + keyType() + "* idxmap_keys, " + L + "* idxmap_points",
                          out + open.text + pad(open.indent) +
                              "idxmap_keys[idxmap_point] = static_cast<" + keyType() + ">(" + to +
                              ");\n" + open.closing + "    }\n  }\n}\n");
  }

  // Step 2, after the sort: the thread at the first of a run of equal keys applies the run's
  // updates in point order (the sort is stable), which is row-major order.
  std::string applyKernel() {
    const std::string L = typeName(linear_), K = keyType();
    std::string out =
        pointLoop() + "    const " + K +
        " idxmap_key = idxmap_keys[idxmap_point];\n    if (idxmap_key == " + skippedKey() +
        " || (idxmap_point > 0 && idxmap_keys[idxmap_point - 1] == idxmap_key)) "
        "continue;\n";
    out += "    for (" + L + " idxmap_at = idxmap_point; idxmap_at < " + std::to_string(points_) +
           " && idxmap_keys[idxmap_at] == idxmap_key; ++idxmap_at) {\n      const " + L +
           " idxmap_point = idxmap_points[idxmap_at];\n" + declaredDims(6);
    return kernelFunction("apply", ", const " + K + "* idxmap_keys, const " + L + "* idxmap_points",
                          out + statement(dimVariables(), 6, Store::kInPlace) + "    }\n  }\n}\n");
  }

  // Keys hold target offsets below the target's element count E; the skipped key is
  // 2^bits - 1 with bits the width of E, above every offset, and the sort looks at those bits.
  int keyBits() const {
    const int64_t targets = buffer(kernel_.transfers.at(0).to.buffer).elements();
    int bits = 1;
    while (bits < 63 && (int64_t{1} << bits) - 1 < targets) ++bits;
    return bits;
  }
  std::string keyType() const { return keyBits() <= 32 ? "uint32_t" : "uint64_t"; }
  std::string skippedKey() const {
    return "static_cast<" + keyType() + ">(" + std::to_string((int64_t{1} << keyBits()) - 1) +
           "ull)";
  }

  std::string launch(const std::string& part, const std::string& extra = "") const {
    return cudaLaunch(name(part), points_, arguments() + extra);
  }

  std::string launcher() {
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
    if (stores_ != Stores::kSorted) {
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

  Stores stores_;
  ThreadPoints threads_;
  int64_t points_;
  CWidth linear_;
};

}  // namespace

PrintedKernel printCudaKernel(const Kernel& kernel, const CudaOptions& options) {
  CudaKernelPrinter printer(kernel, options);
  return printer.print();
}

}  // namespace idxmap::codegen
