// HLO kernels on sub-byte integers (s2, s4, u2, u4): held one to a byte, and packed in bytes as
// XLA's E(n) layouts hold them; each against the reference evaluator on both targets.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"

namespace idxmap::codegen {
namespace hlo_kernel_tests {

class HloSubByteTargets : public ::testing::TestWithParam<bool> {};

// Sub-byte integers (s4, u4, s2, u2), held one to a byte: every opcode wraps at the type's own
// width, shifts and bit counts read its own bits, converts truncate (from integers) or saturate
// (from floats) to its range, bitcast-convert goes between types of its width only; constants at
// both ends of the range (MIN / -1, abs and negate of MIN), iota past the range, a reduction
// and a dot that wrap. Against the reference on both targets; a packed layout (E(4)) is refused.
TEST_P(HloSubByteTargets, SubByteIntegersWrapAtTheirWidth) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule subbyte
signed4 {
  x = s4[4,5] parameter(0)
  y = s4[4,5] parameter(1)
  lo = s4[] constant(-8)
  hi = s4[] constant(7)
  m1 = s4[] constant(-1)
  lob = s4[4,5] broadcast(lo), dimensions={}
  hib = s4[4,5] broadcast(hi), dimensions={}
  m1b = s4[4,5] broadcast(m1), dimensions={}
  add = s4[4,5] add(x, hib)
  sub = s4[4,5] subtract(lob, y)
  mul = s4[4,5] multiply(x, y)
  div = s4[4,5] divide(x, y)
  mindiv = s4[4,5] divide(lob, m1b)
  rem = s4[4,5] remainder(x, y)
  neg = s4[4,5] negate(lob)
  abs = s4[4,5] abs(lob)
  not = s4[4,5] not(x)
  xor = s4[4,5] xor(x, y)
  shl = s4[4,5] shift-left(x, y)
  shrl = s4[4,5] shift-right-logical(x, y)
  shra = s4[4,5] shift-right-arithmetic(x, y)
  pop = s4[4,5] popcnt(x)
  clz = s4[4,5] count-leading-zeros(x)
  lt = pred[4,5] compare(x, y), direction=LT
  sel = s4[4,5] select(lt, add, mul)
  clamp = s4[4,5] clamp(m1b, x, y)
  chained = s4[4,5] divide(mul, hib)
  gt = pred[4,5] compare(add, mul), direction=GT
  picked = s4[4,5] select(gt, x, y)
  ROOT r = (s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5]) tuple(add, sub, mul, div, mindiv, rem, neg, abs, not, xor, shl, shrl, shra, pop, clz, sel, clamp, chained, picked)
}
unsigned4 {
  x = u4[4,5] parameter(0)
  y = u4[4,5] parameter(1)
  hi = u4[] constant(15)
  hib = u4[4,5] broadcast(hi), dimensions={}
  add = u4[4,5] add(x, hib)
  sub = u4[4,5] subtract(x, y)
  mul = u4[4,5] multiply(x, y)
  div = u4[4,5] divide(x, y)
  rem = u4[4,5] remainder(x, y)
  neg = u4[4,5] negate(x)
  not = u4[4,5] not(x)
  shl = u4[4,5] shift-left(x, y)
  shrl = u4[4,5] shift-right-logical(x, y)
  shra = u4[4,5] shift-right-arithmetic(x, y)
  clz = u4[4,5] count-leading-zeros(x)
  gt = pred[4,5] compare(x, y), direction=GT
  max = u4[4,5] maximum(x, y)
  sel = u4[4,5] select(gt, sub, max)
  ROOT r = (u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5]) tuple(add, mul, div, rem, neg, not, shl, shrl, shra, clz, sel, sub)
}
twobit {
  x = s2[6] parameter(0)
  y = u2[6] parameter(1)
  add = s2[6] add(x, x)
  neg = s2[6] negate(x)
  shra = s2[6] shift-right-arithmetic(x, x)
  mul = u2[6] multiply(y, y)
  shrl = u2[6] shift-right-logical(y, y)
  pop = u2[6] popcnt(y)
  ROOT r = (s2[6], s2[6], s2[6], u2[6], u2[6], u2[6]) tuple(add, neg, shra, mul, shrl, pop)
}
converts {
  i = s32[4,5] parameter(0)
  f = f32[4,5] parameter(1)
  x = s4[4,5] parameter(2)
  k = s32[] constant(3)
  kb = s32[4,5] broadcast(k), dimensions={}
  wide = s32[4,5] multiply(i, kb)
  s4 = s4[4,5] convert(wide)
  g = f32[] constant(4)
  gb = f32[4,5] broadcast(g), dimensions={}
  big = f32[4,5] multiply(f, gb)
  fs4 = s4[4,5] convert(big)
  fu4 = u4[4,5] convert(big)
  back = s32[4,5] convert(x)
  float = f32[4,5] convert(x)
  half = bf16[4,5] convert(x)
  u4 = u4[4,5] convert(x)
  s2 = s2[4,5] convert(u4)
  bits = u4[4,5] bitcast-convert(x)
  square = s4[4,5] multiply(x, x)
  square32 = s32[4,5] convert(square)
  ROOT r = (s4[4,5], s4[4,5], u4[4,5], s32[4,5], f32[4,5], bf16[4,5], u4[4,5], s2[4,5], u4[4,5], s32[4,5]) tuple(s4, fs4, fu4, back, float, half, u4, s2, bits, square32)
}
sum {
  a = s4[] parameter(0)
  b = s4[] parameter(1)
  ROOT s = s4[] add(a, b)
}
ENTRY e {
  a = s4[4,5] parameter(0)
  b = s4[4,5] parameter(1)
  s = (s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5], s4[4,5]) fusion(a, b), kind=kLoop, calls=signed4
  c = u4[4,5] parameter(2)
  d = u4[4,5] parameter(3)
  u = (u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5], u4[4,5]) fusion(c, d), kind=kLoop, calls=unsigned4
  e = s2[6] parameter(4)
  f = u2[6] parameter(5)
  two = (s2[6], s2[6], s2[6], u2[6], u2[6], u2[6]) fusion(e, f), kind=kLoop, calls=twobit
  g = s32[4,5] parameter(6)
  h = f32[4,5] parameter(7)
  conv = (s4[4,5], s4[4,5], u4[4,5], s32[4,5], f32[4,5], bf16[4,5], u4[4,5], s2[4,5], u4[4,5], s32[4,5]) fusion(g, h, a), kind=kLoop, calls=converts
  zero = s4[] constant(0)
  total = s4[4] reduce(a, zero), dimensions={1}, to_apply=sum
  iota = u4[3,20] iota(), iota_dimension=1
  iota2 = s2[6] iota(), iota_dimension=0
  dot = s4[4,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT t = (s4[4], u4[3,20], s2[6], s4[4,4]) tuple(total, iota, iota2, dot)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "subbyte.hlo"));
  std::vector<Case> cases =
      entryCases(*module, {"fusion", "reduce", "iota", "dot"}, "subbyte_", cuda);
  ASSERT_EQ(cases.size(), 8u);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 4, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "subbyte");

  // A sub-byte element is its byte's low bits: the others, whatever they hold, are not read.
  const std::string dirty = R"(HloModule dirty
