// The two gather/scatter evaluators on large tensors: the map-driven one (mapGather /
// mapScatter, ops/eval/map_evaluator.h) and the spec-formula oracle (referenceGather /
// referenceScatter, ops/eval/reference_evaluator.h), on row gathers (whole rows of a 2-D table),
// element gathers (1-element slices of a 1-D table), batched gathers (StableHLO batching
// dims) and scatter-add with duplicate indices, at 1M, 4M and 16M moved elements.
//
// The anchor, in the same run and next to each case, is a memcpy that moves as many bytes:
// it copies bytes / 2, so its bytes read + written equal the case's. Every row reports
// elements/s and GB/s (bytes read + written per second, 1 GB = 1e9 bytes); the ratio of a
// case's GB/s to its memcpy's says how far the evaluator is from the machine's copy speed.
//
// Bytes count the data an op must move, at the width Tensor stores it (8 bytes for every
// element type: ints as int64, floats as double):
//  - gather: each result element read from the operand and written (16), plus each start
//    index read once (8);
//  - scatter: the inputs copied into the results (16 per input element), each update read
//    and its result element read and written (24), plus each scatter index read once (8).
// Allocating and zero-filling the result is not counted: it is overhead of the API (a Tensor
// is returned by value), which the evaluators pay and memcpy does not.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"

namespace idxmap::gather_scatter::bench {
namespace {

constexpr int64_t kValueBytes = 8;  // Tensor holds int64 or double

// One op with its tensors; `elements` is the number of result (gather) or update (scatter)
// elements moved.
struct Workload {
  bool scatter = false;
  GatherOp gather;
  ScatterOp scatterOp;
  Tensor operand, indices;
  std::vector<Tensor> inputs, updates;
  int64_t elements = 0;
  int64_t bytes = 0;
};

Tensor floatsOf(const std::vector<int64_t>& shape) {
  Tensor t = zeros("f32", shape);
  for (size_t i = 0; i < t.floats.size(); ++i) t.floats[i] = static_cast<double>(i % 4096) * 0.5;
  return t;
}

// Start indices in [0, bound): uniform, so a scatter into fewer rows than updates repeats
// indices (the duplicates scatter-add must accumulate).
Tensor randomIndices(const std::vector<int64_t>& shape, int64_t bound, uint64_t seed) {
  Tensor t = zeros("i64", shape);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> pick(0, bound - 1);
  for (int64_t& v : t.ints) v = pick(rng);
  return t;
}

int64_t gatherBytes(int64_t elements, int64_t indexValues) {
  return (2 * elements + indexValues) * kValueBytes;
}

// result[m, :] = table[indices[m], :], rows of 128 values.
Workload rowGather(int64_t elements) {
  const int64_t width = 128, rows = elements / width;
  Workload w;
  GatherOp& op = w.gather;
  op.operand = {{rows, width}, "f32"};
  op.start_indices = {{rows, 1}, "i64"};
  op.dimension_numbers = {{1}, {0}, {}, {}, {0}, 1};
  op.slice_sizes = {1, width};
  op.result = TensorType{{rows, width}, "f32"};
  w.operand = floatsOf(op.operand.shape);
  w.indices = randomIndices(op.start_indices.shape, rows, 1);
  w.elements = elements;
  w.bytes = gatherBytes(elements, rows);
  return w;
}

// result[n] = table[indices[n]]: one random access per element.
Workload elementGather(int64_t elements) {
  Workload w;
  GatherOp& op = w.gather;
  op.operand = {{elements}, "f32"};
  op.start_indices = {{elements, 1}, "i64"};
  op.dimension_numbers = {{}, {0}, {}, {}, {0}, 1};
  op.slice_sizes = {1};
  op.result = TensorType{{elements}, "f32"};
  w.operand = floatsOf(op.operand.shape);
  w.indices = randomIndices(op.start_indices.shape, elements, 2);
  w.elements = elements;
  w.bytes = gatherBytes(elements, elements);
  return w;
}

// result[b, m, :] = table[b, indices[b, m], :]: 8 batches, rows of 32 values; batch b reads
// only table b (operand_batching_dims = start_indices_batching_dims = {0}).
Workload batchedGather(int64_t elements) {
  const int64_t batches = 8, width = 32, rows = elements / (batches * width);
  Workload w;
  GatherOp& op = w.gather;
  op.operand = {{batches, rows, width}, "f32"};
  op.start_indices = {{batches, rows, 1}, "i64"};
  op.dimension_numbers = {{2}, {1}, {0}, {0}, {1}, 2};
  op.slice_sizes = {1, 1, width};
  op.result = TensorType{{batches, rows, width}, "f32"};
  w.operand = floatsOf(op.operand.shape);
  w.indices = randomIndices(op.start_indices.shape, rows, 3);
  w.elements = elements;
  w.bytes = gatherBytes(elements, batches * rows);
  return w;
}

// result[indices[m], :] += updates[m, :] into a quarter as many rows as updates, so each row
// receives about four updates.
Workload scatterAdd(int64_t elements) {
  const int64_t width = 128, updateRows = elements / width, rows = updateRows / 4;
  Workload w;
  w.scatter = true;
  ScatterOp& op = w.scatterOp;
  op.inputs = {{{rows, width}, "f32"}};
  op.scatter_indices = {{updateRows, 1}, "i64"};
  op.updates = {{{updateRows, width}, "f32"}};
  op.dimension_numbers = {{1}, {0}, {}, {}, {0}, 1};
  op.update_computation = UpdateComputation::kAdd;
  op.computation_argument_types = {"f32", "f32"};
  op.computation_result_types = {"f32"};
  op.results = op.inputs;
  w.inputs = {floatsOf(op.inputs[0].shape)};
  w.updates = {floatsOf(op.updates[0].shape)};
  w.indices = randomIndices(op.scatter_indices.shape, rows, 4);
  w.elements = elements;
  w.bytes = (2 * rows * width + 3 * elements + updateRows) * kValueBytes;
  return w;
}

struct Case {
  const char* name;
  Workload (*make)(int64_t elements);
};

const Case kCases[] = {{"row_gather", rowGather},
                       {"element_gather", elementGather},
                       {"batched_gather", batchedGather},
                       {"scatter_add", scatterAdd}};

// Building a 16M-element workload takes a while: the engines of one case and size share it,
// and only one is alive at a time (they run in registration order).
const Workload& workloadFor(const Case& c, int64_t elements) {
  static std::unique_ptr<Workload> cached;
  static std::string key;
  std::string wanted = std::string(c.name) + "/" + std::to_string(elements);
  if (!cached || key != wanted) {
    cached.reset();
    cached = std::make_unique<Workload>(c.make(elements));
    key = wanted;
    std::vector<Violation> violations =
        cached->scatter ? validateScatter(cached->scatterOp) : validateGather(cached->gather);
    if (!violations.empty()) throw std::logic_error(c.name + (": " + violations[0].message));
  }
  return *cached;
}

void setCounters(benchmark::State& state, int64_t elements, int64_t bytes) {
  using benchmark::Counter;
  state.counters["elements"] = static_cast<double>(elements);
  state.counters["elements_per_s"] =
      Counter(static_cast<double>(elements), Counter::kIsIterationInvariantRate);
  state.counters["GB_per_s"] =
      Counter(static_cast<double>(bytes) / 1e9, Counter::kIsIterationInvariantRate);
}

enum class Engine { kMemcpy, kMap, kReference };

void runMemcpy(benchmark::State& state, const Workload& w) {
  // Half the bytes copied: memcpy reads them and writes them.
  const size_t copied = static_cast<size_t>(w.bytes / 2);
  std::vector<char> from(copied, 1), to(copied, 0);  // touched, so no page faults are timed
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), copied);
    benchmark::ClobberMemory();
  }
}

