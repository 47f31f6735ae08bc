// scan: XLA's maps (element i of an output from element i of each input of its shape, every
// scalar init), an operand of another shape read whole, shapes inferred from the body, and
// the diagnostics on a scan that breaks its rules.
#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

// A running sum of an f32[5] and of each row of an f32[3, 4] along dim 1, its carry the row's
// sum so far.
const char* kRunningSum = R"(HloModule m
body {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  s = f32[] add(x, c)
  ROOT t = (f32[], f32[]) tuple(s, s)
}
ENTRY e {
  p0 = f32[5] parameter(0)
  init = f32[] constant(0)
  ROOT scan = (f32[5], f32[]) scan(p0, init), dimensions={0}, num_carries=1, to_apply=body
})";

const char* kRows = R"(HloModule m
body {
  x = f32[3] parameter(0)
  i = s32[3] parameter(1)
  c = f32[3] parameter(2)
  s = f32[3] add(x, c)
  ROOT t = (f32[3], f32[3]) tuple(s, s)
}
ENTRY e {
  p0 = f32[3,4] parameter(0)
  p1 = s32[3,4] parameter(1)
  init = f32[3] parameter(2)
  ROOT scan = (f32[3,4], f32[3]) scan(p0, p1, init), dimensions={1}, num_carries=1,
    is_reverse=true, to_apply=body
})";

TEST(ScanOp, OutputElementComesFromTheSameElementOfEachInput) {
  Hlo hlo(kRunningSum);
  InstructionIndexing output = outToIn(hlo.root(), 0);
  ASSERT_EQ(output.entries.size(), 2u);
  expectMap(output.entries[0], "(d0) -> (d0), domain: d0 in [0, 4]");
  expectMap(output.entries[1], "(d0) -> (), domain: d0 in [0, 4]");
  // The scalar final carry: every input element, and the init.
  InstructionIndexing carry = outToIn(hlo.root(), 1);
  EXPECT_EQ(relationOf(carry.entries[0]), readsRelation({}, [](const Index&) {
              std::vector<Index> reads;
              for (int64_t k = 0; k < 5; ++k) reads.push_back({k});
              return reads;
            }));
  expectMap(carry.entries[1], "() -> ()");
}

TEST(ScanOp, RowsAgreeWithDirectEvaluation) {
  Hlo hlo(kRows);
  InstructionIndexing output = outToIn(hlo.root(), 0);
  ASSERT_EQ(output.entries.size(), 3u);
  auto same = [](const Index& o) { return std::vector<Index>{o}; };
  EXPECT_EQ(relationOf(output.entries[0]), readsRelation({3, 4}, same));
  EXPECT_EQ(relationOf(output.entries[1]), readsRelation({3, 4}, same));
  // The f32[3] init is not the output's shape: read whole.
  EXPECT_EQ(relationOf(output.entries[2]), readsRelation({3, 4}, [](const Index&) {
              return std::vector<Index>{{0}, {1}, {2}};
            }));
  InstructionIndexing carry = outToIn(hlo.root(), 1);
  expectMap(carry.entries[2], "(d0) -> (d0), domain: d0 in [0, 2]");
  EXPECT_EQ(relationOf(carry.entries[0]).size(), 3u * 12u);
  // XLA's analysis has no operand-to-result maps for scan.
  EXPECT_TRUE(inToOut(hlo.root(), 0).entries.at(0).unknown);
}

std::string scanError(const std::string& attributes, const std::string& resultShape =
                                                         "(f32[3,4], "
                                                         "f32[3])") {
  std::string text = kRows;
  const std::string old = "(f32[3,4], f32[3]) scan(p0, p1, init), dimensions={1}, num_carries=1,";
  text.replace(text.find(old), old.size(), resultShape + " scan(p0, p1, init), " + attributes);
  std::optional<ParseError> error = validationError(text);
  return error ? error->message() : "";
}

TEST(ScanOp, RejectsWhatBreaksItsRules) {
  EXPECT_EQ(scanError("dimensions={1}, num_carries=1,"), "");
  EXPECT_EQ(scanError("dimensions={1}, num_carries=3,"),
            "num_carries=3: must leave at least one of the 3 operands an input");
  EXPECT_EQ(scanError("dimensions={0,1}, num_carries=1,"),
            "dimensions={0,1}: scan runs along one dimension, not {0,1}");
  EXPECT_NE(scanError("dimensions={2}, num_carries=1,").find("out of range"), std::string::npos);
  // Along dim 0 the slices are f32[4], not the body's f32[3].
  EXPECT_NE(scanError("dimensions={0}, num_carries=1,", "(f32[3,4], f32[3])")
                .find("to_apply's parameter 0 must be f32[4]"),
            std::string::npos);
  EXPECT_NE(scanError("dimensions={1}, num_carries=1,", "(f32[3,5], f32[3])")
                .find("dimension 1 is 5, expected 4"),
            std::string::npos);
  EXPECT_NE(scanError("num_carries=1,").find("missing attribute dimensions="), std::string::npos);
}

}  // namespace
}  // namespace idxmap::optest
