// HLO kernels on complex values (c64, c128): part-by-part sums, XLA's elemental product,
// compare, select, complex / real / imag, converts, constants, and data movement (transpose,
// reduce, slice, pad, dynamic-update-slice) on both targets against the reference evaluator
// (its own complex arithmetic, each part rounded to the part type); the opcodes kernels do not
// compute on complex values are refused with a diagnostic.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"

namespace idxmap::codegen {
namespace hlo_kernel_tests {

class HloComplexTargets : public ::testing::TestWithParam<bool> {};

TEST_P(HloComplexTargets, ComplexValuesAgreeWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule complex
arith {
  x = c64[3,4] parameter(0)
  y = c64[3,4] parameter(1)
  re = f32[3,4] parameter(2)
  add = c64[3,4] add(x, y)
  sub = c64[3,4] subtract(x, y)
  mul = c64[3,4] multiply(x, y)
  neg = c64[3,4] negate(x)
  made = c64[3,4] complex(re, re)
  eq = pred[3,4] compare(x, y), direction=EQ
  ne = pred[3,4] compare(x, x), direction=NE
  sel = c64[3,4] select(eq, add, mul)
  k = c64[] constant((1.5, -2))
  kb = c64[3,4] broadcast(k), dimensions={}
  scaled = c64[3,4] multiply(x, kb)
  real = f32[3,4] real(mul)
  imag = f32[3,4] imag(mul)
  wide = c128[3,4] convert(x)
  fromreal = c64[3,4] convert(re)
  ROOT r = (c64[3,4], c64[3,4], c64[3,4], c64[3,4], c64[3,4], pred[3,4], c64[3,4], c64[3,4], f32[3,4], f32[3,4], c128[3,4], c64[3,4]) tuple(add, sub, mul, neg, made, ne, sel, scaled, real, imag, wide, fromreal)
}
doubles {
  z = c128[2,5] parameter(0)
  sq = c128[2,5] multiply(z, z)
  narrow = c64[2,5] convert(sq)
  ROOT r = (c128[2,5], c64[2,5]) tuple(sq, narrow)
}
sum {
  a = c64[] parameter(0)
  b = c64[] parameter(1)
  ROOT s = c64[] add(a, b)
}
ENTRY e {
  x = c64[3,4] parameter(0)
  y = c64[3,4] parameter(1)
  re = f32[3,4] parameter(2)
  z = c128[2,5] parameter(3)
  i = s32[] parameter(4)
  f = (c64[3,4], c64[3,4], c64[3,4], c64[3,4], c64[3,4], pred[3,4], c64[3,4], c64[3,4], f32[3,4], f32[3,4], c128[3,4], c64[3,4]) fusion(x, y, re), kind=kLoop, calls=arith
  d = (c128[2,5], c64[2,5]) fusion(z), kind=kLoop, calls=doubles
  t = c64[4,3]{0,1} transpose(x), dimensions={1,0}
  zero = c64[] constant((0, 0))
  total = c64[3] reduce(x, zero), dimensions={1}, to_apply=sum
  corner = c64[2,2] slice(y), slice={[0:2], [1:3]}
  dus = c64[3,4] dynamic-update-slice(x, corner, i, i)
  fill = c64[] constant((-1, 0.5))
  padded = c64[5,10] pad(x, fill), padding=1_1x2_1_1
  pair = c64[2] constant({(2.0, 0.0), (0.0, 2.0)})
  ROOT out = (c64[4,3]{0,1}, c64[3], c64[3,4], c64[5,10], c64[2]) tuple(t, total, dus, padded, pair)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "complex.hlo"));
  std::vector<Case> cases = entryCases(
      *module, {"fusion", "transpose", "reduce", "dynamic-update-slice", "pad", "constant"},
      "complex_", cuda);
  ASSERT_EQ(cases.size(), 9u);  // three of them constants
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 4, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "complex");
}

// What kernels do not compute on complex values is refused where it is written: a quotient
// (XLA's has its own scaling), an order, a dot, a convert to a real type.
TEST_P(HloComplexTargets, UncomputedComplexOpcodesAreRefused) {
  const bool cuda = GetParam();
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"ROOT r = c64[4] divide(x, x)", "`divide` on c64"},
      {"ROOT r = pred[4] compare(x, x), direction=LT", "`compare` on c64"},
      {"ROOT r = c64[] dot(x, x), lhs_contracting_dims={0}, rhs_contracting_dims={0}",
       "a dot of c64 values is not computed"},
      {"ROOT r = f32[4] abs(x)", "`abs` on c64"},
  };
  for (const auto& [line, expected] : refused) {
    const std::string text =
        "HloModule refused\nENTRY e {\n  x = c64[4] parameter(0)\n  " + line + "\n}\n";
    hlo::Module module = hlo::parseHloModule(text, "refused.hlo");
    expectRefused(*module.entry->root, cuda, "refused.hlo", expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, HloComplexTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