// The fast engine's result must be the oracle's, or its speed means nothing. Checked once per
// case at the smallest size, outside the timed loop.
bool agreesWithReference(const Workload& w) {
  if (w.scatter)
    return mapScatter(w.scatterOp, w.inputs, w.indices, w.updates) ==
           referenceScatter(w.scatterOp, w.inputs, w.indices, w.updates);
  return mapGather(w.gather, w.operand, w.indices) ==
         referenceGather(w.gather, w.operand, w.indices);
}

void runEngine(benchmark::State& state, const Case& c, int64_t elements, Engine engine) {
  const Workload& w = workloadFor(c, elements);
  if (engine == Engine::kMemcpy) {
    runMemcpy(state, w);
  } else if (engine == Engine::kMap && elements == (1 << 20) && !agreesWithReference(w)) {
    state.SkipWithError("mapGather/mapScatter disagrees with the reference evaluator");
    for (auto _ : state) {
    }
    return;
  } else {
    for (auto _ : state) {
      if (w.scatter) {
        std::vector<Tensor> results =
            engine == Engine::kMap ? mapScatter(w.scatterOp, w.inputs, w.indices, w.updates)
                                   : referenceScatter(w.scatterOp, w.inputs, w.indices, w.updates);
        benchmark::DoNotOptimize(results.data());
      } else {
        Tensor result = engine == Engine::kMap ? mapGather(w.gather, w.operand, w.indices)
                                               : referenceGather(w.gather, w.operand, w.indices);
        benchmark::DoNotOptimize(result.floats.data());
      }
    }
  }
  setCounters(state, w.elements, w.bytes);
}

void registerAll() {
  const std::pair<Engine, const char*> engines[] = {
      {Engine::kMemcpy, "memcpy"}, {Engine::kMap, "map"}, {Engine::kReference, "reference"}};
  for (const Case& c : kCases)
    for (int64_t millions : {1, 4, 16})
      for (auto [engine, engineName] : engines) {
        int64_t elements = millions << 20;
        std::string name =
            std::string(c.name) + "/" + engineName + "/" + std::to_string(millions) + "M";
        auto* b = benchmark::RegisterBenchmark(
            name.c_str(), [&c, elements, engine = engine](benchmark::State& state) {
              runEngine(state, c, elements, engine);
            });
        b->Unit(benchmark::kMillisecond);
        // One call of a slow engine on 16M elements takes seconds: one iteration per
        // repetition is plenty, and the repetitions give the median.
        if (engine != Engine::kMemcpy) b->Iterations(1);
      }
}

}  // namespace
}  // namespace idxmap::gather_scatter::bench

int main(int argc, char** argv) {
  // Large results are mmap'ed and unmapped on free by default, so every iteration would fault
  // its result's pages in again; keep all memory in the heap, and freed memory there, so that
  // repeated calls measure the evaluators rather than the kernel's page-fault path.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  idxmap::gather_scatter::bench::registerAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
