// tensor.gather / tensor.scatter (spec 001): the spec's examples and their result types, MLIR's
// verifier rules, and randomized agreement between spec 001's formula (the oracle) and the
// StableHLO lowering run through both StableHLO evaluators. Out-of-bounds and repeated
// coordinates have no defined result: they must be reported, never clamped.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <set>

#include "core/text.h"
#include "ops/eval/lowered_gather.h"
#include "ops/forms/tensor_gather.h"
#include "tests/ops/forms/oracles.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using namespace testing;

constexpr int64_t Q = kDynamic;

TensorGatherOp gather(TensorType source, TensorType indices, Index dims,
                      std::optional<TensorType> result, bool unique = false) {
  return {std::move(source), std::move(indices), std::move(dims), unique, std::move(result)};
}

std::string messages(const std::vector<Violation>& violations) { return describe(violations); }

// --- Spec 001's examples -------------------------------------------------------------------

TEST(TensorGatherSpec, ImplicitAllDimsGatherElements) {
  // `tensor<4x4x4xf32>[tensor<1x2x 3xindex>] -> tensor<1x2xf32>`: one element per triple.
  TensorGatherOp op =
      gather({{4, 4, 4}, "f32"}, {{1, 2, 3}, "index"}, {0, 1, 2}, TensorType{{1, 2}, "f32"});
  EXPECT_TRUE(validateTensorGather(op).empty()) << messages(validateTensorGather(op));
  EXPECT_TRUE(isRankReduced(op));
  EXPECT_EQ(inferTensorGatherResultType(op.source, op.indices, op.gather_dims, true).shape,
            (Index{1, 2}));
  EXPECT_EQ(inferTensorGatherResultType(op.source, op.indices, op.gather_dims, false).shape,
            (Index{1, 2, 1, 1, 1}));
}

TEST(TensorGatherSpec, GatherAlongOneDimension) {
  // `tensor<2x3x4xf32>[tensor<5x6x 1xindex>] -> tensor<5x6x2x1x4xf32>`.
  TensorGatherOp op =
      gather({{2, 3, 4}, "f32"}, {{5, 6, 1}, "index"}, {1}, TensorType{{5, 6, 2, 1, 4}, "f32"});
  EXPECT_TRUE(validateTensorGather(op).empty()) << messages(validateTensorGather(op));
  EXPECT_FALSE(isRankReduced(op));
}

TEST(TensorGatherSpec, GatherAlongTwoDimensionsBothSpellings) {
  // `(tensor<2x3x4xf32>, tensor<5x6x 2xindex>) -> tensor<5x6x3xf32>`, "could also be spelled
  // tensor<5x6x 1x3x1xf32>".
  for (Index shape : {Index{5, 6, 3}, Index{5, 6, 1, 3, 1}}) {
    TensorGatherOp op =
        gather({{2, 3, 4}, "f32"}, {{5, 6, 2}, "index"}, {0, 2}, TensorType{shape, "f32"});
    EXPECT_TRUE(validateTensorGather(op).empty()) << messages(validateTensorGather(op));
    EXPECT_EQ(isRankReduced(op), shape.size() == 3);
  }
}

TEST(TensorGatherSpec, DynamicSizesFromTheLoweringDiscussion) {
  // `tensor.gather %dest[%indices]: tensor<4x?xf32>[tensor<?x6x 2xindex>] -> tensor<?x6xf32>`.
  TensorGatherOp op =
      gather({{4, Q}, "f32"}, {{Q, 6, 2}, "index"}, {0, 1}, TensorType{{Q, 6}, "f32"});
  EXPECT_TRUE(validateTensorGather(op).empty()) << messages(validateTensorGather(op));
  EXPECT_THROW(lowerTensorGather(op), Error);  // evaluation needs sizes
}

TEST(TensorGatherSpec, ScatterExamples) {
  // `tensor<1x2xf32> into tensor<4x4x4xf32>[tensor<1x2x 3xindex>]`, implicit coordinates.
  TensorScatterOp elements{{{1, 2}, "f32"},
                           {{4, 4, 4}, "f32"},
                           {{1, 2, 3}, "index"},
                           {0, 1, 2},
                           true,
                           TensorType{{4, 4, 4}, "f32"}};
  EXPECT_TRUE(validateTensorScatter(elements).empty()) << messages(validateTensorScatter(elements));
  // `coordinates = [1] : tensor<5x6x4x4xf32> into tensor<4x4x4xf32>[tensor<5x6x 1xindex>]`.
  TensorScatterOp slices{
      {{5, 6, 4, 4}, "f32"},       {{4, 4, 4}, "f32"}, {{5, 6, 1}, "index"}, {1}, true,
      TensorType{{4, 4, 4}, "f32"}};
  EXPECT_TRUE(validateTensorScatter(slices).empty()) << messages(validateTensorScatter(slices));
  EXPECT_TRUE(isRankReduced(slices));
}

