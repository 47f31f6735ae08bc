// The exact conditions on run-time index values against enumeration: for random small gathers
// and scatters, every index tensor with values in a small range is tried, and the condition
// must hold exactly when brute force (spec 000's formulas) says the property does. Assumptions
// are checked the same way: a property proven under them holds for every enumerated tensor
// that satisfies them, and removing the assumption takes the proof away.
#include "verify/index_conditions.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/ops/stablehlo/random_ops.h"
#include "tests/verify/index_truth.h"
#include "verify/assumptions.h"
#include "verify/index_properties.h"

namespace idxmap {
namespace {

using namespace gather_scatter::testing;
using gather_scatter::zeros;
using namespace index_truth;

constexpr int64_t kLowest = -1, kHighest = 2;  // the values tried at every element

// A random op whose index tensor has 2 to 4 elements (every 8th: any number up to 4, so that
// empty index tensors and vectors come up too).
RandomOp smallOp(std::mt19937& rng, int trial) {
  while (true) {
    RandomOp op = randomOp(rng);
    int64_t elements = 1;
    for (int64_t size : op.indicesShape) elements *= size;
    if (elements <= 4 && (elements >= 2 || trial % 8 == 0)) return op;
  }
}

// Calls `visit` with every index tensor of `shape` whose values lie in [kLowest, kHighest].
template <class Visit>
void forEachIndexTensor(const Index& shape, Visit&& visit) {
  Tensor indices = zeros("i32", shape);
  std::fill(indices.ints.begin(), indices.ints.end(), kLowest);
  while (true) {
    visit(indices);
    size_t i = 0;
    while (i < indices.ints.size() && indices.ints[i] == kHighest) indices.ints[i++] = kLowest;
    if (i == indices.ints.size()) return;
    ++indices.ints[i];
  }
}

// The index vector at each point of the conditions (the index tensor without its vector dim).
auto vectorsOf(const Tensor& indices, int64_t indexVectorDim) {
  return [&indices, indexVectorDim](std::span<const int64_t> point) {
    return startIndexAt(indices, Index(point.begin(), point.end()), indexVectorDim);
  };
}

// Gather with unclamped starts (tensor.gather's semantics): whether two result points that read
// in range read the same element.
bool gatherReadsUnique(const GatherOp& op, const Tensor& indices, const Index& resultShape) {
  Tensor positions = zeros("i64", op.operand.shape);
  for (size_t i = 0; i < positions.ints.size(); ++i) positions.ints[i] = static_cast<int64_t>(i);
  Tensor read = gather_scatter::referenceGather(op, positions, indices);
  if (gather_scatter::isEmptyShape(resultShape)) return true;
  Index batchDims = gather_scatter::gatherBatchDims(op.dimension_numbers,
                                                    static_cast<int64_t>(resultShape.size()));
  std::set<int64_t> seen;
  Index point(resultShape.size(), 0);
  do {
    if (gatherFullStart(op, indices, point, true) != gatherFullStart(op, indices, point, false))
      continue;  // out of range: not a read (undefined behavior, in bounds's business)
    if (!seen.insert(read.intAt(gather_scatter::linearPosition(resultShape, point))).second)
      return false;
  } while (gather_scatter::nextIndex(resultShape, point));
  return true;
}

// Whether the index vectors at the points of `pointShape` satisfy `facts` (brute force).
bool satisfies(const std::vector<IndexFact>& facts, const Index& pointShape,
               const std::function<Index(std::span<const int64_t>)>& vectorAt) {
  std::vector<Index> vectors;
  int64_t count = 1;
  for (int64_t size : pointShape) count *= size;
  if (count > 0) {
    Index point(pointShape.size(), 0);
    do vectors.push_back(vectorAt(point));
    while (gather_scatter::nextIndex(pointShape, point));
  }
  for (const IndexFact& fact : facts) {
    using Kind = IndexFact::Kind;
    std::set<Index> distinct(vectors.begin(), vectors.end());
    bool unique = distinct.size() == vectors.size();
    auto within = [&](int64_t lo, int64_t hi) {
      for (const Index& v : vectors)
        for (int64_t x : v)
          if (x < lo || x > hi) return false;
      return true;
    };
    if (fact.kind == Kind::Unique && !unique) return false;
    if (fact.kind == Kind::Sorted && !std::is_sorted(vectors.begin(), vectors.end())) return false;
    if (fact.kind == Kind::InRange && !within(fact.lo, fact.hi)) return false;
    if (fact.kind == Kind::Permutation && !(unique && within(0, count - 1))) return false;
  }
  return true;
}

TEST(IndexConditions, ScatterConditionsMatchEnumeration) {
  std::mt19937 rng(7);
  int tensors = 0, structural = 0, satisfying = 0, provenUnderFacts = 0;
  for (int trial = 0; trial < 60; ++trial) {
    RandomOp random = smallOp(rng, trial);
    ScatterOp op = asScatterOp(random, gather_scatter::UpdateComputation::kAdd);
    SCOPED_TRACE("trial " + std::to_string(trial));
    IndexConditions conditions = scatterIndexConditions(op);
    ASSERT_TRUE(conditions.unique);
    // Random facts about the run-time values: what they prove must hold for every tensor that
    // satisfies them.
    const char* factTexts[] = {
        "unique",      "sorted",         "in [0, 1]",         "in [0, 2]",
        "permutation", "unique, sorted", "sorted, in [0, 1]", "unique, in [0, 2]"};
    std::vector<Assumption> assumed =
        parseAssumptions({std::string("%i: ") + factTexts[trial % 8]});
    index_provenance::IndexValues runtime{random.indicesShape, {}, "%i", false};
    runtime.known = isl::map(islContext(), "{ [] -> [v] : 1 = 0 }");
    IndexProperties underFacts = proveScatterIndexProperties(op, runtime, {}, assumed);
    ASSERT_TRUE(underFacts.unique);
    for (const IndexCondition* c : {&*conditions.unique, &conditions.sorted, &conditions.inBounds})
      structural += c->alwaysHolds();
    int64_t vectorDim = op.dimension_numbers.index_vector_dim;
    forEachIndexTensor(random.indicesShape, [&](const Tensor& indices) {
      ++tensors;
      Truth truth = scatterTruth(op, indices);
      auto vectors = vectorsOf(indices, vectorDim);
      ASSERT_EQ(conditions.unique->holdsFor(vectors), truth.unique)
          << conditions.unique->text("scatter_indices");
      ASSERT_EQ(conditions.sorted.holdsFor(vectors), truth.sorted)
          << conditions.sorted.text("scatter_indices");
      ASSERT_EQ(conditions.inBounds.holdsFor(vectors), truth.inBounds)
          << conditions.inBounds.text("scatter_indices");
      if (satisfies(assumed[0].facts, conditions.sorted.pointShape, vectors)) {
        ++satisfying;
        EXPECT_TRUE(!underFacts.unique->isProven() || truth.unique) << factTexts[trial % 8];
        EXPECT_TRUE(!underFacts.sorted.isProven() || truth.sorted) << factTexts[trial % 8];
        EXPECT_TRUE(!underFacts.inBounds.isProven() || truth.inBounds) << factTexts[trial % 8];
      }
    });
    for (const ProofResult* p : {&*underFacts.unique, &underFacts.sorted, &underFacts.inBounds})
      provenUnderFacts += p->isProven() && !p->assumptions.empty();
  }
  EXPECT_GT(tensors, 5000);
  EXPECT_GT(structural, 5);  // some properties hold by the op's structure alone
  EXPECT_GT(satisfying, 300);
  EXPECT_GT(provenUnderFacts, 20);
}

TEST(IndexConditions, GatherConditionsMatchEnumeration) {
  std::mt19937 rng(11);
  int tensors = 0;
  for (int trial = 0; trial < 60; ++trial) {
    RandomOp random = smallOp(rng, trial);
    GatherOp op = asGatherOp(random);
    SCOPED_TRACE("trial " + std::to_string(trial));
    bool clamps = trial % 2 == 0;
    IndexConditions conditions = gatherIndexConditions(
        op, {std::nullopt, /*outOfRangeIsUndefined=*/!clamps, /*uniqueAsked=*/!clamps});
    ASSERT_EQ(conditions.unique.has_value(), !clamps);
    int64_t vectorDim = op.dimension_numbers.index_vector_dim;
    forEachIndexTensor(random.indicesShape, [&](const Tensor& indices) {
      ++tensors;
      Truth truth = gatherTruth(op, indices, random.resultShape);
      auto vectors = vectorsOf(indices, vectorDim);
      ASSERT_EQ(conditions.inBounds.holdsFor(vectors), truth.inBounds);
      if (clamps) {
        ASSERT_EQ(conditions.sorted.holdsFor(vectors), truth.sorted);
      } else {
        // Unclamped starts: sorted by the raw values; unique among the reads in range.
        bool sorted = true;
        std::optional<Index> previous;
        Index point(random.resultShape.size(), 0);
        if (!gather_scatter::isEmptyShape(random.resultShape)) do {
            Index full = gatherFullStart(op, indices, point, false);
            sorted = sorted && !(previous && full < *previous);
            previous = full;
          } while (gather_scatter::nextIndex(random.resultShape, point));
        ASSERT_EQ(conditions.sorted.holdsFor(vectors), sorted);
        ASSERT_EQ(conditions.unique->holdsFor(vectors),
                  gatherReadsUnique(op, indices, random.resultShape))
            << conditions.unique->text("indices");
      }
    });
  }
  EXPECT_GT(tensors, 5000);
}

// 1-d scatter of single elements into 8, indices [4, 1] given only at run time.
ScatterOp pointScatter(int64_t window) {
  ScatterOp op;
  op.inputs = {{{8}, "f32"}};
  op.scatter_indices = {{4, 1}, "i32"};
  op.updates = {{{4, window}, "f32"}};
  auto& dn = op.dimension_numbers;
  dn.update_window_dims = {1};
  dn.scatter_dims_to_operand_dims = {0};
  dn.index_vector_dim = 1;
  if (window == 1) {
    dn.update_window_dims = {};
    dn.inserted_window_dims = {0};
    op.updates = {{{4}, "f32"}};
  }
  return op;
}

index_provenance::IndexValues runtimeValues() {
  return {{4, 1}, isl::map(islContext(), "{ [p, k] -> [v] : 1 = 0 }"), "%arg2", false};
}

TEST(IndexConditions, AssumptionsProveWhatTheyImply) {
  ScatterOp op = pointScatter(1);
  auto facts = [](const std::string& text) { return parseAssumptions({"%arg2: " + text}); };
  IndexProperties bare = proveScatterIndexProperties(op, runtimeValues());
  ASSERT_TRUE(bare.unique);
  EXPECT_TRUE(bare.unique->isUnknown());
  EXPECT_NE(bare.unique->condition, "");
  // Unique values write unique elements; a permutation of 0..3 is also in bounds.
  IndexProperties unique = proveScatterIndexProperties(op, runtimeValues(), {}, facts("unique"));
  EXPECT_TRUE(unique.unique->isProven());
  EXPECT_EQ(unique.unique->assumptions, std::vector<std::string>{"%arg2: unique"});
  EXPECT_TRUE(unique.inBounds.isUnknown());
  IndexProperties permutation =
      proveScatterIndexProperties(op, runtimeValues(), {}, facts("permutation"));
  EXPECT_TRUE(permutation.unique->isProven());
  EXPECT_TRUE(permutation.inBounds.isProven());
  EXPECT_TRUE(permutation.sorted.isUnknown());
  IndexProperties sortedInRange =
      proveScatterIndexProperties(op, runtimeValues(), {}, facts("sorted, in [0, 7]"));
  EXPECT_TRUE(sortedInRange.sorted.isProven());
  EXPECT_TRUE(sortedInRange.inBounds.isProven());
  EXPECT_TRUE(sortedInRange.unique->isUnknown());
  // A window of 2: unique values may still overlap; in [0, 6] keeps every window inside.
  ScatterOp windows = pointScatter(2);
  IndexProperties overlapping =
      proveScatterIndexProperties(windows, runtimeValues(), {}, facts("unique, in [0, 6]"));
  EXPECT_TRUE(overlapping.unique->isUnknown());
  EXPECT_TRUE(overlapping.inBounds.isProven());
}

// The element type bounds run-time values by itself: ui8 indices never leave 300 rows, i8 ones
// can (negative), and neither proves more than that.
TEST(IndexConditions, ElementTypesBoundRuntimeValues) {
  ScatterOp op = pointScatter(1);
  op.inputs = {{{300}, "f32"}};
  op.scatter_indices.element_type = "ui8";
  IndexProperties bytes = proveScatterIndexProperties(op, runtimeValues());
  EXPECT_TRUE(bytes.inBounds.isProven());
  EXPECT_TRUE(bytes.inBounds.assumptions.empty());  // a fact of the op, not an assumption
  EXPECT_TRUE(bytes.unique->isUnknown());
  op.scatter_indices.element_type = "i8";
  EXPECT_TRUE(proveScatterIndexProperties(op, runtimeValues()).inBounds.isUnknown());
  op.inputs = {{{100}, "f32"}};
  op.scatter_indices.element_type = "ui8";
  EXPECT_TRUE(proveScatterIndexProperties(op, runtimeValues()).inBounds.isUnknown());
}

// Every tensor that satisfies the assumptions satisfies what they proved (soundness), and
// with an assumption dropped the proof goes (the assumption was needed).
TEST(IndexConditions, ProofsUnderAssumptionsHoldForEverySatisfyingTensor) {
  ScatterOp op = pointScatter(1);
  std::vector<Assumption> assumed = parseAssumptions({"%arg2: unique, in [0, 2]"});
  IndexProperties properties = proveScatterIndexProperties(op, runtimeValues(), {}, assumed);
  ASSERT_TRUE(properties.unique->isProven());
  ASSERT_TRUE(properties.inBounds.isProven());
  int satisfying = 0;
  Tensor indices = zeros("i32", {4, 1});
  for (int64_t code = 0; code < 4 * 4 * 4 * 4; ++code) {
    for (int64_t i = 0, rest = code; i < 4; ++i, rest /= 4) indices.ints[i] = rest % 4 - 1;
    std::set<int64_t> values(indices.ints.begin(), indices.ints.end());
    bool satisfies = values.size() == 4 && *values.begin() >= 0 && *values.rbegin() <= 2;
    if (!satisfies) continue;
    ++satisfying;
    Truth truth = scatterTruth(op, indices);
    EXPECT_TRUE(truth.unique && truth.inBounds);
  }
  // No 4 distinct values in [0, 2] exist: the facts are contradictory and prove anything; a
  // consistent set must be tried too.
  EXPECT_EQ(satisfying, 0);
  assumed = parseAssumptions({"%arg2: unique, in [0, 3]"});
  properties = proveScatterIndexProperties(op, runtimeValues(), {}, assumed);
  ASSERT_TRUE(properties.unique->isProven());
  for (int64_t code = 0; code < 4 * 4 * 4 * 4; ++code) {
    for (int64_t i = 0, rest = code; i < 4; ++i, rest /= 4) indices.ints[i] = rest % 4;
    std::set<int64_t> values(indices.ints.begin(), indices.ints.end());
    if (values.size() != 4) continue;
    ++satisfying;
    Truth truth = scatterTruth(op, indices);
    EXPECT_TRUE(truth.unique && truth.inBounds);
  }
  EXPECT_EQ(satisfying, 24);
  // Negative control: without `unique`, the range alone proves nothing about uniqueness.
  properties =
      proveScatterIndexProperties(op, runtimeValues(), {}, parseAssumptions({"%arg2: in [0, 3]"}));
  EXPECT_TRUE(properties.unique->isUnknown());
  EXPECT_TRUE(properties.inBounds.isProven());
}

TEST(IndexConditions, BadAssumptionsAreLocatedParseErrors) {
  for (const auto& [text, column] :
       std::vector<std::pair<std::string, int>>{{"arg2: unique", 1},
                                                {"%arg2 unique", 7},
                                                {"%arg2: uniq", 8},
                                                {"%arg2: in [3, 1]", 15},
                                                {"%arg2: in [0, 99999999999999999999]", 15},
                                                {"%arg2: unique sorted", 15},
                                                {"%: unique", 2}}) {
    try {
      parseAssumptions({"%x: sorted", text});
      ADD_FAILURE() << text;
    } catch (const ParseError& error) {
      EXPECT_EQ(error.location().file, "--assume") << text;
      EXPECT_EQ(error.location().line, 2) << text;
      EXPECT_EQ(error.location().column, column) << text << ": " << error.what();
    }
  }
}

}  // namespace
}  // namespace idxmap
