// Every gather and dynamic_gather constraint label, each broken by one hand-written change to
// a valid op: the label must be among the violations reported.
#include <gtest/gtest.h>

#include <functional>

#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using testing::describe;
using testing::labelsOf;
using testing::specGatherExample;

struct GatherBreak {
  const char* label;
  std::function<void(GatherOp&)> mutate;
};

// Based on the spec example: operand 2x3x4x2, start_indices 2x2x3x2, offset_dims [3, 4],
// collapsed [1], operand batching [0], indices batching [1], start_index_map [2, 1],
// index_vector_dim 3, slice_sizes [1, 1, 2, 2], result 2x2x3x2x2.
const std::vector<GatherBreak>& gatherBreaks() {
  static const std::vector<GatherBreak> breaks = {
      {"I2", [](GatherOp& op) { op.start_indices.element_type = "f32"; }},
      {"C1", [](GatherOp& op) { op.dimension_numbers.offset_dims = {3}; }},
      {"C2", [](GatherOp& op) { op.dimension_numbers.index_vector_dim = 5; }},
      {"C3", [](GatherOp& op) { op.dimension_numbers.start_index_map = {2}; }},
      {"C4",
       [](GatherOp& op) {
         op.dimension_numbers.offset_dims = {4, 3};
       }},
      {"C4",
       [](GatherOp& op) {
         op.dimension_numbers.offset_dims = {3, 3};
       }},
      {"C5",
       [](GatherOp& op) {
         op.dimension_numbers.offset_dims = {3, 5};
       }},
      {"C6", [](GatherOp& op) { op.dimension_numbers.operand_batching_dims = {1}; }},
      {"C6",
       [](GatherOp& op) {
         op.dimension_numbers.collapsed_slice_dims = {1, 1};
       }},
      {"C7",
       [](GatherOp& op) {
         op.dimension_numbers.collapsed_slice_dims = {3, 1};
       }},
      {"C8", [](GatherOp& op) { op.dimension_numbers.collapsed_slice_dims = {4}; }},
      {"C9",
       [](GatherOp& op) {
         op.slice_sizes = {1, 2, 2, 2};
       }},
      {"C10",
       [](GatherOp& op) {
         op.dimension_numbers.operand_batching_dims = {3, 0};
       }},
      {"C11", [](GatherOp& op) { op.dimension_numbers.operand_batching_dims = {7}; }},
      {"C12",
       [](GatherOp& op) {
         op.slice_sizes = {2, 1, 2, 2};
       }},
      {"C13",
       [](GatherOp& op) {
         op.dimension_numbers.start_indices_batching_dims = {1, 1};
       }},
      {"C14", [](GatherOp& op) { op.dimension_numbers.start_indices_batching_dims = {4}; }},
      {"C15", [](GatherOp& op) { op.dimension_numbers.start_indices_batching_dims = {3}; }},
      {"C16",
       [](GatherOp& op) {
         op.dimension_numbers.start_indices_batching_dims = {1, 2};
       }},
      {"C17",
       [](GatherOp& op) {
         op.operand.shape = {3, 3, 4, 2};
       }},
      {"C18",
       [](GatherOp& op) {
         op.dimension_numbers.start_index_map = {2, 0};
       }},
      {"C18",
       [](GatherOp& op) {
         op.dimension_numbers.start_index_map = {2, 2};
       }},
      {"C19",
       [](GatherOp& op) {
         op.dimension_numbers.start_index_map = {2, 4};
       }},
      {"C20",
       [](GatherOp& op) {
         op.slice_sizes = {1, 1, 2};
       }},
      {"C21",
       [](GatherOp& op) {
         op.slice_sizes = {1, 1, 2, 3};
       }},
      {"C21",
       [](GatherOp& op) {
         op.slice_sizes = {1, 1, -1, 2};
       }},
      {"C22",
       [](GatherOp& op) {
         op.result->shape = {2, 2, 3, 2, 3};
       }},
      {"C23", [](GatherOp& op) { op.result->element_type = "i64"; }},
  };
  return breaks;
}

TEST(GatherValidation, EveryLabelHasAViolatingCase) {
  std::set<std::string> covered;
  for (const GatherBreak& b : gatherBreaks()) covered.insert(b.label);
  for (int i = 1; i <= 23; ++i) EXPECT_TRUE(covered.count("C" + std::to_string(i))) << i;
}

