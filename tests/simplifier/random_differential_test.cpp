// Randomized differential test: simplified maps against brute-force enumeration of small
// domains. Seeded, so a failure reproduces; the seed and the map are printed.
#include <gtest/gtest.h>

#include <random>

#include "core/text.h"
#include "simplifier/rewriter.h"
#include "simplifier/simplify.h"
#include "tests/simplifier/brute_force.h"

namespace idxmap {
namespace {

class MapGenerator {
 public:
  explicit MapGenerator(uint32_t seed) : rng_(seed) {}

  IndexingMap map() {
    IndexingMap m;
    int dims = pick(1, 3), rangeVars = pick(0, 2), runtimeVars = pick(0, 1);
    for (int i = 0; i < dims; ++i) m.dims.push_back({range(), ""});
    for (int i = 0; i < rangeVars; ++i) m.rangeVars.push_back({range(), ""});
    for (int i = 0; i < runtimeVars; ++i) m.runtimeVars.push_back({range(), ""});
    map_ = &m;
    int results = pick(1, 3);
    for (int i = 0; i < results; ++i) m.results.push_back(expr(3));
    int constraints = pick(0, 2);
    for (int i = 0; i < constraints; ++i) {
      Expr e = expr(2);
      int64_t lo = pick(-6, 10);
      m.constraints.push_back({e, {lo, lo + pick(0, 12)}});
    }
    return m;
  }

 private:
  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  Interval range() {
    int64_t lo = pick(0, 3) == 0 ? pick(-5, 0) : 0;
    return {lo, lo + pick(0, 7)};
  }
  Expr variable() {
    for (;;) {
      int kind = pick(0, 2);
      if (kind == 0) return Expr::dim(pick(0, map_->dims.size() - 1));
      if (kind == 1 && !map_->rangeVars.empty())
        return Expr::rangeVar(pick(0, map_->rangeVars.size() - 1));
      if (kind == 2 && !map_->runtimeVars.empty())
        return Expr::runtimeVar(pick(0, map_->runtimeVars.size() - 1));
    }
  }
  // Linear sums with coefficients and divisors that share factors, so the rules fire.
  Expr expr(int depth) {
    static constexpr int64_t kFactors[] = {1, 2, 3, 4, 6, 8, 12, 16};
    auto factor = [&] { return kFactors[pick(0, 7)]; };
    if (depth == 0 || pick(0, 3) == 0)
      return pick(0, 5) == 0 ? Expr::constant(pick(-9, 9)) : variable();
    switch (pick(0, 7)) {
      case 0:
      case 1:
        return expr(depth - 1) * (pick(0, 4) == 0 ? -factor() : factor()) + expr(depth - 1);
      case 2:
        return expr(depth - 1).floorDiv(std::max<int64_t>(2, factor()));
      case 3:
        return expr(depth - 1).mod(std::max<int64_t>(2, factor()));
      case 4:
        return expr(depth - 1).ceilDiv(std::max<int64_t>(2, factor()));
      case 5:
        return Expr::min(expr(depth - 1), expr(depth - 1));
      case 6:
        return Expr::max(expr(depth - 1), expr(depth - 1) + pick(-3, 3));
      default:
        return expr(depth - 1) + pick(-20, 20);
    }
  }

  std::mt19937 rng_;
  IndexingMap* map_ = nullptr;
};

TEST(RandomDifferential, SimplifiedMapsMatchBruteForce) {
  constexpr uint32_t kSeed = 20261122;
  MapGenerator gen(kSeed);
  int checked = 0, shrunk = 0;
  for (int i = 0; i < 3000; ++i) {
    IndexingMap input = gen.map();
    if (testing::domainVolume(input) > 4000) continue;
    IndexingMap output = simplify(input);
    ASSERT_EQ(output.brokenInvariant(), std::nullopt);
    ASSERT_EQ(testing::relationOf(output), testing::relationOf(input))
        << "seed " << kSeed << " map #" << i << "\ninput:\n"
        << printIndexingMap(input) << "\noutput:\n"
        << printIndexingMap(output);
    int inSize = 0, outSize = 0;
    for (Expr e : input.results) inSize += simplificationCost(e);
    for (Expr e : output.results) outSize += simplificationCost(e);
    if (!output.knownEmpty) EXPECT_LE(outSize, inSize) << printIndexingMap(input);
    shrunk += outSize < inSize;
    ++checked;
  }
  EXPECT_GE(checked, 2000);
  EXPECT_GE(shrunk, checked / 10) << "the simplifier should find something in random soup";
}

}  // namespace
}  // namespace idxmap
