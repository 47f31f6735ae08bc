#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

TEST(DotOp, Spec004Maps) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  p0 = f32[4, 128, 256] parameter(0)
  p1 = f32[4, 256, 64] parameter(1)
  ROOT dot = f32[4, 128, 64] dot(p0, p1), lhs_batch_dims={0}, rhs_batch_dims={0},
    lhs_contracting_dims={2}, rhs_contracting_dims={1}
})");
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1, d2)[s0] -> (d0, d1, s0), domain: d0 in [0, 3], d1 in [0, 127],"
            " d2 in [0, 63], s0 in [0, 255]");
  expectMap(out.entries[1],
            "(d0, d1, d2)[s0] -> (d0, s0, d2), domain: d0 in [0, 3], d1 in [0, 127],"
            " d2 in [0, 63], s0 in [0, 255]");
  expectMap(inToOut(hlo.root(), 0).entries[0],
            "(d0, d1, d2)[s0] -> (d0, d1, s0), domain: d0 in [0, 3], d1 in [0, 127],"
            " d2 in [0, 255], s0 in [0, 63]");
  expectMap(inToOut(hlo.root(), 1).entries[0],
            "(d0, d1, d2)[s0] -> (d0, s0, d2), domain: d0 in [0, 3], d1 in [0, 255],"
            " d2 in [0, 63], s0 in [0, 127]");
}

TEST(DotOp, AgreesWithDirectEvaluation) {
  // Contracting dims listed out of order, batch dim not leading on the rhs.
  Hlo hlo(R"(HloModule m
ENTRY e {
  a = f32[2, 3, 2, 4] parameter(0)
  b = f32[4, 2, 2, 3] parameter(1)
  ROOT dot = f32[2, 3, 3] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={2},
    lhs_contracting_dims={3, 2}, rhs_contracting_dims={0, 1}
})");
  InstructionIndexing out = outToIn(hlo.root());
  // out[b, m, n] = sum over (k0, k1) of a[b, m, k1, k0] * b[k0, k1, b, n].
  EXPECT_EQ(relationOf(out.entries[0]), readsRelation({2, 3, 3}, [](const Index& o) {
              std::vector<Index> reads;
              for (int64_t k0 = 0; k0 < 4; ++k0)
                for (int64_t k1 = 0; k1 < 2; ++k1) reads.push_back({o[0], o[1], k1, k0});
              return reads;
            }));
  EXPECT_EQ(relationOf(out.entries[1]), readsRelation({2, 3, 3}, [](const Index& o) {
              std::vector<Index> reads;
              for (int64_t k0 = 0; k0 < 4; ++k0)
                for (int64_t k1 = 0; k1 < 2; ++k1) reads.push_back({k0, k1, o[0], o[2]});
              return reads;
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(DotOp, Validation) {
  auto error = validationError(R"(HloModule m
ENTRY e {
  a = f32[2, 3] parameter(0)
  b = f32[4, 5] parameter(1)
  ROOT dot = f32[2, 5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "dot: contracting dims pair 0 has sizes 3 and 4");
  error = validationError(R"(HloModule m
ENTRY e {
  a = f32[2, 3] parameter(0)
  b = f32[3, 5] parameter(1)
  ROOT dot = f32[2, 5] dot(a, b), lhs_contracting_dims={2}, rhs_contracting_dims={0}
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "lhs_contracting_dims={2}: dimension 2 is out of range [0, 2)");
}

TEST(ScaledDotOp, XlaMapsAndBlockScales) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  a = f32[2,10] parameter(0)
  b = f32[10,2] parameter(1)
  a_scale = f32[2,2] parameter(2)
  b_scale = f32[2,2] parameter(3)
  ROOT dot = f32[2,2] scaled-dot(a, b, a_scale, b_scale),
    lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[2],
            "(d0, d1)[s0] -> (d0, s0 floordiv 5), domain: d0 in [0, 1],"
            " d1 in [0, 1], s0 in [0, 9]");
  expectMap(out.entries[3],
            "(d0, d1)[s0] -> (s0 floordiv 5, d1), domain: d0 in [0, 1],"
            " d1 in [0, 1], s0 in [0, 9]");
  // out[i, j] reads a_scale[i, k / 5] for every k in [0, 10).
  EXPECT_EQ(relationOf(out.entries[2]), readsRelation({2, 2}, [](const Index& o) {
              std::vector<Index> reads;
              for (int64_t k = 0; k < 10; ++k) reads.push_back({o[0], k / 5});
              return reads;
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

}  // namespace
}  // namespace idxmap::optest
