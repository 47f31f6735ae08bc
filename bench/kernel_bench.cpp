// Emitted kernels (idxmap emit) against libtorch's CPU kernels, memcpy and a random-access
// read, in the same run, f32, at 1 and 2 threads:
//   row gather (embedding lookup, rows of 256 B and 4 KB, 256 MB tables)  vs index_select
//   element gather (torch.gather along dim 1)                              vs gather
//   batched gather (StableHLO batching dims)                                vs gather
//   unique scatter (replace, --assume unique)                              vs index_copy_
//   sorted scatter-add with duplicates (--assume sorted)                   vs index_add_
//   unsorted scatter-add with duplicates                                   vs index_add_,
//                                                                             index_put_(accumulate)
// plus the same kernels forced to int64 index arithmetic, a clamped row gather (no in-bounds
// fact), and the map evaluator (idxmap run's --engine maps) on a smaller row gather.
// Kernels are emitted from MLIR with the facts a user would assert, compiled once by the JIT
// runner (-O3 -march=native) and called through their packed entry. Every row reports bytes
// read + written per second (the data the op must move) and elements per second.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <new>
#include <numeric>
#include <random>

#include "bench/torch_anchors.h"
#include "codegen/emit.h"
#include "codegen/run/jit.h"
#include "ops/eval/map_evaluator.h"
#include "verify/assumptions.h"

namespace idxmap::bench {
namespace {

using codegen::EmittedModule;

constexpr int64_t kRows256 = 1 << 20, kWidth256 = 64, kLookups256 = 1 << 16;  // 256 MB table
constexpr int64_t kRows4K = 1 << 16, kWidth4K = 1024, kLookups4K = 1 << 12;   // 256 MB table
constexpr int64_t kElemRows = 4096, kElemCols = 1024;                         // 4M elements
constexpr int64_t kBatches = 64, kBatchRows = 4096, kBatchWidth = 64, kBatchLookups = 1024;
constexpr int64_t kScatterRows = 1 << 20, kScatterWidth = 64, kScatterN = 1 << 16;
constexpr int64_t kAddRows = 1 << 14;  // scatter-add targets: about 4 updates per row
constexpr int64_t kSmallRows = 1 << 16, kSmallLookups = 1 << 14;

std::string gatherRows(const std::string& name, int64_t rows, int64_t width, int64_t n,
                       const std::string& indices) {
  std::string t = "tensor<" + std::to_string(rows) + "x" + std::to_string(width) + "xf32>";
  std::string i = "tensor<" + std::to_string(n) + "x1xi64>";
  std::string r = "tensor<" + std::to_string(n) + "x" + std::to_string(width) + "xf32>";
  return "func.func @" + name + "(%table: " + t + ", %" + indices + ": " + i + ") -> " + r +
         " {\n  %r = \"stablehlo.gather\"(%table, %" + indices +
         ") {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
         "start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, " +
         std::to_string(width) + ">} : (" + t + ", " + i + ") -> " + r +
         "\n  func.return %r : " + r + "\n}\n";
}

std::string batchedGather(const std::string& name, const std::vector<int64_t>& operand,
                          int64_t lookups, bool elementwise) {
  // Element gather: operand [R, C], indices [R, C, 1]: out[r, c] = operand[r, idx[r, c]].
  // Batched: operand [B, R, W], indices [B, L, 1]: out[b, l, :] = operand[b, idx[b, l], :].
  std::string o = "tensor<", i, r;
  for (int64_t size : operand) o += std::to_string(size) + "x";
  o += "f32>";
  i = "tensor<" + std::to_string(operand[0]) + "x" + std::to_string(lookups) + "x1xi64>";
  r = elementwise ? "tensor<" + std::to_string(operand[0]) + "x" + std::to_string(lookups) + "xf32>"
                  : "tensor<" + std::to_string(operand[0]) + "x" + std::to_string(lookups) + "x" +
                        std::to_string(operand[2]) + "xf32>";
  std::string dims = elementwise
                         ? "offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = "
                           "[0], start_indices_batching_dims = [0], start_index_map = [1], "
                           "index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>"
                         : "offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = "
                           "[0], start_indices_batching_dims = [0], start_index_map = [1], "
                           "index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, " +
                               std::to_string(operand[2]) + ">";
  return "func.func @" + name + "(%operand: " + o + ", %" + name + "_idx: " + i + ") -> " + r +
         " {\n  %r = \"stablehlo.gather\"(%operand, %" + name +
         "_idx) {dimension_numbers = #stablehlo.gather<" + dims + "} : (" + o + ", " + i + ") -> " +
         r + "\n  func.return %r : " + r + "\n}\n";
}

std::string scatterRows(const std::string& name, int64_t rows, int64_t width, int64_t n, bool add) {
  std::string t = "tensor<" + std::to_string(rows) + "x" + std::to_string(width) + "xf32>";
  std::string i = "tensor<" + std::to_string(n) + "x1xi64>";
  std::string u = "tensor<" + std::to_string(n) + "x" + std::to_string(width) + "xf32>";
  std::string body = add ? "    %s = \"stablehlo.add\"(%a, %b) : (tensor<f32>, tensor<f32>) -> "
                           "tensor<f32>\n    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
                         : "    \"stablehlo.return\"(%b) : (tensor<f32>) -> ()\n";
  return "func.func @" + name + "(%table: " + t + ", %" + name + "_idx: " + i + ", %u: " + u +
         ") -> " + t + " {\n  %r = \"stablehlo.scatter\"(%table, %" + name +
         "_idx, %u) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n" + body +
         "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
         "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} "
         ": (" +
         t + ", " + i + ", " + u + ") -> " + t + "\n  func.return %r : " + t + "\n}\n";
}

// Every kernel of the bench, emitted and compiled once.
struct Kernels {
  EmittedModule emitted;
  std::shared_ptr<codegen::LoadedLibrary> library;
  std::string problems;

