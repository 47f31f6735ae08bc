// The CUDA target without a GPU. The random gathers and scatters of kernel_random_test are
// emitted as .cu files (atomic and deterministic mode), compiled as host C++ with the file's
// own emulation of the CUDA runtime, and run against the reference evaluator. The emulation
// runs blocks one after another and a block's threads in order, and every launch here has a
// thread per point, so even atomic updates happen in row-major order: every result must agree
// bit for bit. Where nvcc is installed, the same files compile for sm_80 and sm_90 (one of them
// a CI run: testing::nvccArchitectures), and ptxas and the PTX are read: no spills, no local
// memory, and no compare-and-swap loop in a kernel whose update has a native atomic on that
// architecture.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "codegen/prelude/prelude.h"
#include "codegen/run/kernel_engine.h"
#include "ops/import/stablehlo.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"
#include "tests/codegen/random_kernel_cases.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace cuda_kernels_test {

using namespace testing;
namespace fs = std::filesystem;

// 150 gathers and 250 scatters in full runs, a sample of them in CI.
constexpr size_t kFullCases = 400, kSampledCases = 120;

// The cases and their two emissions, each made on first use (a test process runs one test:
// a test that skips, or needs one mode, pays for no more).
class CudaKernels : public ::testing::Test {
 protected:
  static const RandomCases& random() {
    static const RandomCases cases = [] {
      sampling::Sample sample = sampling::sampleOf("CudaKernels", kFullCases, kSampledCases);
      const int gathers = static_cast<int>(sample.count * 3 / 8);
      return randomKernelCases(gathers, static_cast<int>(sample.count) - gathers, sample.seed);
    }();
    return cases;
  }
  // A floor for how often a choice is reached (sampling::scaledFloor).
  static int scaled(int ofFull) {
    return sampling::scaledFloor(ofFull, cases().size(), kFullCases);
  }
  static const std::vector<RandomCase>& cases() { return random().cases; }

  static const EmittedModule& emitted(bool deterministic) {
    static std::map<bool, EmittedModule> modules;
    auto found = modules.find(deterministic);
    if (found != modules.end()) return found->second;
    static const mlir_ir::Module parsed =
        mlir_ir::parseMlirModule(random().module, "random_cuda.mlir");
    return modules[deterministic] =
               emitMlirModule(parsed, {}, {EmitTarget::Kind::kCuda, {deterministic}});
  }

  // The .cu text compiles as host C++: the C++ test options compile the emulation.
  static std::shared_ptr<LoadedLibrary> emulated(bool deterministic) {
    const EmittedModule& module = emitted(deterministic);
    if (!module.problems.empty()) return nullptr;
    return compileAndLoad(module.source(), testJitOptions());
  }

  static void expectReferenceResults(const EmittedModule& module, const LoadedLibrary& library) {
    ASSERT_EQ(module.kernels.size(), cases().size());
    for (size_t i = 0; i < cases().size(); ++i) {
      const RandomCase& c = cases()[i];
      std::vector<const Tensor*> reads;
      for (const Tensor& t : c.reads) reads.push_back(&t);
      const Kernel& kernel = module.kernels[i].kernel;
      std::vector<Tensor> results = runKernel(library, kernel, reads);
      ASSERT_EQ(results.size(), c.expected.size()) << kernel.symbol;
      for (size_t r = 0; r < results.size(); ++r)
        EXPECT_TRUE(sameBits(results[r], c.expected[r]))
            << kernel.symbol << ", result " << r << "\n"
            << module.kernels[i].printed.text;
    }
  }
};

TEST_F(CudaKernels, AtomicModeAgreesWithTheReferenceBitForBit) {
  std::shared_ptr<LoadedLibrary> library = emulated(false);
  ASSERT_TRUE(library);
  expectReferenceResults(emitted(false), *library);
}

TEST_F(CudaKernels, DeterministicModeAgreesWithTheReferenceBitForBit) {
  std::shared_ptr<LoadedLibrary> library = emulated(true);
  ASSERT_TRUE(library);
  expectReferenceResults(emitted(true), *library);
}

