// Index provenance: the value relations against an element-by-element evaluation of the same
// ops, and the folded gather / scatter maps against the reference evaluator reading the real
// index values, on every result point.
#include "ops/provenance/fold.h"

#include <gtest/gtest.h>

#include <random>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/import/stablehlo.h"
#include "ops/mlir/module.h"
#include "tests/ops/provenance/oracle.h"
#include "tests/ops/stablehlo/random_ops.h"

namespace idxmap::index_provenance {
namespace {

using gather_scatter::Tensor;
using provenance_testing::evaluateIndices;
using provenance_testing::imageOf;

struct Parsed {
  mlir_ir::Module module;
  const std::vector<mlir_ir::Operation>& ops() const {
    return module.functions.at(0).body.blocks.at(0).operations;
  }
  const mlir_ir::Operation& op(const std::string& name) const {
    for (const mlir_ir::Operation& op : ops())
      if (op.name == name) return op;
    throw std::runtime_error("no " + name);
  }
  // The value returned by the function (the last op's result before the return).
  const mlir_ir::Operation& returned() const {
    return *mlir_ir::definingOp(ops(), ops().back().operands.at(0));
  }
};

Parsed parse(const std::string& text) { return {mlir_ir::parseMlirModule(text, "test.mlir")}; }

// Every point's value in the relation is the evaluated value, and every point is known.
void expectValuesMatchEvaluation(const Parsed& parsed) {
  const mlir_ir::Operation& op = parsed.returned();
  IndexValues values = indexValues(parsed.ops(), op.results[0], op.resultTypes[0]);
  ASSERT_TRUE(values.allKnown()) << values.provenance;
  Tensor expected = evaluateIndices(parsed.ops(), op.results[0]);
  std::vector<int64_t> p(expected.shape.size(), 0);
  do {
    std::vector<std::vector<int64_t>> image = imageOf(values.known, p);
    ASSERT_EQ(image.size(), 1u) << ::testing::PrintToString(p) << " " << islText(values.known);
    EXPECT_EQ(image[0][0], expected.ints[gather_scatter::linearPosition(expected.shape, p)])
        << ::testing::PrintToString(p) << " " << islText(values.known);
  } while (gather_scatter::nextIndex(expected.shape, p));
}

TEST(IndexProvenance, ConstantIsAUnionOfPoints) {
  expectValuesMatchEvaluation(parse(R"(func.func @f() -> tensor<2x3xi64> {
  %c = stablehlo.constant dense<[[4, -1, 7], [0, 0, 2]]> : tensor<2x3xi64>
  func.return %c : tensor<2x3xi64>
})"));
}

TEST(IndexProvenance, IotaIsAffine) {
  Parsed parsed = parse(R"(func.func @f() -> tensor<3x4xi32> {
  %i = stablehlo.iota dim = 1 : tensor<3x4xi32>
  func.return %i : tensor<3x4xi32>
})");
  expectValuesMatchEvaluation(parsed);
  IndexValues values =
      indexValues(parsed.ops(), parsed.returned().results[0], parsed.returned().resultTypes[0]);
  EXPECT_EQ(isl_map_n_basic_map(values.known.get()), 1);
}

TEST(IndexProvenance, EveryFollowedOpAgreesWithEvaluation) {
  // Generic and pretty spellings, scalar clamp bounds, a constant splat, a convert.
  expectValuesMatchEvaluation(parse(R"(func.func @f() -> tensor<4x6xi64> {
  %iota = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3x2xi32>
  %two = stablehlo.constant dense<2> : tensor<3x2xi32>
  %scaled = stablehlo.multiply %iota, %two : tensor<3x2xi32>
  %one = stablehlo.constant dense<[[1, -5], [3, 9], [0, 2]]> : tensor<3x2xi32>
  %sum = stablehlo.add %scaled, %one : tensor<3x2xi32>
  %lo = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<6> : tensor<i32>
  %clamped = stablehlo.clamp %lo, %sum, %hi : (tensor<i32>, tensor<3x2xi32>, tensor<i32>) -> tensor<3x2xi32>
  %t = stablehlo.transpose %clamped, dims = [1, 0] : (tensor<3x2xi32>) -> tensor<2x3xi32>
  %r = stablehlo.reshape %t : (tensor<2x3xi32>) -> tensor<6xi32>
  %b = stablehlo.broadcast_in_dim %r, dims = [1] : (tensor<6xi32>) -> tensor<2x6xi32>
  %diff = stablehlo.subtract %b, %b : tensor<2x6xi32>
  %cat = stablehlo.concatenate %b, %diff, dim = 0 : (tensor<2x6xi32>, tensor<2x6xi32>) -> tensor<4x6xi32>
  %wide = stablehlo.convert %cat : (tensor<4x6xi32>) -> tensor<4x6xi64>
  func.return %wide : tensor<4x6xi64>
})"));
}

TEST(IndexProvenance, UnknownValuesSayWhy) {
  Parsed parsed = parse(R"(func.func @f(%arg0: tensor<2x1xi64>) -> tensor<5x1xi64> {
  %i = stablehlo.iota dim = 0 : tensor<3x1xi64>
  %cat = stablehlo.concatenate %arg0, %i, dim = 0 : (tensor<2x1xi64>, tensor<3x1xi64>) -> tensor<5x1xi64>
  %big = stablehlo.constant dense<3> : tensor<1000000000xi64>
  %wrap = stablehlo.iota dim = 0 : tensor<300xi8>
  %sq = stablehlo.multiply %i, %i : tensor<3x1xi64>
  func.return %cat : tensor<5x1xi64>
})");
  auto valuesOf = [&](const std::string& name) {
    for (const mlir_ir::Operation& op : parsed.ops())
      if (!op.results.empty() && op.results[0].name == name)
        return indexValues(parsed.ops(), op.results[0], op.resultTypes[0]);
    throw std::runtime_error(name);
  };
  IndexValues cat = valuesOf("cat");  // the iota's rows only
  EXPECT_TRUE(cat.anyKnown());
  EXPECT_FALSE(cat.allKnown());
  EXPECT_TRUE(imageOf(cat.known, {1, 0}).empty());
  EXPECT_EQ(imageOf(cat.known, {4, 0}), (std::vector<std::vector<int64_t>>{{2}}));
  EXPECT_TRUE(valuesOf("big").allKnown());  // a splat costs nothing, whatever its size
  IndexValues wrap = valuesOf("wrap");
  EXPECT_FALSE(wrap.anyKnown());
  EXPECT_NE(wrap.provenance.find("may not fit i8"), std::string::npos) << wrap.provenance;
  IndexValues square = valuesOf("sq");
  EXPECT_FALSE(square.anyKnown());
  EXPECT_NE(square.provenance.find("not affine"), std::string::npos) << square.provenance;
}

