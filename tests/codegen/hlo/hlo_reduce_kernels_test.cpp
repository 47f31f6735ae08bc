// Variadic reduce as a kernel stage (issue 32, item 6): N accumulators walked together through
// the reducer's tuple, against the reference evaluator's reduce (hlo_reference.h, from XLA's
// semantics with no indexing map), bit for bit, on both targets: argmax and argmin with XLA's
// tie rule written in the reducer, a sum and a product at once, three results, a scalar
// result, no reduced positions, f16 values with s32 indices, pred results, argmax pooling
// windows (strided, padded, base-dilated); a fusion whose root
// is the variadic reduce (its results the kernel's outputs), one that reads them through
// get-tuple-element (a stage of their own), and a multi-output fusion of them.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"

namespace idxmap::codegen {
namespace hlo_kernel_tests {

class HloReduceTargets : public ::testing::TestWithParam<bool> {};

// The reducers: argmax / argmin keep the earlier index on a tie (as JAX writes them); NaN
// compares false, so a NaN accumulator is kept only where the written comparison says so.
constexpr const char* kReducers = R"(HloModule variadic
argmax {
  va = f32[] parameter(0)
  ia = s32[] parameter(1)
  vb = f32[] parameter(2)
  ib = s32[] parameter(3)
  gt = pred[] compare(va, vb), direction=GT
  eq = pred[] compare(va, vb), direction=EQ
  lt = pred[] compare(ia, ib), direction=LT
  tie = pred[] and(eq, lt)
  keep = pred[] or(gt, tie)
  v = f32[] select(keep, va, vb)
  i = s32[] select(keep, ia, ib)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
argmin_half {
  va = f16[] parameter(0)
  ia = s32[] parameter(1)
  vb = f16[] parameter(2)
  ib = s32[] parameter(3)
  lt = pred[] compare(va, vb), direction=LT
  eq = pred[] compare(va, vb), direction=EQ
  first = pred[] compare(ia, ib), direction=LT
  tie = pred[] and(eq, first)
  keep = pred[] or(lt, tie)
  v = f16[] select(keep, va, vb)
  i = s32[] select(keep, ia, ib)
  ROOT r = (f16[], s32[]) tuple(v, i)
}
sum_product {
  sa = f32[] parameter(0)
  pa = f32[] parameter(1)
  sb = f32[] parameter(2)
  pb = f32[] parameter(3)
  s = f32[] add(sa, sb)
  p = f32[] multiply(pa, pb)
  ROOT r = (f32[], f32[]) tuple(s, p)
}
max_sum_count {
  ma = s32[] parameter(0)
  sa = s32[] parameter(1)
  ca = s64[] parameter(2)
  mb = s32[] parameter(3)
  sb = s32[] parameter(4)
  cb = s64[] parameter(5)
  m = s32[] maximum(ma, mb)
  s = s32[] add(sa, sb)
  c = s64[] add(ca, cb)
  ROOT r = (s32[], s32[], s64[]) tuple(m, s, c)
}
all_any {
  a0 = pred[] parameter(0)
  o0 = pred[] parameter(1)
  a1 = pred[] parameter(2)
  o1 = pred[] parameter(3)
  a = pred[] and(a0, a1)
  o = pred[] or(o0, o1)
  ROOT r = (pred[], pred[]) tuple(a, o)
}
)";

TEST_P(HloReduceTargets, VariadicReducesAgreeWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = std::string(kReducers) + R"(
negated_argmax {
  x = f32[5,7] parameter(0)
  n = f32[5,7] negate(x)
  i = s32[5,7] iota(), iota_dimension=1
  lo = f32[] constant(-inf)
  z = s32[] constant(0)
  ROOT r = (f32[5], s32[5]) reduce(n, i, lo, z), dimensions={1}, to_apply=argmax
}
index_plus_value {
  x = f32[5,7] parameter(0)
  i = s32[5,7] iota(), iota_dimension=1
  lo = f32[] constant(-inf)
  z = s32[] constant(0)
  r = (f32[5], s32[5]) reduce(x, i, lo, z), dimensions={1}, to_apply=argmax
  v = f32[5] get-tuple-element(r), index=0
  k = s32[5] get-tuple-element(r), index=1
  kf = f32[5] convert(k)
  ROOT s = f32[5] add(v, kf)
}
both_swapped {
  x = f32[4,3,6] parameter(0)
  one = f32[] constant(1)
  zero = f32[] constant(0)
  r = (f32[4], f32[4]) reduce(x, x, zero, one), dimensions={1,2}, to_apply=sum_product
  s = f32[4] get-tuple-element(r), index=0
  p = f32[4] get-tuple-element(r), index=1
  n = f32[4,3,6] negate(x)
  ROOT t = (f32[4], f32[4], f32[4,3,6]) tuple(p, s, n)
}
ENTRY e {
  x = f32[4,6] parameter(0)
  cols = s32[4,6] iota(), iota_dimension=1
  lowest = f32[] constant(-inf)
  zero = s32[] constant(0)
  argmax_rows = (f32[4], s32[4]) reduce(x, cols, lowest, zero), dimensions={1}, to_apply=argmax
  y = f32[3,5,2] parameter(1)
  rows = s32[3,5,2] iota(), iota_dimension=1
  argmax_middle = (f32[3,2], s32[3,2]) reduce(y, rows, lowest, zero), dimensions={1}, to_apply=argmax
  everything = (f32[], s32[]) reduce(x, cols, lowest, zero), dimensions={0,1}, to_apply=argmax
  h = f16[6,4] parameter(2)
  hrows = s32[6,4] iota(), iota_dimension=0
  highest = f16[] constant(inf)
  argmin_half = (f16[4], s32[4]) reduce(h, hrows, highest, zero), dimensions={0}, to_apply=argmin_half
  w = f32[2,3,4] parameter(3)
  fzero = f32[] constant(0)
  fone = f32[] constant(1)
  sum_product = (f32[3], f32[3]) reduce(w, w, fzero, fone), dimensions={0,2}, to_apply=sum_product
  q = s32[3,4] parameter(4)
  qmin = s32[] constant(-2147483648)
  qc = s64[3,4] constant({{1,1,1,1},{1,1,1,1},{1,1,1,1}})
  qzero = s64[] constant(0)
  three = (s32[4], s32[4], s64[4]) reduce(q, q, qc, qmin, zero, qzero), dimensions={0}, to_apply=max_sum_count
  e = f32[3,0] parameter(5)
  ecols = s32[3,0] iota(), iota_dimension=1
  none = (f32[3], s32[3]) reduce(e, ecols, lowest, zero), dimensions={1}, to_apply=argmax
  b = pred[5,3] parameter(6)
  yes = pred[] constant(true)
  no = pred[] constant(false)
  all_any = (pred[3], pred[3]) reduce(b, b, yes, no), dimensions={0}, to_apply=all_any
  z = f32[5,7] parameter(7)
  fused_root = (f32[5], s32[5]) fusion(z), kind=kInput, calls=negated_argmax
  fused_read = f32[5] fusion(z), kind=kInput, calls=index_plus_value
  w2 = f32[4,3,6] parameter(8)
  multi = (f32[4], f32[4], f32[4,3,6]) fusion(w2), kind=kInput, calls=both_swapped
  image = f32[5,6] parameter(9)
  positions = s32[5,6] iota(), iota_dimension=0
  pooled = (f32[3,3], s32[3,3]) reduce-window(image, positions, lowest, zero), window={size=2x3 stride=2x2 pad=1_0x0_1}, to_apply=argmax
  dilated = (f32[9,6], s32[9,6]) reduce-window(image, positions, lowest, zero), window={size=2x1 lhs_dilate=2x1 pad=0_1x0_0}, to_apply=argmax
  ROOT t = (f32[4,6]) tuple(x)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "variadic.hlo"));
  std::vector<Case> cases =
      entryCases(*module, {"reduce", "reduce-window", "fusion"}, "variadic_", cuda);
  ASSERT_EQ(cases.size(), 13u);
  // The root's results are the kernel's outputs, one per result, written by one stage.
  EXPECT_NE(cases[0].kernel.printed.text.find("stage out0, out1 = argmax_rows (reduce)"),
            std::string::npos)
      << cases[0].kernel.printed.text;
  // Read through get-tuple-element, the results are a stage's temporaries.
  EXPECT_NE(cases[9].kernel.printed.text.find("stage t0, t1 = r (reduce)"), std::string::npos)
      << cases[9].kernel.printed.text;
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 4, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "variadic reduces");
}

