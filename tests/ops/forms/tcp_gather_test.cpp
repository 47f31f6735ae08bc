// tcp.gather / tcp.gather_nd (spec 003): the spec's examples with their documented shapes, the
// verifier's rules, spec 003's own modeling of index_select / tf.gather through a broadcast
// tcp.gather, and randomized agreement of spec 003's formulas with the StableHLO lowerings.
#include <gtest/gtest.h>

#include <random>

#include "ops/eval/lowered_gather.h"
#include "ops/forms/framework_gather.h"
#include "ops/forms/tcp_gather.h"
#include "tests/ops/forms/oracles.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using namespace testing;

TcpGatherOp tcpGather(Index input, Index indices, int64_t dim, Index result) {
  return {{input, "f32"}, {indices, "i64"}, dim, TensorType{result, "f32"}};
}

TEST(TcpGatherSpec, ExamplesAreValidWithTheirDocumentedShapes) {
  struct Example {
    Index input, indices;
    int64_t dim;
    Index result;
  };
  for (const Example& e : {
           Example{{3, 4}, {3, 2}, 1, {3, 2}},           // torch.gather
           Example{{3, 3}, {2, 3}, 0, {2, 3}},           // onnx.GatherElements
           Example{{3, 4}, {2, 4}, 0, {2, 4}},           // torch.index_select, broadcast
           Example{{3, 4, 5}, {3, 3, 5}, 1, {3, 3, 5}},  // tf.gather, broadcast
       }) {
    TcpGatherOp op = tcpGather(e.input, e.indices, e.dim, e.result);
    EXPECT_TRUE(validateTcpGather(op).empty()) << describe(validateTcpGather(op));
    EXPECT_EQ(inferTcpGatherResultType(op).shape, e.result);
    EXPECT_EQ(lowerTcpGather(op).op.result->shape, e.result);
  }
  // tf.gather_nd without batching: (5x7x3, 4x2) -> 4x3.
  TcpGatherNdOp nd{{{5, 7, 3}, "f32"}, {{4, 2}, "i64"}, TensorType{{4, 3}, "f32"}};
  EXPECT_TRUE(validateTcpGatherNd(nd).empty()) << describe(validateTcpGatherNd(nd));
  EXPECT_EQ(inferTcpGatherNdResultType(nd).shape, (Index{4, 3}));
}

TEST(TcpGatherSpec, GatherNdOutputRanks) {
  // Spec 003's semantics lines: rank-2 / 3 / 4 inputs with (N, 2) and (N, 3) indices.
  struct Example {
    Index input, indices, result;
  };
  for (const Example& e :
       {Example{{4, 5}, {6, 2}, {6}}, Example{{4, 5, 3}, {6, 2}, {6, 3}},
        Example{{4, 5, 3, 2}, {6, 2}, {6, 3, 2}}, Example{{4, 5, 3, 2}, {6, 3}, {6, 2}}}) {
    TcpGatherNdOp op{{e.input, "f32"}, {e.indices, "i64"}, TensorType{e.result, "f32"}};
    EXPECT_TRUE(validateTcpGatherNd(op).empty()) << describe(validateTcpGatherNd(op));
    EXPECT_EQ(static_cast<int64_t>(e.result.size()),
              op.input.rank() + op.indices.rank() - op.indices.shape.back() - 1);
  }
}

TEST(TcpGatherSpec, TorchGatherExampleByHand) {
  // input[i][c] = 100 + 4i + c; indices [[0, 1], [2, 0], [2, 3]], dim 1: out[i][j] =
  // input[i][index[i][j]].
  TcpGatherOp op = tcpGather({3, 4}, {3, 2}, 1, {3, 2});
  op.input.element_type = op.result->element_type = "i64";
  Tensor input = numbered("i64", {3, 4});
  Tensor indices = tensorFrom("i64", {3, 2}, "[[0, 1], [2, 0], [2, 3]]");
  Tensor expected = tensorFrom("i64", {3, 2}, "[[100, 101], [106, 104], [110, 111]]");
  LoweredGather lowered = lowerTcpGather(op);
  EXPECT_EQ(evaluateLoweredGather(lowered, input, indices, Engine::kReference), expected);
  EXPECT_EQ(evaluateLoweredGather(lowered, input, indices, Engine::kMaps), expected);
}

// Broadcast `values` (shape `from`, unit dims where it is broadcast) to `to`.
Tensor broadcast(const Tensor& values, const Index& to) {
  Tensor out = zeros(values.element_type, to);
  forEachIndex(to, [&](const Index& i) {
    Index from = i;
    for (size_t d = 0; d < from.size(); ++d)
      if (values.shape[d] == 1) from[d] = 0;
    out.ints[linearPosition(to, i)] = intAt(values, from);
  });
  return out;
}

