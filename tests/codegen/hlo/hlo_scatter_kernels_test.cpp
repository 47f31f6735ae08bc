// HLO scatter as a kernel (issue 32, item 6): entry scatters emitted through the gather/scatter
// emitter, run on both targets against the reference evaluator's scatter (the spec's formulas on
// XLA's attributes, the update computation evaluated as written), bit for bit: add, replace,
// multiply, minimum and maximum; indices out of range (skipped) and repeated (applied in
// order); batching dims; the index vector in the middle; iota indices, whose uniqueness is
// proven, so the kernel stores in parallel; a fusion that wraps a scatter of its parameters, as
// XLA wraps one; variadic scatters (a tuple of results, one computation for every input: add,
// replace), also over an iota; update computations of the kernel's own (an argmax over a
// variadic scatter, a multiply and a subtract), over repeated rows and over an iota; sub-byte
// integers (s4, u2) one to a byte and packed as E(4) / E(2) pack them (odd counts; CUDA sorts
// where a packed target may be written twice). An update computation with an op kernels do not
// compute, and an input and result packed differently, are located problems.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"
#include "tests/codegen/hlo/random_hlo_scatter.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace hlo_kernel_tests {

class HloScatterTargets : public ::testing::TestWithParam<bool> {};

TEST_P(HloScatterTargets, ScattersAgreeWithTheReference) {
  const bool cuda = GetParam();
  const std::string text = R"(HloModule scatters
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(b, a)
}
replace {
  a = f32[] parameter(0)
  ROOT b = f32[] parameter(1)
}
mul {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] multiply(a, b)
}
min {
  a = f16[] parameter(0)
  b = f16[] parameter(1)
  ROOT m = f16[] minimum(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
pair_add {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = s32[] parameter(3)
  x = f32[] add(a, c)
  y = s32[] add(d, b)
  ROOT t = (f32[], s32[]) tuple(x, y)
}
pair_replace {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = s32[] parameter(3)
  ROOT t = (f32[], s32[]) tuple(c, d)
}
add_s4 {
  a = s4[] parameter(0)
  b = s4[] parameter(1)
  ROOT s = s4[] add(a, b)
}
max_u2 {
  a = u2[] parameter(0)
  b = u2[] parameter(1)
  ROOT m = u2[] maximum(b, a)
}
argmax {
  score = f32[] parameter(0)
  agent = s32[] parameter(1)
  new_score = f32[] parameter(2)
  new_agent = s32[] parameter(3)
  higher = pred[] compare(new_score, score), direction=GT
  s = f32[] select(higher, new_score, score)
  a = s32[] select(higher, new_agent, agent)
  ROOT t = (f32[], s32[]) tuple(s, a)
}
sub_half {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  half = f32[] constant(0.5)
  h = f32[] multiply(b, half)
  ROOT d = f32[] subtract(a, h)
}
wrapped_scatter {
  t = f32[6,4] parameter(0)
  i = s32[9,1] parameter(1)
  u = f32[9,4] parameter(2)
  ROOT s = f32[6,4] scatter(t, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
}
ENTRY e {
  table = f32[6,4] parameter(0)
  rows = s32[9,1] parameter(1)
  updates = f32[9,4] parameter(2)
  added = f32[6,4] scatter(table, rows, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  replaced = f32[6,4] scatter(table, rows, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=replace
  ints = s32[5,3] parameter(3)
  points = s32[4,2] parameter(4)
  factors = s32[4] parameter(5)
  multiplied = s32[5,3] scatter(ints, points, factors), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=mul
  halves = f16[3,5,2] parameter(6)
  columns = s32[3,1,4] parameter(7)
  values = f16[3,4,2] parameter(8)
  smallest = f16[3,5,2] scatter(halves, columns, values), update_window_dims={2}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=1, to_apply=min
  iota = s32[6,1] iota(), iota_dimension=0
  once = f32[6,4] parameter(9)
  largest = f32[6,4] scatter(table, iota, once), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=max
  fused = f32[6,4] fusion(table, rows, updates), kind=kInput, calls=wrapped_scatter
  labels = s32[6,4] parameter(10)
  more = s32[9,4] parameter(11)
  summed = (f32[6,4], s32[6,4]) scatter(table, labels, rows, updates, more), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair_add
  overridden = (f32[6,4], s32[6,4]) scatter(table, labels, rows, updates, more), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair_replace
  first = s32[6,4] parameter(12)
  tagged = (f32[6,4], s32[6,4]) scatter(table, labels, iota, once, first), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair_replace
  s0 = f32[6,4] get-tuple-element(summed), index=0
  s1 = s32[6,4] get-tuple-element(summed), index=1
  o0 = f32[6,4] get-tuple-element(overridden), index=0
  o1 = s32[6,4] get-tuple-element(overridden), index=1
  t0 = f32[6,4] get-tuple-element(tagged), index=0
  t1 = s32[6,4] get-tuple-element(tagged), index=1
  nibbles = s4[6,4] parameter(13)
  steps = s4[9,4] parameter(14)
  stepped = s4[6,4] scatter(nibbles, rows, steps), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_s4
  crumbs = u2[5,3] parameter(15)
  highs = u2[4] parameter(16)
  raised = u2[5,3] scatter(crumbs, points, highs), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=max_u2
  packed_nibbles = s4[6,4]{1,0:E(4)} parameter(17)
  packed_steps = s4[9,4]{1,0:E(4)} parameter(18)
  packed_stepped = s4[6,4]{1,0:E(4)} scatter(packed_nibbles, rows, packed_steps), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_s4
  packed_crumbs = u2[5,3]{1,0:E(2)} parameter(19)
  packed_raised = u2[5,3]{1,0:E(2)} scatter(packed_crumbs, points, highs), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=max_u2
  best = (f32[6,4], s32[6,4]) scatter(table, labels, rows, updates, more), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=argmax
  best_once = (f32[6,4], s32[6,4]) scatter(table, labels, iota, once, first), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=argmax
  halved = f32[6,4] scatter(table, rows, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=sub_half
  row_iota = s32[9,1] iota(), iota_dimension=0
  four = s32[] constant(4)
  fours = s32[9,1] broadcast(four), dimensions={}
  sorted_rows = s32[9,1] divide(row_iota, fours)
  best_sorted = (f32[6,4], s32[6,4]) scatter(table, labels, sorted_rows, updates, more), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=argmax
  packed_sorted = s4[6,4]{1,0:E(4)} scatter(packed_nibbles, sorted_rows, packed_steps), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_s4
  e0 = f32[6,4] get-tuple-element(best_sorted), index=0
  e1 = s32[6,4] get-tuple-element(best_sorted), index=1
  b0 = f32[6,4] get-tuple-element(best), index=0
  b1 = s32[6,4] get-tuple-element(best), index=1
  c0 = f32[6,4] get-tuple-element(best_once), index=0
  c1 = s32[6,4] get-tuple-element(best_once), index=1
  ROOT t = (f32[6,4], f32[6,4], s32[5,3], f16[3,5,2], f32[6,4], f32[6,4], f32[6,4], s32[6,4], f32[6,4], s32[6,4], f32[6,4], s32[6,4], s4[6,4], u2[5,3], s4[6,4]{1,0:E(4)}, u2[5,3]{1,0:E(2)}, f32[6,4], s32[6,4], f32[6,4], s32[6,4], f32[6,4], f32[6,4], s32[6,4], s4[6,4]{1,0:E(4)}) tuple(added, replaced, multiplied, smallest, largest, fused, s0, s1, o0, o1, t0, t1, stepped, raised, packed_stepped, packed_raised, b0, b1, c0, c1, halved, e0, e1, packed_sorted)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "scatters.hlo"));
  std::vector<Case> cases = entryCases(*module, {"scatter", "fusion"}, "scatter_", cuda);
  ASSERT_EQ(cases.size(), 18u);
  // Sorted, repeated rows (an iota divided by 4): threads split d0 at runs, for an update of the
  // kernel's own and a packed target too (each update in place on CUDA).
  for (size_t sorted : {16, 17})
    EXPECT_NE(cases[sorted].kernel.printed.text.find("indices sorted"), std::string::npos)
        << cases[sorted].kernel.printed.text;
  // Update computations of the kernel's own (an argmax's, one a multiply and a subtract): each
  // new value read from every input before any is stored; over unique rows in parallel.
  for (size_t own : {13, 14, 15})
    EXPECT_NE(cases[own].kernel.printed.text.find("_update0("), std::string::npos);
  EXPECT_NE(cases[14].kernel.printed.text.find(
                "no two applied updates write one element -> parallel plain stores"),
            std::string::npos);
  // Packed buffers are idxmap_packed accessors; a CUDA kernel whose packed target may be written
  // twice sorts (its elements share bytes: no atomic update of their own).
  for (size_t packed : {11, 12}) {
    EXPECT_NE(cases[packed].kernel.printed.text.find("idxmap_packed<"), std::string::npos);
    if (cuda)
      EXPECT_NE(cases[packed].kernel.printed.text.find("is packed: its elements share bytes"),
                std::string::npos)
          << cases[packed].kernel.printed.text;
  }
  // The iota's rows are unique, proven: plain stores in parallel, no ordering.
  for (size_t unique : {4, 8})
    EXPECT_NE(cases[unique].kernel.printed.text.find(
                  "no two applied updates write one element -> parallel plain stores"),
              std::string::npos)
        << cases[unique].kernel.printed.text;
  for (size_t variadic : {6, 7, 8}) EXPECT_EQ(cases[variadic].kernel.buffers.size(), 7u);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 6, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "scatters");
}

// examples/segment_argmax.hlo: the best score of each segment and its id, over repeated and
// tied segments (the reference keeps the first id of a tie, as row-major order does).
TEST_P(HloScatterTargets, SegmentArgmaxExampleAgreesWithTheReference) {
  const bool cuda = GetParam();
  std::ifstream in(std::string(IDXMAP_SOURCE_DIR) + "/examples/segment_argmax.hlo");
  std::stringstream text;
  text << in.rdbuf();
  auto module =
      std::make_unique<hlo::Module>(hlo::parseHloModule(text.str(), "segment_argmax.hlo"));
  std::vector<Case> cases = entryCases(*module, {"scatter"}, "argmax_", cuda);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_NE(cases[0].kernel.printed.text.find("argmax_best_update1("), std::string::npos);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 3, /*specials=*/true, onTheGpu(cuda));
}

// Random scatters (random_hlo_scatter.h), every one a kernel, on both targets against the
// reference, bit for bit.
TEST_P(HloScatterTargets, RandomScattersAgreeWithTheReference) {
  const bool cuda = GetParam();
  const sampling::Sample sample = sampling::sampleOf("HloRandomScatters", 48, 12);
  testing::RandomHloScatter generator(sample.seed);
  std::string computations, entry;
  int parameter = 0;
  for (size_t i = 0; i < sample.count; ++i) {
    testing::RandomHloScatter::Scatter scatter = generator.next(static_cast<int>(i), parameter);
    computations += scatter.computation;
    entry += scatter.entry;
  }
  const std::string text = "HloModule random_scatters\n" + computations + "ENTRY e {\n" + entry +
                           "  ROOT r = s32[] constant(0)\n}\n";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "random_scatters.hlo"));
  std::vector<Case> cases = entryCases(*module, {"scatter"}, "random_", cuda);
  ASSERT_EQ(cases.size(), sample.count);
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 3, true, onTheGpu(cuda));
}

