// The segmented scatter: indices a user asserts sorted (`--assume '%rows: sorted'`) with
// duplicates, so unique is not proven but collisions stay within runs of equal rows. The
// kernel splits the rows among threads at run boundaries; on many sorted index tensors (runs
// of every length, rows out of range and skipped) it equals the reference scatter (the spec's
// row-major order) bit for bit at 1 and 2 threads, for f32 addition (not associative: any
// reordering shows) and replace (the last update wins). Without the fact, the same op is
// ordered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>

#include "codegen/emit.h"
#include "codegen/run/kernel_engine.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/import/stablehlo.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"

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

// The CUDA kernels: a thread takes a tile of 8 rows at one window element, applies the runs
// that start in its tile (the last to its end, past the tile) and skips the rows of the run
// the tile before applies. The result is the spec's order whatever the threads' timing; the
// emulation spreads blocks over two host threads here, and a GPU runs them where there is one.
// Shapes vary what tiles meet: a window of one, two or no dims (scalar updates, a map of one
// dim), a last tile shorter than the others, two operands (a held element per result); runs
// vary from all rows apart to all rows equal, so runs cross tiles, end at their edges and
// outrun several.
struct SegmentedShape {
  int64_t rows;        // update rows (d0)
  std::string window;  // the window's shape after the row: "x8", "x3x2" or "" (none)
  int operands = 1;    // scatter's inputs and updates (one result each)
};

// A function @NAME scattering with `body` ("add" or "replace") in `shape`.
std::string segmentedFunction(const std::string& name, const std::string& body,
                              const SegmentedShape& shape) {
  const std::string n = std::to_string(shape.rows), f = shape.window + "xf32>";
  const std::string table = "tensor<16" + f, updates = "tensor<" + n + f,
                    rows = "tensor<" + n + "x1xi32>";
  const size_t windowDims = std::count(shape.window.begin(), shape.window.end(), 'x');
  std::string windowList;
  for (size_t d = 1; d <= windowDims; ++d) windowList += (d > 1 ? ", " : "") + std::to_string(d);
  std::string params, tables, types, results, updateArgs, blockArgs, returns;
  for (int k = 0; k < shape.operands; ++k) {
    const std::string i = std::to_string(k), sep = k ? ", " : "";
    params += ", %table" + i + ": " + table;
    tables += sep + "%table" + i;
    updateArgs += ", %updates" + i;
    types += sep + table;
    results += sep + table;
    blockArgs += sep + "%old" + i + ": tensor<f32>";
  }
  for (int k = 0; k < shape.operands; ++k) {
    params += ", %updates" + std::to_string(k) + ": " + updates;
    blockArgs += ", %new" + std::to_string(k) + ": tensor<f32>";
  }
  std::string region;
  for (int k = 0; k < shape.operands; ++k) {
    const std::string i = std::to_string(k);
    if (body == "add") {
      region += "%s" + i + " = \"stablehlo.add\"(%old" + i + ", %new" + i +
                ") : (tensor<f32>, tensor<f32>) -> tensor<f32>\n    ";
      returns += (k ? ", %s" : "%s") + i;
    } else {
      returns += (k ? ", %new" : "%new") + i;
    }
  }
  std::string returnTypes;
  for (int k = 0; k < shape.operands; ++k)
    returnTypes += (k ? ", " : "") + std::string("tensor<f32>");
  std::string operandTypes = types + ", " + rows;
  for (int k = 0; k < shape.operands; ++k) operandTypes += ", " + updates;
  std::string out = "func.func @" + name + "(" + params.substr(2) + ", %rows: " + rows + ") -> (" +
                    results + ") {\n  %0:" + std::to_string(shape.operands) +
                    " = \"stablehlo.scatter\"(" + tables + ", %rows" + updateArgs +
                    ") ({\n  ^bb0(" + blockArgs + "):\n    " + region + "\"stablehlo.return\"(" +
                    returns + ") : (" + returnTypes +
                    ") -> ()\n  }) {\n    scatter_dimension_numbers = "
                    "#stablehlo.scatter<update_window_dims = [" +
                    windowList +
                    "], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
                    "index_vector_dim = 1>\n  } : (" +
                    operandTypes + ") -> (" + results + ")\n";
  std::string returned;
  for (int k = 0; k < shape.operands; ++k) returned += (k ? ", %0#" : "%0#") + std::to_string(k);
  return out + "  func.return " + returned + " : " + results + "\n}\n";
}