  Kernels() {
    std::string module =
        gatherRows("row256", kRows256, kWidth256, kLookups256, "row256_idx") +
        gatherRows("row256_clamped", kRows256, kWidth256, kLookups256, "unchecked_idx") +
        gatherRows("row4k", kRows4K, kWidth4K, kLookups4K, "row4k_idx") +
        gatherRows("row_small", kSmallRows, kWidth256, kSmallLookups, "small_idx") +
        batchedGather("elements", {kElemRows, kElemCols}, kElemCols, true) +
        batchedGather("batched", {kBatches, kBatchRows, kBatchWidth}, kBatchLookups, false) +
        scatterRows("unique", kScatterRows, kScatterWidth, kScatterN, false) +
        scatterRows("sorted_add", kAddRows, kScatterWidth, kScatterN, true) +
        scatterRows("unsorted_add", kAddRows, kScatterWidth, kScatterN, true);
    auto range = [](int64_t n) { return "in [0, " + std::to_string(n - 1) + "]"; };
    std::vector<Assumption> facts = parseAssumptions(
        {"%row256_idx: " + range(kRows256), "%row4k_idx: " + range(kRows4K),
         "%small_idx: " + range(kSmallRows), "%elements_idx: " + range(kElemCols),
         "%batched_idx: " + range(kBatchRows), "%unique_idx: unique, " + range(kScatterRows),
         "%sorted_add_idx: sorted, " + range(kAddRows), "%unsorted_add_idx: " + range(kAddRows)});
    emitted = codegen::emitMlirModule(mlir_ir::parseMlirModule(module, "kernel_bench.mlir"), facts);
    for (const codegen::EmitProblem& p : emitted.problems) problems += p.message + "\n";
    // The int64 twins: the same kernels with int32 arithmetic switched off.
    std::vector<codegen::PrintedKernel> printed;
    for (const codegen::EmittedKernel& k : emitted.kernels) {
      printed.push_back(k.printed);
      codegen::Kernel wide = k.kernel;
      if (!wide.int32) continue;
      wide.int32 = false;
      wide.symbol += "_i64";
      printed.push_back(codegen::printCppKernel(wide));
    }
    library = codegen::compileAndLoad(codegen::cppFile(printed));
  }

