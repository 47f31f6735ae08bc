// The index provers against brute force: random gathers and scatters (batching dims, windows,
// every index vector placement) with concrete index tensors — random values (out of bounds,
// repeated), sorted ones and distinct in-bounds ones — whose verdicts must equal what
// enumerating every index point says, and whose counterexamples must hold.
#include "verify/index_properties.h"

#include <gtest/gtest.h>
#include <isl/map.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "core/bridges/isl_bridge.h"
#include "ops/eval/reference_evaluator.h"
#include "tests/ops/stablehlo/random_ops.h"
#include "tests/ops/stablehlo/test_util.h"
#include "tests/verify/index_truth.h"
#include "verify/index_points.h"

namespace idxmap {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using gather_scatter::Tensor;
using namespace gather_scatter::testing;
using Index = std::vector<int64_t>;
using namespace index_truth;

// The verdict must be what brute force says: proven when true, refuted when false.
void expectVerdict(const ProofResult& verdict, bool truth, const std::string& what) {
  ASSERT_NE(verdict.verdict, Verdict::Unknown) << what << ": " << verdict.reason;
  EXPECT_EQ(verdict.verdict, truth ? Verdict::Proven : Verdict::Refuted)
      << what << (verdict.counterexample ? ": " + verdict.counterexample->explanation : "");
  if (verdict.isRefuted()) ASSERT_TRUE(verdict.counterexample) << what;
}

TEST(IndexProperties, GatherVerdictsMatchBruteForce) {
  std::mt19937 rng(20261123);
  int refuted = 0, proven = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    RandomOp random = randomOp(rng);
    GatherOp op = asGatherOp(random);
    Tensor indices = indicesFor(rng, random);
    SCOPED_TRACE("trial " + std::to_string(trial));
    Truth truth = gatherTruth(op, indices, random.resultShape);
    IndexProperties properties = proveGatherIndexProperties(op, valuesOf(indices));
    EXPECT_FALSE(properties.unique);
    expectVerdict(properties.sorted, truth.sorted, "sorted");
    expectVerdict(properties.inBounds, truth.inBounds, "in bounds");
    // Each counterexample holds by the spec's formula.
    if (properties.sorted.isRefuted()) {
      const auto& e = properties.sorted.counterexample->elements;
      ASSERT_EQ(e.size(), 2u);
      EXPECT_LT(e[0].index, e[1].index);
      EXPECT_LT(gatherFullStart(op, indices, e[1].index, true),
                gatherFullStart(op, indices, e[0].index, true));
    }
    if (properties.inBounds.isRefuted()) {
      const auto& e = properties.inBounds.counterexample->elements;
      ASSERT_EQ(e.size(), 1u);
      EXPECT_NE(gatherFullStart(op, indices, e[0].index, true),
                gatherFullStart(op, indices, e[0].index, false));
    }
    for (const ProofResult* p : {&properties.sorted, &properties.inBounds})
      (p->isProven() ? proven : refuted)++;
  }
  EXPECT_GT(proven, 300);
  EXPECT_GT(refuted, 300);
}

TEST(IndexProperties, ScatterVerdictsMatchBruteForce) {
  std::mt19937 rng(1123);
  int refuted = 0, proven = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    RandomOp random = randomOp(rng);
    ScatterOp op = asScatterOp(random, gather_scatter::UpdateComputation::kAdd);
    Tensor indices = indicesFor(rng, random);
    SCOPED_TRACE("trial " + std::to_string(trial));
    Truth truth = scatterTruth(op, indices);
    IndexProperties properties = proveScatterIndexProperties(op, valuesOf(indices));
    ASSERT_TRUE(properties.unique);
    expectVerdict(*properties.unique, truth.unique, "unique");
    expectVerdict(properties.sorted, truth.sorted, "sorted");
    expectVerdict(properties.inBounds, truth.inBounds, "in bounds");
    // Each counterexample holds by the spec's formula.
    const Index& updateShape = op.updates[0].shape;
    std::map<int64_t, int64_t> targets = scatterTargets(op, indices);
    auto position = [&](const Index& update) {
      return gather_scatter::linearPosition(updateShape, update);
    };
    if (properties.unique->isRefuted()) {
      const auto& e = properties.unique->counterexample->elements;
      ASSERT_EQ(e.size(), 3u);
      ASSERT_TRUE(targets.count(position(e[0].index)) && targets.count(position(e[1].index)));
      EXPECT_NE(e[0].index, e[1].index);
      EXPECT_EQ(targets[position(e[0].index)], targets[position(e[1].index)]);
      EXPECT_EQ(targets[position(e[0].index)],
                gather_scatter::linearPosition(op.inputs[0].shape, e[2].index));
    }
    if (properties.sorted.isRefuted()) {
      const auto& e = properties.sorted.counterexample->elements;
      ASSERT_EQ(e.size(), 2u);
      EXPECT_LT(e[0].index, e[1].index);
      EXPECT_LT(scatterFullStart(op, indices, e[1].index),
                scatterFullStart(op, indices, e[0].index));
    }
    if (properties.inBounds.isRefuted()) {
      const auto& e = properties.inBounds.counterexample->elements;
      ASSERT_EQ(e.size(), 1u);
      EXPECT_FALSE(targets.count(position(e[0].index)));  // skipped
    }
    for (const ProofResult* p : {&*properties.unique, &properties.sorted, &properties.inBounds})
      (p->isProven() ? proven : refuted)++;
  }
  EXPECT_GT(proven, 300);
  EXPECT_GT(refuted, 300);
}