TEST(TensorGatherSpec, StrawmanScatterIsNotTypeCorrect) {
  // The RFC's strawman `scatter %3, %dest[%unique_indices] unique: tensor<?x6xf32> into
  // tensor<?x6xf32>[tensor<4x?x 2xindex>]`: with both dims gathered, the source would have to
  // be 4x? (or 4x?x1x1), so the verifier rejects it.
  TensorScatterOp op{{{Q, 6}, "f32"}, {{Q, 6}, "f32"}, {{4, Q, 2}, "index"}, {0, 1}, true, {}};
  std::vector<Violation> violations = validateTensorScatter(op);
  ASSERT_EQ(labelsOf(violations), std::set<std::string>{"source-type"});
  EXPECT_EQ(violations[0].message,
            "tensor.scatter: source type mismatch: expected tensor<4x?x1x1xf32> or its "
            "rank-reduced variant tensor<4x?xf32> (got: tensor<?x6xf32>)");
}

TEST(TensorGatherSpec, HandComputedSlices) {
  // source[a][b][c] = 100 + 12a + 4b + c; gather_dims(0, 2) at (1, 3) reads source[1][:][3].
  TensorGatherOp op =
      gather({{2, 3, 4}, "i64"}, {{1, 2}, "index"}, {0, 2}, TensorType{{1, 3}, "i64"});
  LoweredGather lowered = lowerTensorGather(op);
  Tensor source = numbered("i64", {2, 3, 4});
  Tensor indices = tensorFrom("index", {1, 2}, "[[1, 3]]");
  Tensor expected = tensorFrom("i64", {1, 3}, "[[115, 119, 123]]");
  EXPECT_EQ(evaluateLoweredGather(lowered, source, indices, Engine::kReference), expected);
  EXPECT_EQ(evaluateLoweredGather(lowered, source, indices, Engine::kMaps), expected);
  EXPECT_EQ(tensorGatherOracle(source, indices, {0, 2}, true), expected);
}

TEST(TensorGatherSpec, MapRangesRuntimeVariablesToTheSource) {
  // (5x6 of pairs) -> 5x6x3 over 2x3x4: rt0 is the dim-0 coordinate, rt1 the dim-2 one, each
  // ranged to the source dim it indexes: no clamping is hidden in the map.
  LoweredGather lowered = lowerTensorGather(
      gather({{2, 3, 4}, "f32"}, {{5, 6, 2}, "index"}, {0, 2}, TensorType{{5, 6, 3}, "f32"}));
  IndexingMap expected = parseIndexingMap(
      "(d0, d1, d2){rt0, rt1} -> (rt0, d2, rt1), domain: d0 in [0, 4], d1 in [0, 5], "
      "d2 in [0, 2], rt0 in [0, 1], rt1 in [0, 3]");
  EXPECT_EQ(printIndexingMap(gatherOutputToOperandMap(lowered.op)), printIndexingMap(expected));
}

// --- MLIR's verifier rules -----------------------------------------------------------------

struct BadGather {
  const char* name;
  TensorGatherOp op;
  const char* label;
  const char* message;
};

class TensorGatherRules : public ::testing::TestWithParam<BadGather> {};

TEST_P(TensorGatherRules, NameTheBrokenRule) {
  std::vector<Violation> violations = validateTensorGather(GetParam().op);
  ASSERT_EQ(violations.size(), 1u) << messages(violations);
  EXPECT_EQ(violations[0].label, GetParam().label);
  EXPECT_EQ(violations[0].message, GetParam().message);
  EXPECT_THROW(lowerTensorGather(GetParam().op), Error);
}

const TensorType kSource{{2, 3, 4}, "f32"};