TEST(TcpGatherSpec, IndexSelectAndTfGatherThroughBroadcastTcpGather) {
  // Spec 003 models torch.index_select (3x4, [2], dim 0) and tf.gather (3x4x5, [3], axis 1)
  // as tcp.gather over indices expanded and broadcast to the result shape; both ways agree.
  std::mt19937 rng(3001);
  for (int trial = 0; trial < 50; ++trial) {
    Tensor input = numbered("i64", {3, 4});
    Tensor index = zeros("i64", {2});
    for (int64_t& v : index.ints) v = uniformIn(rng, 0, 2);
    LoweredGather select = lowerTorchIndexSelect({input.type(), 0, index.type()});
    Tensor expanded{"i64", {2, 1}, index.ints, {}};
    Tensor viaTcp = evaluateLoweredGather(lowerTcpGather(tcpGather({3, 4}, {2, 4}, 0, {2, 4})),
                                          input, broadcast(expanded, {2, 4}), Engine::kMaps);
    EXPECT_EQ(evaluateLoweredGather(select, input, index, Engine::kReference), viaTcp);

    Tensor params = numbered("i64", {3, 4, 5});
    Tensor indices = zeros("i64", {3});
    for (int64_t& v : indices.ints) v = uniformIn(rng, 0, 3);
    LoweredGather tf = lowerTfGather({params.type(), indices.type(), 1, 0});
    Tensor expanded3{"i64", {1, 3, 1}, indices.ints, {}};
    Tensor viaTcp3 =
        evaluateLoweredGather(lowerTcpGather(tcpGather({3, 4, 5}, {3, 3, 5}, 1, {3, 3, 5})), params,
                              broadcast(expanded3, {3, 3, 5}), Engine::kMaps);
    EXPECT_EQ(evaluateLoweredGather(tf, params, indices, Engine::kReference), viaTcp3);
  }
}

// --- Rules ---------------------------------------------------------------------------------

void expectOnly(const std::vector<Violation>& violations, const std::string& label,
                const std::string& messagePart) {
  ASSERT_EQ(violations.size(), 1u) << describe(violations);
  EXPECT_EQ(violations[0].label, label);
  EXPECT_NE(violations[0].message.find(messagePart), std::string::npos) << violations[0].message;
}

TEST(TcpGatherRules, VerifierRules) {
  expectOnly(validateTcpGather(tcpGather({3, 4}, {3, 2, 1}, 1, {3, 2, 1})), "same-rank",
             "tcp.gather: requires that the input tensor and indices are the same rank");
  expectOnly(validateTcpGather(tcpGather({3, 4}, {2, 2}, 1, {2, 2})), "indices-shape",
             "indices tensor does not match expected shape: dim 0 of the indices is 2 but the "
             "input's is 3");
  expectOnly(validateTcpGather(tcpGather({3, 4}, {3, 2}, 1, {3, 3})), "result-shape",
             "expect the shape of the indices to match the output shape");
  expectOnly(validateTcpGather(tcpGather({3, 4}, {3, 4}, 2, {3, 4})), "dim-in-range",
             "dim = 2 is not a dim of the rank-2 input");
  TcpGatherOp i32 = tcpGather({3, 4}, {3, 2}, 1, {3, 2});
  i32.indices.element_type = "i32";
  expectOnly(validateTcpGather(i32), "indices-type", "indices must be a tensor of int64");
  TcpGatherOp f16 = tcpGather({3, 4}, {3, 2}, 1, {3, 2});
  f16.result->element_type = "f16";
  expectOnly(validateTcpGather(f16), "result-element-type", "is not the input's f32");
  EXPECT_THROW(lowerTcpGather(f16), Error);
}

TEST(TcpGatherRules, DynamicInputSizesMatchAnyIndicesSize) {
  // The verifier lets a dynamic input dim match; lowering then needs the sizes.
  TcpGatherOp op = tcpGather({kDynamic, 4}, {3, 2}, 1, {3, 2});
  EXPECT_TRUE(validateTcpGather(op).empty()) << describe(validateTcpGather(op));
  EXPECT_THROW(lowerTcpGather(op), Error);
}

