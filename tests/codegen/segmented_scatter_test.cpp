// The segmented scatter: indices a user asserts sorted (`--assume '%rows: sorted'`) with
// duplicates, so unique is not proven but collisions stay within runs of equal rows. The
// kernel splits the rows among threads at run boundaries; on many sorted index tensors (runs
// of every length, rows out of range and skipped) it equals the reference scatter (the spec's
// row-major order) bit for bit at 1 and 2 threads, for f32 addition (not associative: any
// reordering shows) and replace (the last update wins). Without the fact, the same op is
// ordered.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "codegen/emit.h"
#include "codegen/run/kernel_engine.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/import/stablehlo.h"
#include "tests/codegen/kernel_test_support.h"

namespace idxmap::codegen {
namespace segmented_scatter_tests {  // named: the folder's tests share one unity file

using gather_scatter::Tensor;

std::string scatterModule(const std::string& body) {
  return R"(func.func @main(%table: tensor<16x8xf32>, %rows: tensor<64x1xi32>, %updates: tensor<64x8xf32>) -> tensor<16x8xf32> {
  %0 = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    )" + body +
         R"(
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<16x8xf32>, tensor<64x1xi32>, tensor<64x8xf32>) -> tensor<16x8xf32>
  func.return %0 : tensor<16x8xf32>
})";
}

const char* kAdd = R"(%s = "stablehlo.add"(%old, %new) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ())";
const char* kReplace = R"("stablehlo.return"(%new) : (tensor<f32>) -> ())";

Tensor floats(const std::vector<int64_t>& shape, std::mt19937& rng) {
  Tensor t = gather_scatter::zeros("f32", shape);
  std::uniform_real_distribution<float> value(-1000, 1000);
  for (double& v : t.floats) v = value(rng);  // f32 values: sums round differently by order
  return t;
}

// Sorted rows in [-1, 16] (-1 and 16 are skipped), runs of random lengths.
Tensor sortedRows(std::mt19937& rng) {
  Tensor t = gather_scatter::zeros("i32", {64, 1});
  std::uniform_int_distribution<int> row(-1, 16);
  for (int64_t& v : t.ints) v = row(rng);
  std::sort(t.ints.begin(), t.ints.end());
  return t;
}

TEST(SegmentedScatter, EqualsTheSpecOrderAtEveryThreadCount) {
  for (const char* body : {kAdd, kReplace}) {
    mlir_ir::Module module = mlir_ir::parseMlirModule(scatterModule(body), "sorted.mlir");
    EmittedModule emitted = emitMlirModule(module, parseAssumptions({"%rows: sorted"}));
    ASSERT_TRUE(emitted.problems.empty()) << emitted.problems[0].message;
    ASSERT_EQ(emitted.kernels.size(), 1u);
    const Kernel& kernel = emitted.kernels[0].kernel;
    ASSERT_EQ(kernel.strategy, Strategy::kSegmented) << emitted.kernels[0].printed.text;
    EXPECT_NE(emitted.kernels[0].printed.text.find("idxmap_run_starts_at"), std::string::npos);
    // Without the fact nothing bounds the collisions: ordered.
    EXPECT_EQ(emitMlirModule(module).kernels.at(0).kernel.strategy, Strategy::kOrdered);

    auto library = compileAndLoad(emitted.source(), testing::testJitOptions());
    auto setThreads = reinterpret_cast<void (*)(int)>(library->symbol("idxmap_set_num_threads"));
    gather_scatter::ScatterOp op = stablehlo_import::importScatter(*emitted.kernels[0].op);
    std::mt19937 rng(11);
    for (int trial = 0; trial < 40; ++trial) {
      Tensor table = floats({16, 8}, rng), updates = floats({64, 8}, rng), rows = sortedRows(rng);
      Tensor expected = gather_scatter::referenceScatter(op, {table}, rows, {updates}).at(0);
      for (int threads : {1, 2}) {
        setThreads(threads);
        Tensor actual = runKernel(*library, kernel, {&table, &rows, &updates}).at(0);
        ASSERT_TRUE(testing::sameBits(actual, expected))
            << "trial " << trial << ", " << threads << " threads";
      }
    }
  }
}

// The CUDA kernel of the same op: a thread per run start and row element walks its run, so the
// result is the spec's order whatever the threads' timing; the emulation spreads blocks over
// two host threads here.
TEST(SegmentedScatter, CudaThreadsWalkRunsInTheSpecOrder) {
  for (const char* body : {kAdd, kReplace}) {
    mlir_ir::Module module = mlir_ir::parseMlirModule(scatterModule(body), "sorted.mlir");
    EmittedModule emitted =
        emitMlirModule(module, parseAssumptions({"%rows: sorted"}), {EmitTarget::Kind::kCuda, {}});
    ASSERT_TRUE(emitted.problems.empty()) << emitted.problems[0].message;
    const Kernel& kernel = emitted.kernels.at(0).kernel;
    ASSERT_EQ(kernel.strategy, Strategy::kSegmented);
    const std::string& text = emitted.kernels[0].printed.text;
    EXPECT_NE(text.find("idxmap_run_starts_at"), std::string::npos) << text;
    EXPECT_EQ(text.find("idxmap_atomic_"), std::string::npos) << text;
    JitOptions options = testing::testJitOptions();
    options.flags.push_back("-DIDXMAP_EMULATION_WORKERS=2");
    auto library = compileAndLoad(emitted.source(), options);
    gather_scatter::ScatterOp op = stablehlo_import::importScatter(*emitted.kernels[0].op);
    std::mt19937 rng(12);
    for (int trial = 0; trial < 40; ++trial) {
      Tensor table = floats({16, 8}, rng), updates = floats({64, 8}, rng), rows = sortedRows(rng);
      Tensor expected = gather_scatter::referenceScatter(op, {table}, rows, {updates}).at(0);
      Tensor actual = runKernel(*library, kernel, {&table, &rows, &updates}).at(0);
      ASSERT_TRUE(testing::sameBits(actual, expected)) << "trial " << trial << "\n" << text;
    }
  }
}

}  // namespace segmented_scatter_tests
}  // namespace idxmap::codegen
