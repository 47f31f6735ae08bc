// The framework gathers (torch.gather, index_select, tf.gather, onnx.Gather / GatherElements /
// GatherND) as kernels, emitted through their StableHLO lowering: on random forms, element
// types and index values (ONNX's negative ones too), at 1 and 2 threads, each kernel gives the
// framework's documented formula bit for bit (tests/ops/forms/oracles.h: no StableHLO, no maps),
// and refuses — returns 2, never clamps — exactly when an index value is out of range. With a
// fact that the values are in range, the check is gone and the result is the same.
#include <gtest/gtest.h>

#include <random>

#include "codegen/run/kernel_engine.h"
#include "ops/eval/lowered_gather.h"
#include "ops/forms/framework_gather.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"
#include "tests/ops/forms/oracles.h"

namespace idxmap::codegen {
namespace framework_kernel_tests {

using gather_scatter::LoweredGather;
using gather_scatter::Tensor;
using namespace gather_scatter::testing;

enum class Form {
  kTorchGather,
  kOnnxGatherElements,
  kTfGather,
  kOnnxGather,
  kIndexSelect,
  kGatherNd
};

struct Case {
  Form form;
  Tensor input, indices;
  int64_t axis = 0, batchDims = 0;  // axis as the oracle takes it (non-negative)
  bool outOfRange = false;          // an index value the form rejects
  bool factInRange = false;         // emitted with `in [0, size - 1]`
  LoweredGather lowered;
  EmittedKernel emitted;
};

bool wraps(Form form) {
  return form == Form::kOnnxGatherElements || form == Form::kOnnxGather || form == Form::kGatherNd;
}

Tensor oracle(const Case& c) {
  switch (c.form) {
    case Form::kTorchGather:
    case Form::kOnnxGatherElements:
      return elementsGatherOracle(c.input, c.axis, c.indices, wraps(c.form));
    case Form::kGatherNd:
      return ndGatherOracle(c.input, c.indices, c.batchDims, true);
    default:
      return axisGatherOracle(c.input, c.indices, c.axis, c.batchDims, wraps(c.form));
  }
}

const char* const kDataTypes[] = {"f32", "i32", "f16", "bf16", "i64", "i16"};

// A random valid form with values for its tensors; `bound(i)`: the size index value i indexes.
Case randomCase(std::mt19937& rng, int n) {
  Case c;
  c.form = static_cast<Form>(n % 6);
  const int64_t rank = uniformIn(rng, 1, 3);
  c.input = numbered(kDataTypes[uniformIn(rng, 0, 5)], randomShape(rng, rank, 1, 4));
  const std::string indexType =
      c.form == Form::kTorchGather || c.form == Form::kGatherNd || uniformIn(rng, 0, 1) ? "i64"
                                                                                        : "i32";
  Index shape;
  std::function<int64_t(size_t)> bound;
  const int64_t dim = uniformIn(rng, 0, rank - 1);
  c.axis = dim;
  switch (c.form) {
    case Form::kTorchGather:
    case Form::kOnnxGatherElements:
      for (int64_t d = 0; d < rank; ++d)  // torch: index.size(d) <= input.size(d) off the axis
        shape.push_back(d == dim
                            ? uniformIn(rng, 1, 4)
                            : (c.form == Form::kTorchGather ? uniformIn(rng, 1, c.input.shape[d])
                                                            : c.input.shape[d]));
      bound = [&c, dim](size_t) { return c.input.shape[dim]; };
      break;
    case Form::kTfGather:
    case Form::kOnnxGather:
    case Form::kIndexSelect: {
      c.batchDims = c.form == Form::kTfGather ? uniformIn(rng, 0, dim) : 0;
      shape.assign(c.input.shape.begin(), c.input.shape.begin() + c.batchDims);
      Index rest = randomShape(rng, c.form == Form::kIndexSelect ? 1 : uniformIn(rng, 0, 2), 1, 4);
      shape.insert(shape.end(), rest.begin(), rest.end());
      bound = [&c, dim](size_t) { return c.input.shape[dim]; };
      break;
    }
    case Form::kGatherNd: {
      c.batchDims = rank > 1 ? uniformIn(rng, 0, 1) : 0;
      const int64_t m = uniformIn(rng, 1, rank - c.batchDims);
      shape.assign(c.input.shape.begin(), c.input.shape.begin() + c.batchDims);
      Index middle = randomShape(rng, uniformIn(rng, c.batchDims ? 0 : 1, 1), 1, 4);
      shape.insert(shape.end(), middle.begin(), middle.end());
      shape.push_back(m);
      bound = [&c, m](size_t i) { return c.input.shape[c.batchDims + int64_t(i) % m]; };
      break;
    }
  }
  c.indices = gather_scatter::zeros(indexType, shape);
  c.factInRange = !wraps(c.form) && n % 5 == 0;
  for (size_t i = 0; i < c.indices.ints.size(); ++i)
    c.indices.ints[i] = uniformIn(rng, wraps(c.form) ? -bound(i) : 0, bound(i) - 1);
  c.outOfRange = !c.factInRange && n % 4 == 1 && !c.indices.ints.empty();
  if (c.outOfRange) {  // one value just past either end of what the form accepts
    size_t i = static_cast<size_t>(uniformIn(rng, 0, int64_t(c.indices.ints.size()) - 1));
    c.indices.ints[i] = uniformIn(rng, 0, 1) ? bound(i) : (wraps(c.form) ? -bound(i) - 1 : -1);
  }
  using namespace gather_scatter;
  const int64_t negativeAxis = c.axis - rank;
  switch (c.form) {
    case Form::kTorchGather:
      c.lowered = lowerTorchGather({c.input.type(), negativeAxis, c.indices.type()});
      break;
    case Form::kOnnxGatherElements:
      c.lowered = lowerOnnxGatherElements({c.input.type(), c.indices.type(), c.axis});
      break;
    case Form::kTfGather:
      c.lowered = lowerTfGather({c.input.type(), c.indices.type(), c.axis, c.batchDims});
      break;
    case Form::kOnnxGather:
      c.lowered = lowerOnnxGather({c.input.type(), c.indices.type(), negativeAxis});
      break;
    case Form::kIndexSelect:
      c.lowered = lowerTorchIndexSelect({c.input.type(), c.axis, c.indices.type()});
      break;
    case Form::kGatherNd:
      c.lowered = lowerOnnxGatherNd({c.input.type(), c.indices.type(), c.batchDims});
      break;
  }
  std::vector<IndexFact> facts;
  if (c.factInRange) {
    int64_t hi = c.input.shape[c.axis] - 1;
    facts.push_back({IndexFact::Kind::InRange, 0, hi, "in [0, " + std::to_string(hi) + "]"});
  }
  c.emitted = emitLoweredGather(c.lowered, c.input.type(), facts, "fw_" + std::to_string(n));
  return c;
}

class FrameworkKernels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::mt19937 rng(10061);
    std::vector<PrintedKernel> printed;
    for (int n = 0; n < 120; ++n) {
      cases().push_back(randomCase(rng, n));
      printed.push_back(cases().back().emitted.printed);
    }
    library() = compileAndLoad(cppFile(printed), testing::testJitOptions());
    // The same kernels for CUDA, run in the .cu file's emulation.
    std::vector<PrintedKernel> cuda;
    for (const Case& c : cases()) cuda.push_back(printCudaKernel(c.emitted.kernel));
    cudaLibrary() = compileAndLoad(cudaFile(cuda), testing::testJitOptions());
    cudaSource() = cudaFile(cuda);
  }
  static std::string& cudaSource() {
    static std::string source;
    return source;
  }
  static void TearDownTestSuite() {
    library().reset();
    cudaLibrary().reset();
  }
  static std::shared_ptr<LoadedLibrary>& cudaLibrary() {
    static std::shared_ptr<LoadedLibrary> loaded;
    return loaded;
  }
  static std::vector<Case>& cases() {
    static std::vector<Case> all;
    return all;
  }
  static std::shared_ptr<LoadedLibrary>& library() {
    static std::shared_ptr<LoadedLibrary> loaded;
    return loaded;
  }
};

