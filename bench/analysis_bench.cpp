// The indexing analysis (ops/hlo/analysis/indexing.h) on generated HLO: a long fused chain
// (transpose / exponential / add of the fusion parameter, so every node keeps two distinct
// maps and every step deduplicates), and single ops and fusions of rank 1-10. XLA's symbolic
// tile analysis hangs past rank ~8 (openxla/xla#41173); here rank 10 must stay under a second.
// The anchor, in the same run, is reading the same module's text (a linear pass): the
// analysis is reported as maps per second and as a multiple of the parse.
#include <benchmark/benchmark.h>

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "core/text.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"

namespace idxmap::bench {
namespace {

// A fused chain of `length` instructions over f32[64,64]: exponential, transpose, add(·, p0),
// repeated. p0 is reached along `length / 3` paths that carry two distinct maps.
std::string chainModule(int length) {
  std::string body = "  p0 = f32[64,64] parameter(0)\n";
  std::string previous = "p0";
  for (int i = 0; i < length; ++i) {
    std::string name = "v" + std::to_string(i);
    std::string op;
    switch (i % 3) {
      case 0:
        op = "exponential(" + previous + ")";
        break;
      case 1:
        op = "transpose(" + previous + "), dimensions={1,0}";
        break;
      default:
        op = "add(" + previous + ", p0)";
        break;
    }
    body += std::string(i + 1 == length ? "  ROOT " : "  ") + name + " = f32[64,64] " + op + "\n";
    previous = name;
  }
  return "HloModule chain\nf {\n" + body +
         "}\nENTRY e {\n  p0 = f32[64,64] parameter(0)\n"
         "  ROOT fusion = f32[64,64] fusion(p0), kind=kLoop, calls=f\n}\n";
}

std::string dimsOf(const std::vector<int64_t>& dims) {
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text;
}

// Sizes 2, 3, 4, 2, 3, 4, ...: small enough that rank 10 has a few thousand elements'
// worth of structure, varied enough that reshapes need real div/mod.
std::vector<int64_t> sizesOfRank(int rank) {
  std::vector<int64_t> sizes;
  for (int i = 0; i < rank; ++i) sizes.push_back(2 + i % 3);
  return sizes;
}

int64_t product(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// One instruction of rank `rank` reading parameter p0.
std::string rankModule(const std::string& op, int rank) {
  std::vector<int64_t> sizes = sizesOfRank(rank);
  std::string in = "f32[" + dimsOf(sizes) + "]";
  std::string header = "HloModule r\nENTRY e {\n";
  if (op == "transpose") {
    std::vector<int64_t> permutation, outSizes;
    for (int i = rank - 1; i >= 0; --i) permutation.push_back(i), outSizes.push_back(sizes[i]);
    return header + "  p0 = " + in + " parameter(0)\n  ROOT t = f32[" + dimsOf(outSizes) +
           "] transpose(p0), dimensions={" + dimsOf(permutation) + "}\n}\n";
  }
  if (op == "broadcast") {  // from rank-1 operand dims {1..rank-1}
    std::vector<int64_t> operand(sizes.begin() + 1, sizes.end()), kept;
    for (int i = 1; i < rank; ++i) kept.push_back(i);
    return header + "  p0 = f32[" + dimsOf(operand) + "] parameter(0)\n  ROOT b = " + in +
           " broadcast(p0), dimensions={" + dimsOf(kept) + "}\n}\n";
  }
  // "reshape": a fused collapse to 1-D and expand back, which must compose to the identity.
  return "HloModule r\nf {\n  p0 = " + in + " parameter(0)\n  flat = f32[" +
         std::to_string(product(sizes)) + "] reshape(p0)\n  ROOT back = " + in +
         " reshape(flat)\n}\nENTRY e {\n  p0 = " + in + " parameter(0)\n  ROOT fusion = " + in +
         " fusion(p0), kind=kLoop, calls=f\n}\n";
}

int64_t mapCount(const InstructionIndexing& indexing) {
  int64_t count = 0;
  for (const OperandIndexing& entry : indexing.entries) count += entry.maps.size();
  return count;
}

void BM_ParseChain(benchmark::State& state) {
  std::string text = chainModule(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(hlo::parseHloModule(text, "chain"));
  state.counters["instructions"] = static_cast<double>(state.range(0));
}

// Maps per second counts one composed-and-simplified map per (node, map) pair visited.
void BM_AnalyzeChain(benchmark::State& state) {
  int length = static_cast<int>(state.range(0));
  hlo::Module module = hlo::parseHloModule(chainModule(length), "chain");
  int64_t maps = 0;
  for (auto _ : state) {
    InstructionIndexing indexing = computeOutputToInputIndexing(*module.entry->root);
    if (mapCount(indexing) != 2) state.SkipWithError("expected two maps for p0");
    maps += 2 * length;  // every node of the chain carries (at most) two maps
  }
  state.counters["maps_per_s"] =
      benchmark::Counter(static_cast<double>(maps), benchmark::Counter::kIsRate);
  state.counters["instructions"] = length;
}

void analyzeRank(benchmark::State& state, const std::string& op, bool outToIn) {
  int rank = static_cast<int>(state.range(0));
  hlo::Module module = hlo::parseHloModule(rankModule(op, rank), op);
  const hlo::Instruction& root = *module.entry->root;
  int64_t maps = 0;
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    InstructionIndexing indexing =
        outToIn ? computeOutputToInputIndexing(root) : computeInputToOutputIndexing(root, 0);
    if (indexing.entries.empty() || indexing.entries[0].unknown) state.SkipWithError("no indexing");
    maps += mapCount(indexing);
  }
  // The round trip is only a fair measurement if it really simplified to the identity.
  if (op == "reshape" && !state.error_occurred()) {
    InstructionIndexing indexing = computeOutputToInputIndexing(root);
    const IndexingMap& map = indexing.entries[0].maps.at(0);
    for (size_t i = 0; i < map.results.size(); ++i)
      if (printExpr(map.results[i]) != "d" + std::to_string(i))
        state.SkipWithError("the reshape round trip did not simplify to the identity");
  }
  double perCall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                   static_cast<double>(state.iterations());
  if (rank == 10 && perCall > 1.0)
    std::cerr << "warning: " << op << " of rank 10 took " << perCall << " s (limit: 1 s)\n";
  state.counters["maps_per_s"] =
      benchmark::Counter(static_cast<double>(maps), benchmark::Counter::kIsRate);
  state.counters["rank"] = rank;
}

void BM_ParseRank(benchmark::State& state, const char* op) {
  std::string text = rankModule(op, static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(hlo::parseHloModule(text, op));
}

void BM_TransposeOutToIn(benchmark::State& state) { analyzeRank(state, "transpose", true); }
void BM_TransposeInToOut(benchmark::State& state) { analyzeRank(state, "transpose", false); }
void BM_BroadcastOutToIn(benchmark::State& state) { analyzeRank(state, "broadcast", true); }
void BM_BroadcastInToOut(benchmark::State& state) { analyzeRank(state, "broadcast", false); }
void BM_ReshapeRoundTripOutToIn(benchmark::State& state) { analyzeRank(state, "reshape", true); }
void BM_ReshapeRoundTripInToOut(benchmark::State& state) { analyzeRank(state, "reshape", false); }

BENCHMARK(BM_ParseChain)->Arg(100)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeChain)->Arg(100)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseRank, reshape, "reshape")
    ->DenseRange(1, 10)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransposeOutToIn)->DenseRange(1, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransposeInToOut)->DenseRange(1, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BroadcastOutToIn)->DenseRange(2, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BroadcastInToOut)->DenseRange(2, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReshapeRoundTripOutToIn)->DenseRange(1, 10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReshapeRoundTripInToOut)->DenseRange(1, 10)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace idxmap::bench

BENCHMARK_MAIN();
