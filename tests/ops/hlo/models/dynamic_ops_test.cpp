// dynamic-slice, dynamic-update-slice and bounded dynamism (spec 002): runtime variables,
// the exact exclusion of the updated window, and brute force over every start index.
#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

// (rt..., out..., in...) for every clamped start rt in [0, maxStart] and every result index.
Relation readsWithStarts(
    const std::vector<int64_t>& maxStarts, const std::vector<int64_t>& resultDims,
    const std::function<std::vector<Index>(const Index&, const Index&)>& reads) {
  Relation relation;
  std::vector<int64_t> starts;
  for (int64_t m : maxStarts) starts.push_back(m + 1);
  forEachIndex(starts, [&](const Index& rt) {
    forEachIndex(resultDims, [&](const Index& out) {
      for (const Index& in : reads(rt, out)) {
        Tuple t = rt;
        t.insert(t.end(), out.begin(), out.end());
        t.insert(t.end(), in.begin(), in.end());
        relation.insert(t);
      }
    });
  });
  return relation;
}

TEST(DynamicSliceOp, XlaMap) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  src = s32[150, 64] parameter(0)
  of1 = s32[] parameter(1)
  of2 = s32[] parameter(2)
  ROOT ds = s32[50, 32] dynamic-slice(src, of1, of2), dynamic_slice_sizes={50, 32}
})");
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1){rt0, rt1} -> (d0 + rt0, d1 + rt1), domain: d0 in [0, 49], d1 in [0, 31],"
            " rt0 in [0, 100], rt1 in [0, 32]");
  expectMap(out.entries[1], "(d0, d1) -> (), domain: d0 in [0, 49], d1 in [0, 31]");
}

TEST(DynamicSliceOp, AgreesWithDirectEvaluation) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  src = s32[5, 4] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  ROOT ds = s32[2, 4] dynamic-slice(src, i, j), dynamic_slice_sizes={2, 4}
})");
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]),
            readsWithStarts({3, 0}, {2, 4}, [](const Index& rt, const Index& o) {
              return std::vector<Index>{{o[0] + rt[0], o[1] + rt[1]}};
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(DynamicSliceOp, Validation) {
  auto error = validationError(R"(HloModule m
ENTRY e {
  src = s32[5, 4] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  ROOT ds = s32[2, 5] dynamic-slice(src, i, j), dynamic_slice_sizes={2, 5}
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "dynamic_slice_sizes={2, 5}: size 5 of dimension 1 is outside [0, 4]");
  error = validationError(R"(HloModule m
ENTRY e {
  src = s32[5, 4] parameter(0)
  i = s32[] parameter(1)
  ROOT ds = s32[2, 4] dynamic-slice(src, i), dynamic_slice_sizes={2, 4}
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "dynamic-slice: expects 3 operands, got 2");
}

const char* kUpdate = R"(HloModule m
ENTRY e {
  src = s32[4, 5] parameter(0)
  upd = s32[2, 3] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT dus = s32[4, 5] dynamic-update-slice(src, upd, i, j)
})";

bool insideWindow(const Index& rt, const Index& o) {
  return o[0] >= rt[0] && o[0] < rt[0] + 2 && o[1] >= rt[1] && o[1] < rt[1] + 3;
}

TEST(DynamicUpdateSliceOp, UpdateIsReadInsideTheWindowOnly) {
  Hlo hlo(kUpdate);
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[1],
            "(d0, d1){rt0, rt1} -> (d0 - rt0, d1 - rt1), domain: d0 in [0, 3], d1 in [0, 4],"
            " rt0 in [0, 2], rt1 in [0, 2], d0 - rt0 in [0, 1], d1 - rt1 in [0, 2]");
  EXPECT_EQ(relationOf(out.entries[1]),
            readsWithStarts({2, 2}, {4, 5}, [](const Index& rt, const Index& o) {
              return insideWindow(rt, o) ? std::vector<Index>{{o[0] - rt[0], o[1] - rt[1]}}
                                         : std::vector<Index>{};
            }));
}

TEST(DynamicUpdateSliceOp, OperandIsReadExactlyOutsideTheWindow) {
  Hlo hlo(kUpdate);
  OperandIndexing operand = outToIn(hlo.root()).entries[0];
  EXPECT_EQ(relationOf(operand),
            readsWithStarts({2, 2}, {4, 5}, [](const Index& rt, const Index& o) {
              return insideWindow(rt, o) ? std::vector<Index>{} : std::vector<Index>{o};
            }));
  // The pieces are disjoint: their sizes add up to the size of the union.
  size_t total = 0;
  for (const IndexingMap& map : operand.maps) total += oracle::bruteForceRelation(map).size();
  EXPECT_EQ(total, relationOf(operand).size());
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(DynamicUpdateSliceOp, FullWidthWindowLeavesNoPieceAlongThatDimension) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  src = s32[6] parameter(0)
  upd = s32[6] parameter(1)
  i = s32[] parameter(2)
  ROOT dus = s32[6] dynamic-update-slice(src, upd, i)
})");
  OperandIndexing operand = outToIn(hlo.root()).entries[0];
  ASSERT_EQ(operand.maps.size(), 1u);
  EXPECT_TRUE(operand.maps[0].knownEmpty);  // the update replaces everything
}

