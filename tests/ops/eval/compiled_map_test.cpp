// Compiled maps must evaluate exactly as the Exprs they come from: random affine expressions
// at random points of their domain, against Expr::evaluate; positions against linearPosition
// of the evaluated results; and refusals wherever unchecked evaluation would not be safe.
#include "ops/eval/compiled_map.h"

#include <gtest/gtest.h>

#include <random>

#include "core/text.h"
#include "ops/eval/tensor.h"

namespace idxmap {
namespace {

int64_t uniform(std::mt19937& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

// A random affine expression over d0, d1, s0, rt0, rt1, nested so that Add and Mul nodes mix.
Expr randomAffine(std::mt19937& rng, int depth) {
  if (depth == 0 || uniform(rng, 0, 3) == 0) {
    switch (uniform(rng, 0, 5)) {
      case 0:
        return Expr::constant(uniform(rng, -20, 20));
      case 1:
        return Expr::dim(static_cast<unsigned>(uniform(rng, 0, 1)));
      case 2:
        return Expr::rangeVar(0);
      default:
        return Expr::runtimeVar(static_cast<unsigned>(uniform(rng, 0, 1)));
    }
  }
  if (uniform(rng, 0, 1) == 0) return randomAffine(rng, depth - 1) + randomAffine(rng, depth - 1);
  return randomAffine(rng, depth - 1) * uniform(rng, -5, 5);
}

IndexingMap boxMap() {
  IndexingMap map;
  map.dims = {{{0, 6}, ""}, {{-3, 4}, ""}};
  map.rangeVars = {{{0, 2}, ""}};
  map.runtimeVars = {{{-10, 10}, ""}, {{5, 9}, ""}};
  return map;
}

std::vector<int64_t> randomPoint(std::mt19937& rng, const IndexingMap& map) {
  std::vector<int64_t> values;
  for (const Interval& range : variableBox(map)) values.push_back(uniform(rng, range.lo, range.hi));
  return values;
}

int64_t evaluateTree(Expr expr, const IndexingMap& map, const std::vector<int64_t>& values) {
  std::span<const int64_t> all(values);
  size_t dims = map.dims.size(), ranges = map.rangeVars.size();
  return expr.evaluate(all.subspan(0, dims), all.subspan(dims, ranges), all.subspan(dims + ranges));
}

TEST(CompiledMap, AffineFormsEvaluateAsTheirExprs) {
  std::mt19937 rng(7);
  IndexingMap map = boxMap();
  for (int trial = 0; trial < 500; ++trial) {
    Expr expr = randomAffine(rng, 4);
    std::optional<AffineForm> form = affineFormOf(expr, map);
    ASSERT_TRUE(form) << printExpr(expr);
    std::optional<Interval> range = overflowFreeRange(expr, *form, map);
    ASSERT_TRUE(range) << printExpr(expr);
    for (int point = 0; point < 20; ++point) {
      std::vector<int64_t> values = randomPoint(rng, map);
      int64_t expected = evaluateTree(expr, map, values);
      EXPECT_EQ(form->evaluate(values), expected) << printExpr(expr);
      EXPECT_TRUE(range->contains(expected)) << printExpr(expr) << " " << range->toString();
    }
  }
}

TEST(CompiledMap, RefusesWhatIsNotAffineOrNotDeclared) {
  IndexingMap map = boxMap();
  Expr d0 = Expr::dim(0);
  EXPECT_FALSE(affineFormOf(d0.floorDiv(2), map));
  EXPECT_FALSE(affineFormOf(d0.mod(3) + 1, map));
  EXPECT_FALSE(affineFormOf(Expr::min(d0, Expr::rangeVar(0)), map));
  EXPECT_FALSE(affineFormOf(Expr::dim(2), map));
  EXPECT_FALSE(affineFormOf(Expr::runtimeVar(2), map));
  map.results = {d0.floorDiv(2)};
  EXPECT_FALSE(CompiledMap::compile(map));
}

TEST(CompiledMap, RefusesWhatMayOverflow) {
  IndexingMap map = boxMap();
  map.dims[0].range = {0, int64_t{1} << 40};
  // The form d0 * 2^30 fits, but the tree (d0 * 2^30) * 2^30 does not at large d0.
  Expr big = Expr::dim(0) * (int64_t{1} << 30) * (int64_t{1} << 30);
  std::optional<AffineForm> form = affineFormOf(big, map);
  ASSERT_TRUE(form);
  EXPECT_FALSE(overflowFreeRange(big, *form, map));
  // A tree whose sum cancels but whose terms overflow.
  Expr cancel = Expr::dim(0) * (int64_t{1} << 40) + Expr::dim(0) * -(int64_t{1} << 40);
  form = affineFormOf(cancel, map);
  ASSERT_TRUE(form);
  EXPECT_FALSE(overflowFreeRange(cancel, *form, map));
  // An unbounded range proves nothing.
  map.dims[0].range = Interval::unbounded();
  form = affineFormOf(Expr::dim(0), map);
  EXPECT_FALSE(overflowFreeRange(Expr::dim(0), *form, map));
}

TEST(CompiledMap, PositionsAreRowMajorPositionsOfTheResults) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1, d2)[s0]{rt0} -> (d0, rt0 + d2, s0 * 2 + d1),\n"
      "domain:\nd0 in [0, 2],\nd1 in [0, 1],\nd2 in [0, 3],\ns0 in [0, 1],\nrt0 in [0, 4]");
  std::optional<CompiledMap> compiled = CompiledMap::compile(map);
  ASSERT_TRUE(compiled);
  const std::vector<int64_t> shape = {3, 8, 4};
  std::optional<AffineForm> position = compiled->positionIn(shape);
  ASSERT_TRUE(position);
  std::mt19937 rng(11);
  for (int point = 0; point < 200; ++point) {
    std::vector<int64_t> values = randomPoint(rng, map);
    std::vector<int64_t> index;
    for (Expr result : map.results) index.push_back(evaluateTree(result, map, values));
    EXPECT_EQ(position->evaluate(values), gather_scatter::linearPosition(shape, index));
  }
  // rt0 + d2 reaches 7: out of bounds in a dim of size 7.
  EXPECT_FALSE(compiled->positionIn(std::vector<int64_t>{3, 7, 4}));
  EXPECT_FALSE(compiled->positionIn(std::vector<int64_t>{3, 8}));
}

