#include "codegen/cuda/cuda_kernel.h"

#include "codegen/cpp/ir_printer.h"
#include "codegen/cuda/cuda_kernel_internal.h"
#include "codegen/kernel/loop_nest.h"
#include "codegen/prelude/prelude.h"

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

CudaKernelPrinter::CudaKernelPrinter(const Kernel& kernel, const CudaOptions& options,
                                     std::function<void(ir::Node&)> edit)
    : KernelText(kernel),
      edit_(std::move(edit)),
      stores_(chooseStores(options)),
      threads_(kernel.map, width_, stores_ == Stores::kSegmented ? kSegmentRows : 1),
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
    if (stores_ == Stores::kSorted)
      kernels = keysKernel() + applyKernel();
    else if (stores_ == Stores::kSortedRows)
      kernels = rowKeysKernel() + rowApplyKernel();
    else
      kernels = pointsKernel();
    if (stores_ == Stores::kPlain) kernels += vectorsKernel();
  }
  std::string text = kernels + launcher();
  require(validator_.checkBitWidths(), "int32_t arithmetic");
  std::string stores = describeStores();
  if (stores_ == Stores::kSorted || stores_ == Stores::kSortedRows) {
    if (kernel_.coupled)
      stores +=
          " (sorted because the update computation is the kernel's own function, which has "
          "no atomic form here)";
    else
      for (const Transfer& transfer : kernel_.transfers)
        if (buffer(transfer.to.buffer).packedBits) {
          stores += " (sorted because " + buffer(transfer.to.buffer).name +
                    " is packed: its elements share bytes and have no atomic update of their own)";
          break;
        }
  }
  return {header({stores}) + text, validator_.certificates()};
}

Stores CudaKernelPrinter::chooseStores(const CudaOptions& options) const {
  if (kernel_.strategy == Strategy::kIndependent) return Stores::kPlain;
  if (kernel_.strategy == Strategy::kSegmented && windowOwnsTargets(kernel_.map))
    return Stores::kSegmented;
  // A packed element shares its byte: it has no atomic update of its own, nor has a coupled
  // update (the caller's function of several elements); writes that may collide are sorted
  // (deterministic) instead.
  bool noAtomic = kernel_.coupled;
  for (const Transfer& transfer : kernel_.transfers)
    noAtomic = noAtomic || buffer(transfer.to.buffer).packedBits > 0;
  if (!options.deterministic && !noAtomic) return Stores::kAtomic;
  for (const Transfer& transfer : kernel_.transfers)
    if (!(transfer.to.offset == kernel_.transfers.at(0).to.offset))
      throw Error(kernel_.op + " at " + kernel_.location +
                  ": sorting (--deterministic, or a packed target or an update function of the "
                  "kernel's own, which have no atomic form) needs one target offset; this "
                  "kernel's targets differ");
  return rowKey() ? Stores::kSortedRows : Stores::kSorted;
}

std::optional<size_t> CudaKernelPrinter::rowKey() const {
  if (kernel_.strategy != Strategy::kOrdered || kernel_.clamp || kernel_.map.dims.empty() ||
      !windowOwnsTargets(kernel_.map))
    return std::nullopt;
  // A runtime variable that is, plus a constant, a target coordinate (points that differ in it
  // never write one element) and is read from d0 alone (one value a row).
  for (Expr e : kernel_.map.results) {
    if (e.kind() == ExprKind::Add && e.rhs().isConstant()) e = e.lhs();
    if (e.kind() != ExprKind::RuntimeVar) continue;
    bool fromD0 = true;
    kernel_.loads.at(e.variableIndex()).offset.walk([&](Expr v) {
      if (v.isVariable() && !(v.kind() == ExprKind::Dim && v.variableIndex() == 0)) fromD0 = false;
    });
    if (fromD0) return e.variableIndex();
  }
  return std::nullopt;
}

int64_t CudaKernelPrinter::sortUnits() const {
  if (stores_ != Stores::kSortedRows) return points_;
  const Interval rows = kernel_.map.dims.at(0).range;
  return rows.hi - rows.lo + 1;
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
             "index vectors that starts in its tile (the last one past it), " +
             (segmentHeld() ? "holding an element in a register until its run ends"
                            : "each in place") +
             ": runs never share an element (sorted, proven above) and each window dim is a "
             "target coordinate (the map's form); deterministic";
    case Stores::kAtomic:
      return threads +
             "atomic updates (native where CUDA has one): writes may collide, in no fixed "
             "order; a thread merges its consecutive updates of one element first";
    case Stores::kSorted:
      return threads +
             "deterministic: targets sorted stably (CUB radix sort), a thread per target "
             "applies its updates in row-major order";
    case Stores::kSortedRows:
      return threads + "deterministic: the " + std::to_string(sortUnits()) +
             " rows of d0 sorted stably (CUB radix sort) by rt" + std::to_string(*rowKey()) +
             ", a thread per sorted row and window point applying the run of rows with its value "
             "in row order (a target coordinate is rt" +
             std::to_string(*rowKey()) +
             " plus a constant and each window dim is one, the map's form: points that differ in "
             "either never write one element)";
  }
  return threads;
}