  using Entry = int (*)(void* const*, const int64_t*);
  // The kernel of `function`: kernels come in the order the functions are written.
  Entry entry(const std::string& function, bool wide = false) const {
    auto at = std::find(order.begin(), order.end(), function);
    const codegen::Kernel& kernel =
        emitted.kernels.at(static_cast<size_t>(at - order.begin())).kernel;
    return reinterpret_cast<Entry>(
        library->symbol(kernel.symbol + (wide ? "_i64" : "") + "_packed"));
  }
  std::vector<std::string> order = {"row256",    "row256_clamped", "row4k",
                                    "row_small", "elements",       "batched",
                                    "unique",    "sorted_add",     "unsorted_add"};
  void setThreads(int threads) const {
    reinterpret_cast<void (*)(int)>(library->symbol("idxmap_set_num_threads"))(threads);
  }
};

const Kernels& kernels() {
  static Kernels k;
  return k;
}

// Buffers on 64-byte boundaries, as torch and XLA allocate them (so neither side pays for a
// cache line that straddles two rows or two threads' shares).
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <class U>
  explicit CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, size_t) { ::operator delete (p, std::align_val_t{64}); }
  bool operator==(const CacheLineAllocator&) const { return true; }
};
using Floats = std::vector<float, CacheLineAllocator<float>>;
using Indices = std::vector<int64_t, CacheLineAllocator<int64_t>>;

Floats floats(int64_t n) {
  Floats v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 1000) * 0.25f;
  return v;
}
Indices uniformIndices(int64_t n, int64_t bound, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Indices v(static_cast<size_t>(n));
  for (int64_t& x : v) x = static_cast<int64_t>(rng() % static_cast<uint64_t>(bound));
  return v;
}

// The data of every case, made once.
struct Data {
  Floats table256 = floats(kRows256 * kWidth256), out256 = floats(kLookups256 * kWidth256);
  Indices idx256 = uniformIndices(kLookups256, kRows256, 1);
  Floats table4k = floats(kRows4K * kWidth4K), out4k = floats(kLookups4K * kWidth4K);
  Indices idx4k = uniformIndices(kLookups4K, kRows4K, 2);
  Floats elemOperand = floats(kElemRows * kElemCols), elemOut = floats(kElemRows * kElemCols);
  Indices elemIdx = uniformIndices(kElemRows * kElemCols, kElemCols, 3);
  Floats batchOperand = floats(kBatches * kBatchRows * kBatchWidth),
         batchOut = floats(kBatches * kBatchLookups * kBatchWidth);
  Indices batchIdx = uniformIndices(kBatches * kBatchLookups, kBatchRows, 4);
  Indices batchIdxExpanded;  // torch.gather wants the index at the output's shape
  Floats scatterTable = floats(kScatterRows * kScatterWidth),
         updates = floats(kScatterN * kScatterWidth), addTable = floats(kAddRows * kScatterWidth);
  Indices uniqueIdx, sortedIdx, unsortedIdx = uniformIndices(kScatterN, kAddRows, 6);
  Data() {
    batchIdxExpanded.reserve(static_cast<size_t>(kBatches * kBatchLookups * kBatchWidth));
    for (int64_t row : batchIdx)
      for (int64_t w = 0; w < kBatchWidth; ++w) batchIdxExpanded.push_back(row);
    std::vector<int64_t> all(static_cast<size_t>(kScatterRows));
    std::iota(all.begin(), all.end(), 0);
    std::shuffle(all.begin(), all.end(), std::mt19937_64(5));
    uniqueIdx.assign(all.begin(), all.begin() + kScatterN);
    sortedIdx = uniformIndices(kScatterN, kAddRows, 7);
    std::sort(sortedIdx.begin(), sortedIdx.end());
  }
};

Data& data() {
  static Data d;
  return d;
}

void report(benchmark::State& state, int64_t elements, int64_t bytes) {
  state.SetItemsProcessed(state.iterations() * elements);
  state.SetBytesProcessed(state.iterations() * bytes);
}

template <class F>
void timed(benchmark::State& state, int64_t elements, int64_t bytes, F&& body, bool torch = false) {
  if (torch && !torchAvailable()) return state.SkipWithError("built without libtorch");
  const int threads = static_cast<int>(state.range(0));
  kernels().setThreads(threads);
  torchSetThreads(threads);
  for (auto _ : state) {
    body();
    benchmark::ClobberMemory();
  }
  report(state, elements, bytes);
}

