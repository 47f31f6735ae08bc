// The indexing analysis driver: dispatch to the op models, unknown indexing for unmodeled
// ops, and fusion (spec 004, "Indexing Maps for Fusion"), compared by meaning.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"

namespace idxmap {
namespace {

// `actual` holds exactly the relations of `expected` (each written as map text), in any order.
testing::AssertionResult sameMapSet(const std::vector<IndexingMap>& actual,
                                    const std::vector<std::string>& expected) {
  std::string actualText;
  for (const IndexingMap& map : actual) actualText += printIndexingMap(map) + "\n\n";
  if (actual.size() != expected.size())
    return testing::AssertionFailure()
           << "expected " << expected.size() << " maps, got " << actual.size() << ":\n"
           << actualText;
  for (const std::string& text : expected) {
    IndexingMap want = parseIndexingMap(text);
    bool found = false;
    for (const IndexingMap& map : actual) found = found || islEqual(map, want).isProven();
    if (!found)
      return testing::AssertionFailure() << "no map means\n" << text << "\namong\n" << actualText;
  }
  return testing::AssertionSuccess();
}

// The first opcode without a model (the models land one by one), or "" when all have one.
std::string missingModel(const std::vector<std::string>& opcodes) {
  for (const std::string& opcode : opcodes)
    if (!findOpModel(opcode)) return opcode;
  return "";
}

#define REQUIRE_MODELS(...)                                              \
  if (std::string missing = missingModel(__VA_ARGS__); !missing.empty()) \
  GTEST_SKIP() << "no model for '" << missing << "' yet"

const hlo::Instruction& entryRoot(const hlo::Module& module) { return *module.entry->root; }

TEST(IndexingAnalysis, BroadcastPrintsInXlaLayout) {
  REQUIRE_MODELS({"broadcast"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
ENTRY e {
  p0 = f32[20] parameter(0)
  ROOT bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  EXPECT_EQ(printIndexing(indexing, "operand"),
            "operand id = 0 (d0, d1, d2) -> (d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 19],\n"
            "d2 in [0, 29]\n");
  InstructionIndexing inverse = computeInputToOutputIndexing(entryRoot(module), 0);
  ASSERT_EQ(inverse.entries.size(), 1u);
  EXPECT_TRUE(sameMapSet(inverse.entries[0].maps,
                         {"(d0)[s0, s1] -> (s0, d0, s1), domain: d0 in [0, 19], s0 in [0, 9], "
                          "s1 in [0, 29]"}));
}

TEST(IndexingAnalysis, UnmodeledOpIsUnknownForEveryEntry) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
ENTRY e {
  p1 = f32[4,4] parameter(0)
  p2 = f32[4,3] parameter(1)
  ROOT out = f32[4,3] triangular-solve(f32[4,4] p1, f32[4,3] p2), left_side=true, lower=true
})");
  ASSERT_EQ(findOpModel("triangular-solve"), nullptr);
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 2u);
  EXPECT_TRUE(indexing.entries[0].unknown && indexing.entries[0].maps.empty());
  EXPECT_TRUE(indexing.entries[1].unknown && indexing.entries[1].maps.empty());
  EXPECT_EQ(printIndexing(indexing, "operand"),
            "operand id = 0 unknown indexing\n\noperand id = 1 unknown indexing\n");
  InstructionIndexing inverse = computeInputToOutputIndexing(entryRoot(module), 1);
  ASSERT_EQ(inverse.entries.size(), 1u);
  EXPECT_TRUE(inverse.entries[0].unknown);
}

// Spec 004, "One input, several indexing maps": p0 + transpose(p0).
constexpr const char* kTensorPlusTransposed = R"(HloModule m
f {
  p0 = f32[1000, 1000] parameter(0)
  transpose_p0 = f32[1000, 1000]{0, 1} transpose(p0), dimensions={1, 0}
  ROOT a0 = f32[1000, 1000] add(p0, transpose_p0)
}
ENTRY e {
  p0 = f32[1000, 1000] parameter(0)
  ROOT fusion = f32[1000, 1000] fusion(p0), kind=kLoop, calls=f
})";

TEST(FusionAnalysis, TensorPlusTransposedTensorHasTwoMaps) {
  REQUIRE_MODELS({"add", "transpose"});
  hlo::Module module = hlo::parseHloModule(kTensorPlusTransposed);
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 1u);
  EXPECT_FALSE(indexing.entries[0].unknown);
  EXPECT_TRUE(sameMapSet(indexing.entries[0].maps,
                         {"(d0, d1) -> (d0, d1), domain: d0 in [0, 999], d1 in [0, 999]",
                          "(d0, d1) -> (d1, d0), domain: d0 in [0, 999], d1 in [0, 999]"}));