// A caller's workspace: SYMBOL_launch_in allocates nothing and waits for nothing, so a CUDA
// graph can capture it; given SYMBOL_workspace_bytes() of memory that holds garbage, it computes
// the reference's results (device buffers are host memory in the emulation, so the packed
// launch_in entry takes the tests' buffers as they are).
TEST_F(CudaKernels, LaunchesInACallersWorkspaceAllocateNothing) {
  int sorting = 0;
  for (bool deterministic : {false, true}) {
    const EmittedModule& module = emitted(deterministic);
    ASSERT_EQ(module.kernels.size(), cases().size());
    std::shared_ptr<LoadedLibrary> library = emulated(deterministic);
    ASSERT_TRUE(library);
    for (size_t i = 0; i < cases().size(); ++i) {
      const Kernel& kernel = module.kernels[i].kernel;
      const std::string& text = module.kernels[i].printed.text;
      const size_t at = text.find("int " + kernel.symbol + "_launch_in(");
      ASSERT_NE(at, std::string::npos) << text;
      const std::string body = text.substr(at, text.find("\n}\n", at) - at);
      for (const char* call : {"cudaMalloc", "cudaFree", "Synchronize", "cudaMemcpy("})
        EXPECT_EQ(body.find(call), std::string::npos) << call << " in\n" << body;
      sorting += body.find("idxmap_sort_pairs") != std::string::npos;

      auto bytes =
          reinterpret_cast<size_t (*)()>(library->symbol(kernel.symbol + "_workspace_bytes"));
      auto launch = reinterpret_cast<int (*)(void* const*, const int64_t*, void*, void*)>(
          library->symbol(kernel.symbol + "_launch_in_packed"));
      std::vector<unsigned char> workspace(bytes() + 1, 0xA5);
      const RandomCase& c = cases()[i];
      std::vector<Buffer> buffers;
      std::vector<void*> pointers;
      std::vector<int64_t> elements;
      size_t next = 0;
      for (const KernelBuffer& b : kernel.buffers) {
        buffers.push_back(b.written ? Buffer(bufferElementBytes(b.elementType) *
                                             static_cast<size_t>(b.elements()))
                                    : toBuffer(c.reads.at(next++)));
        elements.push_back(b.elements());
      }
      for (Buffer& b : buffers) pointers.push_back(b.data());
      ASSERT_EQ(launch(pointers.data(), elements.data(), workspace.data(), nullptr), 0)
          << kernel.symbol;
      size_t result = 0;
      for (size_t k = 0; k < kernel.buffers.size(); ++k)
        if (kernel.buffers[k].written)
          EXPECT_TRUE(sameBits(
              fromBuffer(buffers[k], kernel.buffers[k].elementType, kernel.buffers[k].shape),
              c.expected.at(result++)))
              << kernel.symbol << (deterministic ? " (deterministic)" : "");
    }
  }
  EXPECT_GT(sorting, 0);  // the deterministic sort's keys and CUB's scratch are in the workspace
}

// The proofs pick the stores: plain where no two points write one element, runs where the
// indices are sorted, atomics (or the sort) otherwise; deterministic mode has no atomics.
TEST_F(CudaKernels, EveryOpIsEmittedAndProofsDecideTheStores) {
  for (bool deterministic : {false, true}) {
    for (const EmitProblem& problem : emitted(deterministic).problems)
      ADD_FAILURE() << problem.location.toString() << ": " << problem.message;
    ASSERT_EQ(emitted(deterministic).kernels.size(), cases().size());
  }
  int plain = 0, atomic = 0, sorted = 0, byRows = 0;
  for (size_t i = 0; i < emitted(false).kernels.size(); ++i) {
    const std::string& text = emitted(false).kernels[i].printed.text;
    const std::string& deterministic = emitted(true).kernels.at(i).printed.text;
    const Kernel& kernel = emitted(false).kernels[i].kernel;
    EXPECT_EQ(deterministic.find("idxmap_atomic_"), std::string::npos) << kernel.symbol;
    const bool usesAtomics = text.find("idxmap_atomic_") != std::string::npos;
    switch (kernel.strategy) {
      case Strategy::kIndependent:
        EXPECT_FALSE(usesAtomics) << kernel.symbol;
        ++plain;
        break;
      case Strategy::kSegmented:  // segmented_scatter_test.cpp tests these on purpose
        break;
      case Strategy::kOrdered:
        EXPECT_TRUE(usesAtomics) << kernel.symbol;
        ++atomic;
        sorted += deterministic.find("idxmap_sort_pairs") != std::string::npos;
        // Rows sorted where an index value read from d0 tells targets apart.
        byRows += deterministic.find("rows of d0 sorted stably") != std::string::npos;
        break;
    }
    if (text.find("__global__") != std::string::npos)  // an op without points launches none
      EXPECT_NE(text.find("// validated (isl): the loop nest enumerates the domain exactly"),
                std::string::npos)
          << kernel.symbol << ": the thread's point decoding is validated";
  }
  EXPECT_GT(plain, scaled(100));
  EXPECT_GT(atomic, scaled(50));
  EXPECT_EQ(sorted, atomic);
  std::cout << "[ stores ] deterministic mode: " << byRows << " of " << sorted
            << " sorted kernels sort rows, the rest points\n";
}

