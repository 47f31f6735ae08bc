// prove-equal on random gathers and scatters with batching dims (tests/ops/stablehlo's
// generator): each op written as two user functions, batched and decomposed by spec 000's
// "Compatibility" section (tests/support/batching_programs.h), must be proven equal for every
// start index value and agree on 100 random index tensors (values past both ends of every dim,
// so clamping and skipping are exercised); the same decomposition with an iota along the
// wrong axis must be refuted with a counterexample that replays.
#include <gtest/gtest.h>

#include "tests/ops/stablehlo/random_ops.h"
#include "tests/support/batching_programs.h"
#include "tests/support/sampling.h"
#include "tests/verify/prove_equal_support.h"

namespace idxmap::program_equality::prove_equal_random_test {
namespace {

using namespace program_equality::testing;
using gather_scatter::testing::randomOp;
using gather_scatter::testing::RandomOp;

// 50 ops of each kind in full runs, a sample of them in CI.
int opsOfEachKind(const char* kind, uint32_t& seed) {
  sampling::Sample sample = sampling::sampleOf(std::string("ProveEqualRandom.") + kind, 50, 14);
  seed = sample.seed;
  return static_cast<int>(sample.count);
}

// A random op with at least one batching dim and a non-empty index space.
RandomOp batchedOp(std::mt19937& rng) {
  for (;;) {
    RandomOp op = randomOp(rng);
    bool empty = false;
    for (int64_t size : op.resultShape) empty = empty || size == 0;
    if (!op.dims.operand_batching_dims.empty() && !empty) return op;
  }
}

int64_t largestDim(const RandomOp& op) {
  int64_t largest = 1;
  for (int64_t size : op.operandShape) largest = std::max(largest, size);
  return largest;
}

struct Pair {
  mlir_ir::Module batched, decomposed;
  ComparedFunction first() const { return {&batched, &batched.functions.at(0)}; }
  ComparedFunction second() const { return {&decomposed, &decomposed.functions.at(0)}; }
};

Pair parsed(const std::string& batched, const std::string& decomposed) {
  return {mlir_ir::parseMlirModule(batched, "batched.mlir"),
          mlir_ir::parseMlirModule(decomposed, "decomposed.mlir")};
}

void expectProvenAndRefuted(const std::string& batched, const std::string& decomposed,
                            const std::optional<std::string>& wrong, const RandomOp& op,
                            int& refutations) {
  Pair pair = parsed(batched, decomposed);
  EqualityVerdict verdict = proveEqual(pair.first(), pair.second());
  // Float updates (the f64 input's add) are summed as reals: equal there, never "proven".
  Verdict expected = verdict.realArithmetic.empty() ? Verdict::Proven : Verdict::EqualOverReals;
  ASSERT_EQ(verdict.proof.verdict, expected) << verdict.proof.reason << "\n"
                                             << batched << decomposed;
  expectSameOnRandomArguments(pair.first(), pair.second(), -1, largestDim(op));
  if (!wrong) return;
  Pair broken = parsed(batched, *wrong);
  EqualityVerdict refuted = proveEqual(broken.first(), broken.second());
  ASSERT_TRUE(refuted.proof.isRefuted()) << refuted.proof.reason << "\n" << batched << *wrong;
  expectCounterexampleReplays(refuted, broken.first(), broken.second());
  ++refutations;
}

TEST(ProveEqualRandom, BatchedGathersEqualTheirDecomposition) {
  uint32_t seed = 0;
  const int ops = opsOfEachKind("BatchedGathers", seed);
  std::mt19937 rng(seed);
  int refutations = 0;
  for (int i = 0; i < ops; ++i) {
    RandomOp op = batchedOp(rng);
    gather_scatter::GatherOp gather = gather_scatter::testing::asGatherOp(op);
    SCOPED_TRACE("gather " + std::to_string(i));
    expectProvenAndRefuted(codegen::testing::gatherFunction("f", gather, std::nullopt),
                           *idxmap::testing::decomposedGatherFunction("f", gather),
                           idxmap::testing::decomposedGatherFunction("f", gather, true), op,
                           refutations);
    if (HasFatalFailure()) return;
  }
  EXPECT_GE(refutations, ops / 5);  // enough shapes have a second axis to count along
}

TEST(ProveEqualRandom, BatchedScattersEqualTheirDecomposition) {
  uint32_t seed = 0;
  const int ops = opsOfEachKind("BatchedScatters", seed);
  std::mt19937 rng(seed + 1);
  int refutations = 0;
  for (int i = 0; i < ops; ++i) {
    RandomOp op = batchedOp(rng);
    // Two inputs (i64, f64) updated together by one region: add, or replace for every fourth.
    gather_scatter::ScatterOp scatter = gather_scatter::testing::asScatterOp(
        op, i % 4 == 3 ? gather_scatter::UpdateComputation::kReplace
                       : gather_scatter::UpdateComputation::kAdd);
    SCOPED_TRACE("scatter " + std::to_string(i));
    expectProvenAndRefuted(codegen::testing::scatterFunction("f", scatter, std::nullopt),
                           *idxmap::testing::decomposedScatterFunction("f", scatter),
                           idxmap::testing::decomposedScatterFunction("f", scatter, true), op,
                           refutations);
    if (HasFatalFailure()) return;
  }
  EXPECT_GE(refutations, ops / 5);
}

}  // namespace
}  // namespace idxmap::program_equality::prove_equal_random_test
