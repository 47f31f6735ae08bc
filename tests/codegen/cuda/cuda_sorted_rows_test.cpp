// Deterministic mode by rows (cuda_kernel_internal.h, Stores::kSortedRows): where an index value
// read from d0 alone tells the targets apart (Kernel::SplitBy::kRuntimeVar) and every window dim
// is a target coordinate, the rows of d0 are sorted by that value instead of every point by its
// target, and a thread per sorted row and window point applies its run in row order. Scatters
// whose result depends on the order (float add and multiply, replace) with many rows per
// target, a window of two dims, and index values out of range (skipped), and one whose index is
// read from another dim than d0 (its points sorted instead), in the .cu file's
// emulation against the reference bit for bit; nvcc compiles them; the rows kernels' IR changed
// is refused.
#include <gtest/gtest.h>

#include <random>

#include "codegen/cuda/cuda_kernel.h"
#include "codegen/run/kernel_engine.h"
#include "codegen/validate/validation.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/import/stablehlo.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace cuda_sorted_rows_test {

using namespace testing;
using gather_scatter::Tensor;

constexpr const char* kScatters = R"(
func.func @add(%table: tensor<64x16xf32>, %rows: tensor<300x1xi32>, %updates: tensor<300x16xf32>) -> tensor<64x16xf32> {
  %r = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x16xf32>, tensor<300x1xi32>, tensor<300x16xf32>) -> tensor<64x16xf32>
  func.return %r : tensor<64x16xf32>
}
func.func @multiply(%table: tensor<32x4x5xf32>, %rows: tensor<200x1xi32>, %updates: tensor<200x4x5xf32>) -> tensor<32x4x5xf32> {
  %r = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.multiply"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<32x4x5xf32>, tensor<200x1xi32>, tensor<200x4x5xf32>) -> tensor<32x4x5xf32>
  func.return %r : tensor<32x4x5xf32>
}
func.func @replace(%table: tensor<16x8xi32>, %rows: tensor<100x1xi32>, %updates: tensor<100x8xi32>) -> tensor<16x8xi32> {
  %r = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    "stablehlo.return"(%b) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<16x8xi32>, tensor<100x1xi32>, tensor<100x8xi32>) -> tensor<16x8xi32>
  func.return %r : tensor<16x8xi32>
}
func.func @columns(%table: tensor<8x64xf32>, %cols: tensor<300x1xi32>, %updates: tensor<8x300xf32>) -> tensor<8x64xf32> {
  %r = "stablehlo.scatter"(%table, %cols, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>} : (tensor<8x64xf32>, tensor<300x1xi32>, tensor<8x300xf32>) -> tensor<8x64xf32>
  func.return %r : tensor<8x64xf32>
}
)";

// The emitted kernels point into the parsed module: both live as long as the tests.
const EmittedModule& emitted() {
  static const mlir_ir::Module parsed = mlir_ir::parseMlirModule(kScatters, "rows.mlir");
  static const EmittedModule module = emitMlirModule(parsed, {}, {EmitTarget::Kind::kCuda, {true}});
  return module;
}

TEST(CudaSortedRows, RowsSortedByTheirIndexAgreeWithTheReference) {
  ASSERT_TRUE(emitted().problems.empty()) << emitted().problems[0].message;
  ASSERT_EQ(emitted().kernels.size(), 4u);
  for (size_t k = 0; k < 3; ++k)
    EXPECT_NE(emitted().kernels[k].printed.text.find("rows of d0 sorted stably"), std::string::npos)
        << emitted().kernels[k].printed.text;
  // @columns reads its index from d1 (its update's second dim): no row sort, every point is.
  EXPECT_NE(emitted().kernels[3].printed.text.find("deterministic: targets sorted stably"),
            std::string::npos)
      << emitted().kernels[3].printed.text;
  JitOptions options = testJitOptions();
  options.flags.insert(options.flags.end(),
                       {"-DIDXMAP_EMULATION_SMS=1", "-DIDXMAP_CUDA_BLOCKS_PER_SM=1",
                        "-DIDXMAP_EMULATION_WORKERS=2"});
  auto library = compileAndLoad(emitted().source(), options);
  std::mt19937 rng(11);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (size_t k = 0; k < emitted().kernels.size(); ++k) {
    const EmittedKernel& e = emitted().kernels[k];
    gather_scatter::ScatterOp op = stablehlo_import::importScatter(*e.op);
    const int64_t targets = op.inputs.at(0).shape.at(0);
    // Few targets for many rows (long runs), some rows out of the table on either side.
    for (bool outside : {false, true}) {
      Tensor rows = gather_scatter::zeros("i32", op.scatter_indices.shape);
      for (int64_t& v : rows.ints) v = uniform(outside ? -3 : 0, targets - (outside ? -2 : 1));
      Tensor table = gather_scatter::zeros(op.inputs[0].element_type, op.inputs[0].shape),
             updates = gather_scatter::zeros(op.updates.at(0).element_type, op.updates[0].shape);
      for (Tensor* t : {&table, &updates}) {
        // Float values whose sums and products round: the order shows in the bits.
        for (double& v : t->floats)
          v = static_cast<double>(static_cast<float>(uniform(-900, 900) / 7.0));
        for (int64_t& v : t->ints) v = uniform(-1000, 1000);
      }
      Tensor expected = gather_scatter::referenceScatter(op, {table}, rows, {updates}).at(0);
      Tensor actual = runKernel(*library, e.kernel, {&table, &rows, &updates}).at(0);
      EXPECT_TRUE(sameBits(actual, expected))
          << e.kernel.symbol << (outside ? ", rows outside" : "") << "\n"
          << e.printed.text;
    }
  }
}

