// torch.gather, torch.index_select, tf.gather, onnx.Gather, onnx.GatherElements, onnx.GatherND:
// the operator docs' examples with their documented outputs, the documented rules, ONNX's
// negative indices, and randomized agreement of each doc formula (the oracle) with the
// StableHLO lowering run through both StableHLO evaluators.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "ops/eval/lowered_gather.h"
#include "ops/forms/framework_gather.h"
#include "tests/ops/forms/oracles.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using namespace testing;

// Both engines must give `expected`, and the lowered op must be a valid StableHLO gather whose
// runtime variables range over exactly the in-bounds values.
void expectLoweringGives(const LoweredGather& lowered, const Tensor& data, const Tensor& indices,
                         const Tensor& expected, const std::string& context) {
  ASSERT_TRUE(validateGather(lowered.op).empty()) << context << "\n"
                                                  << describe(validateGather(lowered.op));
  IndexingMap map = gatherOutputToOperandMap(lowered.op);
  ASSERT_EQ(map.runtimeVars.size(), lowered.index_bounds.size()) << context;
  for (size_t k = 0; k < lowered.index_bounds.size(); ++k) {
    EXPECT_EQ(map.runtimeVars[k].range.lo, 0) << context;
    EXPECT_EQ(map.runtimeVars[k].range.hi, lowered.index_bounds[k] - 1) << context;
  }
  EXPECT_EQ(evaluateLoweredGather(lowered, data, indices, Engine::kReference), expected) << context;
  EXPECT_EQ(evaluateLoweredGather(lowered, data, indices, Engine::kMaps), expected) << context;
}

// --- The docs' examples ----------------------------------------------------------------------

TEST(FrameworkGatherDocs, TorchGather) {
  // torch.gather(t, 1, torch.tensor([[0, 0], [1, 0]])) with t = [[1, 2], [3, 4]].
  Tensor t = tensorFrom("i64", {2, 2}, "[[1, 2], [3, 4]]");
  Tensor index = tensorFrom("i64", {2, 2}, "[[0, 0], [1, 0]]");
  expectLoweringGives(lowerTorchGather({t.type(), 1, index.type()}), t, index,
                      tensorFrom("i64", {2, 2}, "[[1, 1], [4, 3]]"), "torch.gather");
}

TEST(FrameworkGatherDocs, OnnxGatherAxis0) {
  Tensor data = tensorFrom("f32", {3, 2}, "[[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]]");
  Tensor indices = tensorFrom("i64", {2, 2}, "[[0, 1], [1, 2]]");
  expectLoweringGives(
      lowerOnnxGather({data.type(), indices.type(), 0}), data, indices,
      tensorFrom("f32", {2, 2, 2}, "[[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]]"),
      "onnx.Gather");
}

TEST(FrameworkGatherDocs, OnnxGatherElements) {
  Tensor data = tensorFrom("i64", {2, 2}, "[[1, 2], [3, 4]]");
  Tensor indices = tensorFrom("i64", {2, 2}, "[[0, 0], [1, 0]]");
  expectLoweringGives(lowerOnnxGatherElements({data.type(), indices.type(), 1}), data, indices,
                      tensorFrom("i64", {2, 2}, "[[1, 1], [4, 3]]"), "example 1");
  Tensor data2 = tensorFrom("i64", {3, 3}, "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]");
  Tensor indices2 = tensorFrom("i32", {2, 3}, "[[1, 2, 0], [2, 0, 0]]");
  expectLoweringGives(lowerOnnxGatherElements({data2.type(), indices2.type(), 0}), data2, indices2,
                      tensorFrom("i64", {2, 3}, "[[4, 8, 3], [7, 2, 3]]"), "example 2");
  // ONNX's negative-indices case: [[-1, -2, 0], [-2, 0, 0]] reads rows [[2, 1, 0], [1, 0, 0]].
  Tensor negative = tensorFrom("i32", {2, 3}, "[[-1, -2, 0], [-2, 0, 0]]");
  expectLoweringGives(lowerOnnxGatherElements({data2.type(), negative.type(), 0}), data2, negative,
                      tensorFrom("i64", {2, 3}, "[[7, 5, 3], [4, 2, 3]]"), "negative indices");
}

