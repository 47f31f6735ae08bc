// Random gathers and scatters written as MLIR and taken through the whole pipeline a user's
// file takes (reader, proofs, emission, validation, one compiled file): every kernel agrees
// bit for bit with the reference evaluator (the spec's formulas), with 1 and 2 threads, and
// twice in a row. Index values are constants out of range (clamps and skips), constants in
// range (proven in bounds, often unique: plain stores) and function arguments (run time).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

#include "codegen/run/kernel_engine.h"
#include "codegen/run/tensor_buffers.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/import/stablehlo.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/random_kernel_cases.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace {

using namespace testing;

// 300 gathers and 300 scatters in full runs, a sample of them in CI.
constexpr size_t kFullCases = 600, kSampledCases = 160;

class RandomKernels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sample() = sampling::sampleOf("RandomKernels", kFullCases, kSampledCases);
    const int gathers = static_cast<int>(sample().count / 2);
    RandomCases random =
        randomKernelCases(gathers, static_cast<int>(sample().count) - gathers, sample().seed);
    cases() = std::move(random.cases);
    std::string module = std::move(random.module);
    parsed() = std::make_unique<mlir_ir::Module>(mlir_ir::parseMlirModule(module, "random.mlir"));
    emitted() = emitMlirModule(*parsed());
    if (emitted().problems.empty())
      library() = compileAndLoad(emitted().source(), testJitOptions());
  }

  static sampling::Sample& sample() {
    static sampling::Sample s;
    return s;
  }
  // A floor for how often a choice is reached (sampling::scaledFloor).
  static int scaled(int ofFull) {
    return sampling::scaledFloor(ofFull, cases().size(), kFullCases);
  }
  static std::vector<RandomCase>& cases() {
    static std::vector<RandomCase> c;
    return c;
  }
  static std::unique_ptr<mlir_ir::Module>& parsed() {
    static std::unique_ptr<mlir_ir::Module> m;
    return m;
  }
  static EmittedModule& emitted() {
    static EmittedModule e;
    return e;
  }
  static std::shared_ptr<LoadedLibrary>& library() {
    static std::shared_ptr<LoadedLibrary> l;
    return l;
  }

  static void setThreads(int threads) {
    reinterpret_cast<void (*)(int)>(library()->symbol("idxmap_set_num_threads"))(threads);
  }
};

TEST_F(RandomKernels, EveryOpIsEmitted) {
  for (const EmitProblem& problem : emitted().problems)
    ADD_FAILURE() << problem.location.toString() << ": " << problem.message;
  EXPECT_EQ(emitted().kernels.size(), cases().size());
}

TEST_F(RandomKernels, AgreeWithTheReferenceBitForBit) {
  ASSERT_TRUE(library());
  ASSERT_EQ(emitted().kernels.size(), cases().size());
  for (int threads : {1, 2}) {
    setThreads(threads);
    for (size_t i = 0; i < cases().size(); ++i) {
      const RandomCase& c = cases()[i];
      std::vector<const Tensor*> reads;
      for (const Tensor& t : c.reads) reads.push_back(&t);
      const Kernel& kernel = emitted().kernels[i].kernel;
      std::vector<Tensor> first = runKernel(*library(), kernel, reads);
      std::vector<Tensor> second = runKernel(*library(), kernel, reads);
      ASSERT_EQ(first.size(), c.expected.size()) << kernel.symbol;
      for (size_t r = 0; r < first.size(); ++r) {
        EXPECT_TRUE(testing::sameBits(first[r], c.expected[r]))
            << kernel.symbol << " (" << threads << " threads), result " << r << "\n"
            << emitted().kernels[i].printed.text;
        EXPECT_TRUE(testing::sameBits(first[r], second[r]))
            << kernel.symbol << ": not the same twice";
      }
    }
  }
}

