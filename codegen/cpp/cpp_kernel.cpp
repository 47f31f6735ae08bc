#include "codegen/cpp/cpp_kernel.h"

#include <algorithm>

#include "codegen/cpp/kernel_text.h"
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

  PrintedKernel print() {
    std::vector<EntryBuffer> entry = entryBuffers();
    std::string body =
        entrySignature(kernel_.symbol, entry) + " {\n" + sizeChecks(entry) + initialCopies();
    if (!kernel_.map.knownEmpty) {
      if (kernel_.check)
        body += "  int idxmap_bad_index = 0;  // set by any thread that meets one\n";
      body += loops();
      if (kernel_.check) body += "  if (idxmap_bad_index) return 2;\n";
    }
    body += "  return 0;\n}\n" + packedEntry(kernel_.symbol, entry);
    require(validator_.checkBitWidths(), "int32_t arithmetic");
    return {header() + body, validator_.certificates()};
  }

 private:
  std::string initialCopies() const {
    std::string out;
    for (auto [into, from] : kernel_.initialCopies)
      out += "  if (" + buffer(into).name + " != " + buffer(from).name + ") idxmap_copy(" +
             buffer(into).name + ", " + buffer(from).name + ", sizeof(" + storage(buffer(into)) +
             ") * " + std::to_string(buffer(into).elements()) + ");\n";
    return out;
  }

  std::string statement(const std::vector<CExpr>& point, int indent) {
    OpenStatement open = openStatement(
        point, indent,
        "std::atomic_ref<int>(idxmap_bad_index).store(1, std::memory_order_relaxed);");
    std::string out = std::move(open.text), closing = std::move(open.closing);
    int at = open.indent;
    if (ownership_ == Ownership::kRuntimeVar) {
      const std::string rt = "rt" + std::to_string(kernel_.splitIndex);
      out += pad(at) + "if (" + rt + " >= idxmap_first && " + rt + " < idxmap_last) {\n";
      closing = pad(at) + "}\n" + closing;
      at += 2;
    }
    for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
      const Transfer& transfer = kernel_.transfers[t];
      std::string to = offset("store to", transfer.to, Where::kGuarded);
      std::string from = offset("load from", transfer.from, Where::kGuarded);
      std::string target = buffer(transfer.to.buffer).name + "[" + to + "]";
      std::string source = buffer(transfer.from.buffer).name + "[" + from + "]";
      std::string line = transfer.combine.empty() ? target + " = " + source + ";\n"
                                                  : target + " = " + transfer.combine + "(" +
                                                        target + ", " + source + ");\n";
      if (ownership_ == Ownership::kTargetElement && t == 0) {
        out += pad(at) + "const int64_t idxmap_target = " + to + ";\n";
        out += pad(at) + "if (idxmap_target >= idxmap_first && idxmap_target < idxmap_last) {\n";
        closing = pad(at) + "}\n" + closing;
        at += 2;
      }
      out += pad(at) + line;
    }
    return out + closing + pad(indent) + "}\n";
  }

  // Threads take shares of one dim's loop (narrowLoop); each runs the validated nest over its
  // share in row-major order. `atRunStarts` (sorted indices, dim 0): both ends of a share move
  // forward to the start of a run (a d0 whose index vector differs from the one before), so a
  // run is never split; the shares still partition the range, as the same monotone move
  // applies to shared boundaries.
  std::optional<std::string> sharedLoops(
      LoopNest nest, unsigned dim, bool atRunStarts, const std::string& threaded,
      const std::function<std::string(const std::vector<CExpr>&, int)>& statementText) {
    const std::string d = "d" + std::to_string(dim);
    std::optional<std::pair<int64_t, int64_t>> range =
        narrowLoop(nest, d, "idxmap_first", "idxmap_last");
    if (!range) return std::nullopt;
    // The narrowed nest as printed: every share [first, last) of the range (idxmap_thread_range's
    // shares partition it, and moving both ends to run starts keeps them a partition) gets
    // exactly the domain's points there.
    require(validator_.checkLoopNest(
                nest,
                KernelValidator::ThreadShare{
                    d, "idxmap_first", "idxmap_last", {range->first, range->second}}),
            "each thread's share of " + d);
    const std::string lo = std::to_string(range->first);
    std::string out;
    if (atRunStarts) {
      out =
          "  // Sorted indices: updates that write one element share a run of equal index "
          "vectors\n  // along d0; threads split d0 at run boundaries and keep row-major order "
          "inside.\n";
      out += runStartTest(range->first, range->second, 2);
    } else {
      out = "  // Points that differ in " + d +
            " never write one element: threads split it and keep row-major order\n"
            "  // inside, so each element sees its updates in order, for any number of threads.\n";
    }
    out += "#pragma omp parallel if (" + threaded +
           ")\n  {\n    int64_t idxmap_first, idxmap_last;\n    idxmap_thread_range(" +
           std::to_string(range->second - range->first + 1) +
           ", &idxmap_first, &idxmap_last);\n    idxmap_first += " + lo +
           ";\n    idxmap_last += " + lo + ";\n";
    if (atRunStarts)
      out +=
          "    while (!idxmap_run_starts_at(idxmap_first)) ++idxmap_first;\n"
          "    while (!idxmap_run_starts_at(idxmap_last)) ++idxmap_last;\n";
    out += printLoopNest(nest, 4, statementText, LoopPragmas{});
    return out + "  }\n";
  }

  std::string loops() {
    LoopNest nest = buildLoopNest(kernel_.map, width_);
    require(validator_.checkLoopNest(nest), "the loop nest");
    // Threads only pay off past IDXMAP_PARALLEL_GRAIN points (a constant the compiler folds;
    // tests lower it to run small kernels in parallel).
    const std::string points = std::to_string(boxPoints(kernel_.map));
    const std::string threaded = points + " >= IDXMAP_PARALLEL_GRAIN";
    auto statementText = [&](const std::vector<CExpr>& point, int indent) {
      return statement(point, indent);
    };
    ownership_ = Ownership::kAll;
    using SplitBy = Kernel::SplitBy;
    if (kernel_.strategy == Strategy::kSegmented)
      if (std::optional<std::string> out = sharedLoops(nest, 0, true, threaded, statementText))
        return *out;
    if (kernel_.strategy == Strategy::kOrdered && kernel_.splitBy == SplitBy::kDim)
      if (std::optional<std::string> out =
              sharedLoops(nest, kernel_.splitIndex, false, threaded, statementText))
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
      // The test statement() prints (the target's offset, a validated expression, in place of
      // the idxmap_target it is stored in): exactly the points whose owner is in the share.
      const Transfer& first = kernel_.transfers.at(0);
      const std::string owner = byValue ? "rt" + std::to_string(kernel_.splitIndex)
                                        : "(" + offset("store to", first.to, Where::kGuarded) + ")";
      require(
          validator_.checkOwnership(
              "each thread's updates", owner + " >= idxmap_first && " + owner + " < idxmap_last",
              byValue ? Expr::runtimeVar(kernel_.splitIndex) : first.to.offset,
              {lo, lo + count - 1}, "idxmap_first", "idxmap_last"),
          "the threads' ownership test");
      std::string out =
          std::string(
              "  // Writes may collide: every thread walks all points in row-major order "
              "and applies\n  // those ") +
          (byValue ? "whose rt" + std::to_string(kernel_.splitIndex) +
                         " (which one target coordinate is) lies in its share,"
                   : "whose target lies in its own range,") +
          " so each element sees its\n  // updates in order and the result is the same for any "
          "number of threads.\n#pragma omp parallel if (" +
          threaded + ")\n  {\n    int64_t idxmap_first, idxmap_last;\n" +
          "    idxmap_thread_range(" + std::to_string(count) + ", &idxmap_first, &idxmap_last);\n";
      if (lo != 0)
        out += "    idxmap_first += " + std::to_string(lo) +
               ";\n    idxmap_last += " + std::to_string(lo) + ";\n";
      out += printLoopNest(nest, 4, statementText, LoopPragmas{});
      return out + "  }\n";
    }
    // Independent points: threads share the outer loops (collapsed only as far as it takes to
    // have enough chunks: collapsing costs a division per point), and the innermost loop is
    // vectorized (no two of its points write one element).
    LoopPragmas pragmas = independentPragmas(threaded, !innermostLoadsGather());
    if (std::optional<int64_t> span = prefetchedRow()) {
      pragmas.bodyStartIterator = "d0";
      pragmas.bodyStart = [this, span](int indent) { return rowPrefetch(*span, indent); };
    }
    return printLoopNest(nest, 2, statementText, pragmas);
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
  std::string rowPrefetch(int64_t span, int indent) {
    const IndexingMap& map = kernel_.map;
    const std::string W = typeName(width_);
    const KernelBuffer& from = buffer(kernel_.transfers[0].from.buffer);
    const int64_t elementBytes = storageBytes(from.elementType).value_or(1);
    const int64_t bytes = span * elementBytes;
    std::string out = pad(indent) + "// The row that d0 + " + std::to_string(kPrefetchDistance) +
                      " reads, fetched ahead (a hint; it changes no value).\n" + pad(indent) +
                      "if (d0 <= " + std::to_string(map.dims[0].range.hi - kPrefetchDistance) +
                      ") {\n" + pad(indent + 2) + "const " + W + " idxmap_ahead = d0 + " +
                      std::to_string(kPrefetchDistance) + ";\n" + pad(indent + 2) + "{\n";
    const int at = indent + 4;
    out += pad(at) + "const " + W + " d0 = idxmap_ahead;\n";
    for (unsigned d = 1; d < map.dims.size(); ++d)
      out += pad(at) + "const " + W + " d" + std::to_string(d) + " = " +
             printCExpr(literal(map.dims[d].range.lo)) + ";\n";
    for (size_t k = 0; k < kernel_.loads.size(); ++k)
      out += pad(at) + "const " + W + " rt" + std::to_string(k) + " = static_cast<" + W + ">(" +
             loadedValue(k) + ");\n";
    out += pad(at) + "const char* idxmap_row = reinterpret_cast<const char*>(&" + from.name + "[" +
           offset("load from", kernel_.transfers[0].from, Where::kGuarded) + "]);\n";
    out += pad(at) + "for (int idxmap_line = 0; idxmap_line < " + std::to_string(bytes) +
           "; idxmap_line += 64) __builtin_prefetch(idxmap_row + idxmap_line);\n";
    return out + pad(indent + 2) + "}\n" + pad(indent) + "}\n";
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

  // How a statement of an ordered kernel whose threads all walk every point tells whether the
  // point is its thread's: by the target element, or by a runtime variable's value.
  enum class Ownership : uint8_t { kAll, kTargetElement, kRuntimeVar };
  Ownership ownership_ = Ownership::kAll;
};

}  // namespace

PrintedKernel printCppKernel(const Kernel& kernel) {
  // The header lists validation's certificates, so it is written after the body.
  KernelPrinter printer(kernel);
  return printer.print();
}

}  // namespace idxmap::codegen
