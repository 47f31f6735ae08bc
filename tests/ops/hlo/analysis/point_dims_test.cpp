// `analyze --style xla` keeps point dimensions where XLA prints a map as it builds it
// (reverse and transpose: XLA's expected outputs keep `d0` with d0 in [0, 0])
// and folds them where XLA simplifies a composition (fusions, reduce-window), so the text
// diffs against XLA's. Each form is checked to be the same relation as the default one.
#include <gtest/gtest.h>

#include "core/text.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"
#include "tests/support/map_oracle.h"

namespace idxmap {
namespace hlo_point_dims_test {
namespace {

std::string firstMap(const std::string& text, PointDims pointDims) {
  hlo::Module module = hlo::parseHloModule(text, "point_dims.hlo");
  InstructionIndexing kept =
      computeOutputToInputIndexing(*module.entry->root, 0, RuntimeVariables::kFolded, pointDims);
  InstructionIndexing folded = computeOutputToInputIndexing(*module.entry->root, 0);
  const IndexingMap& map = kept.entries.at(0).maps.at(0);
  EXPECT_EQ(oracle::bruteForceRelation(map),
            oracle::bruteForceRelation(folded.entries.at(0).maps.at(0)));
  return printIndexingMap(map, PrintStyle::kXla);
}

TEST(HloPointDims, BuiltMapsKeepThem) {
  const std::string reverse = R"(HloModule m
ENTRY e {
  p0 = f32[1,5,3] parameter(0)
  ROOT r = f32[1,5,3] reverse(p0), dimensions={1}
})";
  EXPECT_EQ(firstMap(reverse, PointDims::kPreserve),
            "(d0, d1, d2) -> (d0, -d1 + 4, d2),\ndomain:\nd0 in [0, 0],\nd1 in [0, 4],\n"
            "d2 in [0, 2]");
  EXPECT_EQ(firstMap(reverse, PointDims::kReplace),
            "(d0, d1, d2) -> (0, -d1 + 4, d2),\ndomain:\nd0 in [0, 0],\nd1 in [0, 4],\n"
            "d2 in [0, 2]");
  const std::string transpose = R"(HloModule m
ENTRY e {
  p0 = f32[1,32] parameter(0)
  ROOT t = f32[32,1] transpose(p0), dimensions={1,0}
})";
  EXPECT_EQ(firstMap(transpose, PointDims::kPreserve),
            "(d0, d1) -> (d1, d0),\ndomain:\nd0 in [0, 31],\nd1 in [0, 0]");
}

TEST(HloPointDims, CompositionsFoldThem) {
  const std::string fusion = R"(HloModule m
f {
  p0 = f32[1,5] parameter(0)
  ROOT r = f32[1,5] reverse(p0), dimensions={1}
}
ENTRY e {
  a = f32[1,5] parameter(0)
  ROOT fu = f32[1,5] fusion(a), kind=kLoop, calls=f
})";
  EXPECT_EQ(firstMap(fusion, PointDims::kPreserve),
            "(d0, d1) -> (0, -d1 + 4),\ndomain:\nd0 in [0, 0],\nd1 in [0, 4]");
  const std::string window = R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p0 = f32[1,4] parameter(0)
  c = f32[] constant(0)
  ROOT w = f32[1,3] reduce-window(p0, c), window={size=1x2}, to_apply=add
})";
  EXPECT_EQ(firstMap(window, PointDims::kPreserve).substr(0, 28), "(d0, d1)[s0] -> (0, d1 + s0)");
}

}  // namespace
}  // namespace hlo_point_dims_test
}  // namespace idxmap