TEST(BoundedDynamism, SetDimensionSizeBoundsTheResult) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  p0 = f32[4, 3] parameter(0)
  n = s32[] parameter(1)
  ROOT s = f32[<=4, 3] set-dimension-size(p0, n), dimensions={0}
})");
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1){rt0} -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 2], rt0 in [0, 4],"
            " rt0 - d0 in [1, 4]");
  // Brute force: with run-time size rt, exactly the rows below rt exist and read p0.
  EXPECT_EQ(relationOf(out.entries[0]),
            readsWithStarts({4}, {4, 3}, [](const Index& rt, const Index& o) {
              return o[0] < rt[0] ? std::vector<Index>{o} : std::vector<Index>{};
            }));
  auto error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[4, 3] parameter(0)
  n = s32[] parameter(1)
  ROOT s = f32[<=4, 3] set-dimension-size(p0, n), dimensions={2}
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "dimensions={2}: dimension 2 is out of range [0, 2)");
}

TEST(BoundedDynamism, GetDimensionSizeReadsNoElement) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  p0 = f32[<=16] parameter(0)
  ROOT n = s32[] get-dimension-size(p0), dimensions={0}
})");
  OperandIndexing operand = outToIn(hlo.root()).entries[0];
  ASSERT_EQ(operand.maps.size(), 1u);
  EXPECT_TRUE(operand.maps[0].knownEmpty);
}

TEST(BoundedDynamism, ShapeCompatibilityFollowsSpec002) {
  // The spec's add examples: <=3 with <=2 gives <=2, with <=4 gives <=3, with 2 gives 2.
  for (const auto& [other, result] : std::vector<std::pair<std::string, std::string>>{
           {"f32[<=2]", "f32[<=2]"}, {"f32[<=4]", "f32[<=3]"}, {"f32[2]", "f32[2]"}}) {
    EXPECT_FALSE(validationError("HloModule m\nENTRY e {\n  a = f32[<=3] parameter(0)\n  b = " +
                                 other + " parameter(1)\n  ROOT c = " + result + " add(a, b)\n}"))
        << other;
  }
  // tensor<?xf32, bounds=[3]> is not compatible with tensor<4xf32>.
  EXPECT_TRUE(validationError(
      "HloModule m\nENTRY e {\n  a = f32[<=3] parameter(0)\n  b = f32[4] parameter(1)\n"
      "  ROOT c = f32[4] add(a, b)\n}"));
}

}  // namespace
}  // namespace idxmap::optest
