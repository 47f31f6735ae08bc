// pad, reduce-window and convolution: XLA's maps by meaning, and brute force against a direct
// evaluation of padding, dilation and windows.
#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

// The operand index a padded (low, interior) index holds, or -1 for padding.
int64_t unpad(int64_t padded, int64_t low, int64_t interior, int64_t size) {
  int64_t x = padded - low;
  if (x < 0 || x % (interior + 1) != 0 || x / (interior + 1) >= size) return -1;
  return x / (interior + 1);
}

TEST(PadOp, Spec004Maps) {
  Hlo hlo(R"(HloModule m
ENTRY e {
  p0 = f32[4, 4] parameter(0)
  p1 = f32[] parameter(1)
  ROOT pad = f32[12, 16] pad(p0, p1), padding=1_4_1x4_8_0
})");
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4), domain: d0 in [1, 7], d1 in [4, 7],"
            " (d0 - 1) mod 2 in [0, 0]");
  expectMap(out.entries[1], "(d0, d1) -> (), domain: d0 in [0, 11], d1 in [0, 15]");
}

TEST(PadOp, NegativePaddingAgreesWithDirectEvaluation) {
  // Dim 0: -2 + 1 + 5 + 4 * 2 = 12; dim 1: 1 - 1 + 3 + 2 * 1 = 5.
  auto error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[5, 3] parameter(0)
  p1 = f32[] parameter(1)
  ROOT pad = f32[7, 5] pad(p0, p1), padding=-2_1_2x1_-1_1
})");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("dimension 0 is 7, expected 12"), std::string::npos);
  Hlo ok(R"(HloModule m
ENTRY e {
  p0 = f32[5, 3] parameter(0)
  p1 = f32[] parameter(1)
  ROOT pad = f32[12, 5] pad(p0, p1), padding=-2_1_2x1_-1_1
})");
  EXPECT_EQ(relationOf(outToIn(ok.root()).entries[0]), readsRelation({12, 5}, [](const Index& o) {
              int64_t i = unpad(o[0], -2, 2, 5), j = unpad(o[1], 1, 1, 3);
              return i < 0 || j < 0 ? std::vector<Index>{} : std::vector<Index>{{i, j}};
            }));
  expectInputToOutputInvertsOutputToInput(ok.root());
}

TEST(PadOp, Validation) {
  auto error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[] parameter(1)
  ROOT pad = f32[4] pad(p0, p1), padding=0_0_-1
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "padding=0_0_-1: interior padding must not be negative");
  error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[] parameter(1)
  ROOT pad = f32[4] pad(p0, p1), padding=0_0x1_1
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "padding=0_0x1_1: has 2 dimensions, operand has 1");
}

TEST(ReduceWindowOp, XlaMaps) {
  Hlo hlo(R"(HloModule m
max {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT max = f32[] maximum(p0, p1)
}
ENTRY e {
  c_inf = f32[] constant(-inf)
  p0 = f32[1024, 514, 1, 1]parameter(0)
  ROOT reduce-window = f32[1024, 3, 1, 1] reduce-window(p0, c_inf),
    window={size=1x512x1x1 pad=0_0x0_0x0_0x0_0}, to_apply=max
})");
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1, d2, d3)[s0] -> (d0, d1 + s0, 0, 0), domain: d0 in [0, 1023],"
            " d1 in [0, 2], d2 in [0, 0], d3 in [0, 0], s0 in [0, 511]");
  expectMap(out.entries[1],
            "(d0, d1, d2, d3) -> (), domain: d0 in [0, 1023], d1 in [0, 2],"
            " d2 in [0, 0], d3 in [0, 0]");
}

