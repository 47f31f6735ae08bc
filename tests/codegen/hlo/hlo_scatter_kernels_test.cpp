// HLO scatter as a kernel (issue 32, item 6): entry scatters emitted through the gather/scatter
// emitter, run on both targets against the reference evaluator's scatter (the spec's formulas on
// XLA's attributes, the update computation evaluated as written), bit for bit: add, replace,
// multiply, minimum and maximum; indices out of range (skipped) and repeated (applied in
// order); batching dims; the index vector in the middle; iota indices, whose uniqueness is
// proven, so the kernel stores in parallel; a fusion that wraps a scatter of its parameters, as
// XLA wraps one. Variadic scatters and other update computations are located problems.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"

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
  ROOT t = (f32[6,4], f32[6,4], s32[5,3], f16[3,5,2], f32[6,4], f32[6,4]) tuple(added, replaced, multiplied, smallest, largest, fused)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "scatters.hlo"));
  std::vector<Case> cases = entryCases(*module, {"scatter", "fusion"}, "scatter_", cuda);
  ASSERT_EQ(cases.size(), 6u);
  // The iota's rows are unique, proven: plain stores in parallel, no ordering.
  EXPECT_NE(cases[4].kernel.printed.text.find(
                "no two applied updates write one element -> parallel plain stores"),
            std::string::npos)
      << cases[4].kernel.printed.text;
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 6, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "scatters");
}

INSTANTIATE_TEST_SUITE_P(Targets, HloScatterTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

TEST(HloScatterKernels, WhatKernelsDoNotComputeIsALocatedProblem) {
  const std::string text = R"(HloModule bad
sub {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] subtract(a, b)
}
pair {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = s32[] parameter(3)
  ROOT t = (f32[], s32[]) tuple(c, d)
}
ENTRY e {
  table = f32[6,4] parameter(0)
  rows = s32[3,1] parameter(1)
  updates = f32[3,4] parameter(2)
  subtracted = f32[6,4] scatter(table, rows, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=sub
  labels = s32[6,4] parameter(3)
  more = s32[3,4] parameter(4)
  ROOT both = (f32[6,4], s32[6,4]) scatter(table, labels, rows, updates, more), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair
})";
  hlo::Module module = hlo::parseHloModule(text, "bad.hlo");
  EmittedHloModule emitted = emitHloModule(module);
  EXPECT_TRUE(emitted.kernels.empty());
  ASSERT_EQ(emitted.problems.size(), 2u);
  EXPECT_EQ(emitted.problems[0].location.line, 18);
  EXPECT_NE(emitted.problems[0].message.find("update computation"), std::string::npos)
      << emitted.problems[0].message;
  EXPECT_EQ(emitted.problems[1].location.line, 21);
  EXPECT_NE(emitted.problems[1].message.find("2 inputs"), std::string::npos)
      << emitted.problems[1].message;
}

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