  InstructionIndexing inverse = computeInputToOutputIndexing(entryRoot(module), 0);
  ASSERT_EQ(inverse.entries.size(), 1u);
  EXPECT_TRUE(sameMapSet(inverse.entries[0].maps,
                         {"(d0, d1) -> (d0, d1), domain: d0 in [0, 999], d1 in [0, 999]",
                          "(d0, d1) -> (d1, d0), domain: d0 in [0, 999], d1 in [0, 999]"}));
}

// Spec 004, "One input, deduplicated indexing map": two different transpose paths that read
// the same element; written differently, one relation.
TEST(FusionAnalysis, TransposeExpTransposePathsDeduplicateToOneMap) {
  REQUIRE_MODELS({"add", "transpose", "exponential"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[20, 10, 50] parameter(0)
  lhs_transpose_1 = f32[10, 20, 50] transpose(p0), dimensions={1, 0, 2}
  lhs_e = f32[10, 20, 50] exponential(lhs_transpose_1)
  lhs_transpose_2 = f32[10, 50, 20] transpose(lhs_e), dimensions={0, 2, 1}
  rhs_transpose_1 = f32[50, 10, 20] transpose(p0), dimensions={2, 1, 0}
  rhs_log = f32[50, 10, 20] exponential(rhs_transpose_1)
  rhs_transpose_2 = f32[10, 50, 20] transpose(rhs_log), dimensions={1, 0, 2}
  ROOT add = f32[10, 50, 20] add(lhs_transpose_2, rhs_transpose_2)
}
ENTRY e {
  p0 = f32[20, 10, 50] parameter(0)
  ROOT fusion = f32[10, 50, 20] fusion(p0), kind=kLoop, calls=f
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 1u);
  EXPECT_TRUE(sameMapSet(
      indexing.entries[0].maps,
      {"(d0, d1, d2) -> (d2, d0, d1), domain: d0 in [0, 9], d1 in [0, 49], d2 in [0, 19]"}));
}

// Spec 004, "Softmax" (XLA's test, without the leading no-op bitcast): parameter 0 is read
// element for element and along its whole innermost row.
TEST(FusionAnalysis, SoftmaxReadsElementAndRow) {
  REQUIRE_MODELS({"reduce", "broadcast", "subtract", "exponential", "divide", "constant"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
max {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT max = f32[] maximum(p0, p1)
}
add {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT add = f32[] add(p0, p1)
}
fused_computation {
  param_0 = f32[2,65,125]{2,1,0} parameter(0)
  constant = f32[] constant(-inf)
  reduce = f32[2,65]{1,0} reduce(param_0, constant), dimensions={2}, to_apply=max
  broadcast = f32[2,65,125]{2,1,0} broadcast(reduce), dimensions={0,1}
  subtract = f32[2,65,125]{2,1,0} subtract(param_0, broadcast)
  exponential = f32[2,65,125]{2,1,0} exponential(subtract)
  constant.1 = f32[] constant(0)
  reduce.1 = f32[2,65]{1,0} reduce(exponential, constant.1), dimensions={2}, to_apply=add
  broadcast.1 = f32[2,65,125]{2,1,0} broadcast(reduce.1), dimensions={0,1}
  ROOT divide = f32[2,65,125]{2,1,0} divide(exponential, broadcast.1)
}
ENTRY e {
  p0 = f32[2,65,125]{2,1,0} parameter(0)
  ROOT fusion = f32[2,65,125]{2,1,0} fusion(p0), kind=kLoop, calls=fused_computation
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 1u);
  EXPECT_TRUE(sameMapSet(
      indexing.entries[0].maps,
      {"(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 1], d1 in [0, 64], d2 in [0, 124]",
       "(d0, d1, d2)[s0] -> (d0, d1, s0), domain: d0 in [0, 1], d1 in [0, 64], d2 in [0, 124], "
       "s0 in [0, 124]"}));
}

// Spec 004, "Indexing Map Simplifier": the reshape round trip composes to the identity, and
// prints as one (the simplifier, not only isl, sees it).
TEST(FusionAnalysis, ReshapeRoundTripComposesToIdentity) {
  REQUIRE_MODELS({"reshape"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[10, 10, 10] parameter(0)
  reshape1 = f32[50, 20] reshape(p0)
  ROOT reshape2 = f32[10, 10, 10] reshape(reshape1)
}
ENTRY e {
  p0 = f32[10, 10, 10] parameter(0)
  ROOT fusion = f32[10, 10, 10] fusion(p0), kind=kLoop, calls=f
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 1u);
  ASSERT_EQ(indexing.entries[0].maps.size(), 1u);
  EXPECT_EQ(printIndexingMap(indexing.entries[0].maps[0]),
            "(d0, d1, d2) -> (d0, d1, d2),\ndomain:\nd0 in [0, 9],\nd1 in [0, 9],\nd2 in [0, 9]");
  InstructionIndexing inverse = computeInputToOutputIndexing(entryRoot(module), 0);
  ASSERT_EQ(inverse.entries.size(), 1u);
  EXPECT_TRUE(sameMapSet(inverse.entries[0].maps,
                         {"(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], "
                          "d2 in [0, 9]"}));
}

// XLA's FusionOpWithReduceOfBroadcast: the init value reaches the parameter as a scalar.
TEST(FusionAnalysis, ReduceOfBroadcastReachesBothParameters) {
  REQUIRE_MODELS({"reduce", "broadcast", "constant"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
max {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT max = f32[] maximum(p0, p1)
}
f {
  p0 = f32[15, 20] parameter(0)
  p0_init = f32[] parameter(1)
  p0_bcast = f32[15, 32, 20, 64] broadcast(p0), dimensions={0, 2}
  ROOT reduce_2 = f32[15, 64] reduce(p0_bcast, p0_init), dimensions={1, 2}, to_apply=max
}
ENTRY e {
  p0 = f32[15, 20] parameter(0)
  p0_init = f32[] constant(-inf)
  ROOT fusion = f32[15, 64] fusion(p0, p0_init), kind=kLoop, calls=f
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 2u);
  EXPECT_TRUE(sameMapSet(indexing.entries[0].maps,
                         {"(d0, d1)[s0] -> (d0, s0), domain: d0 in [0, 14], d1 in [0, 63], "
                          "s0 in [0, 19]"}));
  EXPECT_TRUE(sameMapSet(indexing.entries[1].maps,
                         {"(d0, d1) -> (), domain: d0 in [0, 14], d1 in [0, 63]"}));
}

// An unmodeled op inside a fusion makes what lies behind it unknown, and only that.
TEST(FusionAnalysis, UnknownOpInsideFusionMakesOnlyItsInputsUnknown) {
  REQUIRE_MODELS({"add"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[4, 4] parameter(0)
  p1 = f32[4, 4] parameter(1)
  solved = f32[4, 4] triangular-solve(p0, p1), left_side=true
  ROOT sum = f32[4, 4] add(solved, p1)
}
ENTRY e {
  p0 = f32[4, 4] parameter(0)
  p1 = f32[4, 4] parameter(1)
  ROOT fusion = f32[4, 4] fusion(p0, p1), kind=kLoop, calls=f
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 2u);
  EXPECT_TRUE(indexing.entries[0].unknown);
  EXPECT_TRUE(indexing.entries[0].maps.empty());
  // p1 is read directly by the add (a known map) and through the solve (unknown).
  EXPECT_TRUE(indexing.entries[1].unknown);
  EXPECT_TRUE(sameMapSet(indexing.entries[1].maps,
                         {"(d0, d1) -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 3]"}));
}

// An unused fusion operand is read nowhere: no maps, and not unknown.
TEST(FusionAnalysis, UnusedParameterHasNoMaps) {
  REQUIRE_MODELS({"negate"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT n = f32[4] negate(p0)
}
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT fusion = f32[4] fusion(p0, p1), kind=kLoop, calls=f
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 2u);
  EXPECT_TRUE(sameMapSet(indexing.entries[0].maps, {"(d0) -> (d0), domain: d0 in [0, 3]"}));
  EXPECT_TRUE(indexing.entries[1].maps.empty());
  EXPECT_FALSE(indexing.entries[1].unknown);
  EXPECT_EQ(printIndexing(indexing, "operand"),
            "operand id = 0 (d0) -> (d0),\ndomain:\nd0 in [0, 3]\n\noperand id = 1\n");
}

// A tuple root: each fusion result has its own maps.
TEST(FusionAnalysis, TupleRootSelectsTheResult) {
  REQUIRE_MODELS({"negate", "transpose", "tuple"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[3, 5] parameter(0)
  n = f32[3, 5] negate(p0)
  t = f32[5, 3] transpose(p0), dimensions={1, 0}
  ROOT r = (f32[3, 5], f32[5, 3]) tuple(n, t)
}
ENTRY e {
  p0 = f32[3, 5] parameter(0)
  ROOT fusion = (f32[3, 5], f32[5, 3]) fusion(p0), kind=kLoop, calls=f
})");
  InstructionIndexing second = computeOutputToInputIndexing(entryRoot(module), 1);
  ASSERT_EQ(second.entries.size(), 1u);
  EXPECT_TRUE(sameMapSet(second.entries[0].maps,
                         {"(d0, d1) -> (d1, d0), domain: d0 in [0, 4], d1 in [0, 2]"}));
  InstructionIndexing forward = computeInputToOutputIndexing(entryRoot(module), 0);
  ASSERT_EQ(forward.entries.size(), 2u);
  EXPECT_TRUE(sameMapSet(forward.entries[0].maps,
                         {"(d0, d1) -> (d0, d1), domain: d0 in [0, 2], d1 in [0, 4]"}));
  EXPECT_TRUE(sameMapSet(forward.entries[1].maps,
                         {"(d0, d1) -> (d1, d0), domain: d0 in [0, 2], d1 in [0, 4]"}));
}

// XLA's FusionOpWithDynSliceOfDynSlice: offsets add up as runtime variables (the inner
// slice's first, as XLA orders them), and an offset operand's map keeps no runtime variable
// it does not use.
TEST(FusionAnalysis, DynamicSliceOfDynamicSliceAddsOffsets) {
  REQUIRE_MODELS({"dynamic-slice"});
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  %src = s32[150, 64] parameter(0)
  %of11 = s32[] parameter(1)
  %of12 = s32[] parameter(2)
  %of21 = s32[] parameter(3)
  %of22 = s32[] parameter(4)
  %ds1 = s32[50, 32] dynamic-slice(s32[150, 64] %src, s32[] %of11, s32[] %of12),
    dynamic_slice_sizes={50, 32}
  ROOT %ds2 = s32[25, 16] dynamic-slice(s32[50, 32] %ds1, s32[] %of21, s32[] %of22),
    dynamic_slice_sizes={25, 16}
}
ENTRY e {
  %p0 = s32[150, 64] parameter(0)
  %p1 = s32[] parameter(1)
  %p2 = s32[] parameter(2)
  %p3 = s32[] parameter(3)
  %p4 = s32[] parameter(4)
  ROOT fusion = s32[25, 16] fusion(p0, p1, p2, p3, p4), kind=kLoop, calls=f
})");
  InstructionIndexing indexing = computeOutputToInputIndexing(entryRoot(module));
  ASSERT_EQ(indexing.entries.size(), 5u);
  EXPECT_TRUE(sameMapSet(indexing.entries[0].maps,
                         {"(d0, d1){rt0, rt1, rt2, rt3} -> (d0 + rt0 + rt2, d1 + rt1 + rt3), "
                          "domain: d0 in [0, 24], d1 in [0, 15], rt0 in [0, 100], "
                          "rt1 in [0, 32], rt2 in [0, 25], rt3 in [0, 16]"}));
  for (size_t k = 1; k < 5; ++k) {
    ASSERT_EQ(indexing.entries[k].maps.size(), 1u) << k;
    EXPECT_EQ(printIndexingMap(indexing.entries[k].maps[0]),
              "(d0, d1) -> (),\ndomain:\nd0 in [0, 24],\nd1 in [0, 15]")
        << k;
  }
}

TEST(FusionAnalysis, OperandCountMismatchIsADiagnostic) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[4] parameter(0)
  ROOT n = f32[4] negate(p0)
}
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT fusion = f32[4] fusion(p0, p1), kind=kLoop, calls=f
})",
                                           "m.hlo");
  try {
    computeOutputToInputIndexing(entryRoot(module));
    ADD_FAILURE() << "no diagnostic";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().line, 9);
    EXPECT_EQ(e.location().column, 24);
    EXPECT_EQ(e.message(), "fusion: has 2 operands but 'f' has 1 parameters");
  }
}

}  // namespace
}  // namespace idxmap
