// Randomized differential test: simplified maps against brute-force enumeration of small
// domains. Seeded, so a failure reproduces; the seed and the map are printed. Half the maps of
// the second test carry constants and ranges near +-2^63: there the oracle evaluates in 128
// bits, and the simplifier must give the same relation over the integers or a "does not fit"
// error, never a wrong answer.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/text.h"
#include "simplifier/rewriter.h"
#include "simplifier/simplify.h"
#include "tests/simplifier/brute_force.h"
#include "tests/support/sampling.h"

namespace idxmap {
namespace {

class MapGenerator {
 public:
  explicit MapGenerator(uint32_t seed) : rng_(seed) {}

  // Maps whose constants, offsets and ranges are near +-2^63 half of the time (the factors and
  // divisors of the soup stay, and so do large divisors).
  IndexingMap bigMap() {
    big_ = pick(0, 1) == 1;
    return map();
  }

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
    if (big_ && pick(0, 3) == 0) {  // next to one of the limits
      // A gap of at least 1: INT64_MIN as a lower bound and INT64_MAX as an upper one are the
      // infinities of an Interval.
      int64_t width = pick(0, 5), gap = pick(1, 4);
      return pick(0, 1) ? Interval{INT64_MAX - gap - width, INT64_MAX - gap}
                        : Interval{INT64_MIN + gap, INT64_MIN + gap + width};
    }
    int64_t lo = pick(0, 3) == 0 ? pick(-5, 0) : 0;
    return {lo, lo + pick(0, 7)};
  }
  // A constant: small, or (in big maps) near one of the limits or +-2^62.
  int64_t constant(int64_t small) {
    if (!big_ || pick(0, 1) == 0) return pick(-small, small);
    switch (pick(0, 3)) {
      case 0:
        return INT64_MAX - pick(0, 8);
      case 1:
        return INT64_MIN + pick(0, 8);
      case 2:
        return (int64_t{1} << 62) + pick(-4, 4);
      default:
        return -(int64_t{1} << 62) + pick(-4, 4);
    }
  }
  int64_t divisor(int64_t small) {
    return big_ && pick(0, 3) == 0 ? (int64_t{1} << pick(31, 62)) + pick(0, 1) : small;
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
      return pick(0, 5) == 0 ? Expr::constant(constant(9)) : variable();
    switch (pick(0, 7)) {
      case 0:
      case 1:
        return expr(depth - 1) * (pick(0, 4) == 0 ? -factor() : factor()) + expr(depth - 1);
      case 2:
        return expr(depth - 1).floorDiv(divisor(std::max<int64_t>(2, factor())));
      case 3:
        return expr(depth - 1).mod(divisor(std::max<int64_t>(2, factor())));
      case 4:
        return expr(depth - 1).ceilDiv(divisor(std::max<int64_t>(2, factor())));
      case 5:
        return Expr::min(expr(depth - 1), expr(depth - 1));
      case 6:
        return Expr::max(expr(depth - 1), expr(depth - 1) + constant(3));
      default:
        return expr(depth - 1) + constant(20);
    }
  }

  std::mt19937 rng_;
  IndexingMap* map_ = nullptr;
  bool big_ = false;
};

// The relation of `map` over the integers, evaluated in 128 bits (the generator's products stay
// far below 2^127), and whether every value on the way fits in int64.
using Wide = __int128;

Wide wideValue(Expr e, const std::vector<int64_t>& d, const std::vector<int64_t>& s,
               const std::vector<int64_t>& rt, bool& fits) {
  auto floorDivWide = [](Wide a, Wide b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
  Wide value = 0;
  switch (e.kind()) {
    case ExprKind::Constant:
      return e.constantValue();
    case ExprKind::Dim:
      return d.at(e.variableIndex());
    case ExprKind::RangeVar:
      return s.at(e.variableIndex());
    case ExprKind::RuntimeVar:
      return rt.at(e.variableIndex());
    default: {
      Wide a = wideValue(e.lhs(), d, s, rt, fits), b = wideValue(e.rhs(), d, s, rt, fits);
      switch (e.kind()) {
        case ExprKind::Add:
          value = a + b;
          break;
        case ExprKind::Mul:
          value = a * b;
          break;
        case ExprKind::FloorDiv:
          value = floorDivWide(a, b);
          break;
        case ExprKind::CeilDiv:
          value = -floorDivWide(-a, b);
          break;
        case ExprKind::Mod:
          value = a - b * floorDivWide(a, b);
          break;
        case ExprKind::Min:
          value = std::min(a, b);
          break;
        default:
          value = std::max(a, b);
          break;
      }
    }
  }
  fits = fits && value >= INT64_MIN && value <= INT64_MAX;
  return value;
}

struct WideRelation {
  std::set<std::vector<Wide>> points;
  bool fits = true;
};

WideRelation wideRelationOf(const IndexingMap& map) {
  WideRelation out;
  if (map.knownEmpty) return out;
  std::vector<int64_t> d(map.dims.size()), s(map.rangeVars.size()), rt(map.runtimeVars.size());
  testing::enumerate(map.dims, d, 0, [&] {
    testing::enumerate(map.runtimeVars, rt, 0, [&] {
      testing::enumerate(map.rangeVars, s, 0, [&] {
        for (const Constraint& c : map.constraints) {
          Wide v = wideValue(c.expr, d, s, rt, out.fits);
          if (v < c.range.lo || v > c.range.hi) return;
        }
        std::vector<Wide> tuple(d.begin(), d.end());
        tuple.insert(tuple.end(), rt.begin(), rt.end());
        for (Expr r : map.results) tuple.push_back(wideValue(r, d, s, rt, out.fits));
        out.points.insert(tuple);
      });
    });
  });
  return out;
}

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

// Near the limits every answer is the relation over the integers or a located "does not fit"
// error, and the error only where some value of the input does not fit in int64.
TEST(RandomDifferential, BigConstantsGiveNoWrongAnswer) {
  sampling::Sample sample = sampling::sampleOf("RandomDifferential near 2^63", 100000, 4000);
  MapGenerator gen(sample.seed);
  int exact = 0, refused = 0, refusedFitting = 0;
  for (size_t i = 0; i < sample.count; ++i) {
    IndexingMap input;
    try {
      input = gen.bigMap();
    } catch (const OverflowError&) {  // a constant folded past int64 while building
      continue;
    }
    if (testing::domainVolume(input) > 4000) continue;
    WideRelation truth = wideRelationOf(input);
    std::string shown = "map #" + std::to_string(i) + " of seed " + std::to_string(sample.seed) +
                        "\ninput:\n" + printIndexingMap(input);
    IndexingMap output;
    try {
      output = simplify(input);
    } catch (const OverflowError&) {
      // A located "does not fit" is never a wrong answer, though a map whose values all fit
      // can still be refused when a bound the simplifier derives does not (1 in ~30,000).
      (truth.fits ? refusedFitting : refused)++;
      continue;
    }
    ASSERT_EQ(output.brokenInvariant(), std::nullopt) << shown;
    WideRelation simplified = wideRelationOf(output);
    EXPECT_TRUE(simplified.points == truth.points) << shown << "\noutput:\n"
                                                   << printIndexingMap(output);
    ++exact;
  }
  if (sample.count >= 4000) EXPECT_GT(exact, 1500);
  std::printf("%d exact, %d refused (a value does not fit), %d refused though every value fits\n",
              exact, refused, refusedFitting);
}

}  // namespace
}  // namespace idxmap
