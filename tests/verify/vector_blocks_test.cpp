// Facts about one operand of a concatenation along the index vector dim, and the known values
// of the others (an iota), as the batching-dims decomposition writes a batched scatter: the
// old form's indices are concatenate(A, iota). What they prove must hold for every enumerated
// A that satisfies the facts, and without the facts the proof must go.
#include <gtest/gtest.h>
#include <isl/map.h>

#include <set>

#include "core/bridges/isl_bridge.h"
#include "tests/verify/index_truth.h"
#include "verify/index_properties.h"

namespace idxmap {
namespace {

using gather_scatter::Tensor;
using index_truth::Truth;

// A batched scatter of single elements into [2, 6], decomposed: indices [2 batches, 2 points,
// (row, batch)], the row from A and the batch an iota; scatter_dims_to_operand_dims [1, 0].
gather_scatter::ScatterOp decomposedScatter() {
  gather_scatter::ScatterOp op;
  op.inputs = {{{2, 6}, "f32"}};
  op.scatter_indices = {{2, 2, 2}, "i32"};
  op.updates = {{{2, 2}, "f32"}};
  auto& dn = op.dimension_numbers;
  dn.inserted_window_dims = {0, 1};
  dn.scatter_dims_to_operand_dims = {1, 0};
  dn.index_vector_dim = 2;
  return op;
}

// The iota along the batch dim, [2, 2, 1], as index provenance states it.
index_provenance::IndexValues batchIota() {
  return {{2, 2, 1},
          isl_bridge::own(isl_map_read_from_str(
              islContext().get(),
              "{ [p0, p1, p2] -> [v] : v = p0 and 0 <= p0 <= 1 and 0 <= p1 <= 1 and p2 = 0 }")),
          "iota",
          true};
}

index_provenance::IndexValues runtime() {
  return {
      {2, 2, 2},
      isl_bridge::own(isl_map_read_from_str(islContext().get(), "{ [p0, p1, p2] -> [v] : 1 = 0 }")),
      "concatenate(%rows, iota)",
      false};
}

TEST(VectorBlocks, FactsAboutOneOperandProveTheDecomposedOp) {
  gather_scatter::ScatterOp op = decomposedScatter();
  std::vector<VectorBlock> blocks = {
      {0, 1, parseAssumptions({"%rows: unique, in [0, 5]"}), std::nullopt},
      {1, 1, {}, batchIota()}};
  IndexProperties proven = proveScatterIndexProperties(op, runtime(), {}, {}, blocks);
  ASSERT_TRUE(proven.unique);
  EXPECT_TRUE(proven.unique->isProven()) << proven.unique->condition;
  EXPECT_TRUE(proven.inBounds.isProven()) << proven.inBounds.condition;
  EXPECT_EQ(proven.unique->assumptions, std::vector<std::string>{"%rows: unique, in [0, 5]"});

  // Every A with values in [-1, 4] (4 rows): where A satisfies the facts, the properties hold.
  int satisfying = 0;
  Tensor indices = gather_scatter::zeros("i32", {2, 2, 2});
  for (int code = 0; code < 6 * 6 * 6 * 6; ++code) {
    std::vector<int64_t> rows;
    for (int i = 0, rest = code; i < 4; ++i, rest /= 6) rows.push_back(rest % 6 - 1);
    for (int b = 0; b < 2; ++b)
      for (int n = 0; n < 2; ++n) {
        indices.ints[(b * 2 + n) * 2] = rows[b * 2 + n];
        indices.ints[(b * 2 + n) * 2 + 1] = b;
      }
    std::set<int64_t> distinct(rows.begin(), rows.end());
    bool facts = distinct.size() == 4 && *distinct.begin() >= 0;
    Truth truth = index_truth::scatterTruth(op, indices);
    if (!facts) continue;
    ++satisfying;
    EXPECT_TRUE(truth.unique && truth.inBounds) << code;
  }
  EXPECT_EQ(satisfying, 5 * 4 * 3 * 2);  // 4 distinct values of 0..4

  // Negative controls: without the facts, or without the iota's values, nothing is proven.
  IndexProperties noFacts =
      proveScatterIndexProperties(op, runtime(), {}, {}, {{0, 1, {}, std::nullopt}, blocks[1]});
  EXPECT_TRUE(noFacts.unique->isUnknown());
  IndexProperties noIota =
      proveScatterIndexProperties(op, runtime(), {}, {}, {blocks[0], {1, 1, {}, std::nullopt}});
  EXPECT_TRUE(noIota.inBounds.isUnknown());
}

}  // namespace
}  // namespace idxmap
