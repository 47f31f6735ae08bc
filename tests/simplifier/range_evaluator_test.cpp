// The range evaluator and congruences against brute force: every value an expression takes
// on the domain must lie in its range and satisfy its congruence.
#include "simplifier/range_evaluator.h"

#include <gtest/gtest.h>

#include <random>

#include "core/text.h"

namespace idxmap {
namespace {

TEST(Congruence, IntersectionMatchesBruteForce) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < 2000; ++i) {
    Congruence a = Congruence::of(pick(1, 12), pick(-20, 20));
    Congruence b = Congruence::of(pick(1, 12), pick(-20, 20));
    Congruence both = a.intersect(b);
    for (int64_t x = -200; x <= 200; ++x) {
      bool inA = floorMod(x - a.remainder, a.modulus) == 0;
      bool inB = floorMod(x - b.remainder, b.modulus) == 0;
      bool inBoth =
          !both.isContradiction() &&
          (both.isExact() ? x == both.remainder : floorMod(x - both.remainder, both.modulus) == 0);
      ASSERT_EQ(inA && inB, inBoth) << x << " in " << a.modulus << "k+" << a.remainder << " and "
                                    << b.modulus << "k+" << b.remainder;
    }
  }
}

TEST(RangeEvaluator, UsesModConstraintsAsCongruences) {
  IndexingMap map =
      parseIndexingMap("(d0)[s0] -> (s0), domain: d0 in [0, 9], s0 in [0, 40], s0 mod 6 in [3, 3]");
  RangeEvaluator ranges(map, RangeEvaluator::Use::RangesAndConstraints);
  EXPECT_EQ(ranges.range(Expr::rangeVar(0)), (Interval{3, 39}));
  EXPECT_EQ(ranges.range(Expr::rangeVar(0).mod(3)), Interval::point(0));
  RangeEvaluator boundsOnly(map, RangeEvaluator::Use::VariableRangesOnly);
  EXPECT_EQ(boundsOnly.range(Expr::rangeVar(0)), (Interval{0, 40}));
}

TEST(RangeEvaluator, IsSoundOnRandomExpressions) {
  std::mt19937 rng(11);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  IndexingMap map = parseIndexingMap("(d0, d1) -> (), domain: d0 in [-7, 9], d1 in [0, 12]");
  std::function<Expr(int)> gen = [&](int depth) -> Expr {
    if (depth == 0) return pick(0, 4) == 0 ? Expr::constant(pick(-9, 9)) : Expr::dim(pick(0, 1));
    switch (pick(0, 6)) {
      case 0:
        return gen(depth - 1) + gen(depth - 1);
      case 1:
        return gen(depth - 1) * pick(-5, 5);
      case 2:
        return gen(depth - 1).floorDiv(pick(2, 7));
      case 3:
        return gen(depth - 1).ceilDiv(pick(2, 7));
      case 4:
        return gen(depth - 1).mod(pick(2, 7));
      case 5:
        return Expr::min(gen(depth - 1), gen(depth - 1));
      default:
        return Expr::max(gen(depth - 1), gen(depth - 1));
    }
  };
  for (int i = 0; i < 1000; ++i) {
    Expr e = gen(3);
    RangeEvaluator ranges(map, RangeEvaluator::Use::VariableRangesOnly);
    Interval r = ranges.range(e);
    Congruence c = ranges.congruence(e);
    for (int64_t x = -7; x <= 9; ++x) {
      for (int64_t y = 0; y <= 12; ++y) {
        int64_t d[] = {x, y};
        int64_t v = e.evaluate(d, {}, {});
        ASSERT_TRUE(r.contains(v)) << printExpr(e) << " = " << v << " outside " << r.toString();
        ASSERT_TRUE(c.isExact() ? v == c.remainder : floorMod(v - c.remainder, c.modulus) == 0)
            << printExpr(e);
      }
    }
  }
}

}  // namespace
}  // namespace idxmap
