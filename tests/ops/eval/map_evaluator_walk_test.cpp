// The walk's row narrowing against brute force: the steps i where value + step * i is in a
// range, for every sign of step and for unbounded ends.
#include "ops/eval/map_evaluator_walk.h"

#include <gtest/gtest.h>

#include <random>

namespace idxmap::gather_scatter {
namespace {

TEST(MapEvaluatorWalk, NarrowingKeepsExactlyTheStepsInRange) {
  std::mt19937 rng(5);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 5000; ++trial) {
    int64_t value = uniform(-30, 30), step = uniform(-4, 4), count = uniform(1, 12);
    Interval range{uniform(-30, 30), uniform(-30, 30)};
    if (uniform(0, 5) == 0) range.lo = Interval::kNegInf;
    if (uniform(0, 5) == 0) range.hi = Interval::kPosInf;
    int64_t first = 0, last = count - 1;
    narrowToRange(value, step, range, first, last);
    for (int64_t i = 0; i < count; ++i)
      EXPECT_EQ(first <= i && i <= last, range.contains(value + step * i))
          << value << " + " << step << " * " << i << " in " << range.toString();
  }
}

}  // namespace
}  // namespace idxmap::gather_scatter
