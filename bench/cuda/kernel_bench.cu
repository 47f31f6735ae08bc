// Emitted CUDA kernels (idxmap emit --target cuda, bench/cuda/ops.mlir, built by
// bench/CMakeLists.txt) against cudaMemcpy device-to-device in the same run, f32, 16M and 256M
// elements:
//   row gather (rows of 256 B)                          plain stores, no clamp (in bounds),
//                                                        16 bytes a thread (and, tables off
//                                                        16 bytes, a thread a point)
//   element gather (torch.gather along dim 1)            the same
//   unique scatter (replace, in place)                   plain stores (unique), the same
//   sorted scatter-add, about 4 updates a row            a thread per tile of 8 rows (sorted);
//                                                        and of scalars (16M into 4M bins)
//   scatter-add, random rows                             atomicAdd; and --deterministic
//   scatter-add, every row equal                         atomicAdd on 64 addresses
//   scalar scatter-add, every index equal                atomicAdd at its worst: 16M threads,
//                                                        one address
// Every row reports the bytes the case must move per second: what it reads once (the rows or
// updates, the indices) and writes once (the result; an in-place scatter-add also reads the
// table rows it updates, each counted once however many updates it takes), and `of_copy`: that
// rate over a device-to-device copy moving as many bytes (a copy of half of them: read once,
// written once), measured in this process. Sorted and deterministic rows report
// `bit_identical`: two runs from the same table gave the same bits.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "bench/cuda/kernels.h"

