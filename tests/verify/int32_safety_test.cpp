// int32 safety against enumeration: random maps over small domains with large coefficients
// (so values cross 2^31 often), whose verdict must say "fits" exactly when every expression of
// the simplified map, every subexpression and the linearized offset stay in int32 at every point
// of the domain; every counterexample must name a point where one does not.
#include "verify/int32_safety.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "simplifier/simplify.h"

namespace idxmap {
namespace {

int64_t pick(std::mt19937& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

Expr randomExpr(std::mt19937& rng, int depth, unsigned dims, unsigned rangeVars) {
  if (depth == 0 || pick(rng, 0, 3) == 0) {
    int64_t which = pick(rng, 0, dims + rangeVars);
    if (which < dims) return Expr::dim(static_cast<unsigned>(which));
    if (which < dims + rangeVars) return Expr::rangeVar(static_cast<unsigned>(which - dims));
    return Expr::constant(pick(rng, -(int64_t{1} << 31), int64_t{1} << 31));
  }
  Expr a = randomExpr(rng, depth - 1, dims, rangeVars);
  switch (pick(rng, 0, 5)) {
    case 0:
      return a + randomExpr(rng, depth - 1, dims, rangeVars);
    case 1:
      return a * pick(rng, -(int64_t{1} << 30), int64_t{1} << 30);
    case 2:
      return a.floorDiv(pick(rng, 1, 1 << 20));
    case 3:
      return a.mod(pick(rng, 1, 1 << 20));
    case 4:
      return Expr::max(a, randomExpr(rng, depth - 1, dims, rangeVars));
    default:
      return a - randomExpr(rng, depth - 1, dims, rangeVars);
  }
}

bool inInt32(int64_t v) { return v >= kInt32Min && v <= kInt32Max; }

// Calls visit(dims, rangeVars) at every point of the map's domain.
template <class Visit>
void forEachPoint(const IndexingMap& map, Visit&& visit) {
  std::vector<int64_t> values;
  std::vector<Interval> ranges;
  for (const auto& v : map.dims) ranges.push_back(v.range);
  for (const auto& v : map.rangeVars) ranges.push_back(v.range);
  for (const Interval& r : ranges) values.push_back(r.lo);
  while (true) {
    std::vector<int64_t> d(values.begin(), values.begin() + map.dims.size());
    std::vector<int64_t> s(values.begin() + map.dims.size(), values.end());
    if (map.contains(d, s, {})) visit(d, s);
    size_t i = values.size();
    while (i > 0 && values[i - 1] == ranges[i - 1].hi) {
      values[i - 1] = ranges[i - 1].lo;
      --i;
    }
    if (i == 0) return;
    ++values[i - 1];
  }
}

// The row-major offset sum_k result_k * stride_k, built with the IR's own arithmetic.
Expr offsetOf(const IndexingMap& map, const std::vector<int64_t>& shape) {
  Expr offset = Expr::constant(0);
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    offset = map.results[k] * stride + offset;
    stride *= shape[k];
  }
  return offset;
}

// Whether some node of the results or of the offset leaves int32 at (d, s).
bool overflowsAt(const IndexingMap& map, const std::vector<int64_t>& shape,
                 const std::vector<int64_t>& d, const std::vector<int64_t>& s) {
  bool overflow = false;
  std::vector<Expr> roots = map.results;
  roots.push_back(offsetOf(map, shape));
  for (Expr root : roots)
    root.walk([&](Expr e) {
      try {
        overflow = overflow || !inInt32(e.evaluate(d, s, {}));
      } catch (const OverflowError&) {
        overflow = true;
      }
    });
  return overflow;
}

TEST(Int32Safety, VerdictsMatchEnumeration) {
  std::mt19937 rng(32);
  int refuted = 0, proven = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    unsigned dims = static_cast<unsigned>(pick(rng, 1, 2)),
             rangeVars = static_cast<unsigned>(pick(rng, 0, 1));
    IndexingMap map;
    for (unsigned i = 0; i < dims; ++i) map.dims.push_back({{0, pick(rng, 0, 6)}, ""});
    for (unsigned i = 0; i < rangeVars; ++i) map.rangeVars.push_back({{0, pick(rng, 0, 3)}, ""});
    size_t results = static_cast<size_t>(pick(rng, 1, 2));
    std::vector<int64_t> shape;
    try {
      for (size_t r = 0; r < results; ++r) {
        // Small coefficients in half the trials, so that both verdicts come up.
        map.results.push_back(trial % 2
                                  ? randomExpr(rng, 2, dims, rangeVars)
                                  : Expr::dim(0) * pick(rng, 1, 1 << 12) + Expr::dim(dims - 1));
        shape.push_back(pick(rng, 1, 1 << 16));
      }
      offsetOf(simplify(map), shape);
    } catch (const OverflowError&) {  // constants folded past int64: not a map to ask about
      continue;
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    IndexingMap simplified = simplify(map);
    bool overflow = false;
    forEachPoint(simplified, [&](const auto& d, const auto& s) {
      overflow = overflow || overflowsAt(simplified, shape, d, s);
    });
    Int32Safety safety = proveInt32Safety({{"m", map, shape}});
    ASSERT_FALSE(safety.verdict.isUnknown()) << safety.verdict.reason;
    EXPECT_EQ(safety.verdict.isRefuted(), overflow) << printIndexingMap(simplified);
    if (safety.verdict.isRefuted()) {
      ++refuted;
      const Counterexample& example = *safety.verdict.counterexample;
      bool confirmed = false;
      forEachPoint(simplified, [&](const auto& d, const auto& s) {
        confirmed = confirmed || (d == example.dims && overflowsAt(simplified, shape, d, s));
      });
      EXPECT_TRUE(confirmed) << example.explanation;
    } else {
      ++proven;
    }
  }
  EXPECT_GT(refuted, 100);
  EXPECT_GT(proven, 100);
}

TEST(Int32Safety, NamesTheExpressionTheValueAndThePoint) {
  IndexingMap map = IndexingMap::identity({70000, 40000});
  Int32Safety safety = proveInt32Safety({{"result -> operand", map, {70000, 40000}}});
  ASSERT_TRUE(safety.verdict.isRefuted());
  // 69999 * 40000 + 39999 = 2799999999: the offset into a 2.8e9-element tensor.
  EXPECT_EQ(safety.verdict.counterexample->explanation,
            "result -> operand: offset d0 * 40000 + d1 reaches 2799999999 at (d0 = 69999, "
            "d1 = 39999), outside int32");
  EXPECT_TRUE(proveInt32Safety({{"small", IndexingMap::identity({4000, 4000}), {4000, 4000}}})
                  .verdict.isProven());
}

// Where interval bounds are not enough: d0 + d1 <= 100 keeps the offset d0 * 1048577 + d1
// small, which only the constraint (isl) knows. By hand, its largest value is 100 * 1048577.
TEST(Int32Safety, IslDecidesWhatIntervalsCannot) {
  IndexingMap map = IndexingMap::identity({1048577, 1048577});
  map.constraints.push_back({Expr::dim(0) + Expr::dim(1), {0, 100}});
  Int32Safety safety = proveInt32Safety({{"m", map, {1048577, 1048577}}});
  ASSERT_TRUE(safety.verdict.isProven()) << safety.verdict.reason;
  EXPECT_EQ(safety.verdict.method, "isl");
  bool sawOffset = false;
  for (const ExpressionSafety& expression : safety.expressions)
    if (expression.expression.rfind("offset ", 0) == 0) {
      sawOffset = true;
      EXPECT_EQ(expression.max, 104857700);
      EXPECT_EQ(expression.min, 0);
    }
  EXPECT_TRUE(sawOffset);
}

}  // namespace
}  // namespace idxmap