TEST(ReduceWindowOp, AgreesWithDirectEvaluation) {
  Hlo hlo(R"(HloModule m
add {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT s = f32[] add(p0, p1)
}
ENTRY e {
  c = f32[] constant(0)
  p0 = f32[5, 4] parameter(0)
  ROOT rw = f32[4, 1] reduce-window(p0, c),
    window={size=2x3 stride=3x1 pad=1_2x0_1 lhs_dilate=2x1 rhs_dilate=1x2}, to_apply=add
})");
  // Window position (i, j), offset (a, b): padded index (3i + a, j + 2b); dim 0 has low 1 and
  // base dilation 2 (interior 1), dim 1 low 0.
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]), readsRelation({4, 1}, [](const Index& o) {
              std::vector<Index> reads;
              for (int64_t a = 0; a < 2; ++a)
                for (int64_t b = 0; b < 3; ++b) {
                  int64_t x = unpad(3 * o[0] + a, 1, 1, 5), y = unpad(o[1] + 2 * b, 0, 0, 4);
                  if (x >= 0 && y >= 0) reads.push_back({x, y});
                }
              return reads;
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(ConvolutionOp, XlaMaps) {
  Hlo lhsDilation(R"(HloModule m
ENTRY e {
  p0 = f32[1,12,10,4] parameter(0)
  p1 = f32[4,3,5,8] parameter(1)
  ROOT conv = f32[1,21,15,8] convolution(p0, p1),
    window={size=3x5 pad=0_0x0_0 lhs_dilate=2x2}, dim_labels=b01f_i01o->b01f
})");
  InstructionIndexing out = outToIn(lhsDilation.root());
  expectMap(out.entries[0],
            "(d0, d1, d2, d3)[s0, s1, s2] -> (0, (d1 + s0) floordiv 2, (d2 + s1) floordiv 2, s2),"
            " domain: d0 in [0, 0], d1 in [0, 20], d2 in [0, 14], d3 in [0, 7], s0 in [0, 2],"
            " s1 in [0, 4], s2 in [0, 3], (d1 + s0) mod 2 in [0, 0], (d2 + s1) mod 2 in [0, 0]");
  expectMap(
      out.entries[1],
      "(d0, d1, d2, d3)[s0, s1, s2] -> (s2, s0, s1, d3), domain: d0 in [0, 0],"
      " d1 in [0, 20], d2 in [0, 14], d3 in [0, 7], s0 in [0, 2], s1 in [0, 4], s2 in [0, 3]");

  Hlo featureGroups(R"(HloModule m
ENTRY e {
  p0 = f32[1,12,10,24] parameter(0)
  p1 = f32[4,3,5,48] parameter(1)
  ROOT conv = f32[1,10,6,48] convolution(p0, p1),
    window={size=3x5 pad=0_0x0_0}, dim_labels=b01f_i01o->b01f, feature_group_count=6
})");
  expectMap(outToIn(featureGroups.root()).entries[0],
            "(d0, d1, d2, d3)[s0, s1, s2] -> (0, d1 + s0, d2 + s1, (d3 floordiv 8) * 4 + s2),"
            " domain: d0 in [0, 0], d1 in [0, 9], d2 in [0, 5], d3 in [0, 47], s0 in [0, 2],"
            " s1 in [0, 4], s2 in [0, 3]");

  Hlo batchGroups(R"(HloModule m
ENTRY e {
  p0 = f32[14,12,10,4] parameter(0)
  p1 = f32[4,3,5,21] parameter(1)
  ROOT conv = f32[2,10,6,21] convolution(p0, p1),
    window={size=3x5 pad=0_0x0_0}, dim_labels=b01f_i01o->b01f, batch_group_count=7
})");
  expectMap(outToIn(batchGroups.root()).entries[0],
            "(d0, d1, d2, d3)[s0, s1, s2, s3] -> (s3 * 2 + d0, d1 + s0, d2 + s1, s2), domain:"
            " d0 in [0, 1], d1 in [0, 9], d2 in [0, 5], d3 in [0, 20], s0 in [0, 2],"
            " s1 in [0, 4], s2 in [0, 3], s3 in [0, 6]");
}

TEST(ConvolutionOp, AgreesWithDirectEvaluation) {
  // Input f01b, kernel o01i, output 0bf1; stride, padding, both dilations, 2 feature groups.
  Hlo hlo(R"(HloModule m
ENTRY e {
  x = f32[4, 5, 3, 1] parameter(0)
  k = f32[4, 2, 2, 2] parameter(1)
  ROOT conv = f32[2, 1, 4, 5] convolution(x, k),
    window={size=2x2 stride=2x1 pad=1_0x0_1 lhs_dilate=1x2 rhs_dilate=2x1},
    dim_labels=f01b_o01i->0bf1, feature_group_count=2
})");
  InstructionIndexing out = outToIn(hlo.root());
  // out[o0, b, f, o1]: for kernel offsets (a, c) and input feature g in the group of f.
  EXPECT_EQ(relationOf(out.entries[0]), readsRelation({2, 1, 4, 5}, [](const Index& o) {
              std::vector<Index> reads;
              for (int64_t a = 0; a < 2; ++a)
                for (int64_t c = 0; c < 2; ++c)
                  for (int64_t g = 0; g < 2; ++g) {
                    int64_t s0 = unpad(o[0] * 2 + a * 2, 1, 0, 5);
                    int64_t s1 = unpad(o[3] + c, 0, 1, 3);
                    if (s0 >= 0 && s1 >= 0) reads.push_back({(o[2] / 2) * 2 + g, s0, s1, o[1]});
                  }
              return reads;
            }));
  EXPECT_EQ(relationOf(out.entries[1]), readsRelation({2, 1, 4, 5}, [](const Index& o) {
              std::vector<Index> reads;
              for (int64_t a = 0; a < 2; ++a)
                for (int64_t c = 0; c < 2; ++c)
                  for (int64_t g = 0; g < 2; ++g) reads.push_back({o[2], a, c, g});
              return reads;
            }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(ConvolutionOp, Validation) {
  auto error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[1,12,10,4] parameter(0)
  p1 = f32[4,3,5,8] parameter(1)
  ROOT conv = f32[1,10,6,8] convolution(p0, p1), window={size=3x5}, dim_labels=b01f_i01x->b01f
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "dim_labels=b01f_i01x->b01f: unexpected label 'x'; expected one of io or a digit");
  EXPECT_EQ(error->location().column, 88);  // at the 'x'
  error = validationError(R"(HloModule m
ENTRY e {
  p0 = f32[1,12,10,4] parameter(0)
  p1 = f32[4,3,5,8] parameter(1)
  ROOT conv = f32[1,10,6,8] convolution(p0, p1), window={size=3x4}, dim_labels=b01f_i01o->b01f
})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "convolution: window size 4 of spatial dimension 1 differs from the kernel's 5");
}

}  // namespace
}  // namespace idxmap::optest
