// HLO elementwise opcodes beyond the random fusions' (hlo_kernels_test): the inverse and
// hyperbolic functions newer XLA has as opcodes, and bitcast-convert between types of one
// width, each as entry kernels on both targets against the reference evaluator.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "codegen/hlo_kernel.h"
#include "tests/codegen/hlo_kernel_cases.h"

namespace idxmap::codegen {
namespace hlo_kernel_tests {

class HloElementTargets : public ::testing::TestWithParam<bool> {};

// The inverse and hyperbolic functions newer XLA has as opcodes, each on f32, f64 and bf16, as
// the host's libm computes them (CUDA's within a few ULP: usesDeviceMath).
TEST_P(HloElementTargets, InverseAndHyperbolicFunctionsAgreeWithTheReference) {
  const bool cuda = GetParam();
  std::string text = "HloModule math\nENTRY e {\n";
  std::vector<std::string> roots;
  for (const char* type : {"f32", "f64", "bf16"}) {
    const std::string p = std::string("p_") + type;
    text += "  " + p + " = " + type + "[2,5] parameter(" + std::to_string(roots.size() / 7) + ")\n";
    for (const char* op : {"sinh", "cosh", "asin", "acos", "asinh", "acosh", "atanh"}) {
      roots.push_back(std::string(op) + "_" + type);
      text += "  " + roots.back() + " = " + type + "[2,5] " + op + "(" + p + ")\n";
    }
  }
  text += "  ROOT t = (";
  for (size_t i = 0; i < roots.size(); ++i)
    text += std::string(i ? ", " : "") + roots[i].substr(roots[i].find('_') + 1) + "[2,5]";
  text += ") tuple(";
  for (size_t i = 0; i < roots.size(); ++i) text += (i ? ", " : "") + roots[i];
  text += ")\n}\n";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "math.hlo"));
  std::vector<Case> cases = entryCases(*module, {}, "math_", cuda);
  ASSERT_EQ(cases.size(), 21u);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 3, true, onTheGpu(cuda));
  // nvcc compiles them; libdevice's f64 functions may spill a few bytes of their own on sm_90,
  // so this file is not held to the no-spill check that index code is.
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) {
    std::vector<PrintedKernel> printed;
    for (const Case& c : cases) printed.push_back(c.kernel.printed);
    for (int arch : nvccArchitectures()) {
      NvccResult result = nvccCompile(cudaFile(printed), arch, "math");
      EXPECT_TRUE(result.compiled) << result.log;
    }
  }
}

// bitcast-convert between types of one width: the stored bits read as the other type, both
// ways between floats and integers of 16, 32 and 64 bits (NaN, -0 and infinities among them).
TEST_P(HloElementTargets, BitcastConvertsAgreeWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule bits
ENTRY e {
  a = f32[3,4] parameter(0)
  ai = s32[3,4] bitcast-convert(a)
  b = s32[3,4] parameter(1)
  bf = f32[3,4] bitcast-convert(b)
  c = f16[5] parameter(2)
  cu = u16[5] bitcast-convert(c)
  d = bf16[5] parameter(3)
  dh = f16[5] bitcast-convert(d)
  e = f64[2,2] parameter(4)
  eu = u64[2,2] bitcast-convert(e)
  ROOT t = (s32[3,4], f32[3,4], u16[5], f16[5], u64[2,2]) tuple(ai, bf, cu, dh, eu)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "bits.hlo"));
  std::vector<Case> cases = entryCases(*module, {"bitcast-convert"}, "bits_", cuda);
  ASSERT_EQ(cases.size(), 5u);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 3, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "bitcast-convert");
}

INSTANTIATE_TEST_SUITE_P(Targets, HloElementTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