INSTANTIATE_TEST_SUITE_P(
    Verifier, TensorGatherRules,
    ::testing::Values(
        BadGather{"Empty", gather(kSource, {{5, 0}, "index"}, {}, {}), "dims-non-empty",
                  "tensor.gather: gather_dims must be non-empty"},
        BadGather{"Overflow", gather(kSource, {{5, 4}, "index"}, {0, 1, 2, 3}, {}), "dims-overflow",
                  "tensor.gather: gather_dims overflow source rank"},
        BadGather{"Length", gather(kSource, {{5, 2}, "index"}, {1}, {}), "dims-length",
                  "tensor.gather: gather_dims length must match the size of last dimension "
                  "of indices"},
        // spec 001's rejected `index_dim(1)` idea: the coordinates are not in the last dim.
        BadGather{"CoordinatesNotLast", gather(kSource, {{5, 2, 6}, "index"}, {0, 2}, {}),
                  "dims-length",
                  "tensor.gather: gather_dims length must match the size of last dimension "
                  "of indices"},
        BadGather{"Negative", gather(kSource, {{5, 1}, "index"}, {-1}, {}), "dims-non-negative",
                  "tensor.gather: gather_dims value must be non-negative"},
        BadGather{"TooLarge", gather(kSource, {{5, 1}, "index"}, {3}, {}), "dims-in-rank",
                  "tensor.gather: gather_dims value must be smaller than source rank"},
        BadGather{"NotIncreasing", gather(kSource, {{5, 2}, "index"}, {2, 0}, {}),
                  "dims-increasing",
                  "tensor.gather: gather_dims values must be strictly increasing"},
        BadGather{"Repeated", gather(kSource, {{5, 2}, "index"}, {1, 1}, {}), "dims-increasing",
                  "tensor.gather: gather_dims values must be strictly increasing"},
        BadGather{"ResultShape",
                  gather(kSource, {{5, 6, 2}, "index"}, {0, 2}, TensorType{{5, 6, 3, 1}, "f32"}),
                  "result-type",
                  "tensor.gather: result type mismatch: expected tensor<5x6x1x3x1xf32> or its "
                  "rank-reduced variant tensor<5x6x3xf32> (got: tensor<5x6x3x1xf32>)"},
        BadGather{"ResultElementType",
                  gather(kSource, {{5, 6, 2}, "index"}, {0, 2}, TensorType{{5, 6, 3}, "f16"}),
                  "result-type",
                  "tensor.gather: result type mismatch: expected tensor<5x6x1x3x1xf32> or its "
                  "rank-reduced variant tensor<5x6x3xf32> (got: tensor<5x6x3xf16>)"},
        BadGather{"UnsignedIndices", gather(kSource, {{5, 1}, "ui32"}, {1}, {}), "indices-type",
                  "tensor.gather: operand #1 must be ranked tensor of signless integer or index "
                  "values, but got 'tensor<5x1xui32>'"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(TensorScatterRules, RequiresUnique) {
  TensorScatterOp op{{{5, 3}, "f32"}, {{4, 3}, "f32"}, {{5, 1}, "i32"}, {0}, false, {}};
  std::vector<Violation> violations = validateTensorScatter(op);
  ASSERT_EQ(labelsOf(violations), std::set<std::string>{"unique"});
  EXPECT_EQ(violations[0].message, "tensor.scatter: requires 'unique' attribute to be set");
  EXPECT_THROW(lowerTensorScatter(op), Error);
  op.unique = true;
  EXPECT_TRUE(validateTensorScatter(op).empty());
}

TEST(TensorScatterRules, DimsAreCheckedAgainstDest) {
  TensorScatterOp op{{{5, 3}, "f32"}, {{4, 3}, "f32"}, {{5, 3}, "index"}, {0, 1, 2}, true, {}};
  std::vector<Violation> violations = validateTensorScatter(op);
  ASSERT_EQ(violations.size(), 1u) << messages(violations);
  EXPECT_EQ(violations[0].message, "tensor.scatter: scatter_dims overflow dest rank");
}

TEST(TensorScatterRules, ResultIsTheDestType) {
  TensorScatterOp op{{{5, 3}, "f32"},          {{4, 3}, "f32"}, {{5, 1}, "index"}, {0}, true,
                     TensorType{{4, 3}, "f16"}};
  std::vector<Violation> violations = validateTensorScatter(op);
  ASSERT_EQ(labelsOf(violations), std::set<std::string>{"dest-result-type"});
  EXPECT_NE(violations[0].message.find("failed to verify that result type matches type of dest"),
            std::string::npos);
}

TEST(TensorScatterRules, SourceMustBeTheGatherTypeOverDest) {
  TensorScatterOp op{{{5, 4}, "f32"}, {{4, 3}, "f32"}, {{5, 1}, "index"}, {0}, true, {}};
  std::vector<Violation> violations = validateTensorScatter(op);
  ASSERT_EQ(labelsOf(violations), std::set<std::string>{"source-type"});
  EXPECT_EQ(violations[0].message,
            "tensor.scatter: source type mismatch: expected tensor<5x1x3xf32> or its "
            "rank-reduced variant tensor<5x3xf32> (got: tensor<5x4xf32>)");
}

// --- Randomized agreement ------------------------------------------------------------------

struct RandomTensorGather {
  Tensor source;
  Index dims;
  Tensor indices;
  bool rankReduced;
  bool unique;
};

// Distinct coordinate tuples when `unique`, any in-bounds tuples otherwise.
Tensor randomCoordinates(std::mt19937& rng, const Index& batchShape, const Index& bounds,
                         bool unique) {
  Index shape = batchShape;
  shape.push_back(static_cast<int64_t>(bounds.size()));
  Tensor indices = zeros("index", shape);
  std::set<Index> used;
  for (size_t i = 0; i < indices.ints.size(); i += bounds.size()) {
    Index tuple;
    do {
      tuple.clear();
      for (int64_t bound : bounds) tuple.push_back(uniformIn(rng, 0, bound - 1));
    } while (unique && !used.insert(tuple).second);
    std::copy(tuple.begin(), tuple.end(), indices.ints.begin() + static_cast<ptrdiff_t>(i));
  }
  return indices;
}

RandomTensorGather randomTensorGather(std::mt19937& rng, bool forScatter) {
  RandomTensorGather r;
  const int64_t rank = uniformIn(rng, 1, 4);
  r.source = numbered(uniformIn(rng, 0, 1) ? "f32" : "i64", randomShape(rng, rank, 1, 3));
  for (int64_t d = 0; d < rank; ++d)
    if (uniformIn(rng, 0, 1)) r.dims.push_back(d);
  if (r.dims.empty()) r.dims.push_back(uniformIn(rng, 0, rank - 1));
  Index bounds;
  int64_t tuples = 1;
  for (int64_t d : r.dims) {
    bounds.push_back(r.source.shape[d]);
    tuples *= r.source.shape[d];
  }
  Index batchShape = randomShape(rng, uniformIn(rng, 0, 2), 0, 3);
  int64_t count = 1;
  for (int64_t size : batchShape) count *= size;
  // `unique` needs as many distinct tuples as there are batch positions; scatter needs it.
  r.unique = count <= tuples && (forScatter || uniformIn(rng, 0, 1));
  if (forScatter && !r.unique) batchShape = {std::min<int64_t>(tuples, 2)};
  r.unique = r.unique || forScatter;
  r.indices = randomCoordinates(rng, batchShape, bounds, r.unique);
  r.rankReduced = uniformIn(rng, 0, 1);
  return r;
}

void expectRuntimeVarsRangedToBounds(const IndexingMap& map, const Index& bounds) {
  ASSERT_EQ(map.runtimeVars.size(), bounds.size());
  for (size_t k = 0; k < bounds.size(); ++k) {
    EXPECT_EQ(map.runtimeVars[k].range.lo, 0);
    EXPECT_EQ(map.runtimeVars[k].range.hi, bounds[k] - 1);
  }
}

TEST(TensorGatherRandom, LoweringAgreesWithSpecFormula) {
  std::mt19937 rng(1001);
  int reduced = 0, unique = 0, emptyBatch = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RandomTensorGather r = randomTensorGather(rng, false);
    TensorGatherOp op{
        r.source.type(), r.indices.type(), r.dims, r.unique,
        inferTensorGatherResultType(r.source.type(), r.indices.type(), r.dims, r.rankReduced)};
    ASSERT_TRUE(validateTensorGather(op).empty()) << messages(validateTensorGather(op));
    LoweredGather lowered = lowerTensorGather(op);
    ASSERT_TRUE(validateGather(lowered.op).empty()) << messages(validateGather(lowered.op));
    expectRuntimeVarsRangedToBounds(gatherOutputToOperandMap(lowered.op), lowered.index_bounds);
    Tensor expected = tensorGatherOracle(r.source, r.indices, r.dims, r.rankReduced);
    EXPECT_EQ(evaluateLoweredGather(lowered, r.source, r.indices, Engine::kReference), expected)
        << "trial " << trial;
    EXPECT_EQ(evaluateLoweredGather(lowered, r.source, r.indices, Engine::kMaps), expected)
        << "trial " << trial;
    reduced += r.rankReduced;
    unique += r.unique;
    emptyBatch += isEmptyShape(r.indices.shape);
  }
  EXPECT_GT(reduced, 100);
  EXPECT_GT(unique, 50);
  EXPECT_GT(emptyBatch, 5);
}

TEST(TensorScatterRandom, LoweringAgreesWithSpecFormula) {
  std::mt19937 rng(1002);
  for (int trial = 0; trial < 300; ++trial) {
    RandomTensorGather r = randomTensorGather(rng, true);
    Tensor dest = r.source;
    TensorType sourceType =
        inferTensorGatherResultType(dest.type(), r.indices.type(), r.dims, r.rankReduced);
    Tensor source = numbered(dest.element_type, sourceType.shape);
    for (int64_t& v : source.ints) v += 1000;
    for (double& v : source.floats) v += 1000;
    TensorScatterOp op{sourceType, dest.type(), r.indices.type(), r.dims, true, dest.type()};
    ASSERT_TRUE(validateTensorScatter(op).empty()) << messages(validateTensorScatter(op));
    LoweredScatter lowered = lowerTensorScatter(op);
    ASSERT_TRUE(validateScatter(lowered.op).empty()) << messages(validateScatter(lowered.op));
    expectRuntimeVarsRangedToBounds(scatterUpdateToResultMap(lowered.op), lowered.index_bounds);
    Tensor expected = tensorScatterOracle(source, dest, r.indices, r.dims, r.rankReduced);
    EXPECT_EQ(evaluateLoweredScatter(lowered, dest, r.indices, source, Engine::kReference),
              expected)
        << "trial " << trial;
    EXPECT_EQ(evaluateLoweredScatter(lowered, dest, r.indices, source, Engine::kMaps), expected)
        << "trial " << trial;
  }
}

// --- Undefined behavior is reported, not clamped --------------------------------------------

TEST(TensorGatherIndices, OutOfBoundsIsReportedByBothEngines) {
  LoweredGather lowered =
      lowerTensorGather(gather({{2, 3, 4}, "i64"}, {{2, 2}, "index"}, {0, 2}, {}));
  Tensor source = numbered("i64", {2, 3, 4});
  for (const char* values : {"[[1, 3], [2, 0]]", "[[1, 3], [0, 4]]", "[[-1, 0], [0, 0]]"}) {
    Tensor indices = tensorFrom("index", {2, 2}, values);
    for (Engine engine : {Engine::kReference, Engine::kMaps})
      EXPECT_THROW(evaluateLoweredGather(lowered, source, indices, engine), IndexValueError)
          << values;
  }
  // StableHLO would have clamped [2, 0] to [1, 0]; the same values in bounds are fine.
  Tensor inBounds = tensorFrom("index", {2, 2}, "[[1, 3], [1, 0]]");
  EXPECT_NO_THROW(evaluateLoweredGather(lowered, source, inBounds, Engine::kMaps));
}

TEST(TensorGatherIndices, RepeatedCoordinatesUnderUniqueAreReported) {
  TensorGatherOp op = gather({{4, 3}, "i64"}, {{3, 1}, "index"}, {0}, {}, true);
  Tensor source = numbered("i64", {4, 3});
  Tensor repeated = tensorFrom("index", {3, 1}, "[[2], [0], [2]]");
  EXPECT_THROW(evaluateLoweredGather(lowerTensorGather(op), source, repeated, Engine::kReference),
               IndexValueError);
  op.unique = false;  // without the promise, repeats are ordinary
  EXPECT_EQ(evaluateLoweredGather(lowerTensorGather(op), source, repeated, Engine::kMaps),
            tensorGatherOracle(source, repeated, {0}, false));
}

TEST(TensorScatterIndices, OutOfBoundsAndRepeatsAreReported) {
  TensorScatterOp op{{{2, 3}, "i64"}, {{4, 3}, "i64"}, {{2, 1}, "index"}, {0}, true, {}};
  LoweredScatter lowered = lowerTensorScatter(op);
  Tensor dest = numbered("i64", {4, 3}), source = numbered("i64", {2, 3});
  for (const char* values : {"[[4], [0]]", "[[-1], [0]]", "[[1], [1]]"}) {
    Tensor indices = tensorFrom("index", {2, 1}, values);
    for (Engine engine : {Engine::kReference, Engine::kMaps})
      EXPECT_THROW(evaluateLoweredScatter(lowered, dest, indices, source, engine), IndexValueError)
          << values;
  }
}

}  // namespace
}  // namespace idxmap::gather_scatter