// Random scatters of rows (a table of random height and a window of one or two dims, an
// update computation among add, multiply, maximum and replace, f32 or i32, index values partly
// out of the table): each sorts its rows in deterministic mode and agrees with the reference bit
// for bit in the emulation on two workers. 40 scatters in full runs, a sample in CI.
TEST(CudaSortedRows, RandomRowScattersAgreeWithTheReference) {
  const sampling::Sample sample = sampling::sampleOf("CudaSortedRows.Random", 40, 8);
  std::mt19937 rng(sample.seed);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  std::string text;
  std::vector<std::string> types;
  for (size_t n = 0; n < sample.count; ++n) {
    const std::string type = uniform(0, 1) ? "f32" : "i32";
    const int64_t targets = uniform(1, 40), rows = uniform(1, 120), w0 = uniform(1, 6);
    const bool twoDims = uniform(0, 1);
    const std::string window = std::to_string(w0) + (twoDims ? "x3" : "");
    const std::string table = std::to_string(targets) + "x" + window + "x" + type;
    const std::string updates = std::to_string(rows) + "x" + window + "x" + type;
    const std::string ops[] = {"add", "multiply", "maximum", "replace"};
    const std::string op = ops[uniform(0, 3)];
    const std::string body =
        op == "replace" ? "    \"stablehlo.return\"(%b) : (tensor<" + type + ">) -> ()\n"
                        : "    %s = \"stablehlo." + op + "\"(%a, %b) : (tensor<" + type +
                              ">, tensor<" + type + ">) -> tensor<" + type +
                              ">\n    \"stablehlo.return\"(%s) : (tensor<" + type + ">) -> ()\n";
    text += "func.func @s" + std::to_string(n) + "(%t: tensor<" + table + ">, %i: tensor<" +
            std::to_string(rows) + "x1xi32>, %u: tensor<" + updates + ">) -> tensor<" + table +
            "> {\n  %r = \"stablehlo.scatter\"(%t, %i, %u) ({\n" + "  ^bb0(%a: tensor<" + type +
            ">, %b: tensor<" + type + ">):\n" + body +
            "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [" +
            (twoDims ? "1, 2" : "1") +
            "], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
            "index_vector_dim = 1>} : (tensor<" +
            table + ">, tensor<" + std::to_string(rows) + "x1xi32>, tensor<" + updates +
            ">) -> tensor<" + table + ">\n  func.return %r : tensor<" + table + ">\n}\n";
  }
  const mlir_ir::Module parsed = mlir_ir::parseMlirModule(text, "random_rows.mlir");
  const EmittedModule module = emitMlirModule(parsed, {}, {EmitTarget::Kind::kCuda, {true}});
  ASSERT_TRUE(module.problems.empty()) << module.problems[0].message;
  ASSERT_EQ(module.kernels.size(), sample.count);
  JitOptions options = testJitOptions();
  options.flags.insert(options.flags.end(),
                       {"-DIDXMAP_EMULATION_SMS=1", "-DIDXMAP_CUDA_BLOCKS_PER_SM=1",
                        "-DIDXMAP_EMULATION_WORKERS=2"});
  auto library = compileAndLoad(module.source(), options);
  int byRows = 0;
  for (const EmittedKernel& e : module.kernels) {
    byRows += e.printed.text.find("rows of d0 sorted stably") != std::string::npos;
    gather_scatter::ScatterOp op = stablehlo_import::importScatter(*e.op);
    const int64_t targets = op.inputs.at(0).shape.at(0);
    Tensor rows = gather_scatter::zeros("i32", op.scatter_indices.shape);
    for (int64_t& v : rows.ints) v = uniform(-2, targets + 1);
    Tensor table = gather_scatter::zeros(op.inputs[0].element_type, op.inputs[0].shape),
           updates = gather_scatter::zeros(op.updates.at(0).element_type, op.updates[0].shape);
    for (Tensor* t : {&table, &updates}) {
      for (double& v : t->floats)
        v = static_cast<double>(static_cast<float>(uniform(-900, 900) / 7.0));
      for (int64_t& v : t->ints) v = uniform(-50, 50);
    }
    Tensor expected = gather_scatter::referenceScatter(op, {table}, rows, {updates}).at(0);
    Tensor actual = runKernel(*library, e.kernel, {&table, &rows, &updates}).at(0);
    EXPECT_TRUE(sameBits(actual, expected)) << e.kernel.symbol << "\n" << e.printed.text;
  }
  // A scatter of one row has no two points of one element: plain stores, not a sort.
  EXPECT_GE(byRows * 2, static_cast<int>(sample.count)) << byRows << " of " << sample.count;
}

