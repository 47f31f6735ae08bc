#include "verify/equivalence.h"

#include <gtest/gtest.h>

#include <random>

#include "core/bridges/isl_bridge.h"
#include "tests/support/map_oracle.h"
#include "verify/equivalence_z3.h"

namespace idxmap {
namespace {

using oracle::Tuple;

const Expr d0 = Expr::dim(0), d1 = Expr::dim(1), d2 = Expr::dim(2);
const Expr s0 = Expr::rangeVar(0), rt0 = Expr::runtimeVar(0);

IndexingMap oneDim(Interval range, std::vector<Expr> results) {
  IndexingMap m;
  m.dims = {{range, ""}};
  m.results = std::move(results);
  return m;
}

IndexingMap reshapeRoundTrip() {
  IndexingMap toMatrix;  // f32[10,10,10] -> f32[50,20]
  toMatrix.dims = {{{0, 9}, ""}, {{0, 9}, ""}, {{0, 9}, ""}};
  toMatrix.results = {d0 * 5 + d1.floorDiv(2), d1.mod(2) * 10 + d2};
  IndexingMap toCube;  // and back
  toCube.dims = {{{0, 49}, ""}, {{0, 19}, ""}};
  toCube.results = {d0.floorDiv(5), d0.mod(5) * 2 + d1.floorDiv(10), d1.mod(10)};
  return compose(toMatrix, toCube);
}

// The outputs a map gives at one input, by brute force over everything.
std::set<Tuple> outputsAt(const IndexingMap& m, const Counterexample& at) {
  Tuple input = at.runtimeVars;
  input.insert(input.end(), at.dims.begin(), at.dims.end());
  std::set<Tuple> out;
  for (const Tuple& t : oracle::bruteForceRelation(m))
    if (std::equal(input.begin(), input.end(), t.begin()))
      out.insert(Tuple(t.begin() + input.size(), t.end()));
  return out;
}

// A refutation's point must really separate the maps.
void expectRealCounterexample(const ProofResult& r, const IndexingMap& a, const IndexingMap& b) {
  ASSERT_EQ(r.verdict, Verdict::Refuted);
  ASSERT_TRUE(r.counterexample);
  EXPECT_NE(outputsAt(a, *r.counterexample), outputsAt(b, *r.counterexample))
      << r.counterexample->explanation;
}

TEST(EquivalenceTest, ProvesMapsWrittenDifferently) {
  ProofResult r =
      proveEquivalent(oneDim({0, 99}, {d0.floorDiv(4) * 4 + d0.mod(4)}), oneDim({0, 99}, {d0}));
  EXPECT_EQ(r.verdict, Verdict::Proven);
  EXPECT_EQ(r.method, "isl");
  EXPECT_FALSE(r.counterexample);
}

TEST(EquivalenceTest, ProvesTheReshapeRoundTripIsTheIdentity) {
  ProofResult r = proveEquivalent(reshapeRoundTrip(), IndexingMap::identity({10, 10, 10}));
  EXPECT_EQ(r.verdict, Verdict::Proven);
  EXPECT_EQ(r.method, "isl");
}

TEST(EquivalenceTest, RefutesDifferentResultsWithAPoint) {
  IndexingMap a = oneDim({0, 9}, {d0.floorDiv(2)});
  IndexingMap b = oneDim({0, 9}, {d0.ceilDiv(2)});
  ProofResult r = proveEquivalent(a, b);
  expectRealCounterexample(r, a, b);
  EXPECT_EQ(r.method, "isl");
  int64_t x = r.counterexample->dims.at(0);
  EXPECT_EQ(r.counterexample->explanation, "(d0 = " + std::to_string(x) + "): first gives (" +
                                               std::to_string(x / 2) + "), second gives (" +
                                               std::to_string((x + 1) / 2) + ")");
}

TEST(EquivalenceTest, RefutesMapsThatDifferOnlyInTheirDomain) {
  IndexingMap a = oneDim({0, 9}, {d0});
  IndexingMap b = oneDim({0, 10}, {d0});
  ProofResult r = proveEquivalent(a, b);
  expectRealCounterexample(r, a, b);
  EXPECT_EQ(r.counterexample->explanation, "(d0 = 10): first is not defined, second gives (10)");

  IndexingMap even = a;
  even.constraints = {{d0.mod(2), {0, 0}}};
  r = proveEquivalent(a, even);
  expectRealCounterexample(r, a, even);
  EXPECT_EQ(r.counterexample->dims.at(0) % 2, 1);
}

TEST(EquivalenceTest, KnownEmptyEqualsAnEmptyDomain) {
  IndexingMap known = oneDim({0, 9}, {d0});
  known.markKnownEmpty();
  IndexingMap emptyDomain = oneDim({0, 9}, {d0});
  emptyDomain.constraints = {{d0 * 2, {3, 3}}};
  EXPECT_EQ(proveEquivalent(known, emptyDomain).verdict, Verdict::Proven);
  EXPECT_EQ(proveEquivalentWithZ3(known, emptyDomain, {}).verdict, Verdict::Proven);
}

TEST(EquivalenceTest, TreatsRuntimeVariablesAsInputs) {
  IndexingMap a = oneDim({0, 9}, {d0 + rt0});
  a.runtimeVars = {{{0, 3}, "n"}};
  IndexingMap b = oneDim({0, 9}, {rt0 + d0});
  b.runtimeVars = {{{0, 3}, ""}};
  EXPECT_EQ(proveEquivalent(a, b).verdict, Verdict::Proven);

  b.runtimeVars[0].range = {0, 4};
  ProofResult r = proveEquivalent(a, b);
  expectRealCounterexample(r, a, b);
  EXPECT_EQ(r.counterexample->runtimeVars, std::vector<int64_t>{4});
  EXPECT_NE(r.counterexample->explanation.find("n = 4"), std::string::npos);
}

TEST(EquivalenceTest, ComparesRelationsNotJustFunctions) {
  IndexingMap a = oneDim({0, 9}, {d0 + s0});
  a.rangeVars = {{{0, 1}, ""}};
  IndexingMap b = oneDim({0, 9}, {d0 - s0});
  b.rangeVars = {{{-1, 0}, ""}};
  EXPECT_EQ(proveEquivalent(a, b).verdict, Verdict::Proven);

  b.rangeVars[0].range = {-2, 0};
  ProofResult r = proveEquivalent(a, b);
  expectRealCounterexample(r, a, b);
  int64_t x = r.counterexample->dims.at(0);
  EXPECT_EQ(r.counterexample->explanation,
            "(d0 = " + std::to_string(x) + "): first gives {(" + std::to_string(x) + "), (" +
                std::to_string(x + 1) + ")}, second gives {(" + std::to_string(x) + "), (" +
                std::to_string(x + 1) + "), (" + std::to_string(x + 2) + ")}");
}

TEST(EquivalenceTest, RefutesDifferentShapesWithoutAPoint) {
  ProofResult r = proveEquivalent(oneDim({0, 9}, {d0}), IndexingMap::identity({10, 10}));
  EXPECT_EQ(r.verdict, Verdict::Refuted);
  ASSERT_TRUE(r.counterexample);
  EXPECT_TRUE(r.counterexample->dims.empty());
  EXPECT_EQ(r.counterexample->explanation,
            "the maps have different shapes: the first has 1 dims, 0 runtime variables and 1 "
            "results, the second has 2 dims, 0 runtime variables and 2 results");
}

TEST(EquivalenceTest, FallsBackToZ3WhenIslGivesUp) {
  IslLimits limits = islLimits();
  setIslLimits({.maxOperations = 1, .timeLimit = limits.timeLimit});
  IndexingMap a = oneDim({0, 99}, {d0.floorDiv(4) * 4 + d0.mod(4)});
  IndexingMap b = oneDim({0, 99}, {d0});
  IndexingMap c = oneDim({0, 99}, {d0.floorDiv(4) * 4});
  ProofResult same = proveEquivalent(a, b);
  ProofResult different = proveEquivalent(a, c);
  setIslLimits(limits);
  EXPECT_EQ(same.verdict, Verdict::Proven);
  EXPECT_EQ(same.method, "z3");
  expectRealCounterexample(different, a, c);
  EXPECT_EQ(different.method, "z3");
}

TEST(EquivalenceTest, Z3ProvesAndRefutesRelationsWithRangeVariables) {
  IndexingMap a = oneDim({0, 9}, {d0 + s0});
  a.rangeVars = {{{0, 1}, ""}};
  IndexingMap b = oneDim({0, 9}, {d0 - s0});
  b.rangeVars = {{{-1, 0}, ""}};
  EXPECT_EQ(proveEquivalentWithZ3(a, b, {}).verdict, Verdict::Proven);
  EXPECT_EQ(proveEquivalentWithZ3(a, oneDim({0, 9}, {d0 + 1}), {}).verdict, Verdict::Refuted);
  b.rangeVars[0].range = {-2, 0};
  ProofResult r = proveEquivalentWithZ3(a, b, {});
  expectRealCounterexample(r, a, b);
  EXPECT_EQ(r.method, "z3");

  // Too many range-variable points to write the quantifier out: Z3 gets a real forall.
  IndexingMap wide = oneDim({0, 9}, {d0 + s0});
  wide.rangeVars = {{{0, 1000}, ""}};
  IndexingMap mirrored = oneDim({0, 9}, {d0 + 1000 - s0});
  mirrored.rangeVars = {{{0, 1000}, ""}};
  EXPECT_EQ(proveEquivalentWithZ3(wide, mirrored, {}).verdict, Verdict::Proven);
  mirrored.rangeVars[0].range = {1, 1000};
  r = proveEquivalentWithZ3(wide, mirrored, {});
  EXPECT_EQ(r.verdict, Verdict::Refuted);
  ASSERT_TRUE(r.counterexample);
  EXPECT_NE(r.counterexample->explanation.find("first gives {"), std::string::npos);
}

// Hard for both solvers: floor and mod of sums with range variables over large ranges.
IndexingMap hardForSolvers(int64_t offset) {
  IndexingMap m;
  m.dims = {{{0, 1000000}, ""}, {{0, 1000000}, ""}};
  m.rangeVars = {{{0, 1000}, ""}, {{0, 1000}, ""}};
  m.results = {(d0 * 7 + s0 * 3).mod(1009) + (d1 + Expr::rangeVar(1) * 5 + offset).floorDiv(17)};
  return m;
}

TEST(EquivalenceTest, AnswersUnknownWhenBothSolversRunOutOfTime) {
  IslLimits limits = islLimits();
  // isl gives up after a count of operations, not of milliseconds: the point where it stops
  // (and what it has allocated there) is then the same on every run, under any load.
  setIslLimits({.maxOperations = 1, .timeLimit = limits.timeLimit});
  auto start = std::chrono::steady_clock::now();
  ProofResult r = proveEquivalent(hardForSolvers(0), hardForSolvers(1), {.z3TimeoutMs = 100});
  auto elapsed = std::chrono::steady_clock::now() - start;
  setIslLimits(limits);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_TRUE(r.method.empty());
  EXPECT_EQ(r.reason, "isl gave up; z3 could not decide (timeout)");
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(EquivalenceTest, NeverProvesOrRefutesWrongly) {
  std::mt19937 rng(99);
  int refuted = 0;
  for (int i = 0; i < 150; ++i) {
    IndexingMap m = oracle::randomMap(rng);
    IndexingMap other = oracle::perturb(rng, m);
    SCOPED_TRACE("pair #" + std::to_string(i) + ": " + printIsl(m) + " vs " + printIsl(other));
    bool equal = oracle::bruteForceRelation(m) == oracle::bruteForceRelation(other);
    ProofResult r = proveEquivalent(m, other);
    ASSERT_EQ(r.verdict, equal ? Verdict::Proven : Verdict::Refuted) << r.reason;
    if (!equal) {
      expectRealCounterexample(r, m, other);
      ++refuted;
    }
  }
  EXPECT_GT(refuted, 20);
}

TEST(EquivalenceTest, Z3AgreesWithBruteForceOnMapsWithoutRangeVariables) {
  std::mt19937 rng(5);
  int proven = 0, refuted = 0;
  for (int i = 0; i < 60; ++i) {
    IndexingMap m = oracle::randomMap(rng);
    m.rangeVars.clear();
    m.results = {oracle::randomExpr(rng, m, 3)};
    m.constraints.clear();
    IndexingMap other = oracle::perturb(rng, m);
    SCOPED_TRACE("pair #" + std::to_string(i) + ": " + printIsl(m) + " vs " + printIsl(other));
    bool equal = oracle::bruteForceRelation(m) == oracle::bruteForceRelation(other);
    ProofResult r = proveEquivalentWithZ3(m, other, {});
    ASSERT_EQ(r.verdict, equal ? Verdict::Proven : Verdict::Refuted) << r.reason;
    if (!equal) expectRealCounterexample(r, m, other);
    ++(equal ? proven : refuted);
  }
  EXPECT_GT(proven, 5);
  EXPECT_GT(refuted, 5);
}

}  // namespace
}  // namespace idxmap
