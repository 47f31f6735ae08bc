// Interval arithmetic at the int64 limits (core/interval.h): a lower bound of INT64_MAX and an
// upper bound of INT64_MIN are numbers, the other ends are the infinities, and every result is
// rounded outward, never onto a wrong finite point. Expected bounds worked out by hand.
#include "core/interval.h"

#include <gtest/gtest.h>

namespace idxmap {
namespace {

constexpr int64_t kTop = INT64_MAX, kBottom = INT64_MIN;

TEST(Interval, AConstantAtTheLimitIsANumber) {
  // 2^63 - 1 - [0, 4]: [2^63 - 5, 2^63 - 1], whose upper end prints as +inf.
  Interval sum = Interval{kTop, kTop} + Interval{-4, 0};
  EXPECT_EQ(sum, (Interval{kTop - 4, kTop}));
  EXPECT_FALSE(sum.isPoint());
  // Past the limit: a lower bound stays at 2^63 - 1 (below the truth), the upper one is +inf.
  Interval past = sum + Interval{5, 6};
  EXPECT_EQ(past, (Interval{kTop, kTop}));
  EXPECT_FALSE(past.isPoint());
  EXPECT_TRUE((Interval{kTop - 1, kTop - 1}).isPoint());
  EXPECT_FALSE((Interval{kBottom, kBottom}).isPoint());
}

TEST(Interval, DivisionKeepsAFiniteLowerBoundAtTheLimit) {
  // (rt0 + 2^63 - 1) ceildiv 2^62 with rt0 in [0, 5] is 2 or 3.
  Interval quotient = (Interval{0, 5} + Interval::point(kTop)).ceilDiv(int64_t{1} << 62);
  EXPECT_EQ(quotient.lo, 2);
  EXPECT_EQ(quotient.hi, Interval::kPosInf);
  EXPECT_EQ((Interval{kTop - 7, kTop - 5}).mod(4), (Interval{0, 2}));
}

TEST(Interval, NegationAndProductsRoundOutward) {
  EXPECT_EQ(-(Interval{kBottom + 1, 0}), (Interval{0, kTop}));
  EXPECT_EQ(-(Interval{kTop, kTop}), (Interval{kBottom, kBottom + 1}));  // -inf below -(2^63 - 1)
  EXPECT_EQ(Interval::unbounded() * 0, Interval::point(0));
  // (2^62 + [0, 1]) * 2: [2^63, 2^63 + 2] has no finite upper bound; its lower bound is kept
  // at 2^63 - 1, below the truth.
  Interval doubled = Interval{int64_t{1} << 62, (int64_t{1} << 62) + 1} * 2;
  EXPECT_EQ(doubled, (Interval{kTop, kTop}));
  Interval negated = Interval{int64_t{1} << 62, (int64_t{1} << 62) + 1} * -2;
  EXPECT_EQ(negated, (Interval{kBottom, kBottom}));  // -inf, and an upper bound of -2^63 (a number)
  EXPECT_EQ((Interval{-3, 5} * -2), (Interval{-10, 6}));
}

}  // namespace
}  // namespace idxmap