ir::Node CudaKernelPrinter::checkedGrid(ir::Node loop, ThreadGroup group, const std::string& what) {
  if (edit_) edit_(loop);
  require(checkGridPoints(validator_, loop, kernel_.map, group), what);
  return loop;
}

ir::Node CudaKernelPrinter::statement(const std::vector<CExpr>& point, Store store,
                                      const std::vector<ir::Value>& sources) {
  const std::string W = typeName(width_);
  auto stores = [&] {
    std::vector<ir::Node> out;
    if (kernel_.coupled) {
      requireShape(store == Store::kInPlace, "a coupled update stored other than in place");
      return coupledStores(sources);
    }
    for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
      const Transfer& transfer = kernel_.transfers[t];
      const CExpr to = offsetExpr("store to", transfer.to, Where::kGuarded);
      const KernelBuffer& target = buffer(transfer.to.buffer);
      const ir::Value source =
          sources.empty() ? ir::loadValue(buffer(transfer.from.buffer).name,
                                          offsetExpr("load from", transfer.from, Where::kGuarded))
                          : sources.at(t);
      if (store == Store::kVector) {
        out.push_back(ir::vectorCopy(target.name, to, source));
        continue;
      }
      if (store == Store::kInPlace) {
        out.push_back(ir::store(
            target.name, to,
            transfer.combine.empty()
                ? source
                : ir::callValue(transfer.combine, {ir::loadValue(target.name, to), source})));
        continue;
      }
      const std::string n = std::to_string(t), pending = "idxmap_pending" + n,
                        held = "idxmap_held" + n, acc = "idxmap_acc" + n,
                        value = "idxmap_value" + n, at = "idxmap_to" + n;
      out.push_back(ir::let(W, at, ir::indexValue(to)));
      out.push_back(ir::let(storage(target), value, source));
      // A held element starts from its stored value (a copy needs none).
      ir::Value first = ir::variableValue(value);
      if (store == Store::kHeld && !transfer.combine.empty())
        first = ir::callValue(transfer.combine,
                              {ir::loadValue(target.name, variable(held, width_)), first});
      out.push_back(ir::ifThen(
          binary(COp::kAnd, variable(pending, CWidth::k32),
                 binary(COp::kEqual, variable(at, width_), variable(held, width_))),
          {ir::assign(acc, ir::callValue(combineOf(transfer),
                                         {ir::variableValue(acc), ir::variableValue(value)}))},
          {ir::ifThen(variable(pending, CWidth::k32), {flush(transfer, n, store)}),
           ir::assign(pending, ir::literalValue("true")), ir::assign(held, ir::variableValue(at)),
           ir::assign(acc, first)}));
    }
    return out;
  };
  ir::Node node = statementAt(point, stores);
  checkStoreStrategy(node);
  // The stores' offsets are proven as they are built (offsetExpr); a coupled update's order
  // (every new value held before any store) is checked as the C++ target's is.
  std::span<const ir::Node> inner = checkOpening(node);
  if (kernel_.coupled) checkCoupledStores(inner, !sources.empty());
  return node;
}

void CudaKernelPrinter::checkStoreStrategy(ir::Node& node) {
  if (edit_) edit_(node);
  std::function<void(const ir::Node&)> walk = [&](const ir::Node& n) {
    for (const Transfer& transfer : kernel_.transfers) {
      if (n.name != buffer(transfer.to.buffer).name) continue;
      if (n.kind == ir::Node::Kind::kStore && stores_ == Stores::kAtomic)
        requireShape(n.atomic == atomicFunction(combineOf(transfer)),
                     "a store into " + n.name + " where points may write one element");
      if (n.kind == ir::Node::Kind::kVectorCopy)
        requireShape(stores_ == Stores::kPlain,
                     "a 16-byte copy into " + n.name + " where points may write one element");
    }
    for (const ir::Node& child : n.body) walk(child);
    for (const ir::Node& child : n.orElse) walk(child);
  };
  walk(node);
}

ir::Node CudaKernelPrinter::flush(const Transfer& transfer, const std::string& n,
                                  Store store) const {
  return ir::store(buffer(transfer.to.buffer).name, variable("idxmap_held" + n, width_),
                   ir::variableValue("idxmap_acc" + n),
                   store == Store::kAtomic ? atomicFunction(combineOf(transfer)) : "");
}