ENTRY e {
  p = s4[4] parameter(0)
  ROOT c = s32[4] convert(p)
})";
  auto dirtyModule = std::make_unique<hlo::Module>(hlo::parseHloModule(dirty, "dirty.hlo"));
  std::vector<Case> widen = entryCases(*dirtyModule, {"convert"}, "dirty_", cuda);
  ASSERT_EQ(widen.size(), 1u);
  auto widened = compileCases(widen, cuda);
  uint8_t bytes[4] = {0xF3, 0x78, 0x0F, 0x87};
  int32_t out[4] = {0, 0, 0, 0};
  void* buffers[2] = {bytes, out};
  const int64_t elements[2] = {4, 4};
  using Entry = int (*)(void* const*, const int64_t*);
  auto entry = reinterpret_cast<Entry>(widened->symbol(widen[0].kernel.symbol + "_packed"));
  ASSERT_EQ(entry(buffers, elements), 0);
  EXPECT_EQ(std::vector<int32_t>(out, out + 4), (std::vector<int32_t>{3, -8, -1, 7}));

  // A packing at another width than the elements' is refused where the buffer meets the kernel.
  const std::string mismatched = R"(HloModule mismatched
ENTRY e {
  p = s4[8]{0:E(2)} parameter(0)
  ROOT c = s8[8]{0} convert(p)
})";
  hlo::Module mismatchedModule = hlo::parseHloModule(mismatched, "mismatched.hlo");
  expectRefused(*mismatchedModule.entry->root, cuda, "mismatched.hlo",
                "has layout E(2), not its elements' width");
  // An element size of a byte or more is one element to its storage: read as written.
  const std::string wide = R"(HloModule bytes