// A call whose callee the module lacks (an extract of a bigger module) is a leaf whose reason
// names the callee, so the user sees which function to include.
TEST(IndexProvenance, ACallOfAMissingFunctionNamesIt) {
  Parsed parsed = parse(R"(func.func @f(%arg0: tensor<3xi32>) -> tensor<3xi32> {
  %c = func.call @clip(%arg0) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %c : tensor<3xi32>
})");
  const mlir_ir::Operation& call = parsed.returned();
  IndexValues values = indexValues(parsed.ops(), call.results[0], call.resultTypes[0]);
  EXPECT_FALSE(values.anyKnown());
  EXPECT_NE(values.provenance.find("func.call of @clip, which the module does not define"),
            std::string::npos)
      << values.provenance;
}

TEST(IndexProvenance, LargeConstantsAreRefused) {
  std::string values;
  for (int i = 0; i < 5000; ++i) values += (i ? ", " : "") + std::to_string(i % 7);
  Parsed parsed = parse("func.func @f() -> tensor<5000xi64> {\n  %c = stablehlo.constant dense<[" +
                        values + "]> : tensor<5000xi64>\n  func.return %c : tensor<5000xi64>\n}");
  IndexValues c =
      indexValues(parsed.ops(), parsed.returned().results[0], parsed.returned().resultTypes[0]);
  EXPECT_FALSE(c.anyKnown());
  EXPECT_NE(c.provenance.find("4096"), std::string::npos) << c.provenance;
}

// Row gathers whose indices are a constant with out-of-bounds values (clamped) and an iota.
constexpr const char* kGathers =
    R"(func.func @f(%operand: tensor<5x3xf32>, %arg: tensor<4x1xi64>) -> tensor<4x3xf32> {
  %c = stablehlo.constant dense<[[0], [4], [2], [7], [-1]]> : tensor<5x1xi64>
  %g0 = "stablehlo.gather"(%operand, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<5x1xi64>) -> tensor<5x3xf32>
  %i = stablehlo.iota dim = 0 : tensor<4x1xi64>
  %g1 = "stablehlo.gather"(%operand, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  %g2 = "stablehlo.gather"(%operand, %arg) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  func.return %g1 : tensor<4x3xf32>
})";

struct GatherCase {
  gather_scatter::GatherOp op;
  IndexValues values;
  FoldedMap folded;
};

GatherCase gatherCase(const Parsed& parsed, const std::string& result) {
  for (const mlir_ir::Operation& op : parsed.ops())
    if (op.name == "stablehlo.gather" && op.results[0].name == result) {
      gather_scatter::GatherOp gather = stablehlo_import::importGather(op);
      IndexValues values = indexValues(parsed.ops(), op.operands[1], op.operandTypes[1]);
      return {gather, values, foldGatherIndices(gather, values)};
    }
  throw std::runtime_error(result);
}

TEST(FoldGather, ConstantIndicesMatchTheReferenceAtEveryPoint) {
  Parsed parsed = parse(kGathers);
  GatherCase c = gatherCase(parsed, "g0");
  ASSERT_TRUE(c.folded.anyFolded()) << c.values.provenance;
  EXPECT_TRUE(isl_map_dim(c.folded.relation.get(), isl_dim_param) == 0);
  Tensor indices = evaluateIndices(parsed.ops(), parsed.op("stablehlo.constant").results[0]);
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(c.op, c.folded.relation, indices));
}