namespace {

constexpr int64_t k16M = int64_t{1} << 24, k256M = int64_t{1} << 28;

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

template <class T>
struct DeviceArray {
  T* data = nullptr;
  int64_t size = 0;
  explicit DeviceArray(int64_t n) : size(n) {
    check(cudaMalloc(&data, sizeof(T) * n), "cudaMalloc");
  }
  explicit DeviceArray(const std::vector<T>& host)
      : DeviceArray(static_cast<int64_t>(host.size())) {
    check(cudaMemcpy(data, host.data(), sizeof(T) * size, cudaMemcpyHostToDevice), "upload");
  }
  DeviceArray(DeviceArray&& other) noexcept : data(other.data), size(other.size) {
    other.data = nullptr;
  }
  ~DeviceArray() { cudaFree(data); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  std::vector<T> download() const {
    std::vector<T> host(static_cast<size_t>(size));
    check(cudaMemcpy(host.data(), data, sizeof(T) * size, cudaMemcpyDeviceToHost), "download");
    return host;
  }
};

// Values in [-1, 1) from a hash of the position, written on the device (a host generator
// would spend seconds on 256M values).
__global__ void fill(float* data, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    uint64_t h = static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    data[i] = static_cast<float>(h >> 40) / static_cast<float>(1 << 23) - 1.0f;
  }
}

DeviceArray<float> floats(int64_t n) {
  DeviceArray<float> out(n);
  fill<<<4096, 256>>>(out.data, n);
  check(cudaDeviceSynchronize(), "fill");
  return out;
}

enum class Rows { kRandom, kUnique, kSorted, kEqual };

std::vector<int32_t> rows(int64_t n, int64_t range, Rows kind) {
  std::vector<int32_t> out(static_cast<size_t>(n));
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> row(0, static_cast<int32_t>(range - 1));
  if (kind == Rows::kUnique) {
    std::vector<int32_t> all(static_cast<size_t>(range));
    std::iota(all.begin(), all.end(), 0);
    std::shuffle(all.begin(), all.end(), rng);
    std::copy(all.begin(), all.begin() + n, out.begin());
    return out;
  }
  for (int32_t& r : out) r = kind == Rows::kEqual ? 0 : row(rng);
  if (kind == Rows::kSorted) std::sort(out.begin(), out.end());
  return out;
}

// Times `launch` with CUDA events, once per iteration.
template <class F>
double timed(benchmark::State& state, F&& launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch();  // warm-up
  check(cudaDeviceSynchronize(), "warm-up");
  double best = 1e30;
  for (auto _ : state) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    check(cudaEventSynchronize(stop), "kernel");
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    state.SetIterationTime(ms / 1e3);
    best = std::min(best, ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

// Device-to-device copy of `bytes`, best of 20: the anchor of every row with as many bytes.
double copySeconds(int64_t bytes) {
  DeviceArray<char> from(bytes), to(bytes);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  double best = 1e30;
  for (int i = 0; i < 21; ++i) {
    cudaEventRecord(start);
    cudaMemcpy(to.data, from.data, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (i > 0) best = std::min(best, ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

// The case moves `bytes` (read and written, each byte once); the anchor is a copy of half as many
// (which reads them and writes them: as many bytes moved).
void report(benchmark::State& state, int64_t bytes, double best) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * bytes);
  state.counters["of_copy"] = copySeconds(bytes / 2) / best;
  state.counters["best_ms"] = best * 1e3;
  state.counters["moved_MB"] = static_cast<double>(bytes) / 1e6;
}

// A gather or a replacing scatter moves `elements` f32 values (read once, written once) and
// `indices` int32 values.
int64_t copiedBytes(int64_t elements, int64_t indices) { return elements * 8 + indices * 4; }

void BM_CopyDeviceToDevice(benchmark::State& state) {
  const int64_t elements = state.range(0);
  DeviceArray<float> from = floats(elements), to(elements);
  double best = timed(
      state, [&] { cudaMemcpyAsync(to.data, from.data, 4 * elements, cudaMemcpyDeviceToDevice); });
  report(state, elements * 8, best);
}

using GatherEntry = int (*)(const float*, int64_t, const int32_t*, int64_t, float*, int64_t,
                            cudaStream_t);
using ScatterEntry = int (*)(const float*, int64_t, const int32_t*, int64_t, const float*, int64_t,
                             float*, int64_t, cudaStream_t);

// `shift` elements past the allocation's start (1: the tables off 16 bytes, so the launch takes
// the kernel of a thread a point instead of 16-byte rows).
void gather(benchmark::State& state, GatherEntry entry, int64_t tableRows, int64_t width,
            int64_t lookups, int64_t shift = 0) {
  DeviceArray<float> table = floats(tableRows * width + shift), result(lookups * width + shift);
  DeviceArray<int32_t> index(rows(lookups, tableRows, Rows::kRandom));
  double best = timed(state, [&] {
    if (entry(table.data + shift, table.size - shift, index.data, index.size, result.data + shift,
              result.size - shift, nullptr))
      state.SkipWithError("the kernel refused its buffers");
  });
  report(state, copiedBytes(lookups * width, lookups), best);
}

void BM_RowGather16M(benchmark::State& s) {
  gather(s, idxmap_stablehlo_gather_5_8_launch, 1 << 20, 64, k16M / 64);
}
void BM_RowGather16M_PointAThread(benchmark::State& s) {
  gather(s, idxmap_stablehlo_gather_5_8_launch, 1 << 20, 64, k16M / 64, 1);
}
void BM_RowGather256M(benchmark::State& s) {
  gather(s, idxmap_stablehlo_gather_9_8_launch, 1 << 22, 64, k256M / 64);
}
// out[r, c] = operand[r, cols[r, c]]: 4096 x 4096, one index an element.
void BM_ElementGather16M(benchmark::State& s) {
  DeviceArray<float> operand = floats(k16M), result(k16M);
  std::vector<int32_t> cols = rows(k16M, 4096, Rows::kRandom);
  DeviceArray<int32_t> index(cols);
  double best = timed(s, [&] {
    idxmap_stablehlo_gather_13_8_launch(operand.data, k16M, index.data, k16M, result.data, k16M,
                                        nullptr);
  });
  report(s, copiedBytes(k16M, k16M), best);
}

// In place (the table is input and result: no initial copy). `checkRepeat`: also run twice
// from the same table and report whether the bits agree. `add`: the table rows the updates go
// to are read as well as written (once each).
void scatter(benchmark::State& state, ScatterEntry entry, int64_t tableRows, int64_t n, Rows kind,
             bool checkRepeat, int64_t shift = 0, int64_t width = 64, bool add = true) {
  DeviceArray<float> table = floats(tableRows * width + shift), updates = floats(n * width + shift);
  const std::vector<int32_t> targets = rows(n, tableRows, kind);
  DeviceArray<int32_t> index(targets);
  std::vector<int32_t> distinct = targets;
  std::sort(distinct.begin(), distinct.end());
  const int64_t touched = std::unique(distinct.begin(), distinct.end()) - distinct.begin();
  float* const in_place = table.data + shift;
  auto run = [&] {
    if (entry(in_place, table.size - shift, index.data, index.size, updates.data + shift,
              updates.size - shift, in_place, table.size - shift, nullptr))
      state.SkipWithError("the kernel refused its buffers");
  };
  if (checkRepeat) {
    std::vector<float> start = table.download();
    run();
    std::vector<float> first = table.download();
    check(cudaMemcpy(table.data, start.data(), 4 * table.size, cudaMemcpyHostToDevice), "reset");
    run();
    state.counters["bit_identical"] = first == table.download() ? 1 : 0;
  }
  double best = timed(state, run);
  // Updates and indices read; each touched row written (and, adding, read) once.
  report(state, n * width * 4 + n * 4 + touched * width * 4 * (add ? 2 : 1), best);
}

void BM_UniqueScatter16M(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_17_8_launch, 1 << 20, k16M / 64, Rows::kUnique, false, 0,
          64, false);
}
void BM_UniqueScatter16M_PointAThread(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_17_8_launch, 1 << 20, k16M / 64, Rows::kUnique, false, 1,
          64, false);
}
void BM_UniqueScatter256M(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_40_8_launch, 1 << 22, k256M / 64, Rows::kUnique, false, 0,
          64, false);
}
void BM_SortedScatterAdd16M(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_24_8_launch, 1 << 16, k16M / 64, Rows::kSorted, true);
}
void BM_SortedScatterAdd256M(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_47_8_launch, 1 << 20, k256M / 64, Rows::kSorted, true);
}
// Scalar updates (a map of one dim): 16M values into 4M bins, sorted, about 4 a bin.
void BM_SortedScalarScatterAdd16M(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_63_8_launch, 1 << 22, k16M, Rows::kSorted, true, 0, 1);
}
void BM_AtomicScatterAdd16M_RandomRows(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_32_8_launch, 1 << 16, k16M / 64, Rows::kRandom, false);
}
void BM_AtomicScatterAdd16M_EqualRows(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_32_8_launch, 1 << 16, k16M / 64, Rows::kEqual, false);
}
// The worst case of atomics: 16M scalar updates, all to one bin (one address).
void BM_AtomicScatterAdd16M_OneAddress(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_71_8_launch, 1 << 22, k16M, Rows::kEqual, false, 0, 1);
}
void BM_AtomicScatterAdd256M_RandomRows(benchmark::State& s) {
  scatter(s, idxmap_stablehlo_scatter_55_8_launch, 1 << 20, k256M / 64, Rows::kRandom, false);
}
void BM_DeterministicScatterAdd16M_RandomRows(benchmark::State& s) {
  scatter(s, idxmap_det_stablehlo_scatter_32_8_launch, 1 << 16, k16M / 64, Rows::kRandom, true);
}
void BM_DeterministicScatterAdd256M_RandomRows(benchmark::State& s) {
  scatter(s, idxmap_det_stablehlo_scatter_55_8_launch, 1 << 20, k256M / 64, Rows::kRandom, true);
}

}  // namespace

