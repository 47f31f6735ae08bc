// What the C++ and the CUDA printers of a Kernel share (codegen/cpp/ and codegen/cuda/): the
// index lowerings, the validator that checks every printed expression, the entry's buffers, and
// one point's statement up to its stores (the point's dims, the loaded runtime values, the skip
// test and the clamps). Each target adds how points reach threads and how stores are made.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "codegen/cpp/cpp_kernel.h"
#include "codegen/cpp/ir_printer.h"
#include "codegen/ir/kernel_ir.h"
#include "codegen/kernel/index_code.h"
#include "codegen/kernel/kernel.h"
#include "codegen/kernel/loop_nest.h"
#include "codegen/validate/validation.h"

namespace idxmap::codegen {

std::string pad(int n);
// The points of the box of a map's dims (INT64_MAX when that overflows): what decides whether
// threads pay off, and how many a CUDA kernel's threads cover.
int64_t boxPoints(const IndexingMap& map);

class KernelText {
 public:
  explicit KernelText(const Kernel& kernel);

 protected:
  // The statement at one point (`point`: the dims' values; a plain d<i> is not redeclared), with
  // `inner()` (its stores) inside every test it opens: a scope that declares the loaded values
  // v<k>, the skip test (whose else reports a bad index under Kernel::check) and rt<k>.
  ir::Node statementAt(const std::vector<CExpr>& point,
                       const std::function<std::vector<ir::Node>()>& inner);
  // Such a statement validated from its IR alone: each v<k> loads the kernel's index at an
  // offset proven to be the op's, the skip test holds exactly on the map's domain (its else
  // reports a bad index under Kernel::check, and nothing else), each rt<k> is its loaded value as
  // the op takes it (clamped where it clamps). Returns the nodes inside (the stores and what
  // selects them) for the caller to check; a node of another shape is not proven.
  std::span<const ir::Node> checkOpening(const ir::Node& statement);
  // A coupled update's statement (Kernel::coupled): every new value held, each from every
  // target's element and every source, before the stores of them. `prefetched`: the sources are
  // a tile's prefetched values (idxmap_source<t>[...], proven where they were loaded).
  void checkCoupledStores(std::span<const ir::Node> stores, bool prefetched = false);
  // `value` is runtime variable k's loaded value as loadedValue builds it: its index read at
  // an offset proven to be the kernel's load (wrapped where ONNX's negatives wrap).
  void checkLoadedValue(size_t k, ir::Value value);
  // `offset` (as printed) proven to be `access`'s offset where `where` says, inside its buffer;
  // a text proven once is not asked again.
  void proveOffset(const std::string& role, const CExpr& offset, const Access& access, Where where);
  // Throws ValidationError (not proven) unless `holds`: `what` names the node.
  void requireShape(bool holds, const std::string& what);
  // A run-start test (kRunStarts) over d0 in `shares`: it loads the kernel's indices, at offsets
  // proven over the box.
  void checkRunStarts(const ir::Node& runs, Interval shares);
  // A C++ gather/scatter kernel (cpp_kernel.cpp) validated from its IR alone (kernel_check.cpp):
  // the initial copies are the kernel's, the loop nest (or each thread's share of a dim's loop)
  // enumerates exactly the domain's points, threads and SIMD lanes run points at once only where
  // no two write one element (Strategy::kIndependent), threads that walk every point apply only
  // those they own (the ownership test proven a partition), the run-start test loads the
  // kernel's indices, every statement's opening (checkOpening), stores and prefetches are the
  // op's. The int32_t width is the caller's to check, after.
  void checkKernel(const ir::Function& function);

  // How a statement tells whether its point is its thread's, where every thread of a team walks
  // every point (ordered kernels): by its target element, or by a runtime variable's value
  // (Kernel::splitIndex); kNone where threads take points of their own.
  enum class Ownership : uint8_t { kNone, kTargetElement, kRuntimeVar };

  // Throws ValidationError unless `result` is proven.
  void require(const ProofResult& result, const std::string& what);
  const KernelBuffer& buffer(size_t index) const { return kernel_.buffers.at(index); }
  std::string storage(const KernelBuffer& b) const;
  std::vector<EntryBuffer> entryBuffers() const;
  // A packed buffer's parameter type (idxmap_packed over its bytes); empty for any other.
  std::string accessor(const KernelBuffer& b) const;
  // The initial copy of buffer `from` into `into`: every element, or every byte of packed ones.
  ir::Node initialCopy(size_t into, size_t from) const;
  // A coupled kernel's stores (Kernel::coupled): each transfer's new value held first
  // (idxmap_new<t>, its combine of every target's element and every source value), then each
  // stored. `sources`: the source values when the caller has them; empty: loaded here.
  std::vector<ir::Node> coupledStores(const std::vector<ir::Value>& sources = {});
  // An offset as printed, validated against its Expr and the buffer's size (once: the same
  // access printed again, as a run-start test or a prefetch reads a load, reuses the proof).
  CExpr offsetExpr(const std::string& role, const Access& access, Where where);
  std::string offset(const std::string& role, const Access& access, Where where) {
    return printCExpr(offsetExpr(role, access, where));
  }
  // The declaration of idxmap_run_starts_at(d0): whether d0 starts a run of equal index vectors
  // along d0 in [lo, hi] (lo and hi + 1 do). The loads' offsets must use no dim but d0 (a
  // segmented kernel's).
  ir::Node runStarts(int64_t lo, int64_t hi);
  // Runtime variable k's index element at the point, and its loaded value (int64_t, wrapped).
  ir::Value indexLoad(size_t k);
  ir::Value loadedValue(size_t k);
  // The header comment: maps, relied facts, lowering facts, notes and certificates (`extra`
  // lines after the notes).
  std::string header(const std::vector<std::string>& extra = {}) const;

  const Kernel& kernel_;
  CWidth width_;
  IndexLowering lowering_;
  IndexLowering guardLowering_;
  KernelValidator validator_;

 private:
  std::vector<DeclaredVariable> declared() const;
  CExpr skipTest();
  // Whether a loop of the nest runs its iterations at once (threads or SIMD lanes).
  static bool runsAtOnce(const std::vector<const ir::Node*>& nodes);
  // Points that run at once write distinct elements: proven here for targets of dims alone,
  // else cited from verify/ (Kernel::distinctTargets).
  void requireDistinctTargets();
  // A nest read back from the IR (ir::readLoopNest; prefetches set aside) and proven; `lanes`:
  // threads and SIMD lanes allowed. Then its prefetches and statements.
  void checkNest(const std::vector<const ir::Node*>& nodes,
                 const std::optional<KernelValidator::ThreadShare>& share, Ownership ownership,
                 Interval shares, bool lanes);
  void checkStatement(const ir::Node& statement, Ownership ownership, Interval shares);
  void checkStores(std::span<const ir::Node> stores);
  void checkPrefetch(const ir::Node& prefetch);
  // The ownership tests proven (each statement of a nest repeats its team's).
  std::set<std::string> provenTests_;
  // offsetExpr's lowered expressions, by buffer, offset and where it is validated.
  std::map<std::tuple<size_t, const void*, Where>, CExpr> offsets_;
  // proveOffset's proven texts, with the offset, buffer and where they were proven.
  std::set<std::tuple<std::string, const void*, size_t, Where>> provenOffsets_;
};

}  // namespace idxmap::codegen
