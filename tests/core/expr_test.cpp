#include "core/expr.h"
#include "tests/support/exprs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace idxmap {
namespace {

using namespace test_exprs;

TEST(Expr, EqualExpressionsAreTheSameNode) {
  EXPECT_EQ(d(0) * 4 + Expr::rangeVar(1), d(0) * 4 + Expr::rangeVar(1));
  EXPECT_EQ((d(0) * 4 + 1).node(), (d(0) * 4 + 1).node());
  EXPECT_FALSE(d(0) == Expr::rangeVar(0));
}

TEST(Expr, FoldsConstantsAtConstruction) {
  EXPECT_TRUE((Expr::constant(2) + 3).isConstant(5));
  EXPECT_EQ(d(0) + 0, d(0));
  EXPECT_EQ(d(0) * 1, d(0));
  EXPECT_TRUE((d(0) * 0).isConstant(0));
  EXPECT_EQ((d(0) * 2) * 3, d(0) * 6);
  EXPECT_EQ(d(0).floorDiv(1), d(0));
  EXPECT_TRUE(d(0).mod(1).isConstant(0));
  EXPECT_TRUE(Expr::constant(-2).floorDiv(5).isConstant(-1));
  EXPECT_TRUE(Expr::constant(-7).mod(3).isConstant(2));
  EXPECT_TRUE(Expr::constant(7).ceilDiv(2).isConstant(4));
  EXPECT_EQ(2 + d(0), d(0) + 2);
  EXPECT_EQ((d(0) + 2) + 3, d(0) + 5);
}

TEST(Expr, NormalizesNegativeDivisors) {
  EXPECT_EQ(d(0).floorDiv(-2), (-d(0)).floorDiv(2));
  EXPECT_EQ(d(0).ceilDiv(-2), -d(0).floorDiv(2));
  EXPECT_EQ(d(0).mod(-3), -((-d(0)).mod(3)));  // floored: in (-3, 0]
}

// a = b * (a floordiv b) + a mod b for every sign of a and b, folded or not, with the
// remainder in [0, b) or (b, 0]: brute force over small values.
TEST(Expr, FloorDivAndModKeepTheDivisionIdentity) {
  for (int64_t b = -7; b <= 7; ++b) {
    if (b == 0) continue;
    Expr quotient = d(0).floorDiv(b), remainder = d(0).mod(b);
    for (int64_t a = -30; a <= 30; ++a) {
      SCOPED_TRACE("a = " + std::to_string(a) + ", b = " + std::to_string(b));
      const std::vector<int64_t> point{a};
      int64_t q = quotient.evaluate(point, {}, {}), r = remainder.evaluate(point, {}, {});
      EXPECT_EQ(a, b * q + r);
      EXPECT_TRUE(b > 0 ? (r >= 0 && r < b) : (r <= 0 && r > b));
      EXPECT_EQ(Expr::constant(a).floorDiv(b).constantValue(), q);
      EXPECT_EQ(Expr::constant(a).mod(b).constantValue(), r);
      // Independently: small quotients are exact in double.
      EXPECT_EQ(q, static_cast<int64_t>(std::floor(static_cast<double>(a) / b)));
      EXPECT_EQ(d(0).ceilDiv(b).evaluate(point, {}, {}),
                static_cast<int64_t>(std::ceil(static_cast<double>(a) / b)));
    }
  }
}

TEST(Expr, RejectsWhatTheIrCannotHold) {
  EXPECT_THROW(d(0) * d(1), ExprError);
  EXPECT_THROW(d(0).floorDiv(0), ExprError);
  EXPECT_THROW(d(0).mod(d(1)), ExprError);
  EXPECT_THROW(Expr::constant(INT64_MAX) + 1, OverflowError);
  EXPECT_THROW(d(0).floorDiv(INT64_MIN), OverflowError);
}

TEST(Expr, EvaluatesWithFloorSemanticsMatchingBruteForce) {
  Expr e = (d(0) * 3 - 7).floorDiv(4) + (d(0) - 5).mod(3) + (d(0) + 1).ceilDiv(2);
  for (int64_t x = -20; x <= 20; ++x) {
    int64_t a = x * 3 - 7, fl = a / 4 - ((a % 4 != 0 && a < 0) ? 1 : 0);
    int64_t m = ((x - 5) % 3 + 3) % 3;
    int64_t b = x + 1, cl = b / 2 + ((b % 2 != 0 && b > 0) ? 1 : 0);
    int64_t values[] = {x};
    EXPECT_EQ(e.evaluate(values, {}, {}), fl + m + cl) << x;
  }
}

TEST(Expr, SizeCountsConstantOperandsAsPartOfTheirOperator) {
  EXPECT_EQ(d(0).floorDiv(2).size(), 2);
  EXPECT_EQ((d(0) + d(1)).size(), 3);
  EXPECT_EQ((d(0) * 4 + 1).size(), 4);
}

}  // namespace
}  // namespace idxmap