void call(Kernels::Entry entry, std::vector<void*> buffers, std::vector<int64_t> elements) {
  if (entry(buffers.data(), elements.data()) != 0) throw std::runtime_error("kernel refused sizes");
}

// --- row gathers -------------------------------------------------------------------------

void rowGather(benchmark::State& state, const std::string& kernel, bool wide, Floats& table,
               int64_t rows, int64_t width, Indices& idx, Floats& out) {
  int64_t n = static_cast<int64_t>(idx.size()), moved = n * width;
  Kernels::Entry entry = kernels().entry(kernel, wide);
  timed(state, moved, 2 * 4 * moved + 8 * n, [&] {
    call(entry, {table.data(), idx.data(), out.data()}, {rows * width, n, moved});
  });
}

void BM_RowGather256(benchmark::State& s) {
  Data& d = data();
  rowGather(s, "row256", false, d.table256, kRows256, kWidth256, d.idx256, d.out256);
}
void BM_RowGather256_Int64(benchmark::State& s) {
  Data& d = data();
  rowGather(s, "row256", true, d.table256, kRows256, kWidth256, d.idx256, d.out256);
}
void BM_RowGather256_Clamped(benchmark::State& s) {
  Data& d = data();
  rowGather(s, "row256_clamped", false, d.table256, kRows256, kWidth256, d.idx256, d.out256);
}
void BM_RowGather256_Torch(benchmark::State& s) {
  Data& d = data();
  timed(
      s, kLookups256 * kWidth256, 2 * 4 * kLookups256 * kWidth256 + 8 * kLookups256,
      [&] {
        torchIndexSelect(d.table256.data(), kRows256, kWidth256, d.idx256.data(), kLookups256,
                         d.out256.data());
      },
      true);
}
void BM_RowGather4K(benchmark::State& s) {
  Data& d = data();
  rowGather(s, "row4k", false, d.table4k, kRows4K, kWidth4K, d.idx4k, d.out4k);
}
void BM_RowGather4K_Torch(benchmark::State& s) {
  Data& d = data();
  timed(
      s, kLookups4K * kWidth4K, 2 * 4 * kLookups4K * kWidth4K + 8 * kLookups4K,
      [&] {
        torchIndexSelect(d.table4k.data(), kRows4K, kWidth4K, d.idx4k.data(), kLookups4K,
                         d.out4k.data());
      },
      true);
}
// memcpy of as many bytes as a row gather reads and writes (it copies half of them).
void BM_Memcpy16MB(benchmark::State& s) {
  Data& d = data();
  const int64_t bytes = 4 * kLookups256 * kWidth256;
  timed(s, bytes / 4, 2 * bytes, [&] { std::memcpy(d.out256.data(), d.table256.data(), bytes); });
}

// --- element and batched gathers ----------------------------------------------------------

