// The CUDA printer of gather/scatter Kernels (cuda_kernel.h), private to codegen/cuda/. Its forms
// are printed in three files: cuda_kernel.cpp (the stores a proof allows, the kernel of a thread a
// point, the launcher), cuda_runs.cpp (sorted tiles' runs, deterministic mode's sort) and
// cuda_vectors.cpp (rows moved 16 bytes at a time).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/cpp/kernel_text.h"
#include "codegen/cuda/cuda_functions.h"
#include "codegen/cuda/cuda_kernel.h"
#include "codegen/cuda/cuda_threads.h"
#include "codegen/cuda/thread_check.h"
#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {

// Rows of d0 a thread of a segmented kernel walks (besides finishing its last run): enough
// loads in flight to hide memory latency (on an H100, sorted scatter-add of 16M f32 elements
// ran at 0.63 of copy bandwidth with a thread per row, 1.04 with 8 rows prefetched, 0.90
// with 16, whose registers cut occupancy).
constexpr int64_t kSegmentRows = 8;

// How a kernel's stores are made (cuda_kernel.h).
// kSortedRows: deterministic mode by rows: the rows of d0 sorted by an index value that tells
// their targets apart (Kernel::SplitBy::kRuntimeVar, read from d0 alone), a thread per sorted row
// and window point applying its run of equal values in row order.
enum class Stores : uint8_t { kPlain, kSegmented, kAtomic, kSorted, kSortedRows };

class CudaKernelPrinter : KernelText {
 public:
  CudaKernelPrinter(const Kernel& kernel, const CudaOptions& options,
                    std::function<void(ir::Node&)> edit = nullptr);

  PrintedKernel print();

 private:
  // Called before threads_ is made: reads only the kernel.
  Stores chooseStores(const CudaOptions& options) const;

  // The header's line on threads and stores.
  std::string describeStores() const;

  std::vector<CExpr> dimVariables() const {
    std::vector<CExpr> out;
    for (size_t i = 0; i < kernel_.map.dims.size(); ++i)
      out.push_back(variable("d" + std::to_string(i), width_));
    return out;
  }

  // A launch's arguments: the kernel's buffers, then a checked kernel's flag.
  std::vector<std::string> arguments() const {
    std::vector<std::string> out;
    for (const KernelBuffer& b : kernel_.buffers) out.push_back(b.name);
    if (kernel_.check) out.push_back("idxmap_bad_index");
    return out;
  }

  std::string name(const std::string& part) const { return kernel_.symbol + "_" + part; }

  // How a thread's statements print (a bad index sets the launch's flag).
  ir::StatementStyle style() const { return {width_, 0, "atomicExch(idxmap_bad_index, 1);"}; }

  // `loop` (a grid-stride loop over points, tiles or lane groups) proven from its IR to give the
  // threads each point of the domain once (thread_check.h), then returned.
  ir::Node checkedGrid(ir::Node loop, ThreadGroup group, const std::string& what);

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
  // kVector: a copy of 16 bytes from the point's source to its target (vectorsKernel).
  enum class Store : uint8_t { kInPlace, kHeld, kAtomic, kVector };

  // The stores of one point (its statement), validated (checkStoreStrategy). `sources`:
  // transfer t's source value already loaded (a segmented thread's fetched sources); empty:
  // loaded here.
  ir::Node statement(const std::vector<CExpr>& point, Store store,
                     const std::vector<ir::Value>& sources = {});

  // Statement IR as built (after the test seam's edit) validated from the IR: its opening
  // (checkOpening) and how it stores: where points may write one element (Stores::kAtomic) every
  // store into a target is the transfer's atomic update; 16-byte copies only where points are
  // independent (Stores::kPlain).
  void checkStoreStrategy(ir::Node& node);

  // Stores (kHeld) or applies atomically (kAtomic) transfer n's pending update.
  ir::Node flush(const Transfer& transfer, const std::string& n, Store store) const;

  // The pending updates of a thread, one per transfer: declared (`!flushing`) before the points
  // that may share them, flushed after (validated: checkStoreStrategy).
  ir::Node pendingUpdates(bool flushing, Store store);