// ---- Grid-stride threads: the emulation given one multiprocessor and one block of 256 threads
// (spread over two host threads), so each thread walks many points, one stride apart: with
// every row equal they all update one element, and the thread merges them before its atomic
// update. Sums of small integers in f32 are exact in any order: the results equal the
// reference bit for bit, for random and for all-equal rows.
constexpr const char* kAtomicScatters = R"(
func.func @add(%table: tensor<64x64xf32>, %rows: tensor<4096x1xi32>, %updates: tensor<4096x64xf32>) -> tensor<64x64xf32> {
  %r = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x64xf32>, tensor<4096x1xi32>, tensor<4096x64xf32>) -> tensor<64x64xf32>
  func.return %r : tensor<64x64xf32>
}
func.func @max(%table: tensor<64x64xi32>, %rows: tensor<4096x1xi32>, %updates: tensor<4096x64xi32>) -> tensor<64x64xi32> {
  %r = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x64xi32>, tensor<4096x1xi32>, tensor<4096x64xi32>) -> tensor<64x64xi32>
  func.return %r : tensor<64x64xi32>
}
)";

TEST(CudaAtomicMerging, GridStrideThreadsMergeUpdatesOfOneElement) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(kAtomicScatters, "atomic.mlir");
  EmittedModule emitted = emitMlirModule(module, {}, {EmitTarget::Kind::kCuda, {}});
  ASSERT_TRUE(emitted.problems.empty()) << emitted.problems[0].message;
  ASSERT_EQ(emitted.kernels.size(), 2u);
  for (const EmittedKernel& e : emitted.kernels)
    EXPECT_NE(e.printed.text.find("idxmap_pending0"), std::string::npos) << e.printed.text;
  JitOptions options = testJitOptions();
  options.flags.insert(options.flags.end(),
                       {"-DIDXMAP_EMULATION_SMS=1", "-DIDXMAP_CUDA_BLOCKS_PER_SM=1",
                        "-DIDXMAP_EMULATION_WORKERS=2"});
  auto library = compileAndLoad(emitted.source(), options);
  std::mt19937 rng(5);
  for (bool equalRows : {false, true}) {
    Tensor rows = gather_scatter::zeros("i32", {4096, 1});
    for (int64_t& v : rows.ints) v = equalRows ? 7 : uniform(rng, 0, 63);
    for (size_t k = 0; k < 2; ++k) {
      const std::string type = k == 0 ? "f32" : "i32";
      Tensor table = gather_scatter::zeros(type, {64, 64}),
             updates = gather_scatter::zeros(type, {4096, 64});
      for (Tensor* t : {&table, &updates}) {
        for (double& v : t->floats) v = uniform(rng, -8, 8);
        for (int64_t& v : t->ints) v = uniform(rng, -1000, 1000);
      }
      gather_scatter::ScatterOp op = stablehlo_import::importScatter(*emitted.kernels[k].op);
      Tensor expected = gather_scatter::referenceScatter(op, {table}, rows, {updates}).at(0);
      Tensor actual =
          runKernel(*library, emitted.kernels[k].kernel, {&table, &rows, &updates}).at(0);
      EXPECT_TRUE(sameBits(actual, expected)) << type << (equalRows ? ", equal rows" : "");
    }
  }
}

// ---- On a GPU (IDXMAP_CUDA_DEVICE=1, which the device script sets; CI never has one): both
// files compiled by nvcc for this machine's GPU and run there. Deterministic mode, plain and
// segmented stores agree bit for bit; so do atomic updates whose result does not depend on
// their order (integers, min, max, and float adds of these quarter-valued tensors in f32 and
// f64, where every partial sum is exact). Atomic float adds in f16 and bf16 are compared within
// their rounding, and atomic replace and float multiply, whose result depends on the order
// (the spec leaves it to the implementation), are counted, not compared.
bool orderMatters(const std::string& combine, double* tolerance) {
  std::optional<CombineKind> kind = combineKind(combine);
  if (!kind) return false;
  using UC = gather_scatter::UpdateComputation;
  const std::string& t = kind->elementType;
  const bool half = t == "f16" || t == "bf16", floating = half || t == "f32" || t == "f64";
  if (kind->computation == UC::kAdd && half) *tolerance = t == "f16" ? 1.0 / 512 : 1.0 / 64;
  return kind->computation == UC::kReplace || (floating && kind->computation == UC::kMul);
}