TEST(GatherValidation, EachBreakIsReportedWithItsLabel) {
  for (const GatherBreak& b : gatherBreaks()) {
    GatherOp op = specGatherExample();
    b.mutate(op);
    std::vector<Violation> violations = validateGather(op);
    EXPECT_TRUE(labelsOf(violations).count(b.label)) << b.label << ":\n" << describe(violations);
  }
}

// The diagnostic the issue shows, word for word, with the attribute it concerns.
TEST(GatherValidation, C6Message) {
  GatherOp op = specGatherExample();
  op.dimension_numbers.collapsed_slice_dims = {1};
  op.dimension_numbers.operand_batching_dims = {1};
  std::vector<Violation> violations = validateGather(op);
  auto c6 = std::find_if(violations.begin(), violations.end(),
                         [](const Violation& v) { return v.label == "C6"; });
  ASSERT_NE(c6, violations.end()) << describe(violations);
  EXPECT_EQ(c6->message,
            "stablehlo.gather (C6): dimension 1 is in both collapsed_slice_dims and "
            "operand_batching_dims");
  EXPECT_EQ(c6->attribute, "collapsed_slice_dims");
}

// Broken inputs of a check are another check's business: no crash, no out-of-range reads.
TEST(GatherValidation, WildlyWrongAttributesAreReportedNotFatal) {
  GatherOp op = specGatherExample();
  op.dimension_numbers.offset_dims = {-3, 99};
  op.dimension_numbers.collapsed_slice_dims = {-1, 42};
  op.dimension_numbers.operand_batching_dims = {17};
  op.dimension_numbers.start_indices_batching_dims = {-5};
  op.dimension_numbers.start_index_map = {9, -9, 3};
  op.dimension_numbers.index_vector_dim = -2;
  op.slice_sizes = {};
  EXPECT_FALSE(validateGather(op).empty());
}

// Spec 002: a `?` dim holds any size up to its bound. "tensor<?x5xf32> with bound 3 is
// compatible with tensor<2x5xf32> but not with tensor<7x5xf32>": only sizes no run time could
// give break a constraint.
TensorType dynamicLike(const TensorType& type, std::vector<int64_t> bounds = {}) {
  TensorType dynamic = type;
  dynamic.shape.assign(type.shape.size(), kDynamic);
  dynamic.bounds = std::move(bounds);
  return dynamic;
}

TEST(GatherValidation, UnboundedDynamicDimsAreCompatibleWithEverySize) {
  GatherOp op = specGatherExample();
  op.operand = dynamicLike(op.operand);
  op.start_indices = dynamicLike(op.start_indices);
  op.result = dynamicLike(*op.result);
  EXPECT_TRUE(validateGather(op).empty()) << describe(validateGather(op));
  // Static and dynamic mixed: the static sizes still have to agree with the formula.
  GatherOp mixed = specGatherExample();
  mixed.start_indices.shape = {2, kDynamic, 3, 2};
  EXPECT_TRUE(validateGather(mixed).empty()) << describe(validateGather(mixed));
  mixed.result->shape = {2, 2, 4, 2, 2};  // dim 2 comes from start_indices dim 2, which is 3
  EXPECT_EQ(labelsOf(validateGather(mixed)), std::set<std::string>{"C22"});
}