TEST_F(FrameworkKernels, GiveTheFormulaOrRefuseOutOfRangeValues) {
  int refused = 0, wrapped = 0;
  for (int threads : {1, 2}) {
    reinterpret_cast<void (*)(int)>(library()->symbol("idxmap_set_num_threads"))(threads);
    for (const Case& c : cases()) {
      SCOPED_TRACE(c.emitted.kernel.symbol + " " + c.lowered.op_name + " (" +
                   std::to_string(threads) + " threads)\n" + c.emitted.printed.text);
      if (c.outOfRange) {
        EXPECT_THROW(runKernel(*library(), c.emitted.kernel, {&c.input, &c.indices}),
                     gather_scatter::IndexValueError);
        refused += threads == 1;
        continue;
      }
      std::vector<Tensor> out = runKernel(*library(), c.emitted.kernel, {&c.input, &c.indices});
      EXPECT_TRUE(testing::sameBits(out.at(0), oracle(c)));
      for (int64_t v : c.indices.ints) wrapped += threads == 1 && v < 0;
    }
  }
  EXPECT_GE(refused, 20);
  EXPECT_GE(wrapped, 20);
}

// The CUDA kernels check index values as the C++ ones do: a flag any thread sets, read back
// after the launch (the entry returns 2).
TEST_F(FrameworkKernels, CudaKernelsGiveTheFormulaOrRefuseOutOfRangeValues) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.emitted.kernel.symbol + " " + c.lowered.op_name);
    if (c.outOfRange) {
      EXPECT_THROW(runKernel(*cudaLibrary(), c.emitted.kernel, {&c.input, &c.indices}),
                   gather_scatter::IndexValueError);
      continue;
    }
    std::vector<Tensor> out = runKernel(*cudaLibrary(), c.emitted.kernel, {&c.input, &c.indices});
    EXPECT_TRUE(testing::sameBits(out.at(0), oracle(c)));
  }
}

