#include "codegen/cpp_kernel.h"

#include <algorithm>

#include "codegen/index_code.h"
#include "codegen/loop_nest.h"
#include "codegen/prelude.h"
#include "codegen/validation.h"

namespace idxmap::codegen {
namespace {

std::string pad(int n) { return std::string(static_cast<size_t>(n), ' '); }

std::string proofLabel(const ProofResult& proof) {
  std::string label = "proven (" + proof.method + ")";
  for (size_t i = 0; i < proof.assumptions.size(); ++i)
    label += (i ? ", " : " assuming ") + proof.assumptions[i];
  return label;
}

// The points of the loop nest's box: what decides whether threads pay off.
int64_t boxPoints(const IndexingMap& map) {
  int64_t points = 1;
  for (const Variable& v : map.dims) {
    int64_t size = v.range.isEmpty() ? 0 : v.range.hi - v.range.lo + 1;
    if (size != 0 && points > INT64_MAX / size) return INT64_MAX;
    points *= size;
  }
  return points;
}

class KernelPrinter {
 public:
  explicit KernelPrinter(const Kernel& kernel)
      : kernel_(kernel),
        width_(kernel.int32 ? CWidth::k32 : CWidth::k64),
        lowering_(kernel.map, width_),
        guardLowering_(kernel.map, width_, "v", CWidth::k64),
        validator_(kernel.map, declared()) {}

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
  std::vector<DeclaredVariable> declared() const {
    std::vector<DeclaredVariable> out = IndexLowering(kernel_.map, width_).declared();
    for (size_t k = 0; k < kernel_.map.runtimeVars.size(); ++k)
      out.push_back({"v" + std::to_string(k), CWidth::k64});
    return out;
  }

  void require(const ProofResult& result, const std::string& what) {
    if (result.isProven()) return;
    std::string detail = result.counterexample ? result.counterexample->explanation : result.reason;
    throw ValidationError(kernel_.op + " at " + kernel_.location + ": " + what +
                              (result.isRefuted() ? " is refuted: " : " is not proven: ") + detail,
                          result);
  }

  const KernelBuffer& buffer(size_t index) const { return kernel_.buffers.at(index); }

  std::string storage(const KernelBuffer& b) const {
    std::optional<std::string> type = storageType(b.elementType);
    if (!type)
      throw Error(kernel_.op + " at " + kernel_.location + ": element type " + b.elementType +
                  " of " + b.name + " has no kernel storage type");
    return *type;
  }

  std::vector<EntryBuffer> entryBuffers() const {
    std::vector<EntryBuffer> out;
    for (const KernelBuffer& b : kernel_.buffers)
      out.push_back({b.name, storage(b), b.written, b.elements()});
    return out;
  }

  std::string initialCopies() const {
    std::string out;
    for (auto [into, from] : kernel_.initialCopies)
      out += "  if (" + buffer(into).name + " != " + buffer(from).name + ") std::memcpy(" +
             buffer(into).name + ", " + buffer(from).name + ", sizeof(" + storage(buffer(into)) +
             ") * " + std::to_string(buffer(into).elements()) + ");\n";
    return out;
  }

  // An offset as printed, validated against its Expr and the buffer's size.
  std::string offset(const std::string& role, const Access& access, Where where) {
    std::string text = printCExpr(lowering_.lower(access.offset));
    require(validator_.checkExpression(role + " " + buffer(access.buffer).name, text, access.offset,
                                       where, buffer(access.buffer).elements()),
            "offset into " + buffer(access.buffer).name);
    return text;
  }

  std::string guardText() {
    std::string text;
    const IndexingMap& map = kernel_.map;
    for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
      std::string v = "v" + std::to_string(k);
      text += std::string(k ? " && " : "") + v +
              " >= " + printCExpr(literal(map.runtimeVars[k].range.lo)) + " && " + v +
              " <= " + printCExpr(literal(map.runtimeVars[k].range.hi));
    }
    for (const Constraint& c : map.constraints) {
      if (usesOnlyDims(c.expr)) continue;  // the loop nest enforces it
      std::string e = printCExpr(guardLowering_.lower(c.expr));
      text += " && " + e + " >= " + printCExpr(literal(c.range.lo)) + " && " + e +
              " <= " + printCExpr(literal(c.range.hi));
    }
    require(validator_.checkGuard(text), "the skip test");
    return text;
  }

