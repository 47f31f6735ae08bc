// HLO elementwise opcodes beyond the random fusions' (hlo_kernels_test): the inverse and
// hyperbolic functions newer XLA has as opcodes, and bitcast-convert between types of one
// width, each as entry kernels on both targets against the reference evaluator.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"

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

// reduce-precision (XLA's bit recipe in the kernel, arithmetic in the reference): values
// scaled toward both ends of the range, rounded to fewer mantissa bits (ties to even, carries
// into the exponent, denormals at their fixed exponent), squeezed into fewer exponent bits
// (overflow to infinity, underflow and denormals to zero), NaN kept or, with no mantissa bits,
// made infinite; f16 and bf16 on their own 16 bits.
TEST_P(HloElementTargets, ReducePrecisionAgreesWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule reduce_precision
narrowed {
  x = f32[4,6] parameter(0)
  k = f32[] constant(1.1)
  kb = f32[4,6] broadcast(k), dimensions={}
  y = f32[4,6] multiply(x, kb)
  huge = f32[] constant(9e37)
  hb = f32[4,6] broadcast(huge), dimensions={}
  h = f32[4,6] multiply(y, hb)
  tiny = f32[] constant(1e-39)
  tb = f32[4,6] broadcast(tiny), dimensions={}
  t = f32[4,6] multiply(y, tb)
  bf = f32[4,6] reduce-precision(y), exponent_bits=8, mantissa_bits=7
  half = f32[4,6] reduce-precision(h), exponent_bits=5, mantissa_bits=10
  carry = f32[4,6] reduce-precision(h), exponent_bits=8, mantissa_bits=1
  denormal = f32[4,6] reduce-precision(t), exponent_bits=8, mantissa_bits=3
  flushed = f32[4,6] reduce-precision(t), exponent_bits=4, mantissa_bits=3
  none = f32[4,6] reduce-precision(y), exponent_bits=2, mantissa_bits=0
  ROOT r = (f32[4,6], f32[4,6], f32[4,6], f32[4,6], f32[4,6], f32[4,6]) tuple(bf, half, carry, denormal, flushed, none)
}
doubles {
  x = f64[3,5] parameter(0)
  k = f64[] constant(1.1)
  kb = f64[3,5] broadcast(k), dimensions={}
  y = f64[3,5] multiply(x, kb)
  tiny = f64[] constant(1e-310)
  tb = f64[3,5] broadcast(tiny), dimensions={}
  t = f64[3,5] multiply(y, tb)
  single = f64[3,5] reduce-precision(y), exponent_bits=8, mantissa_bits=23
  denormal = f64[3,5] reduce-precision(t), exponent_bits=11, mantissa_bits=4
  flushed = f64[3,5] reduce-precision(t), exponent_bits=8, mantissa_bits=4
  ROOT r = (f64[3,5], f64[3,5], f64[3,5]) tuple(single, denormal, flushed)
}
halves {
  x = f16[4,5] parameter(0)
  k = f16[] constant(1.1)
  kb = f16[4,5] broadcast(k), dimensions={}
  y = f16[4,5] multiply(x, kb)
  tiny = f16[] constant(1e-5)
  tb = f16[4,5] broadcast(tiny), dimensions={}
  t = f16[4,5] multiply(y, tb)
  few = f16[4,5] reduce-precision(y), exponent_bits=5, mantissa_bits=2
  denormal = f16[4,5] reduce-precision(t), exponent_bits=5, mantissa_bits=1
  flushed = f16[4,5] reduce-precision(t), exponent_bits=3, mantissa_bits=4
  ROOT r = (f16[4,5], f16[4,5], f16[4,5]) tuple(few, denormal, flushed)
}
brains {
  x = bf16[4,5] parameter(0)
  k = bf16[] constant(1.1)
  kb = bf16[4,5] broadcast(k), dimensions={}
  y = bf16[4,5] multiply(x, kb)
  huge = bf16[] constant(1e38)
  hb = bf16[4,5] broadcast(huge), dimensions={}
  h = bf16[4,5] multiply(y, hb)
  tiny = bf16[] constant(1e-39)
  tb = bf16[4,5] broadcast(tiny), dimensions={}
  t = bf16[4,5] multiply(y, tb)
  carry = bf16[4,5] reduce-precision(h), exponent_bits=8, mantissa_bits=0
  denormal = bf16[4,5] reduce-precision(t), exponent_bits=8, mantissa_bits=2
  half = bf16[4,5] reduce-precision(h), exponent_bits=5, mantissa_bits=7
  ROOT r = (bf16[4,5], bf16[4,5], bf16[4,5]) tuple(carry, denormal, half)
}
ENTRY e {
  a = f32[4,6] parameter(0)
  narrow = (f32[4,6], f32[4,6], f32[4,6], f32[4,6], f32[4,6], f32[4,6]) fusion(a), kind=kLoop, calls=narrowed
  b = f64[3,5] parameter(1)
  wide = (f64[3,5], f64[3,5], f64[3,5]) fusion(b), kind=kLoop, calls=doubles
  c = f32[7] parameter(2)
  plain = f32[7] reduce-precision(c), exponent_bits=5, mantissa_bits=2
  h = f16[4,5] parameter(3)
  halves = (f16[4,5], f16[4,5], f16[4,5]) fusion(h), kind=kLoop, calls=halves
  g = bf16[4,5] parameter(4)
  brains = (bf16[4,5], bf16[4,5], bf16[4,5]) fusion(g), kind=kLoop, calls=brains
  ROOT t = (f32[7]) tuple(plain)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "precision.hlo"));
  std::vector<Case> cases = entryCases(*module, {"fusion", "reduce-precision"}, "precision_", cuda);
  ASSERT_EQ(cases.size(), 5u);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 4, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "reduce-precision");
}

// Emitted code compiles in a user's -Wall -Wextra -Werror build: an input no result reads is an
// unnamed parameter (of the C++ entry, of the CUDA kernel), and the kernels
// compile with unused parameters and variables made errors (testJitOptions) and agree with the
// reference. The control: those flags do refuse an unused parameter and an unused variable.
TEST_P(HloElementTargets, AnInputNoResultReadsIsUnnamed) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule unused
twice {
  a = f32[4,3] parameter(0)
  b = f32[4,3] parameter(1)
  ROOT s = f32[4,3] add(b, b)
}
ENTRY e {
  p0 = f32[4,3] parameter(0)
  p1 = f32[4,3] parameter(1)
  ROOT f = f32[4,3] fusion(p0, p1), kind=kLoop, calls=twice
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "unused.hlo"));
  std::vector<Case> cases = entryCases(*module, {"fusion"}, "unused_", cuda);
  ASSERT_EQ(cases.size(), 1u);
  const std::string& printed = cases[0].kernel.printed.text;
  // C++: the entry's parameter; CUDA: the kernel's (its launches pass every buffer).
  const std::string unnamed =
      cuda ? "const float* __restrict__ /*in0*/, const float* __restrict__ in1"
           : "const float* __restrict /*in0*/, int64_t in0_elements";
  EXPECT_NE(printed.find(unnamed), std::string::npos) << printed;
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 2, true, onTheGpu(cuda));
  if (onTheGpu(cuda)) return;
  for (const char* unused :
       {"extern \"C\" int idxmap_unused_parameter(int x) { return 0; }\n",
        "extern \"C\" int idxmap_unused_variable() { int x = 1; return 0; }\n"})
    EXPECT_THROW(compileAndLoad(unused, testJitOptions()), JitError) << unused;
}

INSTANTIATE_TEST_SUITE_P(Targets, HloElementTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
