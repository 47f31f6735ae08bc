// XLA's HLO gather and scatter read into the StableHLO models: maps derived by hand for
// XLA's own example, the spec's constraint labels located at the attribute they concern, HLO
// element type names, variadic scatter with a tuple result, and a scatter's indexing unknown.
#include <gtest/gtest.h>

#include "ops/hlo/models/gather_scatter.h"
#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace {

std::string gatherText(const std::string& collapsed, const std::string& indicesType = "s64",
                       const std::string& offsetDims = "{1,2}",
                       const std::string& resultShape = "[42,1,1]") {
  return R"(HloModule m
ENTRY e {
  p0 = f32[33,76] parameter(0)
  idx = )" +
         indicesType +
         R"([42,1] parameter(1)
  ROOT gather = f32)" +
         resultShape + R"( gather(p0, idx), offset_dims=)" + offsetDims +
         R"(, collapsed_slice_dims=)" + collapsed + R"(,
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,1}
})";
}

// Row rt0 (clamped into [0, 33 - 1]) and column d2 of p0; the indices' row d0, entry s0.
TEST(HloGatherOp, MapsAsXlaWritesThem) {
  Hlo hlo(gatherText("{}"));
  InstructionIndexing out = outToIn(hlo.root());
  expectMap(out.entries[0],
            "(d0, d1, d2){rt0} -> (d1 + rt0, d2), domain: d0 in [0, 41], d1 in [0, 0], "
            "d2 in [0, 0], rt0 in [0, 32]");
  expectMap(out.entries[1],
            "(d0, d1, d2)[s0] -> (d0, s0), domain: d0 in [0, 41], d1 in [0, 0], d2 in [0, 0], "
            "s0 in [0, 0]");
  gather_scatter::GatherOp op = ops::hloGatherOp(hlo.root());
  EXPECT_EQ(op.start_indices.element_type, "i64");  // HLO's s64 in StableHLO's words
  EXPECT_EQ(op.slice_sizes, (std::vector<int64_t>{1, 1}));
  EXPECT_FALSE(op.indices_are_sorted);
}

TEST(HloGatherOp, ConstraintsNameTheSpecLabelAtTheAttribute) {
  // collapsed_slice_dims must be sorted (C7); rank 2 = 0 offset dims + 2 collapsed.
  std::string text = gatherText("{1,0}", "s64", "{}", "[42]");
  Hlo hlo(text);
  try {
    modelOf(hlo.root()).validate(hlo.root());
    ADD_FAILURE() << "accepted";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.message().rfind("gather (C7)", 0), 0u) << error.message();
    size_t at = text.find("collapsed_slice_dims=") + std::string("collapsed_slice_dims=").size();
    size_t lineStart = text.rfind('\n', at) + 1;
    EXPECT_EQ(error.location().column, static_cast<int>(at - lineStart) + 1) << error.what();
  }
  Hlo floats(gatherText("{}", "f32"));
  try {
    modelOf(floats.root()).validate(floats.root());
    ADD_FAILURE() << "float indices accepted";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.message().rfind("gather (I2)", 0), 0u) << error.message();
  }
}

TEST(HloScatterOp, VariadicScatterIsReadAndItsIndexingIsUnknown) {
  Hlo hlo(R"(HloModule m
add2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = f32[] parameter(2)
  d = f32[] parameter(3)
  ROOT t = (f32[], f32[]) tuple(c, d)
}
ENTRY e {
  in0 = f32[300,200] parameter(0)
  in1 = f32[300,200] parameter(1)
  idx = s32[42,1] parameter(2)
  up0 = f32[42,10,20] parameter(3)
  up1 = f32[42,10,20] parameter(4)
  ROOT s = (f32[300,200], f32[300,200]) scatter(in0, in1, idx, up0, up1),
      update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, unique_indices=true, to_apply=add2
})");
  EXPECT_NO_THROW(modelOf(hlo.root()).validate(hlo.root()));
  gather_scatter::ScatterOp op = ops::hloScatterOp(hlo.root());
  EXPECT_EQ(op.inputs.size(), 2u);
  EXPECT_EQ(op.updates.size(), 2u);
  EXPECT_EQ(op.scatter_indices.element_type, "i32");
  EXPECT_TRUE(op.unique_indices);
  EXPECT_EQ(op.results.size(), 2u);
  // Each new value its update: replace, for both inputs.
  EXPECT_EQ(op.update_computation, gather_scatter::UpdateComputation::kReplace);
  InstructionIndexing out = outToIn(hlo.root());
  for (const OperandIndexing& entry : out.entries) EXPECT_TRUE(entry.unknown);
}

TEST(HloScatterOp, BrokenAttributesAreDiagnosed) {
  Hlo hlo(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  in = f32[300,200] parameter(0)
  idx = s32[42,1] parameter(1)
  up = f32[42,10,20] parameter(2)
  ROOT s = f32[300,200] scatter(in, idx, up), update_window_dims={1,2},
      inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=7,
      to_apply=add
})");
  try {
    modelOf(hlo.root()).validate(hlo.root());
    ADD_FAILURE() << "accepted";
  } catch (const ParseError& error) {
    EXPECT_NE(error.message().find("scatter (C"), std::string::npos) << error.message();
    EXPECT_NE(error.message().find("index_vector_dim"), std::string::npos) << error.message();
  }
}

}  // namespace
}  // namespace idxmap::optest