// Scatter's form: a result that leaves the tensor is kept in it by a constraint on the very
// same expression, which only the map's points satisfy.
TEST(CompiledMap, ConstraintsOnAResultBoundItsPosition) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1){rt0} -> (rt0 + d1, d0),\n"
      "domain:\nd0 in [0, 2],\nd1 in [0, 3],\nrt0 in [-3, 5],\nrt0 + d1 in [0, 5]");
  std::optional<CompiledMap> compiled = CompiledMap::compile(map);
  ASSERT_TRUE(compiled);
  EXPECT_EQ(compiled->resultRanges[0], (Interval{0, 5}));
  ASSERT_TRUE(compiled->positionIn(std::vector<int64_t>{6, 3}));
  EXPECT_FALSE(compiled->positionIn(std::vector<int64_t>{5, 3}));
  std::mt19937 rng(13);
  for (int point = 0; point < 200; ++point) {
    std::vector<int64_t> values = randomPoint(rng, map);
    std::span<const int64_t> all(values);
    EXPECT_EQ(compiled->constraintsHold(values),
              map.contains(all.subspan(0, 2), {}, all.subspan(2)));
  }
}

TEST(CompiledMap, KnownEmptyMapsAreNotCompiled) {
  IndexingMap map = boxMap();
  map.results = {Expr::dim(0)};
  map.markKnownEmpty();
  EXPECT_FALSE(CompiledMap::compile(map));
}

}  // namespace
}  // namespace idxmap