// What stays outside: a nested tuple result, a located problem.
TEST(HloReduceKernels, NestedTuplesAreLocatedProblems) {
  const std::string text = std::string(kReducers) + R"(
nested {
  x = f32[4,6] parameter(0)
  i = s32[4,6] iota(), iota_dimension=1
  lo = f32[] constant(-inf)
  z = s32[] constant(0)
  r = (f32[4], s32[4]) reduce(x, i, lo, z), dimensions={1}, to_apply=argmax
  n = f32[4,6] negate(x)
  ROOT t = ((f32[4], s32[4]), f32[4,6]) tuple(r, n)
}
ENTRY e {
  x = f32[4,6] parameter(0)
  i = s32[4,6] iota(), iota_dimension=1
  lo = f32[] constant(-inf)
  z = s32[] constant(0)
  both = ((f32[4], s32[4]), f32[4,6]) fusion(x), kind=kInput, calls=nested
  ROOT t = (f32[4,6]) tuple(x)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "variadic.hlo"));
  for (const char* name : {"both"}) {
    const hlo::Instruction* instruction = nullptr;
    for (const auto& i : module->entry->instructions)
      if (i->name == name) instruction = i.get();
    ASSERT_NE(instruction, nullptr);
    expectRefused(*instruction, false, "variadic.hlo", "a tuple result inside a tuple result");
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, HloReduceTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