INSTANTIATE_TEST_SUITE_P(Targets, HloScatterTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

TEST(HloScatterKernels, WhatKernelsDoNotComputeIsALocatedProblem) {
  const std::string text = R"(HloModule bad
sub {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] custom-call(a, b), custom_call_target="mystery"
}
argmax {
  score = f32[] parameter(0)
  agent = s32[] parameter(1)
  new_score = f32[] parameter(2)
  new_agent = s32[] parameter(3)
  higher = pred[] compare(new_score, score), direction=GT, type=TOTALORDER
  s = f32[] select(higher, new_score, score)
  a = s32[] select(higher, new_agent, agent)
  ROOT t = (f32[], s32[]) tuple(s, a)
}
add {
  a = s4[] parameter(0)
  b = s4[] parameter(1)
  ROOT s = s4[] add(a, b)
}
ENTRY e {
  table = f32[6,4] parameter(0)
  rows = s32[3,1] parameter(1)
  updates = f32[3,4] parameter(2)
  subtracted = f32[6,4] scatter(table, rows, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=sub
  labels = s32[6,4] parameter(3)
  more = s32[3,4] parameter(4)
  both = (f32[6,4], s32[6,4]) scatter(table, labels, rows, updates, more), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=argmax
  nibbles = s4[6,4]{1,0:E(4)} parameter(5)
  steps = s4[3,4]{1,0:E(4)} parameter(6)
  ROOT unpacked = s4[6,4] scatter(nibbles, rows, steps), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})";
  hlo::Module module = hlo::parseHloModule(text, "bad.hlo");
  EmittedHloModule emitted = emitHloModule(module);
  EXPECT_TRUE(emitted.kernels.empty());
  ASSERT_EQ(emitted.problems.size(), 3u);
  const std::pair<int, std::string> expected[] = {{5, "custom-call (s): no op model, so no kernel"},
                                                  {12, "TOTALORDER"},
                                                  {32, "packed differently"}};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(emitted.problems[i].location.line, expected[i].first);
    EXPECT_NE(emitted.problems[i].message.find(expected[i].second), std::string::npos)
        << emitted.problems[i].message;
  }
}

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