TEST(FrameworkGatherDocs, OnnxGatherNd) {
  Tensor data = tensorFrom("i64", {2, 2}, "[[0, 1], [2, 3]]");
  Tensor pairs = tensorFrom("i64", {2, 2}, "[[0, 0], [1, 1]]");
  expectLoweringGives(lowerOnnxGatherNd({data.type(), pairs.type(), 0}), data, pairs,
                      tensorFrom("i64", {2}, "[0, 3]"), "example 1");
  Tensor rows = tensorFrom("i64", {2, 1}, "[[1], [0]]");
  expectLoweringGives(lowerOnnxGatherNd({data.type(), rows.type(), 0}), data, rows,
                      tensorFrom("i64", {2, 2}, "[[2, 3], [0, 1]]"), "example 2");
  Tensor cube = tensorFrom("i64", {2, 2, 2}, "[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]");
  expectLoweringGives(lowerOnnxGatherNd({cube.type(), rows.type(), 1}), cube, rows,
                      tensorFrom("i64", {2, 2}, "[[2, 3], [4, 5]]"), "example 5 (batch_dims 1)");
}

TEST(FrameworkGatherDocs, TfGatherBatchDims) {
  // By hand: with batch_dims = 1, row b of the indices reads row b of params.
  Tensor params = tensorFrom("i64", {2, 5}, "[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]]");
  Tensor indices = tensorFrom("i64", {2, 2}, "[[2, 4], [0, 1]]");
  expectLoweringGives(lowerTfGather({params.type(), indices.type(), 1, 1}), params, indices,
                      tensorFrom("i64", {2, 2}, "[[2, 4], [10, 11]]"), "tf.gather batch_dims=1");
  // Negative batch_dims and axis count from the end: -1 and -1 are 1 and 1 here.
  expectLoweringGives(lowerTfGather({params.type(), indices.type(), -1, -1}), params, indices,
                      tensorFrom("i64", {2, 2}, "[[2, 4], [10, 11]]"), "tf.gather -1, -1");
}

// --- Documented rules --------------------------------------------------------------------------

void expectRejected(const std::function<void()>& lower, const std::string& messagePart) {
  try {
    lower();
    ADD_FAILURE() << "accepted; expected: " << messagePart;
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find(messagePart), std::string::npos) << error.what();
  }
}

TEST(FrameworkGatherRules, InvalidFormsAreRejected) {
  const TensorType i64_2x3{{2, 3}, "i64"};
  expectRejected(
      [&] {
        lowerTorchGather({{{3, 3}, "f32"}, 0, {{2}, "i64"}});
      },
      "torch.gather: the index must have the same number of dims as the input");
  expectRejected(
      [&] {
        lowerTorchGather({{{3, 3}, "f32"}, 0, {{2, 4}, "i64"}});
      },
      "index.size(1) = 4 must be <= input.size(1) = 3");
  expectRejected(
      [&] {
        lowerTorchGather({{{3, 3}, "f32"}, 2, i64_2x3});
      },
      "the axis = 2 must be in [-2, 1]");
  expectRejected(
      [&] {
        lowerTorchGather({{{3, 3}, "f32"}, 0, {{2, 3}, "i32"}});
      },
      "indices must be int64, not i32");
  expectRejected(
      [&] {
        lowerTorchIndexSelect({{{3, 3}, "f32"}, 0, i64_2x3});
      },
      "torch.index_select: the index must be a vector (1-D), not rank 2");
  expectRejected(
      [&] {
        lowerTfGather({{{2, 5}, "f32"}, i64_2x3, 0, 1});
      },
      "batch_dims (1) must be less than or equal to axis (0)");
  expectRejected(
      [&] {
        lowerTfGather({{{3, 5}, "f32"}, i64_2x3, 1, 1});
      },
      "params.shape[0] = 3 must equal indices.shape[0] = 2 (a batch dim)");
  expectRejected(
      [&] {
        lowerTfGather({{{3, 5}, "f32"}, i64_2x3, 0, 3});
      },
      "batch_dims = 3 must be in [-2, 2]");
  expectRejected(
      [&] {
        lowerOnnxGather({{{3, 5}, "f32"}, {{2}, "i16"}, 0});
      },
      "indices must be int32 or int64, not i16");
  expectRejected(
      [&] {
        lowerOnnxGatherElements({{{3, 5}, "f32"}, {{2, 6}, "i64"}, 0});
      },
      "index.size(1) = 6 must be <= input.size(1) = 5");
  expectRejected(
      [&] {
        lowerOnnxGatherNd({{{3, 5}, "f32"}, {{3, 3}, "i64"}, 0});
      },
      "indices_shape[-1] = 3 must be in [1, r - batch_dims] = [1, 2]");
  expectRejected(
      [&] {
        lowerOnnxGatherNd({{{3, 5}, "f32"}, {{3, 1}, "i64"}, 2});
      },
      "batch_dims = 2 must be in [0, min(q, r)) = [0, 2)");
  expectRejected(
      [&] {
        lowerOnnxGatherNd({{{3, 5}, "f32"}, {{2, 1}, "i64"}, 1});
      },
      "data.shape[0] = 3 must equal indices.shape[0] = 2 (a batch dim)");
}