// The proof-driven choices are reached, not only the careful defaults.
TEST_F(RandomKernels, ProofsDecideTheCode) {
  int unclamped = 0, clamped = 0, unguarded = 0, guarded = 0, parallel = 0, ordered = 0, narrow = 0,
      segmented = 0;
  for (const EmittedKernel& e : emitted().kernels) {
    const Kernel& k = e.kernel;
    bool gather = k.op == "stablehlo.gather";
    (gather ? (k.clamp ? clamped : unclamped) : (k.guard ? guarded : unguarded))++;
    if (!gather) (k.strategy == Strategy::kIndependent ? parallel : ordered)++;
    segmented += k.strategy == Strategy::kSegmented;
    narrow += k.int32;
    // Every choice cites a proof or says why it was not made.
    EXPECT_FALSE(k.facts.empty() && k.notes.empty()) << k.symbol;
  }
  EXPECT_GT(unclamped, scaled(50));
  EXPECT_GT(clamped, scaled(50));
  EXPECT_GT(unguarded, scaled(50));
  EXPECT_GT(guarded, scaled(50));
  EXPECT_GT(parallel, scaled(30));
  EXPECT_GT(ordered, scaled(30));
  EXPECT_GT(narrow, scaled(300));
  // Reached here too in full runs; segmented_scatter_test.cpp tests it on purpose.
  if (cases().size() == kFullCases) EXPECT_GT(segmented, 0);
}

// Where the index values are known, isl decides exactly: clamps, skip tests and ordered stores
// appear exactly when brute force finds a clamped start, a skipped update or a collision.
TEST_F(RandomKernels, ClampsAndOrderExactlyWhenNeeded) {
  ASSERT_EQ(emitted().kernels.size(), cases().size());
  int checked = 0;
  for (size_t i = 0; i < cases().size(); ++i) {
    const RandomCase& c = cases()[i];
    const Kernel& k = emitted().kernels[i].kernel;
    if (!c.clampsOrSkips) continue;
    ++checked;
    EXPECT_EQ(c.scatter ? k.guard : k.clamp, *c.clampsOrSkips) << k.symbol;
    if (c.collides) EXPECT_EQ(k.strategy != Strategy::kIndependent, *c.collides) << k.symbol;
  }
  EXPECT_GT(checked, scaled(300));
}

// An ordered kernel whose threads split a dim or a runtime variable's values (Kernel::splitBy)
// relies on points that differ in it never writing one element: brute force over the map's
// points, every runtime value in its range, finds no two that write one element from
// different values of it.
TEST_F(RandomKernels, SplitVariablesNeverShareAnElement) {
  int byDim = 0, byValue = 0;
  for (const EmittedKernel& e : emitted().kernels) {
    const Kernel& k = e.kernel;
    if (k.strategy != Strategy::kOrdered || k.splitBy == Kernel::SplitBy::kTargetElements) continue;
    const bool dim = k.splitBy == Kernel::SplitBy::kDim;
    ++(dim ? byDim : byValue);
    EXPECT_NE(e.printed.text.find(dim ? "threads split it" : "lies in its share"),
              std::string::npos)
        << k.symbol;
    const IndexingMap& map = k.map;
    ASSERT_TRUE(map.rangeVars.empty()) << k.symbol;
    std::vector<int64_t> shape;  // dims, then runtime variables, as offsets from their lows
    for (const auto& v : map.dims) shape.push_back(v.range.hi - v.range.lo + 1);
    for (const auto& v : map.runtimeVars) shape.push_back(v.range.hi - v.range.lo + 1);
    if (std::count_if(shape.begin(), shape.end(), [](int64_t n) { return n <= 0; })) continue;
    std::map<std::vector<int64_t>, int64_t> writer;  // target -> the split variable's value
    std::vector<int64_t> at(shape.size(), 0);
    do {
      std::vector<int64_t> dims, runtime;
      for (size_t i = 0; i < shape.size(); ++i) {
        const auto& v = i < map.dims.size() ? map.dims[i] : map.runtimeVars[i - map.dims.size()];
        (i < map.dims.size() ? dims : runtime).push_back(v.range.lo + at[i]);
      }
      if (!map.contains(dims, {}, runtime)) continue;
      std::vector<int64_t> target;
      for (const Expr& r : map.results) target.push_back(r.evaluate(dims, {}, runtime));
      const int64_t value = dim ? dims[k.splitIndex] : runtime[k.splitIndex];
      EXPECT_EQ(writer.emplace(target, value).first->second, value) << k.symbol;
    } while (nextIndex(shape, at));
  }
  std::cout << "[ split ] by a dim " << byDim << ", by a runtime value " << byValue << "\n";
  EXPECT_GT(byDim, scaled(10));
  EXPECT_GT(byValue, scaled(10));
}

}  // namespace
}  // namespace idxmap::codegen
