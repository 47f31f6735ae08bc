// broadcast, transpose, reverse, slice, concatenate: expected maps from spec 004 / XLA's tests,
// and brute-force agreement with a direct evaluation of each op on small shapes.
#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

std::string module(const std::string& body) { return "HloModule m\nENTRY e {\n" + body + "\n}"; }

TEST(BroadcastOp, Spec004Maps) {
  Hlo hlo(
      module("p0 = f32[20] parameter(0)\n"
             "ROOT bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}"));
  expectMap(outToIn(hlo.root()).entries[0],
            "(d0, d1, d2) -> (d1), domain: d0 in [0, 9], d1 in [0, 19], d2 in [0, 29]");
  expectMap(inToOut(hlo.root(), 0).entries[0],
            "(d0)[s0, s1] -> (s0, d0, s1), domain: d0 in [0, 19], s0 in [0, 9], s1 in [0, 29]");
}

TEST(BroadcastOp, AgreesWithDirectEvaluation) {
  Hlo hlo(
      module("p0 = f32[2, 3] parameter(0)\n"
             "ROOT b = f32[2, 4, 3] broadcast(p0), dimensions={0, 2}"));
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]),
            readsRelation({2, 4, 3}, [](const Index& o) {
              return std::vector<Index>{{o[0], o[2]}};
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(BroadcastOp, Validation) {
  auto error =
      validationError(module("p0 = f32[20] parameter(0)\n"
                             "ROOT b = f32[10, 20] broadcast(p0), dimensions={0}"));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("dimension 0 is 10, expected 20"), std::string::npos)
      << error->message();
  error =
      validationError(module("p0 = f32[2, 3] parameter(0)\n"
                             "ROOT b = f32[3, 2, 4] broadcast(p0), dimensions={1, 1}"));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("dimension 1 repeated"), std::string::npos) << error->message();
}