ir::Node CudaKernelPrinter::pendingUpdates(bool flushing, Store store) {
  std::vector<ir::Node> out;
  for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
    const Transfer& transfer = kernel_.transfers[t];
    const std::string n = std::to_string(t);
    if (flushing) {
      out.push_back(
          ir::ifThen(variable("idxmap_pending" + n, CWidth::k32), {flush(transfer, n, store)}));
    } else {
      out.push_back(ir::var("bool", "idxmap_pending" + n, ir::literalValue("false")));
      out.push_back(ir::var(typeName(width_), "idxmap_held" + n, ir::literalValue("0")));
      out.push_back(ir::var(storage(buffer(transfer.to.buffer)), "idxmap_acc" + n));
    }
  }
  ir::Node all = ir::block(std::move(out));
  if (flushing) checkStoreStrategy(all);
  return all;
}

std::string CudaKernelPrinter::kernelFunction(const std::string& part,
                                              std::vector<ir::Parameter> extra,
                                              std::vector<ir::Node> body) const {
  ir::GlobalFunction function{name(part), {}, std::move(body)};
  for (const KernelBuffer& b : kernel_.buffers)
    function.parameters.push_back(
        {(b.written ? "" : "const ") + storage(b), b.name, true, accessor(b)});
  if (kernel_.check) function.parameters.push_back({"int*", "idxmap_bad_index", false});
  for (ir::Parameter& p : extra) function.parameters.push_back(std::move(p));
  return printGlobalFunction(function, style());
}

std::string CudaKernelPrinter::pointsKernel() {
  if (stores_ == Stores::kSegmented) return segmentedKernel();
  const Store store = stores_ == Stores::kAtomic ? Store::kAtomic : Store::kInPlace;
  ir::Node points = checkedGrid(threads_.gridLoop({statement(dimVariables(), store)}), {},
                                "the thread's point decoding");
  if (store == Store::kInPlace) return kernelFunction("points", {}, {points});
  return kernelFunction("points", {},
                        {pendingUpdates(false, store), points, pendingUpdates(true, store)});
}

// The launcher (ir::LaunchFunction): the workspace holds a checked kernel's bad-index flag, the
// sorted path's keys and points (twice) and CUB's scratch, each region 256-byte aligned, their
// offsets fixed at print time (CUB's scratch last); a checked kernel's flag is the workspace's
// first int.
std::string CudaKernelPrinter::launcher() {
  const bool sorted =
      points_ > 0 && lanes_ == 0 && (stores_ == Stores::kSorted || stores_ == Stores::kSortedRows);
  const int64_t units = sortUnits();
  const std::string L = typeName(linear_), K = sorted ? keyType() : "", n = std::to_string(units);
  auto aligned = [](int64_t bytes) { return (bytes + 255) / 256 * 256; };
  const int64_t keys = kernel_.check ? 256 : 0;
  const int64_t keyBytes = sorted ? aligned(units * (keyBits() <= 32 ? 4 : 8)) : 0,
                pointBytes = sorted ? aligned(units * (linear_ == CWidth::k32 ? 4 : 8)) : 0;
  const int64_t scratch = keys + 2 * keyBytes + 2 * pointBytes;
  ir::LaunchFunction function{
      kernel_.symbol, entryBuffers(), std::to_string(scratch), kernel_.check && points_ > 0, {}};
  if (sorted)
    function.workspaceBytes += " + idxmap_sort_scratch_bytes<" + K + ", " + L + ">(" + n + ", " +
                               std::to_string(keyBits()) + ")";
  std::vector<ir::Node>& body = function.body;
  for (auto [into, from] : kernel_.initialCopies) body.push_back(initialCopy(into, from));
  if (points_ > 0) {
    if (kernel_.check) body.push_back(ir::badIndexFlag());
    if (lanes_ > 0) {
      body.push_back(ir::ifAligned(aligned_, 16,
                                   {ir::launch(name("vectors"), vectorThreads_, arguments())},
                                   {launch("points")}));
    } else if (!sorted) {
      body.push_back(launch("points"));
    } else {
      auto at = [](int64_t offset) { return std::to_string(offset); };
      body.push_back(ir::region(K, "idxmap_keys", {at(keys), at(keys + keyBytes)}));
      body.push_back(ir::region(L, "idxmap_points",
                                {at(keys + 2 * keyBytes), at(keys + 2 * keyBytes + pointBytes)}));
      body.push_back(launch("keys", {"idxmap_keys[0]", "idxmap_points[0]"}, units));
      body.push_back(ir::sortPairs(units, keyBits(), scratch, name("workspace_bytes")));
      body.push_back(launch("apply", {"idxmap_keys[1]", "idxmap_points[1]"}));
    }
  }
  return printLaunchFunction(function);
}

PrintedKernel printCudaKernel(const Kernel& kernel, const CudaOptions& options) {
  return printCudaKernel(kernel, options, nullptr);
}

PrintedKernel printCudaKernel(const Kernel& kernel, const CudaOptions& options,
                              const std::function<void(ir::Node&)>& edit) {
  CudaKernelPrinter printer(kernel, options, edit);
  return printer.print();
}

}  // namespace idxmap::codegen
