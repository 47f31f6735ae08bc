// isl_bridge::plainPoints: a table of points is read off its pieces, and anything that is not
// plainly a point (a range, a parameter, a union with a range) is left to isl's own enumeration.
#include <gtest/gtest.h>
#include <isl/map.h>

#include "core/bridges/isl_bridge.h"

namespace idxmap {
namespace {

isl::map read(const char* text) {
  return isl_bridge::own(isl_map_read_from_str(islContext().get(), text));
}

TEST(IslPoints, ReadsATableOfPoints) {
  auto points = isl_bridge::plainPoints(read("{ [0, 1] -> [7]; [1, 0] -> [-3]; [2, 2] -> [5] }"));
  ASSERT_TRUE(points);
  std::vector<std::vector<int64_t>> sorted = *points;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::vector<int64_t>>{{0, 1, 7}, {1, 0, -3}, {2, 2, 5}}));
  auto none = isl_bridge::plainPoints(read("{ [i] -> [v] : 1 = 0 }"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(IslPoints, LeavesWhatIsNotPlainlyAPointToIsl) {
  EXPECT_FALSE(isl_bridge::plainPoints(read("{ [i] -> [v] : v = i and 0 <= i <= 3 }")));
  EXPECT_FALSE(isl_bridge::plainPoints(read("[n] -> { [0] -> [n] }")));
  EXPECT_FALSE(isl_bridge::plainPoints(read("{ [0] -> [1]; [i] -> [2] : 1 <= i <= 5 }")));
  // A value past int64 is read by isl's path too (which reports it), never wrapped.
  EXPECT_FALSE(isl_bridge::plainPoints(read("{ [0] -> [100000000000000000000] }")));
}

}  // namespace
}  // namespace idxmap