TEST(FrameworkGatherIndices, OutOfBoundsIsAnErrorAndOnlyOnnxWraps) {
  Tensor data = numbered("i64", {3, 2});
  Tensor minusOne = tensorFrom("i64", {1}, "[-1]");
  Tensor tooFarBack = tensorFrom("i64", {1}, "[-4]");
  Tensor three = tensorFrom("i64", {1}, "[3]");
  LoweredGather onnx = lowerOnnxGather({data.type(), minusOne.type(), 0});
  // -1 is the last row in ONNX ...
  EXPECT_EQ(evaluateLoweredGather(onnx, data, minusOne, Engine::kMaps),
            axisGatherOracle(data, tensorFrom("i64", {1}, "[2]"), 0, 0));
  // ... out of bounds for torch and TF, and beyond -size or at size for everyone.
  LoweredGather tf = lowerTfGather({data.type(), minusOne.type(), 0, 0});
  LoweredGather torch = lowerTorchIndexSelect({data.type(), 0, minusOne.type()});
  for (Engine engine : {Engine::kReference, Engine::kMaps}) {
    EXPECT_THROW(evaluateLoweredGather(tf, data, minusOne, engine), IndexValueError);
    EXPECT_THROW(evaluateLoweredGather(torch, data, minusOne, engine), IndexValueError);
    EXPECT_THROW(evaluateLoweredGather(onnx, data, tooFarBack, engine), IndexValueError);
    EXPECT_THROW(evaluateLoweredGather(onnx, data, three, engine), IndexValueError);
  }
}

TEST(FrameworkGatherIndices, WrapIsAValueTransformOnTheIndexVector) {
  // GatherND's coordinates wrap per entry, each by the size of the dim it indexes.
  Tensor indices = tensorFrom("i64", {2, 2}, "[[-1, -3], [-4, 2]]");
  Tensor wrapped = wrapNegativeIndices(indices, 1, {4, 3});
  EXPECT_EQ(wrapped, tensorFrom("i64", {2, 2}, "[[3, 0], [0, 2]]"));
}

// --- Randomized agreement ------------------------------------------------------------------

Tensor randomIndices(std::mt19937& rng, const std::string& type, const Index& shape,
                     const std::function<int64_t(size_t)>& boundAt, bool negativeToo) {
  Tensor indices = zeros(type, shape);
  for (size_t i = 0; i < indices.ints.size(); ++i) {
    int64_t bound = boundAt(i);
    indices.ints[i] = uniformIn(rng, negativeToo ? -bound : 0, bound - 1);
  }
  return indices;
}