void BM_ElementGather(benchmark::State& s) {
  Data& d = data();
  const int64_t n = kElemRows * kElemCols;
  Kernels::Entry entry = kernels().entry("elements", s.range(1) != 0);
  timed(s, n, 4 * n + 8 * n + 4 * n, [&] {
    call(entry, {d.elemOperand.data(), d.elemIdx.data(), d.elemOut.data()}, {n, n, n});
  });
}
void BM_ElementGather_Torch(benchmark::State& s) {
  Data& d = data();
  const int64_t n = kElemRows * kElemCols, shape[] = {kElemRows, kElemCols};
  timed(
      s, n, 4 * n + 8 * n + 4 * n,
      [&] {
        torchGather(d.elemOperand.data(), shape, 2, 1, d.elemIdx.data(), shape, d.elemOut.data());
      },
      true);
}
// The anchor of element gathers: the same random reads (row r, column idx[r, c]), summed.
void BM_RandomRead(benchmark::State& s) {
  Data& d = data();
  const int64_t n = kElemRows * kElemCols;
  timed(s, n, 4 * n + 8 * n, [&] {
    float sum = 0;
    for (int64_t k = 0; k < n; ++k)
      sum += d.elemOperand[static_cast<size_t>(k / kElemCols * kElemCols +
                                               d.elemIdx[static_cast<size_t>(k)])];
    benchmark::DoNotOptimize(sum);
  });
}
void BM_BatchedGather(benchmark::State& s) {
  Data& d = data();
  const int64_t moved = kBatches * kBatchLookups * kBatchWidth,
                operand = kBatches * kBatchRows * kBatchWidth;
  Kernels::Entry entry = kernels().entry("batched", s.range(1) != 0);
  timed(s, moved, 8 * moved + 8 * kBatches * kBatchLookups, [&] {
    call(entry, {d.batchOperand.data(), d.batchIdx.data(), d.batchOut.data()},
         {operand, kBatches * kBatchLookups, moved});
  });
}
void BM_BatchedGather_Torch(benchmark::State& s) {
  Data& d = data();
  const int64_t moved = kBatches * kBatchLookups * kBatchWidth;
  const int64_t shape[] = {kBatches, kBatchRows, kBatchWidth},
                index[] = {kBatches, kBatchLookups, kBatchWidth};
  timed(
      s, moved, 8 * moved + 8 * kBatches * kBatchLookups,
      [&] {
        torchGather(d.batchOperand.data(), shape, 3, 1, d.batchIdxExpanded.data(), index,
                    d.batchOut.data());
      },
      true);
}

// --- scatters (in place: the result is the input) ----------------------------------------

void scatter(benchmark::State& s, const std::string& kernel, Floats& table, int64_t rows,
             Indices& idx) {
  Data& d = data();
  const int64_t moved = kScatterN * kScatterWidth;
  Kernels::Entry entry = kernels().entry(kernel);
  timed(s, moved, 3 * 4 * moved + 8 * kScatterN, [&] {
    call(entry, {table.data(), idx.data(), d.updates.data(), table.data()},
         {rows * kScatterWidth, kScatterN, moved, rows * kScatterWidth});
  });
}
void BM_UniqueScatter(benchmark::State& s) {
  scatter(s, "unique", data().scatterTable, kScatterRows, data().uniqueIdx);
}
void BM_UniqueScatter_Torch(benchmark::State& s) {
  Data& d = data();
  const int64_t moved = kScatterN * kScatterWidth;
  timed(
      s, moved, 3 * 4 * moved + 8 * kScatterN,
      [&] {
        torchIndexCopy(d.scatterTable.data(), kScatterRows, kScatterWidth, d.uniqueIdx.data(),
                       kScatterN, d.updates.data());
      },
      true);
}
void BM_SortedScatterAdd(benchmark::State& s) {
  scatter(s, "sorted_add", data().addTable, kAddRows, data().sortedIdx);
}
void BM_SortedScatterAdd_Torch(benchmark::State& s) {
  Data& d = data();
  const int64_t moved = kScatterN * kScatterWidth;
  timed(
      s, moved, 3 * 4 * moved + 8 * kScatterN,
      [&] {
        torchIndexAdd(d.addTable.data(), kAddRows, kScatterWidth, d.sortedIdx.data(), kScatterN,
                      d.updates.data());
      },
      true);
}
void BM_UnsortedScatterAdd(benchmark::State& s) {
  scatter(s, "unsorted_add", data().addTable, kAddRows, data().unsortedIdx);
}
void BM_UnsortedScatterAdd_Torch(benchmark::State& s) {
  Data& d = data();
  const int64_t moved = kScatterN * kScatterWidth;
  timed(
      s, moved, 3 * 4 * moved + 8 * kScatterN,
      [&] {
        torchIndexAdd(d.addTable.data(), kAddRows, kScatterWidth, d.unsortedIdx.data(), kScatterN,
                      d.updates.data());
      },
      true);
}
void BM_UnsortedScatterAdd_TorchIndexPut(benchmark::State& s) {
  Data& d = data();
  const int64_t moved = kScatterN * kScatterWidth;
  timed(
      s, moved, 3 * 4 * moved + 8 * kScatterN,
      [&] {
        torchIndexPutAccumulate(d.addTable.data(), kAddRows, kScatterWidth, d.unsortedIdx.data(),
                                kScatterN, d.updates.data());
      },
      true);
}