TEST(GatherValidation, BoundsLimitWhatADynamicDimIsCompatibleWith) {
  // C21: slice_sizes[3] = 2 needs dim(operand, 3) >= 2 at run time.
  GatherOp op = specGatherExample();
  op.operand.shape[3] = kDynamic;
  op.operand.bounds = {kDynamic, kDynamic, kDynamic, 2};
  EXPECT_TRUE(validateGather(op).empty()) << describe(validateGather(op));
  op.operand.bounds[3] = 1;
  EXPECT_EQ(labelsOf(validateGather(op)), std::set<std::string>{"C21"});

  // C17: dim(operand, 0) = dim(start_indices, 1) = 2, with the operand's dim `?`.
  GatherOp batch = specGatherExample();
  batch.operand.shape[0] = kDynamic;
  batch.operand.bounds = {2, kDynamic, kDynamic, kDynamic};
  EXPECT_TRUE(validateGather(batch).empty()) << describe(validateGather(batch));
  batch.operand.bounds[0] = 1;
  EXPECT_EQ(labelsOf(validateGather(batch)), std::set<std::string>{"C17"});

  // C3: two start indices need an index vector dim that can be 2.
  GatherOp vector = specGatherExample();
  vector.start_indices.shape[3] = kDynamic;
  vector.start_indices.bounds = {kDynamic, kDynamic, kDynamic, 4};
  EXPECT_TRUE(validateGather(vector).empty()) << describe(validateGather(vector));
  vector.start_indices.bounds[3] = 1;
  EXPECT_EQ(labelsOf(validateGather(vector)), std::set<std::string>{"C3"});

  // C22: the result's batch dim may be `?` only within its bound of the inferred size 2.
  GatherOp result = specGatherExample();
  result.result->shape[0] = kDynamic;
  result.result->bounds = {8, kDynamic, kDynamic, kDynamic, kDynamic};
  EXPECT_TRUE(validateGather(result).empty()) << describe(validateGather(result));
  result.result->bounds[0] = 1;
  EXPECT_EQ(labelsOf(validateGather(result)), std::set<std::string>{"C22"});
}

// StableHLO's gather_c22 test: all dims dynamic, the declared result of rank 1 where the
// formula gives rank 7. That is C22's violation alone: C5 bounds offset_dims by the rank the
// formula implies, not by the declared one.
TEST(GatherValidation, DeclaredResultOfTheWrongRankIsC22) {
  GatherOp op;
  op.operand = {std::vector<int64_t>(8, kDynamic), "i32"};
  op.start_indices = {std::vector<int64_t>(3, kDynamic), "i32"};
  op.dimension_numbers.offset_dims = {0, 2, 3, 4, 5};
  op.dimension_numbers.collapsed_slice_dims = {0, 1, 3};
  op.dimension_numbers.start_index_map = {0, 1};
  op.dimension_numbers.index_vector_dim = 2;
  op.slice_sizes = {1, 1, 8, 1, 7, 1, 6, 1};
  op.result = TensorType{{3}, "i32"};
  std::vector<Violation> violations = validateGather(op);
  EXPECT_EQ(labelsOf(violations), std::set<std::string>{"C22"}) << describe(violations);
  op.result = TensorType{{8, kDynamic, 7, 1, 6, 1, kDynamic}, "i32"};
  EXPECT_TRUE(validateGather(op).empty()) << describe(validateGather(op));
}

// I1: the operand may be quantized per tensor, not per axis.
TEST(GatherValidation, PerAxisQuantizedOperandIsI1) {
  GatherOp op = specGatherExample();
  op.operand.element_type = op.result->element_type = "!quant.uniform<i8:f32, 1.0:17>";
  EXPECT_TRUE(validateGather(op).empty()) << describe(validateGather(op));
  op.operand.element_type = op.result->element_type = "!quant.uniform<i8:f32:0, {0.1:-30}>";
  EXPECT_EQ(labelsOf(validateGather(op)), std::set<std::string>{"I1"});
}

DynamicGatherOp specDynamicGatherExample() {
  DynamicGatherOp op;
  op.operand = {{3, 4, 2}, "i64"};
  op.start_indices = {{2, 3, 2}, "i64"};
  op.slice_sizes_type = {{3}, "i64"};
  op.dimension_numbers.offset_dims = {2, 3};
  op.dimension_numbers.collapsed_slice_dims = {0};
  op.dimension_numbers.start_index_map = {1, 0};
  op.dimension_numbers.index_vector_dim = 2;
  op.slice_sizes = {1, 2, 2};
  op.result = TensorType{{2, 3, 2, 2}, "i64"};
  return op;
}

struct DynamicGatherBreak {
  const char* label;
  std::function<void(DynamicGatherOp&)> mutate;
};

TEST(DynamicGatherValidation, SpecExampleIsValid) {
  std::vector<Violation> violations = validateDynamicGather(specDynamicGatherExample());
  EXPECT_TRUE(violations.empty()) << describe(violations);
}