ENTRY e {
  p = pred[8]{0:E(8)} parameter(0)
  q = s4[8]{0:E(8)} parameter(1)
  n = pred[8]{0} not(p)
  m = s4[8]{0} negate(q)
  ROOT t = (pred[8]{0}, s4[8]{0}) tuple(n, m)
})";
  auto bytesModule = std::make_unique<hlo::Module>(hlo::parseHloModule(wide, "bytes.hlo"));
  std::vector<Case> unpacked = entryCases(*bytesModule, {"not", "negate"}, "bytes_", cuda);
  ASSERT_EQ(unpacked.size(), 2u);
  for (const Case& c : unpacked)
    EXPECT_EQ(c.kernel.printed.text.find("idxmap_packed<"), std::string::npos)
        << c.kernel.printed.text;
  auto unpackedLibrary = compileCases(unpacked, cuda);
  expectAgreement(unpacked, *unpackedLibrary, 2, false, onTheGpu(cuda));
}

// Sub-byte integers packed in bytes, as XLA's E(n) layouts hold them (the first of a byte's
// elements in its high bits): packed operands read, packed results written (an odd count, so one
// byte is half an element's; the result buffers start as garbage), in a transposed layout too,
// through a fusion, a transpose, a reduce and a concatenate; against the reference, with the
// test's own packing from XLA's definition.
TEST_P(HloSubByteTargets, PackedSubByteBuffersAgreeWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule packed
mix {
  x = s4[5,7]{1,0:E(4)} parameter(0)
  y = u2[5,7]{1,0:E(2)} parameter(1)
  yx = s4[5,7] convert(y)
  sum = s4[5,7] add(x, yx)
  wide = s32[5,7] convert(sum)
  flip = u2[5,7] not(y)
  ROOT r = (s4[5,7]{1,0:E(4)}, s32[5,7], u2[5,7]{1,0:E(2)}) tuple(sum, wide, flip)
}
add {
  a = s4[] parameter(0)
  b = s4[] parameter(1)
  ROOT s = s4[] add(a, b)
}
ENTRY e {
  x = s4[5,7]{1,0:E(4)} parameter(0)
  y = u2[5,7]{1,0:E(2)} parameter(1)
  m = (s4[5,7]{1,0:E(4)}, s32[5,7], u2[5,7]{1,0:E(2)}) fusion(x, y), kind=kLoop, calls=mix
  t = s4[7,5]{0,1:E(4)} transpose(x), dimensions={1,0}
  z = s4[] constant(0)
  r = s4[5]{0:E(4)} reduce(x, z), dimensions={1}, to_apply=add
  c = s4[5,14]{1,0:E(4)} concatenate(x, x), dimensions={1}
  ROOT out = (s4[7,5]{0,1:E(4)}, s4[5]{0:E(4)}, s4[5,14]{1,0:E(4)}) tuple(t, r, c)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "packed.hlo"));
  std::vector<Case> cases =
      entryCases(*module, {"fusion", "transpose", "reduce", "concatenate"}, "packed_", cuda);
  ASSERT_EQ(cases.size(), 4u);
  for (const Case& c : cases)
    EXPECT_NE(c.kernel.printed.text.find("idxmap_packed<4, int8_t, const uint8_t> in0"),
              std::string::npos)
        << c.kernel.printed.text;
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 4, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "packed");
}

// examples/int4_matmul.hlo: int4 weights packed two to a byte, dequantized by a fusion, then
// a dot; every entry kernel against the reference on both targets.
TEST_P(HloSubByteTargets, Int4MatmulExampleAgreesWithTheReference) {
  const bool cuda = GetParam();
  std::ifstream in(std::string(IDXMAP_SOURCE_DIR) + "/examples/int4_matmul.hlo");
  std::stringstream text;
  text << in.rdbuf();
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text.str(), "int4_matmul.hlo"));
  std::vector<Case> cases = entryCases(*module, {}, "int4_", cuda);
  ASSERT_EQ(cases.size(), 2u);  // the fusion and the dot
  EXPECT_NE(cases[0].kernel.printed.text.find("idxmap_packed<4, int8_t, const uint8_t> in0"),
            std::string::npos);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 2, /*specials=*/false, onTheGpu(cuda));
}

INSTANTIATE_TEST_SUITE_P(Targets, HloSubByteTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
