// The maps as relations, point by point against the spec's index formula written out here:
// for random ops, every domain point and every runtime value in (and, for scatter, well
// beyond) the declared ranges. Gather: every clamped start value has an image, the right one.
// Scatter: a point has an image exactly when the spec's result index is in bounds, so the
// runtime ranges and constraints skip what the spec skips and nothing else.
#include <gtest/gtest.h>

#include <optional>

#include "tests/ops/stablehlo/random_ops.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using Index = std::vector<int64_t>;

bool has(const Index& list, int64_t v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// The spec's operand_index (gather) / result_index (scatter) from a domain index and the
// start values, in gather's attribute words: start values land on start_index_map, batching
// dims copy batch_index at d_start - (d_start < index_vector_dim ? 0 : 1), offset dims fill
// the remaining axes in order.
Index specIndex(const GatherDimensionNumbers& dn, size_t operandRank, const Index& domainIndex,
                const Index& startValues) {
  Index batchIndex, offsetIndex;
  for (size_t axis = 0; axis < domainIndex.size(); ++axis)
    (has(dn.offset_dims, static_cast<int64_t>(axis)) ? offsetIndex : batchIndex)
        .push_back(domainIndex[axis]);
  Index index(operandRank, 0);
  for (size_t k = 0; k < dn.start_index_map.size(); ++k)
    index[dn.start_index_map[k]] += startValues[k];
  for (size_t i = 0; i < dn.operand_batching_dims.size(); ++i) {
    int64_t dStart = dn.start_indices_batching_dims[i];
    index[dn.operand_batching_dims[i]] +=
        batchIndex[dStart - (dStart < dn.index_vector_dim ? 0 : 1)];
  }
  size_t next = 0;
  for (size_t d = 0; d < operandRank; ++d)
    if (!has(dn.collapsed_slice_dims, static_cast<int64_t>(d)) &&
        !has(dn.operand_batching_dims, static_cast<int64_t>(d)))
      index[d] += offsetIndex[next++];
  return index;
}

// Calls visit(values) for every tuple with values[k] in [lo[k], hi[k]].
void forEachTuple(const Index& lo, const Index& hi,
                  const std::function<void(const Index&)>& visit) {
  Index values = lo;
  for (size_t k = 0; k < lo.size(); ++k)
    if (lo[k] > hi[k]) return;
  while (true) {
    visit(values);
    size_t k = values.size();
    while (k > 0 && values[k - 1] == hi[k - 1]) values[k - 1] = lo[k - 1], --k;
    if (k == 0) return;
    ++values[k - 1];
  }
}

Index evaluate(const IndexingMap& map, const Index& dims, const Index& runtimeVars) {
  Index point;
  for (Expr e : map.results) point.push_back(e.evaluate(dims, {}, runtimeVars));
  return point;
}

TEST(GatherRelation, EveryClampedStartHasTheSpecsImage) {
  std::mt19937 rng(7);
  int points = 0;
  for (int trial = 0; trial < 150; ++trial) {
    testing::RandomOp random = testing::randomOp(rng);
    GatherOp op = testing::asGatherOp(random);
    IndexingMap map = gatherOutputToOperandMap(op);
    if (map.knownEmpty || isEmptyShape(random.resultShape)) continue;
    Index lo, hi;
    for (size_t k = 0; k < op.dimension_numbers.start_index_map.size(); ++k) {
      int64_t d = op.dimension_numbers.start_index_map[k];
      lo.push_back(0);  // clamp(start, 0, dim - slice): exactly these values occur
      hi.push_back(op.operand.shape[d] - op.slice_sizes[d]);
      ASSERT_EQ(map.runtimeVars[k].range, (Interval{lo.back(), hi.back()})) << trial;
    }
    Index dims(random.resultShape.size(), 0);
    do {
      forEachTuple(lo, hi, [&](const Index& starts) {
        ++points;
        ASSERT_TRUE(map.contains(dims, {}, starts)) << trial;
        EXPECT_EQ(evaluate(map, dims, starts),
                  specIndex(op.dimension_numbers, op.operand.shape.size(), dims, starts))
            << trial;
      });
    } while (nextIndex(random.resultShape, dims));
  }
  EXPECT_GT(points, 1000);
}

TEST(ScatterRelation, ImageExactlyWhenTheSpecsIndexIsInBounds) {
  std::mt19937 rng(8);
  int inBounds = 0, skipped = 0;
  for (int trial = 0; trial < 150; ++trial) {
    testing::RandomOp random = testing::randomOp(rng);
    ScatterOp op = testing::asScatterOp(random, UpdateComputation::kAdd);
    IndexingMap map = scatterUpdateToResultMap(op);
    if (map.knownEmpty || isEmptyShape(random.resultShape)) continue;
    const Index& inputShape = random.operandShape;
    // Start values from a full input length below 0 to one past the end: every way a window
    // can sit relative to the input.
    Index lo, hi;
    for (int64_t d : op.dimension_numbers.scatter_dims_to_operand_dims) {
      lo.push_back(-inputShape[d] - 1);
      hi.push_back(inputShape[d] + 1);
    }
    Index dims(random.resultShape.size(), 0);
    do {
      forEachTuple(lo, hi, [&](const Index& starts) {
        Index index = specIndex(random.dims, inputShape.size(), dims, starts);
        bool inside = true;
        for (size_t d = 0; d < index.size(); ++d)
          inside = inside && index[d] >= 0 && index[d] < inputShape[d];
        ASSERT_EQ(map.contains(dims, {}, starts), inside) << trial;
        if (inside) {
          EXPECT_EQ(evaluate(map, dims, starts), index) << trial;
          ++inBounds;
        } else {
          ++skipped;
        }
      });
    } while (nextIndex(random.resultShape, dims));
  }
  EXPECT_GT(inBounds, 1000);
  EXPECT_GT(skipped, 1000);
}

}  // namespace
}  // namespace idxmap::gather_scatter