  // The __global__ function SYMBOL_part over the kernel's buffers, a checked kernel's flag and
  // `extra`, running `body`.
  std::string kernelFunction(const std::string& part, std::vector<ir::Parameter> extra,
                             std::vector<ir::Node> body) const;

  // The kernel of a thread a point (plain, atomic) or of a tile (segmented).
  std::string pointsKernel();

  // A segmented thread takes a tile of d0's rows at one window element (its d0 is the tile's
  // first row) and applies the runs of equal index vectors along d0 that start in it, the last
  // one to its end past the tile (ir's kTileRuns); a run starts where d0's vector differs from
  // the one before.
  std::string segmentedKernel();
  // Its IR read back (after the test seam's edit): the run-start test over d0's range, the tile
  // of rows up to d0's last, each statement at the tile's row, the fetched sources the
  // transfers' own loads, and the threads' tiles proven to cover each row once.
  void checkSegmented(ir::Node& loop);

  // Whether a segmented thread loads its tile's sources first: every source offset uses dims
  // alone (valid over the whole box, whatever the index values).
  bool segmentSourcesPrefetched() const;
  // Whether a segmented thread holds each run's element in a register: not where transfers
  // share a target (they could update one element) nor for a coupled update (it reads every
  // target); then each update is applied in place.
  bool segmentHeld() const;

  // A plain-store kernel's second form, a thread per `lanes` consecutive points of the last dim
  // moving them 16 bytes at a time (cuda_vectors_internal.h); empty when the map does not
  // have the form or a base is not proven a multiple of `lanes`.
  std::string vectorsKernel();

  // Deterministic mode, step 1: each point's target offset (the sort key; `idxmap_skipped` for
  // an update that is not applied) and its number.
  std::string keysKernel();

  // Step 2, after the sort: the thread at the first of a run of equal keys applies the run's
  // updates in point order (the sort is stable), which is row-major order.
  std::string applyKernel();

  // Deterministic mode by rows (Stores::kSortedRows), step 1: each row's key, its runtime
  // variable rowKey() as loaded, clamped to one below and one above its range and
  // shifted to start at 0 (rows whose values are equal in the range get equal keys, and others
  // different ones; a row out of the range is skipped at every point), and its number.
  std::string rowKeysKernel();
  // Step 2: thread t is the sorted row at position t / W and window point t % W (W: the points
  // of one row); at the first of a run of equal keys it applies that window point of each row
  // of the run, in row order.
  std::string rowApplyKernel();
  // The runtime variable deterministic mode sorts rows by, when it does: an ordered kernel, not
  // clamped, one of whose target coordinates is that variable plus a constant, read from d0
  // alone, and every window dim a target coordinate (windowOwnsTargets).
  std::optional<size_t> rowKey() const;
  // The sort's units: rows of d0 (kSortedRows) or points.
  int64_t sortUnits() const;

  // Keys hold target offsets below the target's element count E (rows: keys below the runtime
  // variable's range size + 2); the skipped key is 2^bits - 1 with bits the width of E, above
  // every key, and the sort looks at those bits.
  int keyBits() const;

  std::string keyType() const { return keyBits() <= 32 ? "uint32_t" : "uint64_t"; }

  std::string skippedKey() const;

  ir::Node launch(const std::string& part, const std::vector<std::string>& extra = {},
                  int64_t threads = -1) const {
    std::vector<std::string> all = arguments();
    all.insert(all.end(), extra.begin(), extra.end());
    return ir::launch(name(part), threads < 0 ? points_ : threads, std::move(all));
  }

  // The launcher and the entries around it (ir::LaunchFunction): initial copies, the checked
  // kernel's flag, the launches (the vectors kernel where the buffers are aligned), the sort.
  std::string launcher();

  std::function<void(ir::Node&)> edit_;
  Stores stores_;
  ThreadPoints threads_;
  int64_t points_;  // threads of the points kernel (or of the sort's)
  CWidth linear_;   // the width of a thread's number
  // The vectors kernel, when there is one: elements a thread moves, its threads, and the
  // buffers whose addresses the launch tests.
  int64_t lanes_ = 0, vectorThreads_ = 0;
  std::vector<std::string> aligned_;
};

}  // namespace idxmap::codegen
