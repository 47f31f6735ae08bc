// affineOnSmallBox: an expression over few points becomes the affine function it equals at
// every one of them, and nothing else: checked by evaluating both at every point of the box.
#include <gtest/gtest.h>

#include "core/text.h"
#include "simplifier/small_domain.h"

namespace idxmap {
namespace small_domain_tests {

Expr onBox(const std::string& mapText) {
  IndexingMap map = parseIndexingMap(mapText);
  Expr out = affineOnSmallBox(map.results[0], map);
  // Equal at every point of the box (dims up to 3 here).
  std::vector<int64_t> at(map.dims.size());
  std::function<void(size_t)> each = [&](size_t d) {
    if (d == at.size()) {
      EXPECT_EQ(out.evaluate(at, {}, {}), map.results[0].evaluate(at, {}, {}));
      return;
    }
    for (at[d] = map.dims[d].range.lo; at[d] <= map.dims[d].range.hi; ++at[d]) each(d + 1);
  };
  if (map.rangeVars.empty() && map.runtimeVars.empty()) each(0);
  return out;
}

TEST(SmallDomain, AffineOnEveryPointBecomesAffine) {
  EXPECT_EQ(printExpr(onBox("(d0) -> (((d0 * 3) mod 2) * 9), domain: d0 in [0, 1]")), "d0 * 9");
  EXPECT_EQ(printExpr(onBox("(d0, d1) -> ((d0 * 6 + d1 * 5) floordiv 5), domain: d0 in [0, 0], "
                            "d1 in [0, 3]")),
            "d1");
  EXPECT_EQ(printExpr(onBox("(d0, d1) -> ((d0 + d1 * 4) mod 8 + d1 floordiv 2), domain: "
                            "d0 in [0, 3], d1 in [0, 1]")),
            "d1 * 4 + d0");
}

TEST(SmallDomain, LeavesWhatIsNotAffineOrNotSmall) {
  EXPECT_EQ(printExpr(onBox("(d0) -> (d0 mod 2), domain: d0 in [0, 3]")), "d0 mod 2");
  EXPECT_EQ(printExpr(onBox("(d0) -> ((d0 * 3) mod 2), domain: d0 in [0, 99]")), "(d0 * 3) mod 2");
  // A range variable takes values the box does not show.
  EXPECT_EQ(printExpr(onBox("(d0)[s0] -> ((d0 + s0) mod 2), domain: d0 in [0, 1], s0 in [0, 1]")),
            "(d0 + s0) mod 2");
}

}  // namespace small_domain_tests
}  // namespace idxmap
