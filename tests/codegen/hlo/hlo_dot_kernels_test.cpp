// HLO dot as a kernel stage (issue 32, item 6): each output element a loop over the contracting
// dims, against the reference evaluator's dot (hlo_reference_dot.h, from XLA's semantics with
// no indexing map), bit for bit, on both targets: matrix products, batch dims, several
// contracting dims in any order, an outer product, a scalar result, no contracting positions,
// f16 / bf16 / f64 / integer results (an s8 product into s32), and a fusion that reads a dot;
// and convolutions (strides, padding, dilations, reversal, feature groups).
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"

namespace idxmap::codegen {
namespace hlo_kernel_tests {

class HloDotTargets : public ::testing::TestWithParam<bool> {};

TEST_P(HloDotTargets, DotsAgreeWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule dots
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
epilogue {
  x = f32[3,4] parameter(0)
  y = f32[4,5] parameter(1)
  z = f32[3,5] parameter(2)
  d = f32[3,5] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT s = f32[3,5] add(d, z)
}
rowsum {
  x = f32[3,4] parameter(0)
  y = f32[4,5] parameter(1)
  d = f32[3,5] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  c = f32[] constant(0)
  ROOT r = f32[3] reduce(d, c), dimensions={1}, to_apply=add
}
ENTRY e {
  m0 = f32[3,4] parameter(0)
  m1 = f32[4,5] parameter(1)
  matmul = f32[3,5] dot(m0, m1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  b0 = f32[2,3,4,5] parameter(2)
  b1 = f32[2,5,4,6] parameter(3)
  batched = f32[2,3,6] dot(b0, b1), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={3,2}, rhs_contracting_dims={1,2}
  v0 = f32[3] parameter(4)
  v1 = f32[4] parameter(5)
  outer = f32[3,4] dot(v0, v1)
  w0 = f32[7] parameter(6)
  inner = f32[] dot(w0, w0), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  h0 = bf16[2,8] parameter(7)
  h1 = bf16[8,3] parameter(8)
  bf = bf16[2,3] dot(h0, h1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  g0 = f16[4,6] parameter(9)
  wide = f32[6,6] dot(g0, g0), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  i0 = s8[3,5] parameter(10)
  i1 = s8[5,2] parameter(11)
  ints = s32[3,2] dot(i0, i1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  f0 = f64[2,3] parameter(12)
  doubles = f64[3,3] dot(f0, f0), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  e0 = f32[3,0] parameter(13)
  e1 = f32[0,2] parameter(14)
  nothing = f32[3,2] dot(e0, e1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  z = f32[3,5] parameter(15)
  fused = f32[3,5] fusion(m0, m1, z), kind=kOutput, calls=epilogue
  reduced = f32[3] fusion(m0, m1), kind=kOutput, calls=rowsum
  ROOT t = (f32[3,5], f32[2,3,6], f32[3,4], f32[], bf16[2,3], f32[6,6], s32[3,2], f64[3,3], f32[3,2], f32[3,5], f32[3]) tuple(matmul, batched, outer, inner, bf, wide, ints, doubles, nothing, fused, reduced)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "dots.hlo"));
  std::vector<Case> cases = entryCases(*module, {}, "dot_", cuda);
  ASSERT_EQ(cases.size(), 11u);
  // A dot that nothing else reads is computed straight into its output; one that the fusion's
  // root reads is a stage of its own.
  EXPECT_EQ(cases[0].kernel.printed.text.find("std::vector<float> t0"), std::string::npos)
      << cases[0].kernel.printed.text;
  EXPECT_NE(cases[9].kernel.printed.text.find("stage t0 = d (dot)"), std::string::npos)
      << cases[9].kernel.printed.text;
  // CUDA: a stage's temporary is a region of the caller's workspace; SYMBOL_launch_in allocates
  // nothing and waits for nothing (SYMBOL_launch runs it with a workspace of its own).
  if (cuda)
    for (const Case& c : cases) {
      const std::string& text = c.kernel.printed.text;
      const size_t at = text.find("int " + c.kernel.symbol + "_launch_in(");
      ASSERT_NE(at, std::string::npos) << text;
      const std::string body = text.substr(at, text.find("\n}\n", at) - at);
      for (const char* call : {"cudaMalloc", "cudaFree", "Synchronize"})
        EXPECT_EQ(body.find(call), std::string::npos) << call << " in\n" << body;
    }
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 4, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "dots");
}

// Convolutions as the same stage: the window's positions and the group's input features are
// the loops, positions in padding or a base dilation hole skipped as XLA skips them.
TEST_P(HloDotTargets, ConvolutionsAgreeWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule convolutions
ENTRY e {
  image = f32[2,5,5,4] parameter(0)
  filters = f32[3,3,2,6] parameter(1)
  grouped = f32[2,3,3,6] convolution(image, filters), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=2
  signal = f16[1,3,7] parameter(2)
  taps = f16[3,3,2] parameter(3)
  dilated = f16[1,2,13] convolution(signal, taps), window={size=3 pad=2_2 lhs_dilate=2 rhs_dilate=2 rhs_reversal=1}, dim_labels=bf0_0io->bf0
  counts = s8[1,6,6,1] parameter(4)
  weights = s8[2,2,1,3] parameter(5)
  sums = s32[1,5,5,3] convolution(counts, weights), window={size=2x2}, dim_labels=b01f_01io->b01f
  wide = f64[3,4,2] parameter(6)
  kernel = f64[2,2,5] parameter(7)
  strided = f64[3,2,5] convolution(wide, kernel), window={size=2 stride=3 pad=0_1}, dim_labels=b0f_0io->b0f
  ROOT t = (f32[2,3,3,6], f16[1,2,13], s32[1,5,5,3], f64[3,2,5]) tuple(grouped, dilated, sums, strided)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "convolutions.hlo"));
  std::vector<Case> cases = entryCases(*module, {"convolution"}, "conv_", cuda);
  ASSERT_EQ(cases.size(), 4u);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 4, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "convolutions");
}

// XLA's GPU compiler's cuBLAS calls that compute a dot (alpha 1, beta 0, no epilogue), read as
// that dot: the quoted JSON of older dumps and the plain JSON of newer ones, batch and
// contracting dims from the config, mixed operand types; against the reference's dot.
TEST_P(HloDotTargets, CublasGemmCallsAreTheirDots) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule gemm
ENTRY e {
  a = f32[5,3]{1,0} parameter(0)
  b = f32[3,4]{1,0} parameter(1)
  g = f32[5,4]{1,0} custom-call(a, b), custom_call_target="__cublas$gemm", backend_config="{ \"gemm_backend_config\": {\"alpha_real\":1,\"beta\":0,\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],\"rhs_batch_dimensions\":[]},\"alpha_imag\":0,\"epilogue\":\"DEFAULT\"}}"
  x = bf16[2,3,6]{2,1,0} parameter(2)
  y = bf16[2,4,6]{2,1,0} parameter(3)
  h = f32[2,3,4]{2,1,0} custom-call(x, y), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"alpha_real":1,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":["2"],"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]},"alpha_imag":0}}
  ROOT t = (f32[5,4]{1,0}, f32[2,3,4]{2,1,0}) tuple(g, h)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "gemm.hlo"));
  std::vector<Case> cases = entryCases(*module, {"dot"}, "gemm_", cuda);
  ASSERT_EQ(cases.size(), 2u);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 3, true, onTheGpu(cuda));
}

INSTANTIATE_TEST_SUITE_P(Targets, HloDotTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
