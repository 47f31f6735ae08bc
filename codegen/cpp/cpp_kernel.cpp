#include "codegen/cpp/cpp_kernel.h"

#include <algorithm>

#include "codegen/cpp/ir_printer.h"
#include "codegen/cpp/kernel_text.h"
#include "codegen/ir/loops.h"
#include "codegen/kernel/index_code.h"
#include "codegen/kernel/loop_nest.h"
#include "codegen/prelude/prelude.h"
#include "codegen/validate/validation.h"
#include "simplifier/linear_form.h"

namespace idxmap::codegen {
namespace {

class KernelPrinter : KernelText {
 public:
  explicit KernelPrinter(const Kernel& kernel) : KernelText(kernel) {}

  PrintedKernel print(const std::function<void(ir::Function&)>& edit) {
    ir::Function function{kernel_.symbol, entryBuffers(), "", width_, boxPoints(kernel_.map), {}};
    for (auto [into, from] : kernel_.initialCopies)
      function.body.push_back(initialCopy(into, from));
    if (!kernel_.map.knownEmpty) {
      if (kernel_.check) function.body.push_back(ir::badIndexFlag());
      for (ir::Node& node : loops()) function.body.push_back(std::move(node));
      if (kernel_.check) function.body.push_back(ir::returnIfBad());
    }
    if (edit) edit(function);
    // Validated from the IR alone, then the int32_t arithmetic of every expression proven.
    checkKernel(function);
    require(validator_.checkBitWidths(), "int32_t arithmetic");
    // The header lists validation's certificates, so it is written last.
    function.header = header();
    return {ir::printCppFunction(function), validator_.certificates()};
  }

 private:
  // The point's stores, inside the test of whether the point is its thread's where threads
  // walk every point.
  std::vector<ir::Node> stores() {
    std::vector<ir::Node> stores;
    CExpr firstTarget;
    if (kernel_.coupled) {
      stores = coupledStores();
      firstTarget = offsetExpr("store to", kernel_.transfers[0].to, Where::kGuarded);
    } else {
      for (const Transfer& transfer : kernel_.transfers) {
        const CExpr to = offsetExpr("store to", transfer.to, Where::kGuarded);
        const CExpr from = offsetExpr("load from", transfer.from, Where::kGuarded);
        const std::string& target = buffer(transfer.to.buffer).name;
        ir::Value source = ir::loadValue(buffer(transfer.from.buffer).name, from);
        if (!transfer.combine.empty())
          source = ir::callValue(transfer.combine, {ir::loadValue(target, to), source});
        stores.push_back(ir::store(target, to, source));
        if (!firstTarget) firstTarget = to;
      }
    }
    auto owned = [](const CExpr& owner) {
      return binary(COp::kAnd,
                    binary(COp::kGreaterEqual, owner, variable("idxmap_first", CWidth::k64)),
                    binary(COp::kLess, owner, variable("idxmap_last", CWidth::k64)));
    };
    std::vector<ir::Node> inner;
    switch (ownership_) {
      case Ownership::kNone:
        inner = std::move(stores);
        break;
      case Ownership::kRuntimeVar:
        inner.push_back(ir::ifThen(
            owned(variable("rt" + std::to_string(kernel_.splitIndex), width_)), std::move(stores)));
        break;
      case Ownership::kTargetElement:
        inner.push_back(ir::let("int64_t", "idxmap_target", ir::indexValue(firstTarget)));
        inner.push_back(
            ir::ifThen(owned(variable("idxmap_target", CWidth::k64)), std::move(stores)));
        break;
    }
    return inner;
  }

  ir::Node statement(const std::vector<CExpr>& point) {
    return statementAt(point, [&] { return stores(); });
  }

  std::vector<ir::Node> statements(const LoopNest& nest) {
    return ir::fromLoopNest(nest,
                            [&](const std::vector<CExpr>& point) { return statement(point); });
  }