TEST(TcpGatherRules, GatherNdRules) {
  expectOnly(validateTcpGatherNd({{{5, 7, 3}, "f32"}, {{4, 4}, "i64"}, {}}), "coordinates",
             "the indices' last dim (4) must be a static size between 1 and the input rank 3");
  expectOnly(validateTcpGatherNd({{{5, 7, 3}, "f32"}, {{}, "i64"}, {}}), "indices-rank",
             "indices must have rank >= 1");
  expectOnly(validateTcpGatherNd({{{5, 7, 3}, "f32"}, {{4, 2}, "i64"}, TensorType{{4}, "f32"}}),
             "result-shape", "expected tensor<4x3xf32>, got tensor<4xf32>");
}

// --- Randomized agreement ------------------------------------------------------------------

TEST(TcpGatherRandom, LoweringAgreesWithSpecFormula) {
  std::mt19937 rng(3002);
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t rank = uniformIn(rng, 1, 4);
    const int64_t dim = uniformIn(rng, 0, rank - 1);
    Tensor input = numbered(trial % 2 ? "f32" : "i32", randomShape(rng, rank, 1, 3));
    Index indicesShape = input.shape;
    indicesShape[dim] = uniformIn(rng, 0, 4);
    Tensor indices = zeros("i64", indicesShape);
    for (int64_t& v : indices.ints) v = uniformIn(rng, 0, input.shape[dim] - 1);
    TcpGatherOp op{input.type(), indices.type(), dim, TensorType{indicesShape, input.element_type}};
    ASSERT_TRUE(validateTcpGather(op).empty()) << describe(validateTcpGather(op));
    LoweredGather lowered = lowerTcpGather(op);
    ASSERT_TRUE(validateGather(lowered.op).empty()) << describe(validateGather(lowered.op));
    IndexingMap map = gatherOutputToOperandMap(lowered.op);
    ASSERT_EQ(map.runtimeVars.size(), 1u);
    EXPECT_EQ(map.runtimeVars[0].range.hi, input.shape[dim] - 1);
    Tensor expected = elementsGatherOracle(input, dim, indices);
    EXPECT_EQ(evaluateLoweredGather(lowered, input, indices, Engine::kReference), expected)
        << "trial " << trial;
    EXPECT_EQ(evaluateLoweredGather(lowered, input, indices, Engine::kMaps), expected)
        << "trial " << trial;
  }
}

TEST(TcpGatherNdRandom, LoweringAgreesWithSpecFormula) {
  std::mt19937 rng(3003);
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t rank = uniformIn(rng, 1, 4);
    const int64_t m = uniformIn(rng, 1, rank);
    Tensor input = numbered("i64", randomShape(rng, rank, 1, 3));
    Index indicesShape = randomShape(rng, uniformIn(rng, 0, 2), 0, 3);
    indicesShape.push_back(m);
    Tensor indices = zeros("i64", indicesShape);
    for (size_t i = 0; i < indices.ints.size(); ++i)
      indices.ints[i] = uniformIn(rng, 0, input.shape[i % m] - 1);
    TcpGatherNdOp op{input.type(), indices.type(), std::nullopt};
    ASSERT_TRUE(validateTcpGatherNd(op).empty()) << describe(validateTcpGatherNd(op));
    LoweredGather lowered = lowerTcpGatherNd(op);
    ASSERT_TRUE(validateGather(lowered.op).empty()) << describe(validateGather(lowered.op));
    Tensor expected = ndGatherOracle(input, indices, 0);
    EXPECT_EQ(evaluateLoweredGather(lowered, input, indices, Engine::kReference), expected)
        << "trial " << trial;
    EXPECT_EQ(evaluateLoweredGather(lowered, input, indices, Engine::kMaps), expected)
        << "trial " << trial;
  }
}

TEST(TcpGatherIndices, OutOfBoundsIsReported) {
  LoweredGather lowered = lowerTcpGather(tcpGather({3, 4}, {3, 2}, 1, {3, 2}));
  Tensor input = numbered("f32", {3, 4});
  for (const char* values : {"[[0, 4], [0, 0], [0, 0]]", "[[0, 0], [-1, 0], [0, 0]]"}) {
    Tensor indices = tensorFrom("i64", {3, 2}, values);
    for (Engine engine : {Engine::kReference, Engine::kMaps})
      EXPECT_THROW(evaluateLoweredGather(lowered, input, indices, engine), IndexValueError);
  }
  LoweredGather nd = lowerTcpGatherNd({{{5, 7, 3}, "f32"}, {{1, 2}, "i64"}, {}});
  EXPECT_THROW(evaluateLoweredGather(nd, numbered("f32", {5, 7, 3}),
                                     tensorFrom("i64", {1, 2}, "[[4, 7]]"), Engine::kMaps),
               IndexValueError);
}

}  // namespace
}  // namespace idxmap::gather_scatter