TEST(FoldGather, IotaIndicesGiveAnAffineMap) {
  Parsed parsed = parse(kGathers);
  GatherCase c = gatherCase(parsed, "g1");
  ASSERT_TRUE(c.folded.map) << islText(c.folded.relation);
  // Row d0 of the result is row d0 of the operand: read off the op's definition.
  EXPECT_EQ(islEqual(*c.folded.map, parseIndexingMap("(d0, d1) -> (d0, d1), domain: d0 in [0, 3], "
                                                     "d1 in [0, 2]"))
                .verdict,
            Verdict::Proven)
      << printIndexingMap(*c.folded.map);
  Tensor indices = evaluateIndices(parsed.ops(), parsed.op("stablehlo.iota").results[0]);
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(c.op, c.folded.relation, indices));
}

TEST(FoldGather, ArgumentIndicesStayRuntimeVariables) {
  GatherCase c = gatherCase(parse(kGathers), "g2");
  EXPECT_FALSE(c.folded.anyFolded());
  ASSERT_TRUE(c.folded.map);
  EXPECT_EQ(islEqual(*c.folded.map, gather_scatter::gatherOutputToOperandMap(c.op)).verdict,
            Verdict::Proven);
  // The indices are the argument's elements, each any value of its type.
  ASSERT_EQ(c.values.leaves.size(), 1u) << c.values.provenance;
  EXPECT_EQ(c.values.leaves[0].tensor, "%arg");
  EXPECT_NE(c.values.leaves[0].why.find("an argument"), std::string::npos)
      << c.values.leaves[0].why;
}

// A constant index tensor as MLIR: a flat constant reshaped to the op's index shape.
std::string constantIndices(const Tensor& indices) {
  auto type = [](const std::vector<int64_t>& shape) {
    std::string text = "tensor<";
    for (int64_t s : shape) text += std::to_string(s) + "x";
    return text + "i32>";
  };
  std::string values;
  for (size_t i = 0; i < indices.ints.size(); ++i)
    values += (i ? ", " : "") + std::to_string(indices.ints[i]);
  std::vector<int64_t> flat = {static_cast<int64_t>(indices.ints.size())};
  return "func.func @f() -> " + type(indices.shape) + " {\n  %flat = stablehlo.constant dense<[" +
         values + "]> : " + type(flat) + "\n  %idx = stablehlo.reshape %flat : (" + type(flat) +
         ") -> " + type(indices.shape) + "\n  func.return %idx : " + type(indices.shape) + "\n}";
}

// Random valid ops (batching dims, every index_vector_dim, out-of-bounds starts) with random
// constant indices: the folded relation is exact at every point.
TEST(FoldGather, RandomOpsWithConstantIndicesMatchTheReference) {
  std::mt19937 rng(21);
  int folded = 0;
  for (int trial = 0; trial < 60; ++trial) {
    gather_scatter::testing::RandomOp random = gather_scatter::testing::randomOp(rng);
    gather_scatter::GatherOp op = gather_scatter::testing::asGatherOp(random);
    Tensor indices = gather_scatter::testing::randomIndices(rng, random);
    if (indices.ints.empty()) continue;
    Parsed parsed = parse(constantIndices(indices));
    IndexValues values =
        indexValues(parsed.ops(), parsed.returned().results[0], parsed.returned().resultTypes[0]);
    ASSERT_TRUE(values.allKnown()) << values.provenance;
    FoldedMap map = foldGatherIndices(op, values);
    folded += map.anyFolded();
    EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(op, map.relation, indices))
        << trial << " " << islText(map.relation);
  }
  EXPECT_GT(folded, 20);
}

TEST(FoldScatter, RandomOpsWithConstantIndicesMatchTheReference) {
  std::mt19937 rng(22);
  int folded = 0;
  for (int trial = 0; trial < 60; ++trial) {
    gather_scatter::testing::RandomOp random = gather_scatter::testing::randomOp(rng);
    gather_scatter::ScatterOp op =
        gather_scatter::testing::asScatterOp(random, gather_scatter::UpdateComputation::kAdd);
    Tensor indices = gather_scatter::testing::randomIndices(rng, random);
    if (indices.ints.empty()) continue;
    Parsed parsed = parse(constantIndices(indices));
    IndexValues values =
        indexValues(parsed.ops(), parsed.returned().results[0], parsed.returned().resultTypes[0]);
    FoldedMap map = foldScatterIndices(op, values);
    folded += map.anyFolded();
    EXPECT_TRUE(provenance_testing::foldedScatterMatchesReference(op, map.relation, indices))
        << trial << " " << islText(map.relation);
  }
  EXPECT_GT(folded, 20);
}

}  // namespace
}  // namespace idxmap::index_provenance