  // Threads take shares of one dim's loop (narrowLoop); each runs the validated nest over its
  // share in row-major order. `atRunStarts` (sorted indices, dim 0): both ends of a share move
  // forward to the start of a run (a d0 whose index vector differs from the one before), so a
  // run is never split; the shares still partition the range, as the same monotone move
  // applies to shared boundaries.
  std::optional<std::vector<ir::Node>> sharedLoops(LoopNest nest, unsigned dim, bool atRunStarts) {
    const std::string d = "d" + std::to_string(dim);
    std::optional<std::pair<int64_t, int64_t>> range =
        narrowLoop(nest, d, "idxmap_first", "idxmap_last");
    if (!range) return std::nullopt;
    std::vector<ir::Node> out;
    if (atRunStarts) {
      out.push_back(ir::comment(
          "Sorted indices: updates that write one element share a run of equal index vectors\n"
          "along d0; threads split d0 at run boundaries and keep row-major order inside."));
      out.push_back(runStarts(range->first, range->second));
    } else {
      out.push_back(ir::comment("Points that differ in " + d +
                                " never write one element: threads split it and keep row-major "
                                "order\ninside, so each element sees its updates in order, for "
                                "any number of threads."));
    }
    std::vector<ir::Node> team{ir::threadShare("idxmap_first", "idxmap_last", range->first,
                                               range->second - range->first + 1)};
    if (atRunStarts) {
      team.push_back(ir::toRunStart("idxmap_first"));
      team.push_back(ir::toRunStart("idxmap_last"));
    }
    for (ir::Node& node : statements(nest)) team.push_back(std::move(node));
    out.push_back(ir::threads(std::move(team)));
    return out;
  }

  std::vector<ir::Node> loops() {
    LoopNest nest = buildLoopNest(kernel_.map, width_);
    ownership_ = Ownership::kNone;
    using SplitBy = Kernel::SplitBy;
    if (kernel_.strategy == Strategy::kSegmented)
      if (std::optional<std::vector<ir::Node>> out = sharedLoops(nest, 0, true)) return *out;
    if (kernel_.strategy == Strategy::kOrdered && kernel_.splitBy == SplitBy::kDim)
      if (std::optional<std::vector<ir::Node>> out = sharedLoops(nest, kernel_.splitIndex, false))
        return *out;
    // Otherwise every thread walks every point in row-major order and applies those it owns:
    // by a runtime variable's value, or (also where a share of a dim's loop was not possible)
    // by the target element.
    if (kernel_.strategy != Strategy::kIndependent) {
      const bool byValue =
          kernel_.strategy == Strategy::kOrdered && kernel_.splitBy == SplitBy::kRuntimeVar;
      ownership_ = byValue ? Ownership::kRuntimeVar : Ownership::kTargetElement;
      int64_t lo = 0, count = buffer(kernel_.transfers.at(0).to.buffer).elements();
      if (byValue) {
        const Interval& range = kernel_.map.runtimeVars.at(kernel_.splitIndex).range;
        lo = range.lo;
        count = range.hi - range.lo + 1;
      }
      std::vector<ir::Node> team{ir::threadShare("idxmap_first", "idxmap_last", lo, count)};
      for (ir::Node& node : statements(nest)) team.push_back(std::move(node));
      std::vector<ir::Node> out;
      out.push_back(ir::comment(
          "Writes may collide: every thread walks all points in row-major order and applies\n"
          "those " +
          (byValue ? "whose rt" + std::to_string(kernel_.splitIndex) +
                         " (which one target coordinate is) lies in its share,"
                   : std::string("whose target lies in its own range,")) +
          " so each element sees its\nupdates in order and the result is the same for any "
          "number of threads."));
      out.push_back(ir::threads(std::move(team)));
      return out;
    }
    // Independent points: threads share the outer loops (collapsed only as far as it takes to
    // have enough chunks: collapsing costs a division per point), and the innermost loop is
    // vectorized (no two of its points write one element). The prefetch is built first: its
    // proofs come before the statement's in the header, as its code comes before theirs.
    std::vector<ir::Node> ahead;
    if (std::optional<int64_t> span = prefetchedRow()) ahead = rowPrefetch(*span);
    std::vector<ir::Node> out = statements(nest);
    ir::mapIndependentLoops(out, !innermostLoadsGather(), "d0", ahead);
    return out;
  }

  // How far ahead a row gather fetches: 8 iterations of d0 overlap the next rows' cache and TLB
  // misses with this row's copy (2 threads, 256-byte rows from a 256 MB table: 4.8 -> 3.5 ms;
  // 4, 16 and 32 do no better).
  static constexpr int64_t kPrefetchDistance = 8;

