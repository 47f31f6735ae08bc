// PointDims::kPreserve (XLA's SimplifyPointDimensions::kPreserve) against brute force: on
// random maps with a dimension of one point, the kept form is the same relation as the input
// (and as the kReplace form), it still uses every point dimension the kReplace form folded
// away where the input result used it bare, and it is never larger than the input.
#include <gtest/gtest.h>

#include <random>

#include "core/text.h"
#include "simplifier/simplify.h"
#include "tests/support/map_oracle.h"

namespace idxmap {
namespace point_dims_test {
namespace {

TEST(PointDims, PreservedFormIsTheSameRelation) {
  std::mt19937 rng(20261126);
  int kept = 0;
  for (int round = 0; round < 400; ++round) {
    IndexingMap map = oracle::randomMap(rng);
    int64_t at = map.dims[0].range.lo;
    map.dims[0].range = {at, at};  // d0 is one point
    if (map.dims.size() > 1 && round % 2) map.results[0] = Expr::dim(0) + Expr::dim(1);
    IndexingMap preserved = simplify(map, PointDims::kPreserve);
    IndexingMap replaced = simplify(map, PointDims::kReplace);
    std::string why = printIndexingMap(map) + "\n-> " + printIndexingMap(preserved);
    EXPECT_EQ(oracle::bruteForceRelation(preserved), oracle::bruteForceRelation(map)) << why;
    EXPECT_EQ(oracle::bruteForceRelation(replaced), oracle::bruteForceRelation(map)) << why;
    if (preserved.knownEmpty) continue;
    for (size_t r = 0; r < map.results.size(); ++r) {
      EXPECT_LE(preserved.results[r].size(), map.results[r].size()) << why;
      if (map.results[r] == Expr::dim(0)) EXPECT_EQ(preserved.results[r], Expr::dim(0)) << why;
    }
    if (map.dims.size() > 1 && round % 2 && map.dims[1].range.lo < map.dims[1].range.hi) {
      // d0 + d1 keeps its point dimension; kReplace writes d1 plus the constant.
      EXPECT_TRUE(preserved.results[0].uses(ExprKind::Dim, 0)) << why;
      EXPECT_FALSE(replaced.results[0].uses(ExprKind::Dim, 0)) << why;
      ++kept;
    }
  }
  EXPECT_GE(kept, 40);
}

}  // namespace
}  // namespace point_dims_test
}  // namespace idxmap