  std::string statement(const std::vector<CExpr>& point, int indent) {
    const std::string W = typeName(width_);
    std::string out = pad(indent) + "{\n";
    int at = indent + 2;
    for (size_t i = 0; i < point.size(); ++i) {
      std::string name = "d" + std::to_string(i);
      if (point[i]->op != COp::kVariable || point[i]->name != name)
        out += pad(at) + "const " + W + " " + name + " = " + printCExpr(point[i]) + ";\n";
    }
    const IndexingMap& map = kernel_.map;
    for (size_t k = 0; k < kernel_.loads.size(); ++k) {
      std::string value =
          "static_cast<int64_t>(" + buffer(kernel_.loads[k].buffer).name + "[" +
          offset("load of rt" + std::to_string(k) + " from", kernel_.loads[k], Where::kBox) + "])";
      if (k < kernel_.wrapNegative.size() && kernel_.wrapNegative[k] != 0)
        value =
            "idxmap_wrap_negative(" + value + ", " + std::to_string(kernel_.wrapNegative[k]) + ")";
      out += pad(at) + "const int64_t v" + std::to_string(k) + " = " + value + ";\n";
    }
    std::string closing;
    if (kernel_.guard || kernel_.check) {
      out += pad(at) + "if (" + guardText() + ") {\n";
      closing = pad(at) + "}\n";
      if (kernel_.check)
        closing = pad(at) + "} else {\n" + pad(at + 2) +
                  "std::atomic_ref<int>(idxmap_bad_index).store(1, std::memory_order_relaxed);\n" +
                  closing;
      at += 2;
    }
    for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
      std::string v = "v" + std::to_string(k);
      std::string value = kernel_.clamp
                              ? "idxmap_clamp<int64_t>(" + v + ", " +
                                    printCExpr(literal(map.runtimeVars[k].range.lo)) + ", " +
                                    printCExpr(literal(map.runtimeVars[k].range.hi)) + ")"
                              : v;
      out += pad(at) + "const " + W + " rt" + std::to_string(k) + " = static_cast<" + W + ">(" +
             value + ");\n";
    }
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
    const std::string lo = std::to_string(range->first), hi = std::to_string(range->second);
    const std::string W = typeName(width_);
    std::string out;
    if (atRunStarts) {
      out =
          "  // Sorted indices: updates that write one element share a run of equal index "
          "vectors\n  // along d0; threads split d0 at run boundaries and keep row-major order "
          "inside.\n";
      out += "  auto idxmap_run_starts_at = [&](" + W + " d0) {\n    return d0 <= " + lo +
             " || d0 > " + hi;
      for (size_t k = 0; k < kernel_.loads.size(); ++k) {
        // The load's offset is validated (over the box) where the statements read it; here it
        // is read at d0 and d0 - 1, both inside d0's range.
        std::string at =
            offset("load of rt" + std::to_string(k) + " from", kernel_.loads[k], Where::kBox);
        const std::string& name = buffer(kernel_.loads[k].buffer).name;
        out += " ||\n           [&](" + W + " d0) { return " + name + "[" + at +
               "]; }(d0) != [&](" + W + " d0) { return " + name + "[" + at + "]; }(d0 - 1)";
      }
      out += ";\n  };\n";
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
    return printLoopNest(nest, 2, statementText,
                         independentPragmas(threaded, !innermostLoadsGather()));
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

  std::string header() const {
    std::string out = "// idxmap kernel: " + kernel_.op + " at " + kernel_.location + "\n";
    for (const auto& [name, map] : kernel_.maps) out += "// " + name + ": " + oneLine(map) + "\n";
    for (const ReliedFact& fact : kernel_.facts)
      out += "// " + proofLabel(fact.proof) + ": " + fact.statement + "\n";
    for (const LoweringFact& fact : lowering_.facts())
      out += "// proven (" + fact.method + "): " + fact.statement + "\n";
    for (const LoweringFact& fact : guardLowering_.facts())
      out += "// proven (" + fact.method + "): " + fact.statement + "\n";
    for (const std::string& note : kernel_.notes) out += "// " + note + "\n";
    for (const std::string& certificate : validator_.certificates())
      out += certificateComment(certificate);
    return out;
  }

  const Kernel& kernel_;
  CWidth width_;
  IndexLowering lowering_;
  IndexLowering guardLowering_;
  KernelValidator validator_;
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