bool closeEnough(const Tensor& actual, const Tensor& expected, double tolerance) {
  if (actual.floats.size() != expected.floats.size()) return false;
  for (size_t i = 0; i < actual.floats.size(); ++i)
    if (std::abs(actual.floats[i] - expected.floats[i]) >
        tolerance * std::max(1.0, std::abs(expected.floats[i])))
      return false;
  return true;
}

TEST_F(CudaKernels, OnTheGpu) {
  if (!std::getenv("IDXMAP_CUDA_DEVICE"))
    GTEST_SKIP() << "no GPU here (the device script sets IDXMAP_CUDA_DEVICE=1 where there is one)";
  auto deterministic = compileAndLoad(emitted(true).source(), cudaJitOptions());
  expectReferenceResults(emitted(true), *deterministic);
  auto atomic = compileAndLoad(emitted(false).source(), cudaJitOptions());
  int exact = 0, withinRounding = 0, orderDependent = 0;
  for (size_t i = 0; i < cases().size(); ++i) {
    const RandomCase& c = cases()[i];
    std::vector<const Tensor*> reads;
    for (const Tensor& t : c.reads) reads.push_back(&t);
    const Kernel& kernel = emitted(false).kernels.at(i).kernel;
    std::vector<Tensor> results = runKernel(*atomic, kernel, reads);
    ASSERT_EQ(results.size(), c.expected.size()) << kernel.symbol;
    for (size_t r = 0; r < results.size(); ++r) {
      double tolerance = 0;
      const bool atomicStores = kernel.strategy == Strategy::kOrdered;
      if (atomicStores && orderMatters(kernel.transfers.at(r).combine, &tolerance)) {
        ++orderDependent;
      } else if (atomicStores && tolerance > 0) {
        EXPECT_TRUE(closeEnough(results[r], c.expected[r], tolerance)) << kernel.symbol;
        ++withinRounding;
      } else {
        EXPECT_TRUE(sameBits(results[r], c.expected[r])) << kernel.symbol << ", result " << r;
        ++exact;
      }
    }
  }
  std::cout << "on the GPU: " << exact << " results bit for bit, " << withinRounding
            << " within f16/bf16 rounding, " << orderDependent
            << " atomic replace / float multiply results not compared\n";
  // Most results are compared bit for bit (of 400 cases in full runs; the CI sample is smaller).
  EXPECT_GT(exact, static_cast<int>(cases().size()) * 3 / 4);
}

// ---- nvcc: every kernel compiles for sm_80 and sm_90 without spills or local memory, and
// without a CAS loop where the architecture has a native atomic for the update.

// Whether CUDA has a native atomic for `combine` on `arch` (the atomic functions' table).
bool nativeAtomic(const std::string& combine, int arch) {
  std::optional<CombineKind> kind = combineKind(combine);
  if (!kind) return false;
  using UC = gather_scatter::UpdateComputation;
  const std::string& t = kind->elementType;
  const bool word = t == "i32" || t == "ui32" || t == "i64" || t == "ui64";
  switch (kind->computation) {
    case UC::kAdd:
      return word || t == "f32" || t == "f64" || t == "f16" || (t == "bf16" && arch >= 90);
    case UC::kMin:
    case UC::kMax:
      return word;
    case UC::kReplace:
      return word || t == "f32";
    default:
      return false;
  }
}

TEST_F(CudaKernels, NvccCompilesWithoutSpillsLocalMemoryOrNeedlessCas) {
  if (!nvccInstalled()) GTEST_SKIP() << "nvcc is not installed";
  for (bool deterministic : {false, true}) {
    for (int arch : testing::nvccArchitectures()) {
      const std::string what = std::string(deterministic ? "deterministic" : "atomic") +
                               " kernels, sm_" + std::to_string(arch);
      NvccResult result = nvccCompile(emitted(deterministic).source(), arch,
                                      deterministic ? "deterministic" : "atomic");
      expectCompiledWithoutSpillsOrLocalMemory(result, what);
      if (deterministic) continue;
      int checked = 0;
      for (const EmittedKernel& e : emitted(false).kernels) {
        bool allNative = e.kernel.strategy == Strategy::kOrdered;
        for (const Transfer& t : e.kernel.transfers) allNative &= nativeAtomic(t.combine, arch);
        if (!allNative) continue;
        for (const auto& [name, body] : result.entries) {
          if (name.find(e.kernel.symbol + "_points") == std::string::npos) continue;
          EXPECT_EQ(body.find("atom.global.cas"), std::string::npos) << what << " " << name;
          EXPECT_EQ(body.find("atom.cas"), std::string::npos) << what << " " << name;
          ++checked;
        }
      }
      EXPECT_GT(checked, scaled(10)) << what;
    }
  }
}

}  // namespace cuda_kernels_test
}  // namespace idxmap::codegen