// --- today's engine: the map evaluator, on a 1M-element row gather ---------------------------

void BM_SmallRowGather(benchmark::State& s) {
  static Floats table = floats(kSmallRows * kWidth256), out = floats(kSmallLookups * kWidth256);
  static Indices idx = uniformIndices(kSmallLookups, kSmallRows, 8);
  rowGather(s, "row_small", false, table, kSmallRows, kWidth256, idx, out);
}
void BM_SmallRowGather_MapEvaluator(benchmark::State& s) {
  using namespace gather_scatter;
  GatherOp op;
  op.operand = {{kSmallRows, kWidth256}, "f32"};
  op.start_indices = {{kSmallLookups, 1}, "i64"};
  op.dimension_numbers.offset_dims = {1};
  op.dimension_numbers.collapsed_slice_dims = {0};
  op.dimension_numbers.start_index_map = {0};
  op.dimension_numbers.index_vector_dim = 1;
  op.slice_sizes = {1, kWidth256};
  static Tensor operand = [] {
    Tensor t = zeros("f32", {kSmallRows, kWidth256});
    for (size_t i = 0; i < t.floats.size(); ++i) t.floats[i] = static_cast<double>(i % 1000) * 0.25;
    return t;
  }();
  static Tensor indices = [] {
    Tensor t = zeros("i64", {kSmallLookups, 1});
    Indices values = uniformIndices(kSmallLookups, kSmallRows, 8);
    t.ints.assign(values.begin(), values.end());
    return t;
  }();
  const int64_t moved = kSmallLookups * kWidth256;
  timed(s, moved, 2 * 4 * moved + 8 * kSmallLookups,
        [&] { benchmark::DoNotOptimize(mapGather(op, operand, indices)); });
}

void threads(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
}
void threadsAndWidth(benchmark::internal::Benchmark* b) {
  b->Args({1, 0})->Args({2, 0})->Args({1, 1})->Args({2, 1})->UseRealTime()->Unit(
      benchmark::kMillisecond);
}

BENCHMARK(BM_Memcpy16MB)->Apply(threads);
BENCHMARK(BM_RowGather256)->Apply(threads);
BENCHMARK(BM_RowGather256_Int64)->Apply(threads);
BENCHMARK(BM_RowGather256_Clamped)->Apply(threads);
BENCHMARK(BM_RowGather256_Torch)->Apply(threads);
BENCHMARK(BM_RowGather4K)->Apply(threads);
BENCHMARK(BM_RowGather4K_Torch)->Apply(threads);
BENCHMARK(BM_RandomRead)->Apply(threads);
BENCHMARK(BM_ElementGather)->Apply(threadsAndWidth);
BENCHMARK(BM_ElementGather_Torch)->Apply(threads);
BENCHMARK(BM_BatchedGather)->Apply(threadsAndWidth);
BENCHMARK(BM_BatchedGather_Torch)->Apply(threads);
BENCHMARK(BM_UniqueScatter)->Apply(threads);
BENCHMARK(BM_UniqueScatter_Torch)->Apply(threads);
BENCHMARK(BM_SortedScatterAdd)->Apply(threads);
BENCHMARK(BM_SortedScatterAdd_Torch)->Apply(threads);
BENCHMARK(BM_UnsortedScatterAdd)->Apply(threads);
BENCHMARK(BM_UnsortedScatterAdd_Torch)->Apply(threads);
BENCHMARK(BM_UnsortedScatterAdd_TorchIndexPut)->Apply(threads);
BENCHMARK(BM_SmallRowGather)->Apply(threads);
BENCHMARK(BM_SmallRowGather_MapEvaluator)->Apply(threads);

}  // namespace
}  // namespace idxmap::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!idxmap::bench::kernels().problems.empty()) {
    std::cerr << "kernel_bench: kernels not emitted:\n" << idxmap::bench::kernels().problems;
    return 1;
  }
  if (!idxmap::bench::torchAvailable())
    std::cerr << "kernel_bench: built without libtorch (Debian's libtorch-dev): the torch rows "
                 "are skipped\n";
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