BENCHMARK(BM_CopyDeviceToDevice)->Arg(k16M)->Arg(k256M)->UseManualTime();
BENCHMARK(BM_RowGather16M)->UseManualTime();
BENCHMARK(BM_RowGather16M_PointAThread)->UseManualTime();
BENCHMARK(BM_RowGather256M)->UseManualTime();
BENCHMARK(BM_ElementGather16M)->UseManualTime();
BENCHMARK(BM_UniqueScatter16M)->UseManualTime();
BENCHMARK(BM_UniqueScatter16M_PointAThread)->UseManualTime();
BENCHMARK(BM_UniqueScatter256M)->UseManualTime();
BENCHMARK(BM_SortedScatterAdd16M)->UseManualTime();
BENCHMARK(BM_SortedScatterAdd256M)->UseManualTime();
BENCHMARK(BM_SortedScalarScatterAdd16M)->UseManualTime();
BENCHMARK(BM_AtomicScatterAdd16M_RandomRows)->UseManualTime();
BENCHMARK(BM_AtomicScatterAdd16M_EqualRows)->UseManualTime();
BENCHMARK(BM_AtomicScatterAdd16M_OneAddress)->UseManualTime();
BENCHMARK(BM_AtomicScatterAdd256M_RandomRows)->UseManualTime();
BENCHMARK(BM_DeterministicScatterAdd16M_RandomRows)->UseManualTime();
BENCHMARK(BM_DeterministicScatterAdd256M_RandomRows)->UseManualTime();
BENCHMARK_MAIN();