// XLA checks a broadcast's dimensions for order only where asked; out of order they still
// transpose: result (i, j, k) reads operand (j, i).
TEST(BroadcastOp, DimensionsInAnyOrderTranspose) {
  Hlo hlo(module("p0 = f32[2, 3] parameter(0)\n"
                 "ROOT b = f32[3, 2, 4] broadcast(p0), dimensions={1, 0}"));
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]),
            readsRelation({3, 2, 4}, [](const Index& o) {
              return std::vector<Index>{{o[1], o[0]}};
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(TransposeOp, Spec004Maps) {
  Hlo hlo(
      module("p0 = f32[3, 12288, 6, 128] parameter(0)\n"
             "ROOT t = f32[3, 6, 128, 12288] transpose(p0), dimensions={0, 2, 3, 1}"));
  expectMap(outToIn(hlo.root()).entries[0],
            "(d0, d1, d2, d3) -> (d0, d3, d1, d2), domain: d0 in [0, 2], d1 in [0, 5],"
            " d2 in [0, 127], d3 in [0, 12287]");
  expectMap(inToOut(hlo.root(), 0).entries[0],
            "(d0, d1, d2, d3) -> (d0, d2, d3, d1), domain: d0 in [0, 2], d1 in [0, 12287],"
            " d2 in [0, 5], d3 in [0, 127]");
}

TEST(TransposeOp, AgreesWithDirectEvaluation) {
  Hlo hlo(
      module("p0 = f32[2, 3, 4] parameter(0)\n"
             "ROOT t = f32[4, 2, 3] transpose(p0), dimensions={2, 0, 1}"));
  // result[i0, i1, i2] = operand[j] with j[perm[k]] = i[k].
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]),
            readsRelation({4, 2, 3}, [](const Index& o) {
              Index in(3);
              const int perm[] = {2, 0, 1};
              for (int k = 0; k < 3; ++k) in[perm[k]] = o[k];
              return std::vector<Index>{in};
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(TransposeOp, RejectsNonPermutation) {
  auto error =
      validationError(module("p0 = f32[2, 3] parameter(0)\n"
                             "ROOT t = f32[2, 3] transpose(p0), dimensions={1, 1}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "dimensions={1, 1}: is not a permutation of [0, 2)");
  EXPECT_EQ(error->location().line, 4);
}

TEST(ReverseOp, Spec004Maps) {
  Hlo hlo(
      module("p0 = f32[1, 17, 9, 9] parameter(0)\n"
             "ROOT r = f32[1, 17, 9, 9] reverse(p0), dimensions={1, 2}"));
  const char* expected =
      "(d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3), domain: d0 in [0, 0], d1 in [0, 16],"
      " d2 in [0, 8], d3 in [0, 8]";
  expectMap(outToIn(hlo.root()).entries[0], expected);
  expectMap(inToOut(hlo.root(), 0).entries[0], expected);
}

TEST(ReverseOp, AgreesWithDirectEvaluation) {
  Hlo hlo(
      module("p0 = f32[3, 4] parameter(0)\n"
             "ROOT r = f32[3, 4] reverse(p0), dimensions={1}"));
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]), readsRelation({3, 4}, [](const Index& o) {
              return std::vector<Index>{{o[0], 3 - o[1]}};
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(ReverseOp, DynamicDimensionReversesWithinItsRuntimeSize) {
  Hlo hlo(
      module("p0 = f32[<=4] parameter(0)\n"
             "ROOT r = f32[<=4] reverse(p0), dimensions={0}"));
  expectMap(outToIn(hlo.root()).entries[0],
            "(d0){rt0} -> (rt0 - d0 - 1), domain: d0 in [0, 3], rt0 in [0, 4], rt0 - d0 in [1, 4]");
}

TEST(SliceOp, Spec004Maps) {
  Hlo hlo(
      module("p0 = f32[10, 20, 50] parameter(0)\n"
             "ROOT s = f32[5, 3, 25] slice(p0), slice={[5:10:1], [3:20:7], [0:50:2]}"));
  expectMap(outToIn(hlo.root()).entries[0],
            "(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2), domain: d0 in [0, 4], d1 in [0, 2],"
            " d2 in [0, 24]");
  expectMap(inToOut(hlo.root(), 0).entries[0],
            "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2), domain:"
            " d0 in [5, 9], d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0],"
            " d2 mod 2 in [0, 0]");
}

TEST(SliceOp, AgreesWithDirectEvaluation) {
  Hlo hlo(
      module("p0 = f32[7, 5] parameter(0)\n"
             "ROOT s = f32[3, 4] slice(p0), slice={[1:7:2], [1:5]}"));
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]), readsRelation({3, 4}, [](const Index& o) {
              return std::vector<Index>{{1 + 2 * o[0], 1 + o[1]}};
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(SliceOp, Validation) {
  auto error =
      validationError(module("p0 = f32[10] parameter(0)\n"
                             "ROOT s = f32[5] slice(p0), slice={[5:11]}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "slice={[5:11]}: [5:11] is out of bounds for dimension 0 of size 10");
  error =
      validationError(module("p0 = f32[10] parameter(0)\n"
                             "ROOT s = f32[5] slice(p0), slice={[0:10:0]}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "slice={[0:10:0]}: stride must be positive");
  EXPECT_EQ(error->location().column, 41);  // at the stride
  error =
      validationError(module("p0 = f32[10] parameter(0)\n"
                             "ROOT s = f32[4] slice(p0), slice={[0:10:2]}"));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("dimension 0 is 4, expected 5"), std::string::npos);
}

const char* kConcat = R"(HloModule m
ENTRY e {
  p0 = f32[2, 5, 7] parameter(0)
  p1 = f32[2, 11, 7] parameter(1)
  p2 = f32[2, 17, 7] parameter(2)
  ROOT concat = f32[2, 33, 7] concatenate(
    f32[2, 5, 7] p0, f32[2, 11, 7] p1, f32[2, 17, 7] p2), dimensions={1}
})";

TEST(ConcatenateOp, XlaMaps) {
  Hlo hlo(kConcat);
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 1], d1 in [0, 4], d2 in [0, 6]");
  expectMap(out.entries[1],
            "(d0, d1, d2) -> (d0, d1 - 5, d2), domain: d0 in [0, 1],"
            " d1 in [5, 15], d2 in [0, 6]");
  expectMap(out.entries[2],
            "(d0, d1, d2) -> (d0, d1 - 16, d2), domain: d0 in [0, 1],"
            " d1 in [16, 32], d2 in [0, 6]");
  expectMap(inToOut(hlo.root(), 1).entries[0],
            "(d0, d1, d2) -> (d0, d1 + 5, d2), domain: d0 in [0, 1], d1 in [0, 10], d2 in [0, 6]");
}

TEST(ConcatenateOp, AgreesWithDirectEvaluation) {
  Hlo hlo(
      module("p0 = f32[2, 1] parameter(0)\n p1 = f32[2, 3] parameter(1)\n"
             "ROOT c = f32[2, 4] concatenate(p0, p1), dimensions={1}"));
  InstructionIndexing out = outToIn(hlo.root());
  // Each result element comes from exactly one operand.
  EXPECT_EQ(relationOf(out.entries[0]), readsRelation({2, 4}, [](const Index& o) {
              return o[1] < 1 ? std::vector<Index>{o} : std::vector<Index>{};
            }));
  EXPECT_EQ(relationOf(out.entries[1]), readsRelation({2, 4}, [](const Index& o) {
              return o[1] >= 1 ? std::vector<Index>{{o[0], o[1] - 1}} : std::vector<Index>{};
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(ConcatenateOp, Validation) {
  auto error =
      validationError(module("p0 = f32[2, 1] parameter(0)\n p1 = f32[3, 3] parameter(1)\n"
                             "ROOT c = f32[2, 4] concatenate(p0, p1), dimensions={1}"));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("differs from operand 0 f32[2,1] in dimension 0"),
            std::string::npos)
      << error->message();
}

TEST(CopyAndTupleOps, AreIdentities) {
  Hlo hlo(
      module("p0 = f32[2, 3]{0,1} parameter(0)\n p1 = s32[4] parameter(1)\n"
             "c = f32[2, 3]{1,0} copy(p0)\n t = (f32[2, 3], s32[4]) tuple(c, p1)\n"
             "ROOT g = s32[4] get-tuple-element(t), index=1"));
  expectMap(outToIn(hlo["c"]).entries[0],
            "(d0, d1) -> (d0, d1), domain: d0 in [0, 1], d1 in [0, 2]");
  InstructionIndexing tuple = outToIn(hlo["t"], 1);
  ASSERT_EQ(tuple.entries[0].maps.size(), 1u);  // result 1 does not read operand 0
  EXPECT_TRUE(tuple.entries[0].maps[0].knownEmpty);
  expectMap(tuple.entries[1], "(d0) -> (d0), domain: d0 in [0, 3]");
  expectMap(outToIn(hlo.root()).entries[0], "(d0) -> (d0), domain: d0 in [0, 3]");
  expectInputToOutputInvertsOutputToInput(hlo["t"]);
  auto error =
      validationError(module("p0 = f32[2] parameter(0)\n t = (f32[2]) tuple(p0)\n"
                             "ROOT g = f32[2] get-tuple-element(t), index=1"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "index=1: is out of range for a tuple of 1 elements");
}

TEST(ConstantAndIotaOps, HaveNoOperands) {
  Hlo hlo(module("c = f32[] constant(1)\n ROOT i = s32[4, 2] iota(), iota_dimension=1"));
  EXPECT_TRUE(outToIn(hlo.root()).entries.empty());
  EXPECT_TRUE(outToIn(hlo["c"]).entries.empty());
  auto error = validationError(module("ROOT i = s32[4, 2] iota(), iota_dimension=2"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "iota_dimension=2: is not a dimension of s32[4,2]");
}

}  // namespace
}  // namespace idxmap::optest
