// prove-equal's cost: a proof of the spec examples (examples/prove_equal) and of random batched
// gathers and scatters against their decomposition (the tests' generator), each against the
// anchor that testing without a proof would pay — one run of both functions in the
// interpreter on one set of index values (BM_*Sampled). The ratio proof / sampled says how
// many sampled checks one proof costs; the proof covers every index value. BM_*RealsOnly is the
// comparison with floats read as reals alone (all prove-equal asked before floats were decided
// bit for bit, issue 33): proof / reals-only is what the IEEE-754 tiers cost.
// Run: build/bench/prove_equal_bench
#include <benchmark/benchmark.h>

#include <fstream>
#include <random>
#include <sstream>

#include "tests/ops/stablehlo/random_ops.h"
#include "tests/support/batching_programs.h"
#include "verify/replay/prove_equal.h"

namespace {

using namespace idxmap;
using program_equality::ComparedFunction;

struct Pair {
  mlir_ir::Module first, second;
  std::string function;
  ComparedFunction a() const { return {&first, first.function(function)}; }
  ComparedFunction b() const { return {&second, second.function(function)}; }
};

mlir_ir::Module readExample(const std::string& name) {
  std::ifstream file(std::string(IDXMAP_SOURCE_DIR) + "/examples/prove_equal/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return mlir_ir::parseMlirModule(text.str(), name);
}

Pair example(const std::string& first, const std::string& second, const std::string& function) {
  return {readExample(first), readExample(second), function};
}

// `count` random batched ops (gathers, or scatters with two inputs and an add) and their
// decomposition, from a fixed seed.
std::vector<Pair> randomPairs(bool scatter, int count) {
  std::mt19937 rng(scatter ? 61 : 16);
  std::vector<Pair> pairs;
  while (static_cast<int>(pairs.size()) < count) {
    gather_scatter::testing::RandomOp op = gather_scatter::testing::randomOp(rng);
    bool empty = false;
    for (int64_t size : op.resultShape) empty = empty || size == 0;
    if (op.dims.operand_batching_dims.empty() || empty) continue;
    std::string batched, decomposed;
    if (scatter) {
      auto s = gather_scatter::testing::asScatterOp(op, gather_scatter::UpdateComputation::kAdd);
      batched = codegen::testing::scatterFunction("f", s, std::nullopt);
      decomposed = *testing::decomposedScatterFunction("f", s);
    } else {
      auto g = gather_scatter::testing::asGatherOp(op);
      batched = codegen::testing::gatherFunction("f", g, std::nullopt);
      decomposed = *testing::decomposedGatherFunction("f", g);
    }
    pairs.push_back({mlir_ir::parseMlirModule(batched, "batched"),
                     mlir_ir::parseMlirModule(decomposed, "decomposed"), "f"});
  }
  return pairs;
}

void prove(benchmark::State& state, const std::vector<Pair>& pairs) {
  size_t i = 0;
  for (auto _ : state) {
    const Pair& pair = pairs[i++ % pairs.size()];
    program_equality::EqualityVerdict verdict = program_equality::proveEqual(pair.a(), pair.b());
    if (!verdict.proof.isProven()) state.SkipWithError(verdict.proof.reason.c_str());
    benchmark::DoNotOptimize(verdict);
  }
}

void realsOnly(benchmark::State& state, const std::vector<Pair>& pairs) {
  size_t i = 0;
  program_terms::ComparisonOptions options;
  options.floats = program_terms::FloatModel::kReals;
  for (auto _ : state) {
    const Pair& pair = pairs[i++ % pairs.size()];
    program_terms::TermComparison terms =
        program_terms::compareFunctionTerms(pair.a(), pair.b(), options);
    if (terms.outcome != program_terms::TermComparison::Outcome::kEqual)
      state.SkipWithError(terms.reason.c_str());
    benchmark::DoNotOptimize(terms);
  }
}

// One run of both functions on index values 0 (every op accepts them) and float zeros.
void sampled(benchmark::State& state, const std::vector<Pair>& pairs) {
  std::vector<std::vector<mlir_interpreter::Tensor>> arguments;
  for (const Pair& pair : pairs) {
    arguments.emplace_back();
    for (const mlir_ir::BlockArgument& argument : pair.a().function->arguments)
      arguments.back().push_back(
          gather_scatter::zeros(argument.type.elementType().toString(), argument.type.shape));
  }
  size_t i = 0;
  for (auto _ : state) {
    size_t k = i++ % pairs.size();
    benchmark::DoNotOptimize(program_equality::runFunction(pairs[k].a(), arguments[k],
                                                           mlir_interpreter::Engine::kReference));
    benchmark::DoNotOptimize(program_equality::runFunction(pairs[k].b(), arguments[k],
                                                           mlir_interpreter::Engine::kReference));
  }
}

const std::vector<Pair>& specExamples() {
  static const std::vector<Pair> pairs = [] {
    std::vector<Pair> out;
    out.push_back(example("index_select.mlir", "index_select_tcp.mlir", "main"));
    out.push_back(example("tf_gather.mlir", "tf_gather_tcp.mlir", "main"));
    out.push_back(example("onnx_gather.mlir", "onnx_gather_tcp.mlir", "main"));
    out.push_back(example("batched.mlir", "decomposed.mlir", "gather_fn"));
    out.push_back(example("batched.mlir", "decomposed.mlir", "scatter_fn"));
    out.push_back(example("tensor_gather.mlir", "tensor_gather_stablehlo.mlir", "slices"));
    return out;
  }();
  return pairs;
}

const std::vector<Pair>& gathers() {
  static const std::vector<Pair> pairs = randomPairs(false, 50);
  return pairs;
}
const std::vector<Pair>& scatters() {
  static const std::vector<Pair> pairs = randomPairs(true, 50);
  return pairs;
}

void BM_ProveSpecExample(benchmark::State& state) {
  prove(state, {specExamples()[static_cast<size_t>(state.range(0))]});
}
void BM_SpecExampleSampled(benchmark::State& state) {
  sampled(state, {specExamples()[static_cast<size_t>(state.range(0))]});
}
void BM_SpecExampleRealsOnly(benchmark::State& state) {
  realsOnly(state, {specExamples()[static_cast<size_t>(state.range(0))]});
}
BENCHMARK(BM_ProveSpecExample)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpecExampleRealsOnly)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpecExampleSampled)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);

void BM_ProveRandomGather(benchmark::State& state) { prove(state, gathers()); }
void BM_RandomGatherSampled(benchmark::State& state) { sampled(state, gathers()); }
void BM_ProveRandomScatter(benchmark::State& state) { prove(state, scatters()); }
void BM_RandomScatterSampled(benchmark::State& state) { sampled(state, scatters()); }
void BM_RandomGatherRealsOnly(benchmark::State& state) { realsOnly(state, gathers()); }
void BM_RandomScatterRealsOnly(benchmark::State& state) { realsOnly(state, scatters()); }
BENCHMARK(BM_ProveRandomGather)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomGatherRealsOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomScatterRealsOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomGatherSampled)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProveRandomScatter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomScatterSampled)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
