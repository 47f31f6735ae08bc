// tensor.gather / tensor.scatter / tcp.gather / tcp.gather_nd as kernels: emitted through their
// StableHLO lowering, run on in-range indices, equal to the forms' own evaluation
// (ops/eval/lowered_gather.h, the reference engine), `index` indices included.
#include <gtest/gtest.h>

#include "codegen/run/kernel_engine.h"
#include "ops/eval/lowered_gather.h"
#include "ops/forms/tcp_gather.h"
#include "ops/forms/tensor_gather.h"
#include "ops/import/forms.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::codegen {
namespace {

using gather_scatter::Tensor;
using gather_scatter::testing::tensorFrom;

constexpr const char* kForms = R"(
%a = tensor.gather %input[%idx] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<3x2xindex>) -> tensor<3x4x1x1xf32>
%b = tensor.scatter %src into %dest[%idx2] scatter_dims([1]) unique : (tensor<2x4x1xf32>, tensor<4x5xf32>, tensor<2x1xindex>) -> tensor<4x5xf32>
%c = tcp.gather %in3, %idx3 { dim = 1 } : (tensor<3x5xi32>, tensor<3x4xi64>) -> tensor<3x4xi32>
%d = tcp.gather_nd %in4, %idx4 : (tensor<5x7x3xf32>, tensor<4x2xi64>) -> tensor<4x3xf32>
)";

Tensor counting(const std::string& type, const std::vector<int64_t>& shape) {
  Tensor t = gather_scatter::zeros(type, shape);
  for (size_t i = 0; i < t.floats.size(); ++i) t.floats[i] = 0.5 * static_cast<double>(i) - 3;
  for (size_t i = 0; i < t.ints.size(); ++i) t.ints[i] = static_cast<int64_t>(i) * 3 - 7;
  return t;
}

TEST(FormKernels, EqualTheFormsOwnEvaluation) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(kForms, "forms.mlir");
  EmittedModule emitted = emitMlirModule(module);
  for (const EmitProblem& problem : emitted.problems) ADD_FAILURE() << problem.message;
  ASSERT_EQ(emitted.kernels.size(), 4u);
  std::vector<PrintedKernel> printed;
  for (const EmittedKernel& k : emitted.kernels) printed.push_back(k.printed);
  std::shared_ptr<LoadedLibrary> library =
      compileAndLoad(cppFile(printed), testing::testJitOptions());
  const auto& ops = module.operations;
  using gather_scatter::Engine;
  {  // tensor.gather: distinct coordinates (it says `unique`)
    Tensor input = counting("f32", {4, 5, 6}),
           idx = tensorFrom("index", {3, 2}, nlohmann::json{{0, 5}, {4, 0}, {2, 3}});
    Tensor expected = gather_scatter::evaluateLoweredGather(
        gather_scatter::lowerTensorGather(gather_scatter::importTensorGather(ops[0])), input, idx,
        Engine::kReference);
    EXPECT_TRUE(testing::sameBits(
        runKernel(*library, emitted.kernels[0].kernel, {&input, &idx}).at(0), expected));
  }
  {  // tensor.scatter: dest with the source slices written at the indices
    Tensor src = counting("f32", {2, 4, 1}), dest = counting("f32", {4, 5}),
           idx = tensorFrom("index", {2, 1}, nlohmann::json{{3}, {1}});
    Tensor expected = gather_scatter::evaluateLoweredScatter(
        gather_scatter::lowerTensorScatter(gather_scatter::importTensorScatter(ops[1])), dest, idx,
        src, Engine::kReference);
    // The kernel's parameters: the input (dest), the indices, the updates (source).
    EXPECT_TRUE(testing::sameBits(
        runKernel(*library, emitted.kernels[1].kernel, {&dest, &idx, &src}).at(0), expected));
  }
  {  // tcp.gather: element by element along dim 1
    Tensor input = counting("i32", {3, 5}),
           idx =
               tensorFrom("i64", {3, 4}, nlohmann::json{{4, 0, 2, 2}, {1, 3, 0, 4}, {0, 0, 4, 1}});
    gather_scatter::TcpGatherOp form = gather_scatter::importTcpGather(ops[2]);
    Tensor expected = gather_scatter::evaluateLoweredGather(gather_scatter::lowerTcpGather(form),
                                                            input, idx, Engine::kReference);
    EXPECT_TRUE(testing::sameBits(
        runKernel(*library, emitted.kernels[2].kernel, {&input, &idx}).at(0), expected));
  }
  {  // tcp.gather_nd
    Tensor input = counting("f32", {5, 7, 3}),
           idx = tensorFrom("i64", {4, 2}, nlohmann::json{{0, 0}, {4, 6}, {2, 3}, {4, 0}});
    Tensor expected = gather_scatter::evaluateLoweredGather(
        gather_scatter::lowerTcpGatherNd(gather_scatter::importTcpGatherNd(ops[3])), input, idx,
        Engine::kReference);
    EXPECT_TRUE(testing::sameBits(
        runKernel(*library, emitted.kernels[3].kernel, {&input, &idx}).at(0), expected));
  }
}

// An offset past 2^31 (shape only: nothing is run) gets int64 arithmetic, and says why.
TEST(FormKernels, OffsetsPast2To31GetInt64) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(R"(
func.func @big(%t: tensor<70000x40000xf32>, %i: tensor<8x1xi64>) -> tensor<8x40000xf32> {
  %r = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 40000>} : (tensor<70000x40000xf32>, tensor<8x1xi64>) -> tensor<8x40000xf32>
  func.return %r : tensor<8x40000xf32>
}
)",
                                                    "big.mlir");
  EmittedModule emitted = emitMlirModule(module);
  ASSERT_EQ(emitted.kernels.size(), 1u);
  const Kernel& kernel = emitted.kernels[0].kernel;
  EXPECT_FALSE(kernel.int32);
  EXPECT_NE(emitted.kernels[0].printed.text.find("int64_t d0"), std::string::npos);
  EXPECT_NE(emitted.kernels[0].printed.text.find("an index expression leaves int32"),
            std::string::npos)
      << emitted.kernels[0].printed.text;
}

}  // namespace
}  // namespace idxmap::codegen