// nvcc compiles the file (CUB's sort included) with no spill and no local memory.
TEST(CudaSortedRows, NvccCompilesTheRowKernels) {
  if (!nvccInstalled()) GTEST_SKIP() << "no nvcc";
  for (int arch : nvccArchitectures())
    expectCompiledWithoutSpillsOrLocalMemory(nvccCompile(emitted().source(), arch, "rows"),
                                             "sm_" + std::to_string(arch));
}

// The rows kernels are validated from their IR: each change below is refused.
TEST(CudaSortedRows, ChangedRowKernelsAreRefused) {
  ASSERT_FALSE(emitted().kernels.empty());
  const Kernel& kernel = emitted().kernels[0].kernel;
  using Edit = std::function<void(ir::Node&)>;
  auto keys = [](const std::function<void(ir::Node&)>& change) -> Edit {
    return [change](ir::Node& n) {
      if (n.kind == ir::Node::Kind::kFor && n.name == "idxmap_row") change(n);
    };
  };
  auto apply = [](const std::function<void(ir::Node&)>& change) -> Edit {
    return [change](ir::Node& n) {
      if (n.kind == ir::Node::Kind::kFor && n.name == "idxmap_thread") change(n);
    };
  };
  const std::vector<std::pair<std::string, Edit>> mutants = {
      {"a row's d0 one off", keys([](ir::Node& n) {
         n.body[0].value =
             ir::indexValue(binary(COp::kAdd, variable("idxmap_row", CWidth::k32), literal(1)));
       })},
      {"a key from another clamp", keys([](ir::Node& n) {
         n.body[1].value = ir::castValue(n.body[1].value->name, ir::literalValue("0"));
       })},
      {"rows numbered one off",
       keys([](ir::Node& n) { n.body[2].value = ir::literalValue("idxmap_row + 1"); })},
      {"one row fewer sorted", keys([](ir::Node& n) {
         n.condition = binary(COp::kLess, variable("idxmap_row", CWidth::k32), literal(299));
       })},
      {"a run one position short", apply([](ir::Node& n) { n.body[2].count -= 1; })},
      {"a window point shifted", apply([](ir::Node& n) {
         n.body[2].body[0].value =
             ir::indexValue(binary(COp::kAdd, n.body[2].body[0].value->index, literal(1)));
       })},
      {"the window's width wrong", apply([](ir::Node& n) {
         n.body[0].value =
             ir::indexValue(binary(COp::kDiv, variable("idxmap_thread", CWidth::k32), literal(8)));
       })},
  };
  EXPECT_NO_THROW(printCudaKernel(kernel, {true}));
  for (const auto& [what, edit] : mutants)
    EXPECT_THROW(printCudaKernel(kernel, {true}, edit), ValidationError) << what;
}

}  // namespace cuda_sorted_rows_test
}  // namespace idxmap::codegen
