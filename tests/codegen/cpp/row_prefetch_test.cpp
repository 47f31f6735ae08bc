// Row gathers fetch the row a later iteration reads (codegen/cpp/cpp_kernel.cpp's rowPrefetch):
// only where every index is proven in bounds (the prefetched address is then a real row's), the
// index values load at offsets of d0 alone, a row spans 128 bytes to 1 KiB, and no
// collapse clause joins the d0 loop to the row's (64 rows or more). The kernels
// with the prefetch equal the reference gather bit for bit at 1 and 2 threads, in int32 and
// int64 arithmetic; the ones without it are the clamped gather, short rows, few rows, long rows.
#include <gtest/gtest.h>

#include <random>

#include "codegen/emit.h"
#include "codegen/run/kernel_engine.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/import/stablehlo.h"
#include "tests/codegen/kernel_test_support.h"

namespace idxmap::codegen {
namespace row_prefetch_tests {  // named: the folder's tests share one unity file

using gather_scatter::Tensor;

// @NAME gathers `lookups` rows of `row` (e.g. "64" or "4x32") from a table of `rows` rows.
std::string rowGather(const std::string& name, int64_t rows, const std::string& row,
                      int64_t lookups) {
  const size_t inner = 1 + static_cast<size_t>(std::count(row.begin(), row.end(), 'x'));
  std::string offsetDims, sliceSizes = "1";
  for (size_t d = 1; d <= inner; ++d) offsetDims += (d > 1 ? ", " : "") + std::to_string(d);
  for (size_t at = 0, next = 0; next != std::string::npos; at = next + 1) {
    next = row.find('x', at);
    sliceSizes += ", " + row.substr(at, next == std::string::npos ? next : next - at);
  }
  const std::string t = "tensor<" + std::to_string(rows) + "x" + row + "xf32>",
                    i = "tensor<" + std::to_string(lookups) + "x1xi64>",
                    r = "tensor<" + std::to_string(lookups) + "x" + row + "xf32>";
  return "func.func @" + name + "(%table: " + t + ", %" + name + "_idx: " + i + ") -> " + r +
         " {\n  %r = \"stablehlo.gather\"(%table, %" + name +
         "_idx) {dimension_numbers = #stablehlo.gather<offset_dims = [" + offsetDims +
         "], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
         "slice_sizes = array<i64: " +
         sliceSizes + ">} : (" + t + ", " + i + ") -> " + r + "\n  func.return %r : " + r + "\n}\n";
}

TEST(RowPrefetch, OnlyProvenRowGathersPrefetchAndAllEqualTheReference) {
  struct Case {
    std::string name;
    int64_t rows;
    std::string row;
    int64_t lookups;
    bool inBounds, prefetches;
  };
  const std::vector<Case> cases = {
      {"rows", 300, "64", 80, true, true},      {"tiles", 50, "4x32", 70, true, true},
      {"clamped", 300, "64", 40, false, false}, {"short", 300, "16", 40, true, false},
      {"few", 300, "64", 8, true, false},       {"long", 100, "512", 64, true, false},
  };
  std::string module;
  std::vector<std::string> facts;
  for (const Case& c : cases) {
    module += rowGather(c.name, c.rows, c.row, c.lookups);
    if (c.inBounds)
      facts.push_back("%" + c.name + "_idx: in [0, " + std::to_string(c.rows - 1) + "]");
  }
  mlir_ir::Module parsed = mlir_ir::parseMlirModule(module, "rows.mlir");
  EmittedModule emitted = emitMlirModule(parsed, parseAssumptions(facts));
  ASSERT_TRUE(emitted.problems.empty()) << emitted.problems[0].message;
  ASSERT_EQ(emitted.kernels.size(), cases.size());
  // The int64 twins of the kernels: the same code with int32 arithmetic off.
  std::vector<PrintedKernel> printed;
  std::vector<Kernel> wide;
  for (size_t k = 0; k < cases.size(); ++k) {
    const std::string& text = emitted.kernels[k].printed.text;
    EXPECT_EQ(text.find("__builtin_prefetch") != std::string::npos, cases[k].prefetches)
        << cases[k].name << "\n"
        << text;
    printed.push_back(emitted.kernels[k].printed);
    Kernel twin = emitted.kernels[k].kernel;
    twin.int32 = false;
    twin.symbol += "_i64";
    printed.push_back(printCppKernel(twin));
    wide.push_back(twin);
  }
  auto library = compileAndLoad(cppFile(printed), testing::testJitOptions());
  auto setThreads = reinterpret_cast<void (*)(int)>(library->symbol("idxmap_set_num_threads"));
  std::mt19937 rng(5);
  for (size_t k = 0; k < cases.size(); ++k) {
    gather_scatter::GatherOp op = stablehlo_import::importGather(*emitted.kernels[k].op);
    Tensor table = gather_scatter::zeros("f32", op.operand.shape);
    for (double& v : table.floats) v = static_cast<float>(rng() % 1000) * 0.25f;
    Tensor indices = gather_scatter::zeros("i64", op.start_indices.shape);
    std::uniform_int_distribution<int64_t> row(0, cases[k].rows - 1);
    for (int64_t& v : indices.ints) v = row(rng);
    Tensor expected = gather_scatter::referenceGather(op, table, indices);
    for (const Kernel* kernel : {&emitted.kernels[k].kernel, &wide[k]})
      for (int threads : {1, 2}) {
        setThreads(threads);
        Tensor actual = runKernel(*library, *kernel, {&table, &indices}).at(0);
        ASSERT_TRUE(testing::sameBits(actual, expected))
            << cases[k].name << ", " << threads << " threads, " << kernel->symbol;
      }
  }
}

}  // namespace row_prefetch_tests
}  // namespace idxmap::codegen
