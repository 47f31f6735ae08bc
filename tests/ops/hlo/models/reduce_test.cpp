#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

const char* kReduce = R"(HloModule m
max {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT max = f32[] maximum(p0, p1)
}
ENTRY e {
  p0 = f32[150, 20, 10, 50] parameter(0)
  p0_init = f32[] constant(-inf)
  ROOT reduce = f32[150, 10] reduce(p0, p0_init), dimensions={3, 1}, to_apply=max
})";

TEST(ReduceOp, XlaMaps) {
  Hlo hlo(kReduce);
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1)[s0, s1] -> (d0, s0, d1, s1), domain: d0 in [0, 149], d1 in [0, 9],"
            " s0 in [0, 19], s1 in [0, 49]");
  expectMap(out.entries[1], "(d0, d1) -> (), domain: d0 in [0, 149], d1 in [0, 9]");
  expectMap(inToOut(hlo.root(), 1).entries[0],
            "()[s0, s1] -> (s0, s1), domain: s0 in [0, 149], s1 in [0, 9]");
  expectMap(inToOut(hlo.root(), 0).entries[0],
            "(d0, d1, d2, d3) -> (d0, d2), domain: d0 in [0, 149], d1 in [0, 19],"
            " d2 in [0, 9], d3 in [0, 49]");
}

const char* kVariadic = R"(HloModule m
min {
  tmp_0 = f32[] parameter(0)
  tmp_1 = f32[] parameter(2)
  tmp_2 = s32[] parameter(1)
  tmp_3 = s32[] parameter(3)
  cmp = pred[] compare(tmp_0, tmp_1), direction=GE
  select1 = f32[] select(cmp, tmp_0, tmp_1)
  select2 = s32[] select(cmp, tmp_2, tmp_3)
  ROOT tmp_4 = (f32[], s32[]) tuple(select1, select2)
}
ENTRY e {
  p0 = f32[4,3] parameter(0)
  p0_init = f32[] constant(-inf)
  p1 = s32[4,3] parameter(1)
  p1_init = s32[] constant(0)
  ROOT reduce = (f32[3], s32[3]) reduce(p0, p1, p0_init, p1_init), dimensions={0}, to_apply=min
})";

TEST(ReduceOp, VariadicAgreesWithDirectEvaluation) {
  Hlo hlo(kVariadic);
  for (int result = 0; result < 2; ++result) {
    InstructionIndexing out = outToIn(hlo.root(), result);
    ASSERT_EQ(out.entries.size(), 4u);
    for (int input = 0; input < 2; ++input)
      EXPECT_EQ(relationOf(out.entries[input]), readsRelation({3}, [](const Index& o) {
                  std::vector<Index> reads;
                  for (int64_t k = 0; k < 4; ++k) reads.push_back({k, o[0]});
                  return reads;
                }));
    expectMap(out.entries[3], "(d0) -> (), domain: d0 in [0, 2]");
  }
  EXPECT_EQ(inToOut(hlo.root(), 1).entries.size(), 2u);
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(ReduceOp, Validation) {
  auto error = validationError(R"(HloModule m
max {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT max = f32[] maximum(p0, p1)
}
ENTRY e {
  p0 = f32[15, 20] parameter(0)
  i = f32[] constant(0)
  ROOT r = f32[15] reduce(p0, i), dimensions={2}, to_apply=max
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "dimensions={2}: dimension 2 is out of range [0, 2)");
  error = validationError(R"(HloModule m
max {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT max = f32[] maximum(p0, p1)
}
ENTRY e {
  p0 = f32[15, 20] parameter(0)
  i = f32[] constant(0)
  ROOT r = f32[20] reduce(p0, i), dimensions={1}, to_apply=max
})");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("dimension 0 is 20, expected 15"), std::string::npos);
}

TEST(ReduceOp, DynamicReducedDimensionStopsAtItsRuntimeSize) {
  Hlo hlo(R"(HloModule m
add {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT s = f32[] add(p0, p1)
}
ENTRY e {
  p0 = f32[<=4, 2] parameter(0)
  i = f32[] constant(0)
  ROOT r = f32[2] reduce(p0, i), dimensions={0}, to_apply=add
})");
  expectMap(outToIn(hlo.root()).entries[0],
            "(d0)[s0]{rt0} -> (s0, d0), domain: d0 in [0, 1], s0 in [0, 3], rt0 in [0, 4],"
            " rt0 - s0 in [1, 4]");
}

}  // namespace
}  // namespace idxmap::optest