TEST(DynamicGatherValidation, EachBreakIsReportedWithItsLabel) {
  const std::vector<DynamicGatherBreak> breaks = {
      {"I3", [](DynamicGatherOp& op) { op.slice_sizes_type.element_type = "f32"; }},
      {"C1", [](DynamicGatherOp& op) { op.dimension_numbers.offset_dims = {2}; }},
      {"C1",
       [](DynamicGatherOp& op) {
         op.dimension_numbers.operand_batching_dims = {1};
         op.dimension_numbers.start_indices_batching_dims = {1};
       }},
      {"C2", [](DynamicGatherOp& op) { op.dimension_numbers.index_vector_dim = 4; }},
      {"C3", [](DynamicGatherOp& op) { op.dimension_numbers.start_index_map = {1}; }},
      {"C4",
       [](DynamicGatherOp& op) {
         op.dimension_numbers.offset_dims = {3, 2};
       }},
      {"C5",
       [](DynamicGatherOp& op) {
         op.dimension_numbers.offset_dims = {2, 4};
       }},
      {"C6",
       [](DynamicGatherOp& op) {
         op.dimension_numbers.collapsed_slice_dims = {0, 0};
       }},
      {"C7", [](DynamicGatherOp& op) { op.dimension_numbers.collapsed_slice_dims = {3}; }},
      {"C8",
       [](DynamicGatherOp& op) {
         op.slice_sizes = {2, 2, 2};
       }},
      {"C9",
       [](DynamicGatherOp& op) {
         op.dimension_numbers.start_index_map = {1, 1};
       }},
      {"C10",
       [](DynamicGatherOp& op) {
         op.dimension_numbers.start_index_map = {1, 3};
       }},
      {"C11",
       [](DynamicGatherOp& op) {
         op.slice_sizes_type.shape = {4};
         op.slice_sizes = {1, 2, 2, 1};
       }},
      {"C12",
       [](DynamicGatherOp& op) {
         op.slice_sizes = {1, 5, 2};
       }},
      {"C13",
       [](DynamicGatherOp& op) {
         op.result->shape = {2, 3, 2, 3};
       }},
      {"C14", [](DynamicGatherOp& op) { op.result->element_type = "f32"; }},
  };
  std::set<std::string> covered;
  for (const DynamicGatherBreak& b : breaks) {
    covered.insert(b.label);
    DynamicGatherOp op = specDynamicGatherExample();
    b.mutate(op);
    std::vector<Violation> violations = validateDynamicGather(op);
    EXPECT_TRUE(labelsOf(violations).count(b.label)) << b.label << ":\n" << describe(violations);
    for (const Violation& v : violations)
      EXPECT_EQ(v.message.rfind("stablehlo.dynamic_gather (", 0), 0u) << v.message;
  }
  for (int i = 1; i <= 14; ++i) EXPECT_TRUE(covered.count("C" + std::to_string(i))) << i;
}

// Slice sizes that are not a constant: their checks are skipped and C13 infers `?` offset dims,
// so only the rank and the batch dims can be wrong (StableHLO's dynamic_gather_c22 tests).
TEST(DynamicGatherValidation, UnknownSliceSizesInferDynamicOffsetDims) {
  DynamicGatherOp op = specDynamicGatherExample();
  op.slice_sizes_known = false;
  op.slice_sizes = {};
  op.result->shape = {2, 3, 7, 9};  // offsets are `?`: any size
  EXPECT_TRUE(validateDynamicGather(op).empty()) << describe(validateDynamicGather(op));
  op.result->shape = {2, 4, 7, 9};  // but dim 1 is start_indices' dim 1, which is 3
  EXPECT_EQ(labelsOf(validateDynamicGather(op)), std::set<std::string>{"C13"});
  op.result->shape = {3};
  EXPECT_EQ(labelsOf(validateDynamicGather(op)), std::set<std::string>{"C13"});
  op.result->shape = {2, 3, 7, 9};
  op.slice_sizes_type.shape = {kDynamic};  // its count unknown too: still fine
  EXPECT_TRUE(validateDynamicGather(op).empty()) << describe(validateDynamicGather(op));
  op.slice_sizes_type.shape = {2};
  EXPECT_EQ(labelsOf(validateDynamicGather(op)), std::set<std::string>{"C11"});
}

}  // namespace
}  // namespace idxmap::gather_scatter