// Spec 000's gather and scatter examples, derived by hand: the start vector [0, 9] at
// indices[0, 1, 2] is clamped (entry 1 starts axis 1 of size 3), and its update skipped; the
// starts read in row-major order, (axis 1, axis 2) = (0, 0), (0, 1), (1, 2), (1, 0), ... go
// down after the third; in batch 0 the windows of [0, 0] and [1, 0] (2 wide along axis 2)
// overlap, and [0, 0] comes twice: the updates that collide are all in batch 0 with entry 1
// (axis 1) equal to 0.
TEST(IndexProperties, SpecExamplesByHand) {
  Tensor indices = tensorFrom("i64", {2, 2, 3, 2}, kSpecIndices);
  IndexProperties gather = proveGatherIndexProperties(specGatherExample(), valuesOf(indices));
  ASSERT_TRUE(gather.inBounds.isRefuted());
  Index clamped = gather.inBounds.counterexample->elements.at(0).index;
  EXPECT_EQ(Index(clamped.begin(), clamped.begin() + 3), (Index{0, 1, 2}));
  ASSERT_TRUE(gather.sorted.isRefuted());

  IndexProperties scatter = proveScatterIndexProperties(specScatterExample(), valuesOf(indices));
  ASSERT_TRUE(scatter.inBounds.isRefuted());
  Index skipped = scatter.inBounds.counterexample->elements.at(0).index;
  EXPECT_EQ(Index(skipped.begin(), skipped.begin() + 3), (Index{0, 1, 2}));
  ASSERT_TRUE(scatter.sorted.isRefuted());
  ASSERT_TRUE(scatter.unique && scatter.unique->isRefuted());
  const auto& both = scatter.unique->counterexample->elements;
  ASSERT_EQ(both.size(), 3u);
  EXPECT_EQ(both[0].index.at(1), 0);  // update dim 1 is the batch
  EXPECT_EQ(both[1].index.at(1), 0);
  EXPECT_EQ(both[2].index.at(0), 0);  // result axis 0: batch 0
  EXPECT_EQ(both[2].index.at(1), 0);  // result axis 1: entry 1 of the start vector
}

// A result with no element takes no update: with an empty axis that no index starts (an
// inserted dim of size 0, start 0) or one an index starts, every update is skipped, as brute
// force says, though the updates' windows fit (C4).
TEST(IndexProperties, ScatterIntoAnEmptyResultSkipsEveryUpdate) {
  for (bool indexed : {false, true}) {
    ScatterOp op;
    op.inputs = {{{0, 2}, "f32"}};
    op.updates = {{{1, 2}, "f32"}};
    op.scatter_indices = {{1, 1}, "i64"};
    op.dimension_numbers.update_window_dims = {1};
    op.dimension_numbers.inserted_window_dims = {0};
    op.dimension_numbers.index_vector_dim = 1;
    Tensor indices = tensorFrom("i64", {1, 1}, "[[0]]");
    if (indexed) {
      op.dimension_numbers.scatter_dims_to_operand_dims = {0};
    } else {
      op.scatter_indices = {{1, 0}, "i64"};
      indices = tensorFrom("i64", {1, 0}, "[[]]");
    }
    SCOPED_TRACE(indexed ? "indexed" : "not indexed");
    ASSERT_TRUE(gather_scatter::validateScatter(op).empty());
    ASSERT_FALSE(scatterTruth(op, indices).inBounds);
    IndexProperties properties = proveScatterIndexProperties(op, valuesOf(indices));
    EXPECT_TRUE(properties.inBounds.isRefuted()) << properties.inBounds.reason;
    ASSERT_TRUE(properties.unique);
    EXPECT_TRUE(properties.unique->isProven()) << properties.unique->reason;
  }
}

}  // namespace
}  // namespace idxmap
