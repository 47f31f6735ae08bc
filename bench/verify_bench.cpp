// `idxmap verify`'s index provers per op (verify/op_properties.h): unique, sorted and in bounds
// of generated gathers and scatters of operand rank 1-8 whose index values are
//   - a constant of 64 or ~4,096 random elements (decided exactly: provenance folds them);
//   - an iota times a stride (affine values, decided exactly);
//   - a function argument (run-time values: structure or the exact condition).
// Each op is read from MLIR text once; the timed step is what verify does per valid op:
// import, index provenance, the three proofs (isl; no Z3 question arises here).
//
// Anchors, in the same run:
//   - known values: brute force, the spec's formulas evaluated at every index point
//     (scatter: every applied update's target; gather: every start index clamped or not),
//     the check a user could write without a prover;
//   - every op: one isl question on the op's own map (build the relation, test emptiness), the
//     unit the provers' cost is counted in.
// `prove/` times the proofs alone (index values given), so prove/verify is the provers' share
// of the time; bench/verify_run.sh prints it with the medians.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/import/stablehlo.h"
#include "ops/mlir/module.h"
#include "ops/provenance/index_values.h"
#include "verify/index_properties.h"
#include "verify/op_properties.h"

namespace idxmap::bench {
namespace {

enum class Values { Constant64, Constant4096, Iota, Argument };

const char* valuesName(Values values) {
  switch (values) {
    case Values::Constant64:
      return "constant64";
    case Values::Constant4096:
      return "constant4096";
    case Values::Iota:
      return "iota";
    case Values::Argument:
      break;
  }
  return "argument";
}

std::string dims(int rank, int64_t size) {
  std::string text;
  for (int d = 0; d < rank; ++d) text += std::to_string(size) + "x";
  return text;
}

std::string list(int from, int to) {  // "0, 1, ..., to - 1"
  std::string text;
  for (int d = from; d < to; ++d) text += (d > from ? ", " : "") + std::to_string(d);
  return text;
}

// A gather (or scatter) of rank-`rank` operand 8x...x8 reading rows of 2 along the last axis at
// N index vectors of `rank` entries.
struct Generated {
  std::string text;
  int64_t vectors = 0;
};

Generated generate(bool scatter, int rank, Values values) {
  int64_t elements = values == Values::Constant64 ? 64 : 4096;
  int64_t n = std::max<int64_t>(1, elements / rank);
  std::string indicesType = "tensor<" + std::to_string(n) + "x" + std::to_string(rank) + "xi32>";
  std::string operandType = "tensor<" + dims(rank, 8) + "f32>";
  std::string windowsType = "tensor<" + std::to_string(n) + "x2xf32>";
  std::string body, indices = "%arg";
  if (values == Values::Constant64 || values == Values::Constant4096) {
    std::mt19937 rng(static_cast<unsigned>(rank * 7 + (scatter ? 1 : 0)));
    std::string literal;
    for (int64_t i = 0; i < n; ++i) {
      literal += i ? ", [" : "[";
      for (int k = 0; k < rank; ++k)
        literal += (k ? ", " : "") + std::to_string(std::uniform_int_distribution<int>(0, 6)(rng));
      literal += "]";
    }
    body += "  %idx = stablehlo.constant dense<[" + literal + "]> : " + indicesType + "\n";
    indices = "%idx";
  } else if (values == Values::Iota) {
    body += "  %iota = stablehlo.iota dim = 0 : " + indicesType + "\n";
    indices = "%iota";
  }
  std::string collapsed = list(0, rank - 1);
  std::string slice;
  for (int d = 0; d < rank; ++d) slice += std::string(d ? ", " : "") + (d == rank - 1 ? "2" : "1");
  if (!scatter) {
    body += "  %0 = \"stablehlo.gather\"(%operand, " + indices +
            ") {\n    dimension_numbers = #stablehlo.gather<offset_dims = [1], "
            "collapsed_slice_dims = [" +
            collapsed + "], start_index_map = [" + list(0, rank) +
            "], index_vector_dim = 1>,\n    slice_sizes = array<i64: " + slice + ">\n  } : (" +
            operandType + ", " + indicesType + ") -> " + windowsType + "\n";
  } else {
    body += "  %0 = \"stablehlo.scatter\"(%operand, " + indices +
            ", %updates) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            "    \"stablehlo.return\"(%b) : (tensor<f32>) -> ()\n  }) {\n"
            "    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
            "inserted_window_dims = [" +
            collapsed + "], scatter_dims_to_operand_dims = [" + list(0, rank) +
            "], index_vector_dim = 1>\n  } : (" + operandType + ", " + indicesType + ", " +
            windowsType + ") -> " + operandType + "\n";
  }
  std::string text = "func.func @main(%operand: " + operandType + ", %arg: " + indicesType +
                     ", %updates: " + windowsType + ") {\n" + body + "  func.return\n}\n";
  return {text, n};
}

const mlir_ir::Operation& opNamed(const mlir_ir::Module& module, const std::string& name) {
  for (const mlir_ir::Operation& op : module.functions.at(0).body.blocks.at(0).operations)
    if (op.name == name) return op;
  throw Error("no " + name);
}

// The index tensor a constant defines, read from its literal.
gather_scatter::Tensor constantIndices(const std::vector<mlir_ir::Operation>& block) {
  for (const mlir_ir::Operation& op : block)
    if (op.name == "stablehlo.constant") {
      const mlir_ir::DenseElements& dense = *op.attribute("value")->dense;
      gather_scatter::Tensor indices = gather_scatter::zeros("i64", dense.type.shape);
      for (size_t i = 0; i < indices.ints.size(); ++i)
        indices.ints[i] = dense.intAt(static_cast<int64_t>(i));
      return indices;
    }
  throw Error("no constant");
}

// Brute force on known values, the spec's formulas specialised to the generated ops (row n of
// the indices is the start of window n): unique (scatter: no two applied updates share a
// target), sorted (rows non-decreasing, gather's clamped), in bounds (no clamp; no skip).
int bruteForce(const mlir_ir::Operation& op, const gather_scatter::Tensor& indices, bool scatter) {
  int64_t rows = indices.shape[0], rank = indices.shape[1];
  std::vector<int64_t> previous, row(rank);
  bool sorted = true, inBounds = true, unique = true;
  for (int64_t n = 0; n < rows; ++n) {
    for (int64_t k = 0; k < rank; ++k) {
      int64_t top = 8 - (k == rank - 1 ? 2 : 1), value = indices.ints[n * rank + k];
      inBounds = inBounds && value >= 0 && value <= top;
      row[k] = scatter ? value : std::clamp<int64_t>(value, 0, top);
    }
    sorted = sorted && (n == 0 || previous <= row);
    previous = row;
  }
  if (scatter) {
    gather_scatter::ScatterOp scatterOp = stablehlo_import::importScatter(op);
    std::set<int64_t> written;
    gather_scatter::forEachReferenceScatterTarget(
        scatterOp, indices, scatterOp.updates[0].shape, scatterOp.inputs[0].shape,
        [&](int64_t, int64_t target) { unique = written.insert(target).second && unique; });
  }
  return sorted + 2 * inBounds + 4 * unique;
}

// A generated op read back from its text, as verify reads it.
struct ReadOp {
  ReadOp(bool scatter, int rank, Values values)
      : generated(generate(scatter, rank, values)),
        module(mlir_ir::parseMlirModule(generated.text, "bench.mlir")),
        block(module.functions.at(0).body.blocks.at(0).operations),
        op(opNamed(module, scatter ? "stablehlo.scatter" : "stablehlo.gather")) {}
  Generated generated;
  mlir_ir::Module module;
  const std::vector<mlir_ir::Operation>& block;
  const mlir_ir::Operation& op;
};

// What verify does per valid op: import, index provenance, the three proofs.
void BM_Verify(benchmark::State& state, bool scatter, int rank, Values values) {
  ReadOp read(scatter, rank, values);
  const mlir_ir::Operation& op = read.op;
  for (auto _ : state) benchmark::DoNotOptimize(proveOpIndexProperties(op, read.block, {}));
  state.counters["vectors"] = static_cast<double>(read.generated.vectors);
}

// The proofs alone, index values given: their share of BM_Verify is the provers' (isl's, or
// evaluation's for a table of values) share of verify's time.
void BM_Prove(benchmark::State& state, bool scatter, int rank, Values values) {
  ReadOp read(scatter, rank, values);
  const mlir_ir::Operation& op = read.op;
  index_provenance::IndexValues indexValues =
      index_provenance::indexValues(read.block, op.operands.at(1), op.operandTypes.at(1));
  if (scatter) {
    gather_scatter::ScatterOp imported = stablehlo_import::importScatter(op);
    for (auto _ : state)
      benchmark::DoNotOptimize(proveScatterIndexProperties(imported, indexValues));
  } else {
    gather_scatter::GatherOp imported = stablehlo_import::importGather(op);
    for (auto _ : state)
      benchmark::DoNotOptimize(proveGatherIndexProperties(imported, indexValues));
  }
}

// Anchor: the spec's formulas at every index point (known values only).
void BM_BruteForce(benchmark::State& state, bool scatter, int rank, Values values) {
  ReadOp read(scatter, rank, values);
  const mlir_ir::Operation& op = read.op;
  gather_scatter::Tensor indices = constantIndices(read.block);
  for (auto _ : state) benchmark::DoNotOptimize(bruteForce(op, indices, scatter));
}

// Anchor: one isl question on the op's own map.
void BM_OneIslQuestion(benchmark::State& state, bool scatter, int rank, Values values) {
  ReadOp read(scatter, rank, values);
  const mlir_ir::Operation& op = read.op;
  IndexingMap map =
      scatter ? gather_scatter::scatterUpdateToResultMap(stablehlo_import::importScatter(op))
              : gather_scatter::gatherOutputToOperandMap(stablehlo_import::importGather(op));
  for (auto _ : state) benchmark::DoNotOptimize(islIsEmpty(map));
}

// StableHLO's own gather and scatter ops (the conformance testdata, when the shared folder is
// there): verify's per-op time over all of them, the median and the slowest as counters.
void BM_ConformanceOps(benchmark::State& state) {
  std::vector<mlir_ir::Module> modules;
  std::ifstream in(std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/testdata_cases.jsonl");
  for (std::string line; std::getline(in, line);) {
    nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.contains("function_mlir")) continue;
    try {
      modules.push_back(mlir_ir::parseMlirModule(record["function_mlir"].get<std::string>()));
    } catch (const Error&) {
    }
  }
  if (modules.empty()) {
    state.SkipWithError("no conformance data");
    return;
  }
  std::vector<std::pair<const mlir_ir::Operation*, const std::vector<mlir_ir::Operation>*>> ops;
  for (const mlir_ir::Module& module : modules)
    for (const mlir_ir::Function& function : module.functions)
      for (const mlir_ir::Operation& op : function.body.blocks.at(0).operations)
        if (op.name == "stablehlo.gather" || op.name == "stablehlo.scatter")
          ops.emplace_back(&op, &function.body.blocks.at(0).operations);
  std::vector<double> perOp(ops.size());
  for (auto _ : state)
    for (size_t i = 0; i < ops.size(); ++i) {
      auto start = std::chrono::steady_clock::now();
      try {
        benchmark::DoNotOptimize(proveOpIndexProperties(*ops[i].first, *ops[i].second, {}));
      } catch (const Error&) {  // an op the validators would reject: not verify's per-op work
      }
      perOp[i] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count();
    }
  std::vector<double> sorted = perOp;
  std::sort(sorted.begin(), sorted.end());
  state.counters["ops"] = static_cast<double>(ops.size());
  state.counters["median_ms"] = sorted[sorted.size() / 2];
  state.counters["max_ms"] = sorted.back();
}

void registerAll() {
  benchmark::RegisterBenchmark("conformance/testdata_ops", BM_ConformanceOps)
      ->Unit(benchmark::kMillisecond);
  for (bool scatter : {false, true})
    for (int rank = 1; rank <= 8; ++rank)
      for (Values values :
           {Values::Constant64, Values::Constant4096, Values::Iota, Values::Argument}) {
        std::string name = std::string(scatter ? "scatter" : "gather") + "/rank" +
                           std::to_string(rank) + "/" + valuesName(values);
        benchmark::RegisterBenchmark(("verify/" + name).c_str(), BM_Verify, scatter, rank, values)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("prove/" + name).c_str(), BM_Prove, scatter, rank, values)
            ->Unit(benchmark::kMillisecond);
        if (values == Values::Constant64 || values == Values::Constant4096)
          benchmark::RegisterBenchmark(("bruteforce/" + name).c_str(), BM_BruteForce, scatter, rank,
                                       values)
              ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("islquestion/" + name).c_str(), BM_OneIslQuestion, scatter,
                                     rank, values)
            ->Unit(benchmark::kMillisecond);
      }
}

}  // namespace
}  // namespace idxmap::bench

int main(int argc, char** argv) {
  idxmap::bench::registerAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
