// The value analysis and the provers on a whole generated program (issue 31): blocks of JAX's
// plumbing for `x.at[jnp.arange(8) * k + off].add(v)` (iota, multiply, add of a constant or of
// an argument, the negative-index fix-up compare / add / select, broadcast_in_dim) each
// feeding a scatter, 11 ops a block, chained through the scatters' results: 1,001 and 10,010
// ops. Timed per program:
//   - parse/       reading the MLIR text (the anchor: what every user of the program pays);
//   - values/      the value analysis of every scatter's indices (indexValues);
//   - verify/      what `idxmap verify` does per scatter (import, values, the three proofs and
//                  the int32 widths), with `--assume '%arg: in [0, 8]'`;
//   - verify_unassumed/  the same without it: %arg any i32, the properties of the scatters it
//                  indexes conditions on it (most of the time: the pair conditions of unique
//                  and sorted restated on %arg).
// Counters: ops in the program, and the time per scatter.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "ops/mlir/module.h"
#include "ops/provenance/index_values.h"
#include "verify/assumptions.h"
#include "verify/op_properties.h"

namespace idxmap::bench {
namespace {

struct Program {
  std::string text;
  int64_t ops = 0;
};

Program jaxScatters(int blocks) {
  Program program;
  std::string& t = program.text;
  t = "func.func @main(%x: tensor<64x3xf32>, %v: tensor<8x3xf32>, %arg: tensor<8xi32>) -> "
      "tensor<64x3xf32> {\n";
  const std::string vec = "tensor<8xi32>";
  std::string current = "%x";
  for (int b = 0; b < blocks; ++b) {
    const std::string p = "%b" + std::to_string(b) + "_";
    const std::string k = std::to_string(1 + b % 7);
    t += "  " + p + "iota = stablehlo.iota dim = 0 : " + vec + "\n";
    t += "  " + p + "k = stablehlo.constant dense<" + k + "> : " + vec + "\n";
    t += "  " + p + "m = stablehlo.multiply " + p + "iota, " + p + "k : " + vec + "\n";
    t += "  " + p + "a = stablehlo.add " + p + "m, " + (b % 3 == 0 ? "%arg" : p + "k") + " : " +
         vec + "\n";
    t += "  " + p + "z = stablehlo.constant dense<0> : " + vec + "\n";
    t += "  " + p + "neg = stablehlo.compare LT, " + p + "a, " + p + "z, SIGNED : (" + vec + ", " +
         vec + ") -> tensor<8xi1>\n";
    t += "  " + p + "n = stablehlo.constant dense<64> : " + vec + "\n";
    t += "  " + p + "w = stablehlo.add " + p + "a, " + p + "n : " + vec + "\n";
    t += "  " + p + "f = stablehlo.select " + p + "neg, " + p + "w, " + p + "a : tensor<8xi1>, " +
         vec + "\n";
    t += "  " + p + "col = stablehlo.broadcast_in_dim " + p + "f, dims = [0] : (" + vec +
         ") -> tensor<8x1xi32>\n";
    t += "  " + p + "r = \"stablehlo.scatter\"(" + current + ", " + p + "col, %v) ({\n" +
         "  ^bb0(%a: tensor<f32>, %c: tensor<f32>):\n" +
         "    %s = stablehlo.add %a, %c : tensor<f32>\n    stablehlo.return %s : tensor<f32>\n" +
         "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
         "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}"
         " : (tensor<64x3xf32>, tensor<8x1xi32>, tensor<8x3xf32>) -> tensor<64x3xf32>\n";
    current = p + "r";
    program.ops += 11;
  }
  t += "  return " + current + " : tensor<64x3xf32>\n}\n";
  return program;
}

const Program& programOf(int blocks) {
  static const Program small = jaxScatters(91), large = jaxScatters(910);
  return blocks == 91 ? small : large;
}

void report(benchmark::State& state, const Program& program, int64_t scatters) {
  state.counters["ops"] = static_cast<double>(program.ops);
  // Seconds per scatter (printed with its unit: "7.2ms").
  state.counters["per_scatter"] = benchmark::Counter(
      static_cast<double>(scatters),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_Parse(benchmark::State& state) {
  const Program& program = programOf(static_cast<int>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(mlir_ir::parseMlirModule(program.text, "program.mlir"));
  report(state, program, state.range(0));
}

// The scatters of @main, in order.
std::vector<const mlir_ir::Operation*> scattersOf(const mlir_ir::Module& module) {
  std::vector<const mlir_ir::Operation*> scatters;
  for (const mlir_ir::Operation& op : module.function("main")->body.blocks.front().operations)
    if (op.name == "stablehlo.scatter") scatters.push_back(&op);
  return scatters;
}

void BM_Values(benchmark::State& state) {
  const Program& program = programOf(static_cast<int>(state.range(0)));
  const mlir_ir::Module module = mlir_ir::parseMlirModule(program.text, "program.mlir");
  const std::vector<mlir_ir::Operation>& block =
      module.function("main")->body.blocks.front().operations;
  const std::vector<const mlir_ir::Operation*> scatters = scattersOf(module);
  for (auto _ : state)
    for (const mlir_ir::Operation* scatter : scatters) {
      index_provenance::ValueContext context;
      context.module = &module;
      context.assumed = {{"arg", {0, 8}}};
      context.user = scatter;
      benchmark::DoNotOptimize(index_provenance::indexValues(block, scatter->operands.at(1),
                                                             scatter->operandTypes.at(1), context));
    }
  report(state, program, static_cast<int64_t>(scatters.size()));
}

// With `assumed`, `--assume '%arg: in [0, 8]'`; without, %arg is any i32 (its sums with the
// offsets wrap), and the properties of the scatters it indexes are conditions on it.
void verify(benchmark::State& state, bool assumed) {
  const Program& program = programOf(static_cast<int>(state.range(0)));
  const mlir_ir::Module module = mlir_ir::parseMlirModule(program.text, "program.mlir");
  const std::vector<mlir_ir::Operation>& block =
      module.function("main")->body.blocks.front().operations;
  const std::vector<const mlir_ir::Operation*> scatters = scattersOf(module);
  const std::vector<Assumption> assumptions =
      assumed ? parseAssumptions({"%arg: in [0, 8]"}) : std::vector<Assumption>{};
  for (auto _ : state)
    for (const mlir_ir::Operation* scatter : scatters)
      benchmark::DoNotOptimize(proveOpIndexProperties(*scatter, block, assumptions, &module));
  report(state, program, static_cast<int64_t>(scatters.size()));
}

BENCHMARK(BM_Parse)->Name("parse")->Arg(91)->Arg(910)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Values)->Name("values")->Arg(91)->Arg(910)->Unit(benchmark::kMillisecond);
void BM_Verify(benchmark::State& state) { verify(state, true); }
void BM_VerifyUnassumed(benchmark::State& state) { verify(state, false); }

BENCHMARK(BM_Verify)->Name("verify")->Arg(91)->Arg(910)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_VerifyUnassumed)
    ->Name("verify_unassumed")
    ->Arg(91)
    ->Arg(910)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace idxmap::bench

BENCHMARK_MAIN();