  // The elements a row gather reads at one d0 (from the row's first, inner dims at their lower
  // bounds): the kernel copies independent points, loads its index values at offsets of d0 alone
  // and reads one buffer through them, every index proven in bounds (no clamp, no guard), and
  // its inner dims step forward through 128 bytes to 1 KiB of it (a longer row's own stream
  // keeps the hardware prefetcher busy: 4 KiB rows were no faster). Nullopt otherwise.
  std::optional<int64_t> prefetchedRow() const {
    const IndexingMap& map = kernel_.map;
    if (kernel_.strategy != Strategy::kIndependent || kernel_.clamp || kernel_.guard ||
        kernel_.check || kernel_.loads.empty() || kernel_.transfers.size() != 1 ||
        map.dims.size() < 2 || map.dims[0].range.hi - map.dims[0].range.lo < kPrefetchDistance)
      return std::nullopt;
    for (int64_t wrap : kernel_.wrapNegative)
      if (wrap != 0) return std::nullopt;
    if (buffer(kernel_.transfers[0].from.buffer).packedBits)
      return std::nullopt;  // an element of a packed row has no address
    auto readsIndexValues = [&](Expr e) {
      for (unsigned k = 0; k < map.runtimeVars.size(); ++k)
        if (e.uses(ExprKind::RuntimeVar, k)) return true;
      return false;
    };
    for (const Access& load : kernel_.loads) {
      if (readsIndexValues(load.offset)) return std::nullopt;
      for (unsigned d = 1; d < map.dims.size(); ++d)
        if (load.offset.uses(ExprKind::Dim, d)) return std::nullopt;
    }
    const Expr from = kernel_.transfers[0].from.offset;
    if (!readsIndexValues(from)) return std::nullopt;
    int64_t span = 1;
    for (const LinearTerm& term : LinearForm::of(from).terms) {
      if (term.atom.kind() != ExprKind::Dim || term.atom.variableIndex() == 0) continue;
      const Interval& range = map.dims[term.atom.variableIndex()].range;
      int64_t reach = 0;
      if (term.coefficient < 0 ||
          __builtin_mul_overflow(term.coefficient, range.hi - range.lo, &reach) ||
          __builtin_add_overflow(span, reach, &span))
        return std::nullopt;
    }
    const int64_t bytes =
        span * storageBytes(buffer(kernel_.transfers[0].from.buffer).elementType).value_or(1);
    if (bytes < 128 || bytes > 1024) return std::nullopt;
    return span;
  }

  // At the start of iteration d0: the row iteration d0 + kPrefetchDistance reads, asked for
  // with __builtin_prefetch a cache line at a time. A hint: it changes no value; the load and
  // the row's address are the statement's own expressions, validated.
  std::vector<ir::Node> rowPrefetch(int64_t span) {
    const IndexingMap& map = kernel_.map;
    const std::string W = typeName(width_);
    const KernelBuffer& from = buffer(kernel_.transfers[0].from.buffer);
    const int64_t elementBytes = storageBytes(from.elementType).value_or(1);
    std::vector<ir::Node> ahead{ir::let(W, "d0", ir::variableValue("idxmap_ahead"))};
    for (unsigned d = 1; d < map.dims.size(); ++d)
      ahead.push_back(
          ir::let(W, "d" + std::to_string(d), ir::indexValue(literal(map.dims[d].range.lo))));
    for (size_t k = 0; k < kernel_.loads.size(); ++k)
      ahead.push_back(ir::let(W, "rt" + std::to_string(k), ir::castValue(W, loadedValue(k))));
    ahead.push_back(ir::prefetch(
        ir::addressValue(from.name,
                         offsetExpr("load from", kernel_.transfers[0].from, Where::kGuarded)),
        span * elementBytes));
    const CExpr d0 = variable("d0", width_);
    return {
        ir::comment("The row that d0 + " + std::to_string(kPrefetchDistance) +
                    " reads, fetched ahead (a hint; it changes no value)."),
        ir::ifThen(binary(COp::kLessEqual, d0, literal(map.dims[0].range.hi - kPrefetchDistance)),
                   {ir::let(W, "idxmap_ahead",
                            ir::indexValue(binary(COp::kAdd, d0, literal(kPrefetchDistance)))),
                    ir::block(std::move(ahead), true)})};
  }

  // Whether a runtime variable is loaded at an index that the innermost dim (the last with
  // more than one value) moves: then the innermost loop reads through loaded indices, and
  // `omp simd` would force vector gathers, slower than scalar loads on common x86 cores (AMD
  // EPYC here: 10.3 against 7.7 ms on a 4M-element gather); the compiler's cost model decides.
  bool innermostLoadsGather() const {
    const std::vector<Variable>& dims = kernel_.map.dims;
    for (size_t d = dims.size(); d-- > 0;) {
      if (dims[d].range.hi <= dims[d].range.lo) continue;
      for (const Access& load : kernel_.loads)
        if (load.offset.uses(ExprKind::Dim, static_cast<unsigned>(d))) return true;
      return false;
    }
    return false;
  }

  Ownership ownership_ = Ownership::kNone;  // the statements' (KernelText::Ownership)
};

}  // namespace

PrintedKernel printCppKernel(const Kernel& kernel) { return printCppKernel(kernel, nullptr); }

PrintedKernel printCppKernel(const Kernel& kernel, const std::function<void(ir::Function&)>& edit) {
  KernelPrinter printer(kernel);
  return printer.print(edit);
}

}  // namespace idxmap::codegen