TEST(FrameworkGatherRandom, ElementsGathersAgreeWithTheirFormula) {
  std::mt19937 rng(4001);
  for (int trial = 0; trial < 300; ++trial) {
    const bool onnx = trial % 2;
    const int64_t rank = uniformIn(rng, 1, 4);
    Tensor input = numbered(trial % 3 ? "i64" : "f32", randomShape(rng, rank, 1, 3));
    const int64_t dim = uniformIn(rng, 0, rank - 1);
    // torch allows index.size(d) <= input.size(d) off the axis: the operand is prefix-sliced.
    Index indexShape;
    for (int64_t d = 0; d < rank; ++d)
      indexShape.push_back(d == dim ? uniformIn(rng, 0, 4) : uniformIn(rng, 0, input.shape[d]));
    Tensor index = randomIndices(
        rng, "i64", indexShape, [&](size_t) { return input.shape[dim]; }, onnx);
    const int64_t axis = uniformIn(rng, 0, 1) ? dim - rank : dim;  // negative axes too
    LoweredGather lowered = onnx ? lowerOnnxGatherElements({input.type(), index.type(), axis})
                                 : lowerTorchGather({input.type(), axis, index.type()});
    expectLoweringGives(lowered, input, index, elementsGatherOracle(input, dim, index, onnx),
                        "trial " + std::to_string(trial));
  }
}

TEST(FrameworkGatherRandom, AxisGathersAgreeWithTheirFormula) {
  std::mt19937 rng(4002);
  int batched = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int form = trial % 3;  // 0 tf.gather, 1 onnx.Gather, 2 torch.index_select
    const int64_t rank = uniformIn(rng, 1, 4);
    Tensor params = numbered("i64", randomShape(rng, rank, 1, 3));
    const int64_t axis = uniformIn(rng, 0, rank - 1);
    const int64_t batchDims = form == 0 ? uniformIn(rng, 0, axis) : 0;
    Index indicesShape(params.shape.begin(), params.shape.begin() + batchDims);
    Index rest = randomShape(rng, form == 2 ? 1 : uniformIn(rng, 0, 2), 0, 3);
    indicesShape.insert(indicesShape.end(), rest.begin(), rest.end());
    Tensor indices = randomIndices(
        rng, trial % 2 ? "i32" : "i64", indicesShape, [&](size_t) { return params.shape[axis]; },
        form == 1);
    LoweredGather lowered =
        form == 0   ? lowerTfGather({params.type(), indices.type(), axis, batchDims})
        : form == 1 ? lowerOnnxGather({params.type(), indices.type(), axis - rank})
                    : lowerTorchIndexSelect({params.type(), axis, indices.type()});
    expectLoweringGives(lowered, params, indices,
                        axisGatherOracle(params, indices, axis, batchDims, form == 1),
                        "trial " + std::to_string(trial));
    batched += batchDims > 0;
  }
  EXPECT_GT(batched, 20);
}

TEST(FrameworkGatherRandom, GatherNdAgreesWithItsFormula) {
  std::mt19937 rng(4003);
  int batched = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t rank = uniformIn(rng, 1, 4);
    Tensor data = numbered("f32", randomShape(rng, rank, 1, 3));
    Index middle = randomShape(rng, uniformIn(rng, 0, 2), 0, 3);
    const int64_t batchDims = uniformIn(rng, 0, std::min<int64_t>(rank - 1, 1 + middle.size()));
    const int64_t m = uniformIn(rng, 1, rank - batchDims);
    Index indicesShape(data.shape.begin(), data.shape.begin() + batchDims);
    indicesShape.insert(indicesShape.end(), middle.begin(), middle.end());
    indicesShape.push_back(m);
    if (batchDims >= static_cast<int64_t>(indicesShape.size())) continue;  // b < min(q, r)
    Tensor indices = randomIndices(
        rng, "i64", indicesShape, [&](size_t i) { return data.shape[batchDims + i % m]; }, true);
    expectLoweringGives(lowerOnnxGatherNd({data.type(), indices.type(), batchDims}), data, indices,
                        ndGatherOracle(data, indices, batchDims, true),
                        "trial " + std::to_string(trial));
    batched += batchDims > 0;
  }
  EXPECT_GT(batched, 30);
}

}  // namespace
}  // namespace idxmap::gather_scatter
