// Where XLA's analysis has a convention beyond the maps' meaning, idxmap's default
// (RuntimeVariables::kFolded) follows it: a gather's runtime variables numbered by the operand
// dim they offset, no map at all for a parameter only another root of a multi-output fusion
// reads, KNOWN EMPTY for one that is reached but never read, and for ops of nothing.
#include <gtest/gtest.h>

#include <string>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"

namespace idxmap {
namespace {

bool means(const IndexingMap& actual, const std::string& expected) {
  return islEqual(actual, parseIndexingMap(expected)).isProven();
}

// start_index_map={1,0}: column 0 of an index row is the start along operand dim 1.
const char* kShuffledGather = R"(HloModule m
ENTRY e {
  p = f32[9,12] parameter(0)
  i = s32[5,2] parameter(1)
  ROOT g = f32[5,2,3] gather(p, i), offset_dims={1,2}, collapsed_slice_dims={},
    start_index_map={1,0}, index_vector_dim=1, slice_sizes={2,3}
})";

TEST(XlaConventions, GatherRuntimeVariablesFollowTheOperandDims) {
  hlo::Module module = hlo::parseHloModule(kShuffledGather, "gather.hlo");
  const hlo::Instruction& gather = *module.entry->root;
  const IndexingMap map = computeOutputToInputIndexing(gather).entries.at(0).maps.at(0);
  // rt0 offsets dim 0 (9 rows, slices of 2) and is read from column 1.
  EXPECT_TRUE(means(map,
                    "(d0, d1, d2){rt0, rt1} -> (d1 + rt0, d2 + rt1), domain: d0 in [0, 4], "
                    "d1 in [0, 1], d2 in [0, 2], rt0 in [0, 7], rt1 in [0, 9]"))
      << printIndexingMap(map);
  ASSERT_TRUE(map.runtimeVars[0].source && map.runtimeVars[0].source->index);
  EXPECT_TRUE(means(*map.runtimeVars[0].source->index,
                    "(d0, d1, d2) -> (d0, 1), domain: d0 in [0, 4], d1 in [0, 1], d2 in [0, 2]"));
  // A kernel binds index vector entries by position: rt0 is column 0 there.
  const IndexingMap positional =
      computeOutputToInputIndexing(gather, 0, RuntimeVariables::kPositional)
          .entries.at(0)
          .maps.at(0);
  EXPECT_TRUE(means(positional,
                    "(d0, d1, d2){rt0, rt1} -> (d1 + rt1, d2 + rt0), domain: d0 in [0, 4], "
                    "d1 in [0, 1], d2 in [0, 2], rt0 in [0, 9], rt1 in [0, 7]"))
      << printIndexingMap(positional);
}

TEST(XlaConventions, AParameterOnlyAnotherRootReadsHasNoMap) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[6] parameter(0)
  p1 = f32[2,3] parameter(1)
  n = f32[6] negate(p0)
  r = f32[6] reshape(p1)
  ROOT t = (f32[6], f32[6], f32[6]) tuple(n, r, n)
}
ENTRY e {
  a = f32[6] parameter(0)
  b = f32[2,3] parameter(1)
  ROOT fusion = (f32[6], f32[6], f32[6]) fusion(a, b), kind=kLoop, calls=f
})",
                                           "mof.hlo");
  const hlo::Instruction& fusion = *module.entry->root;
  for (int output : {0, 2}) {
    InstructionIndexing indexing = computeOutputToInputIndexing(fusion, output);
    ASSERT_EQ(indexing.entries.size(), 2u);
    EXPECT_TRUE(means(indexing.entries[0].maps.at(0), "(d0) -> (d0), domain: d0 in [0, 5]"));
    EXPECT_TRUE(indexing.entries[1].maps.empty() && !indexing.entries[1].unknown);
  }
  InstructionIndexing second = computeOutputToInputIndexing(fusion, 1);
  EXPECT_TRUE(second.entries[0].maps.empty() && !second.entries[0].unknown);
  EXPECT_TRUE(means(second.entries[1].maps.at(0),
                    "(d0) -> (d0 floordiv 3, d0 mod 3), domain: d0 in [0, 5]"));
}

TEST(XlaConventions, AnInputTheSliceNeverReachesIsKnownEmpty) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[3,4] parameter(0)
  p1 = f32[3,6] parameter(1)
  p2 = f32[3,2] parameter(2)
  c = f32[3,12] concatenate(p0, p1, p2), dimensions={1}
  ROOT s = f32[3,2] slice(c), slice={[0:3], [5:9:3]}
}
ENTRY e {
  a = f32[3,4] parameter(0)
  b = f32[3,6] parameter(1)
  c = f32[3,2] parameter(2)
  ROOT fusion = f32[3,2] fusion(a, b, c), kind=kLoop, calls=f
})",
                                           "slice.hlo");
  // Columns 5 and 8 of the concatenation: columns 1 and 4 of p1 only.
  InstructionIndexing indexing = computeOutputToInputIndexing(*module.entry->root);
  ASSERT_EQ(indexing.entries.size(), 3u);
  for (size_t unread : {0u, 2u}) {
    ASSERT_EQ(indexing.entries[unread].maps.size(), 1u);
    EXPECT_TRUE(indexing.entries[unread].maps[0].knownEmpty);
  }
  EXPECT_TRUE(means(indexing.entries[1].maps.at(0),
                    "(d0, d1) -> (d0, d1 * 3 + 1), domain: d0 in [0, 2], d1 in [0, 1]"));
}

TEST(XlaConventions, OpsOfNothingAreKnownEmptyBothWays) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
ENTRY e {
  p = f32[2,0] parameter(0)
  c = f32[2,0] copy(p)
  ROOT r = f32[0] reshape(c)
})",
                                           "nothing.hlo");
  const hlo::Instruction& reshape = *module.entry->root;
  const hlo::Instruction& copy = *reshape.operands[0];
  for (const InstructionIndexing& indexing :
       {computeOutputToInputIndexing(copy), computeInputToOutputIndexing(copy, 0),
        computeOutputToInputIndexing(reshape), computeInputToOutputIndexing(reshape, 0)}) {
    ASSERT_EQ(indexing.entries.size(), 1u);
    ASSERT_EQ(indexing.entries[0].maps.size(), 1u);
    EXPECT_TRUE(indexing.entries[0].maps[0].knownEmpty);
  }
  // Known empty, the map still has the shape of a map to the result: one index.
  EXPECT_EQ(computeInputToOutputIndexing(reshape, 0).entries[0].maps[0].results.size(), 1u);
}

}  // namespace
}  // namespace idxmap
