#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

const char* kAdd = R"(HloModule m
ENTRY e {
  p0 = f32[10, 20] parameter(0)
  p1 = f32[10, 20] parameter(1)
  ROOT add0 = f32[10, 20] add(p0, p1)
})";

TEST(ElementwiseOp, Spec004AddMapsAreIdentities) {
  Hlo hlo(kAdd);
  InstructionIndexing out = outToIn(hlo.root());
  ASSERT_EQ(out.entries.size(), 2u);
  for (const OperandIndexing& entry : out.entries)
    expectMap(entry, "(d0, d1) -> (d0, d1), domain: d0 in [0, 9], d1 in [0, 19]");
  InstructionIndexing in = inToOut(hlo.root(), 1);
  ASSERT_EQ(in.entries.size(), 1u);
  expectMap(in.entries[0], "(d0, d1) -> (d0, d1), domain: d0 in [0, 9], d1 in [0, 19]");
}

TEST(ElementwiseOp, ClampReadsScalarBoundsEverywhere) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  lo = f32[] parameter(0)
  x = f32[3, 4] parameter(1)
  hi = f32[] parameter(2)
  ROOT c = f32[3, 4] clamp(lo, x, hi)
})");
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0], "(d0, d1) -> (), domain: d0 in [0, 2], d1 in [0, 3]");
  expectMap(out.entries[1], "(d0, d1) -> (d0, d1), domain: d0 in [0, 2], d1 in [0, 3]");
  expectMap(inToOut(hlo.root(), 2).entries[0],
            "()[s0, s1] -> (s0, s1), domain: s0 in [0, 2], s1 in [0, 3]");
  // Brute force: result (i, j) reads x at (i, j) and each scalar bound once.
  EXPECT_EQ(relationOf(out.entries[1]),
            readsRelation({3, 4}, [](const Index& i) { return std::vector<Index>{i}; }));
  EXPECT_EQ(relationOf(out.entries[2]),
            readsRelation({3, 4}, [](const Index&) { return std::vector<Index>{{}}; }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(ElementwiseOp, MapAndCompareAndSelectAreElementwise) {
  Hlo hlo(R"(HloModule m
mapper {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT add = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[2, 3] parameter(0)
  p1 = f32[2, 3] parameter(1)
  m = f32[2, 3] map(p0, p1), dimensions={}, to_apply=mapper
  c = pred[2, 3] compare(p0, m), direction=GE
  ROOT s = f32[2, 3] select(c, p0, p1)
})");
  for (const char* name : {"m", "c", "s"}) {
    const hlo::Instruction& op = hlo[name];
    InstructionIndexing out = outToIn(op);
    for (const OperandIndexing& entry : out.entries)
      expectMap(entry, "(d0, d1) -> (d0, d1), domain: d0 in [0, 1], d1 in [0, 2]");
    expectInputToOutputInvertsOutputToInput(op);
  }
}

TEST(ElementwiseOp, BoundedDimensionBecomesRuntimeVariable) {
  // spec 002: a `<=4` dimension is a runtime size rt in [0, 4] with the index below it.
  Hlo hlo(R"(HloModule m
ENTRY e {
  p0 = f32[<=4, 3] parameter(0)
  ROOT n = f32[<=4, 3] negate(p0)
})");
  expectMap(outToIn(hlo.root()).entries[0],
            "(d0, d1){rt0} -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 2], rt0 in [0, 4],"
            " rt0 - d0 in [1, 4]");
}

// XLA's operation semantics: abs of a complex number is its magnitude, a real of the
// component type (c64 -> f32, c128 -> f64); of a real or an integer, the same type.
TEST(ElementwiseOp, AbsOfAComplexOperandIsReal) {
  for (const char* types : {"c64 f32", "c128 f64", "f32 f32", "s32 s32"}) {
    std::string operand(types, std::string(types).find(' ')),
        result = std::string(types).substr(operand.size() + 1);
    Hlo hlo("HloModule m\nENTRY e {\n  p0 = " + operand + "[4] parameter(0)\n  ROOT a = " +
            result + "[4] abs(p0)\n}");
    expectMap(outToIn(hlo.root()).entries.at(0), "(d0) -> (d0), domain: d0 in [0, 3]");
  }
  auto error = validationError(R"(HloModule m
ENTRY e {
  p0 = c64[4] parameter(0)
  ROOT a = c64[4] abs(p0)
})");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("has element type c64, expected f32"), std::string::npos)
      << error->message();
}

TEST(ElementwiseOp, ValidationNamesWhatIsWrong) {
  auto error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[10, 20] parameter(0)
  p1 = f32[10, 21] parameter(1)
  ROOT add0 = f32[10, 20] add(p0, p1)
})");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("operand 1 f32[10,21] does not match operand 0"),
            std::string::npos)
      << error->message();
  EXPECT_EQ(error->location().line, 5);

  error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[10] parameter(0)
  ROOT add0 = f32[10] add(p0)
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "add: expects 2 operands, got 1");

  error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[10] parameter(0)
  ROOT c = f32[10] compare(p0, p0), direction=GE
})");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("has element type f32, expected pred"), std::string::npos)
      << error->message();

  error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[10] parameter(0)
  ROOT c = pred[10] compare(p0, p0), direction=GX
})");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("direction=GX"), std::string::npos) << error->message();
}

TEST(ElementwiseOp, BoundedOperandsRefineTheResult) {
  // spec 002: <=3 with 2 gives 2; a declared result of 2 is accepted.
  EXPECT_FALSE(validationError(R"(HloModule m
ENTRY e {
  p0 = f32[<=3] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT a = f32[2] add(p0, p1)
})"));
  // <=3 with 4 is incompatible.
  auto error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[<=3] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT a = f32[4] add(p0, p1)
})");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("dimension 0 is 4, expected <=3"), std::string::npos)
      << error->message();
}

}  // namespace
}  // namespace idxmap::optest