TEST(SegmentedScatter, CudaThreadsWalkRunsInTheSpecOrder) {
  const std::vector<SegmentedShape> shapes = {{64, "x8"},    {61, "x3x2"}, {64, ""},
                                              {29, "x8", 2}, {8, "x8"},    {9, "x4"}};
  // Every case a function of one module: one emission, one compile (and one nvcc check).
  std::string text;
  std::vector<std::pair<SegmentedShape, std::string>> cases;
  for (const SegmentedShape& shape : shapes)
    for (const char* body : {"add", "replace"}) {
      text += segmentedFunction("f" + std::to_string(cases.size()), body, shape);
      cases.emplace_back(shape, body);
    }
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "sorted.mlir");
  EmittedModule emitted =
      emitMlirModule(module, parseAssumptions({"%rows: sorted"}), {EmitTarget::Kind::kCuda, {}});
  ASSERT_TRUE(emitted.problems.empty()) << emitted.problems[0].message;
  ASSERT_EQ(emitted.kernels.size(), cases.size());
  JitOptions options = testing::testJitOptions();
  options.flags.push_back("-DIDXMAP_EMULATION_WORKERS=2");
  std::vector<std::shared_ptr<LoadedLibrary>> libraries;
  libraries.push_back(compileAndLoad(emitted.source(), options));
  // On a GPU machine (IDXMAP_CUDA_DEVICE=1, set by the device script) the same cases run there.
  if (std::getenv("IDXMAP_CUDA_DEVICE"))
    libraries.push_back(compileAndLoad(emitted.source(), cudaJitOptions()));
  for (size_t c = 0; c < cases.size(); ++c) {
    const auto& [shape, body] = cases[c];
    SCOPED_TRACE(std::to_string(shape.rows) + " rows, window '" + shape.window + "', " +
                 std::to_string(shape.operands) + " operands, " + body);
    const Kernel& kernel = emitted.kernels[c].kernel;
    ASSERT_EQ(kernel.strategy, Strategy::kSegmented);
    const std::string& printed = emitted.kernels[c].printed.text;
    EXPECT_NE(printed.find("idxmap_run_starts_at"), std::string::npos) << printed;
    EXPECT_EQ(printed.find("idxmap_atomic_"), std::string::npos) << printed;
    EXPECT_NE(printed.find("tile of 8 rows"), std::string::npos) << printed;
    gather_scatter::ScatterOp op = stablehlo_import::importScatter(*emitted.kernels[c].op);
    std::vector<int64_t> tableShape = {16}, updateShape = {shape.rows};
    for (size_t at = 0; at < shape.window.size();) {
      const size_t next = std::min(shape.window.find('x', at + 1), shape.window.size());
      const int64_t extent = std::stoll(shape.window.substr(at + 1, next - at - 1));
      tableShape.push_back(extent);
      updateShape.push_back(extent);
      at = next;
    }
    std::mt19937 rng(12);
    for (int trial = 0; trial < 30; ++trial) {
      // Rows in [-1, top] (-1 and values past 15 are skipped): runs of ~rows / (top + 2).
      const int top = std::vector<int>{16, 3, 0, 20}[trial % 4];
      Tensor rows = gather_scatter::zeros("i32", {shape.rows, 1});
      std::uniform_int_distribution<int> row(-1, top);
      for (int64_t& v : rows.ints) v = row(rng);
      std::sort(rows.ints.begin(), rows.ints.end());
      std::vector<Tensor> tables, updates;
      for (int k = 0; k < shape.operands; ++k) {
        tables.push_back(floats(tableShape, rng));
        updates.push_back(floats(updateShape, rng));
      }
      std::vector<Tensor> expected = gather_scatter::referenceScatter(op, tables, rows, updates);
      std::vector<const Tensor*> reads;
      for (const Tensor& t : tables) reads.push_back(&t);
      reads.push_back(&rows);
      for (const Tensor& t : updates) reads.push_back(&t);
      for (size_t l = 0; l < libraries.size(); ++l) {
        std::vector<Tensor> actual = runKernel(*libraries[l], kernel, reads);
        ASSERT_EQ(actual.size(), expected.size());
        for (size_t k = 0; k < actual.size(); ++k)
          ASSERT_TRUE(testing::sameBits(actual[k], expected[k]))
              << (l ? "GPU" : "emulated") << ", trial " << trial << ", result " << k << "\n"
              << printed;
      }
    }
  }
  // A tile's rows live in registers: nvcc keeps them there (no local memory, no spill).
  if (testing::nvccInstalled())
    for (int arch : testing::nvccArchitectures())
      testing::expectCompiledWithoutSpillsOrLocalMemory(
          testing::nvccCompile(emitted.source(), arch, "segmented"), "segmented kernels");
}

}  // namespace segmented_scatter_tests
}  // namespace idxmap::codegen