TEST_F(FrameworkKernels, CudaKernelsCompileWithNvccWithoutSpillsOrLocalMemory) {
  if (!testing::nvccInstalled()) GTEST_SKIP() << "nvcc is not installed";
  for (int arch : testing::nvccArchitectures())
    testing::expectCompiledWithoutSpillsOrLocalMemory(
        testing::nvccCompile(cudaSource(), arch, "framework"),
        "framework kernels, sm_" + std::to_string(arch));
}

// The code follows the proofs: without a fact the values are checked (never clamped), ONNX's
// forms wrap, and a proven range leaves neither check nor clamp, citing the fact.
TEST_F(FrameworkKernels, ChecksExactlyWhereRangeIsUnproven) {
  int proven = 0;
  for (const Case& c : cases()) {
    const Kernel& kernel = c.emitted.kernel;
    const std::string& text = c.emitted.printed.text;
    SCOPED_TRACE(kernel.symbol + " " + c.lowered.op_name + "\n" + text);
    EXPECT_FALSE(kernel.clamp);
    EXPECT_EQ(text.find("idxmap_clamp"), std::string::npos);
    EXPECT_EQ(kernel.check, !c.factInRange);
    EXPECT_EQ(text.find("return 2;") != std::string::npos, !c.factInRange);
    EXPECT_EQ(text.find("idxmap_wrap_negative(") != std::string::npos, wraps(c.form));
    if (c.factInRange) {
      ++proven;
      EXPECT_NE(text.find("indices: in [0, "), std::string::npos);
    }
  }
  EXPECT_GE(proven, 10);
}

// `omp simd` only where the innermost loop reads contiguously: an element gather's inner loop
// reads through its indices (vector gathers there are slower than scalar loads), a row
// gather's reads one row.
TEST(FrameworkKernelCode, VectorizedOnlyWhereTheInnerLoopIsContiguous) {
  TensorType input{{64, 32}, "f32"};
  std::vector<IndexFact> facts{{IndexFact::Kind::InRange, 0, 31, "in [0, 31]"}};
  EmittedKernel elements =
      emitLoweredGather(gather_scatter::lowerTorchGather({input, 1, TensorType{{64, 32}, "i64"}}),
                        input, facts, "elements");
  EmittedKernel rows =
      emitLoweredGather(gather_scatter::lowerTorchIndexSelect({input, 0, TensorType{{16}, "i64"}}),
                        input, facts, "rows");
  EXPECT_EQ(elements.printed.text.find("simd"), std::string::npos) << elements.printed.text;
  EXPECT_NE(rows.printed.text.find("simd"), std::string::npos) << rows.printed.text;
}

}  // namespace framework_kernel_tests
}  // namespace idxmap::codegen
