// The Z3 bit-width proof (codegen/validate/width_proof.h) against brute force: random C index
// expressions (int32_t and int64_t nodes, casts, truncating and floor division, min/max) over
// small domains placed where overflow is near (around 0, 2^30, 2^31, -2^31, 2^40), each node
// evaluated exactly in 128 bits at every point. Z3 proves exactly the expressions where no node
// leaves its width, no variable misses its declared width and no narrowing cast loses bits.
#include <gtest/gtest.h>

#include <random>

#include "codegen/validate/width_proof.h"
#include "core/text.h"

namespace idxmap::codegen {
namespace width_proof_tests {

using Int = __int128;

Int lowOf(CWidth w) { return w == CWidth::k32 ? INT32_MIN : INT64_MIN; }
Int highOf(CWidth w) { return w == CWidth::k32 ? INT32_MAX : INT64_MAX; }

// The exact value of `e` at `point` (d0, d1, rt0); `overflow` is set where C's would differ.
Int exact(const CExpr& e, const std::vector<int64_t>& point, bool& overflow) {
  auto arg = [&](size_t i) { return exact(e->operands.at(i), point, overflow); };
  auto fits = [&](Int v, CWidth w) {
    if (v < lowOf(w) || v > highOf(w)) overflow = true;
    return v;
  };
  const CWidth w = widthOf(e);
  switch (e->op) {
    case COp::kLiteral:
      return e->value;
    case COp::kVariable:
      return fits(point.at(e->name == "d0" ? 0 : e->name == "d1" ? 1 : 2), w);
    case COp::kAdd:
      return fits(arg(0) + arg(1), w);
    case COp::kSub:
      return fits(arg(0) - arg(1), w);
    case COp::kMul:
      return fits(arg(0) * arg(1), w);
    case COp::kNeg:
      return fits(-arg(0), w);
    case COp::kDiv:
      return arg(0) / arg(1);  // __int128 truncates, as C does
    case COp::kRem:
      return arg(0) % arg(1);
    case COp::kCast:
      return fits(arg(0), w);
    case COp::kCall: {
      Int a = arg(0), b = arg(1);
      if (e->name == "idxmap_min") return b < a ? b : a;
      if (e->name == "idxmap_max") return a < b ? b : a;
      Int q = a / b, r = a % b;  // the divisor: a positive literal
      if (e->name == "idxmap_floordiv") return r != 0 && a < 0 ? q - 1 : q;
      if (e->name == "idxmap_ceildiv") return r != 0 && a > 0 ? q + 1 : q;
      return r < 0 ? r + b : r;  // idxmap_floormod
    }
    default:
      ADD_FAILURE() << "unexpected node";
      return 0;
  }
}

struct Generator {
  std::mt19937_64 rng{20261125};
  CWidth widths[3];  // of d0, d1, rt0

  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  CExpr leaf() {
    switch (pick(0, 4)) {
      case 0:
        return literal(pick(-9, 9));
      case 1:
        return literal(pick(0, 1) ? INT32_MAX - pick(0, 3) : int64_t{1} << pick(20, 40));
      default: {
        int v = static_cast<int>(pick(0, 2));
        return variable(v == 0 ? "d0" : v == 1 ? "d1" : "rt0", widths[v]);
      }
    }
  }
  CWidth wider(const CExpr& a, const CExpr& b) {
    return widthOf(a) == CWidth::k64 || widthOf(b) == CWidth::k64 ? CWidth::k64 : CWidth::k32;
  }
  CExpr expression(int depth) {
    if (depth == 0) return leaf();
    CExpr a = expression(depth - 1);
    switch (pick(0, 8)) {
      case 0:
        return binary(COp::kAdd, a, expression(depth - 1));
      case 1:
        return binary(COp::kSub, a, expression(depth - 1));
      case 2:
        return binary(COp::kMul, a, literal(pick(0, 1) ? pick(-5, 5) : int64_t{1} << pick(8, 33)));
      case 3:
        return negate(a);
      case 4:
        return binary(pick(0, 1) ? COp::kDiv : COp::kRem, a, literal(pick(2, 9)));
      case 5: {
        const char* helpers[] = {"idxmap_floordiv", "idxmap_ceildiv", "idxmap_floormod"};
        CWidth w = pick(0, 1) ? CWidth::k64 : widthOf(a);
        return call(helpers[pick(0, 2)], w, {a, literal(pick(2, 9))});
      }
      case 6: {
        CExpr b = expression(depth - 1);
        return call(pick(0, 1) ? "idxmap_min" : "idxmap_max", wider(a, b), {a, b});
      }
      default:
        return cast(pick(0, 1) ? CWidth::k32 : CWidth::k64, a);
    }
  }
};

TEST(WidthProof, Z3ProvesExactlyWhereBruteForceFindsNoOverflow) {
  Generator g;
  const int64_t centers[] = {0, 1 << 30, INT32_MAX - 2, INT32_MIN + 3, int64_t{1} << 40, -1000};
  int proven = 0, refuted = 0;
  for (int trial = 0; trial < 300; ++trial) {
    for (CWidth& w : g.widths) w = g.pick(0, 2) ? CWidth::k32 : CWidth::k64;
    int64_t lo[3], hi[3];
    for (int v = 0; v < 3; ++v) {
      lo[v] = centers[g.pick(0, 5)] - g.pick(0, 3);
      hi[v] = lo[v] + g.pick(0, 4);
    }
    IndexingMap map =
        parseIndexingMap("(d0, d1){rt0} -> (d0), domain: d0 in [" + std::to_string(lo[0]) + ", " +
                         std::to_string(hi[0]) + "], d1 in [" + std::to_string(lo[1]) + ", " +
                         std::to_string(hi[1]) + "], rt0 in [" + std::to_string(lo[2]) + ", " +
                         std::to_string(hi[2]) + "]");
    CExpr e = g.expression(static_cast<int>(g.pick(1, 3)));
    bool overflow = false;
    for (int64_t a = lo[0]; a <= hi[0]; ++a)
      for (int64_t b = lo[1]; b <= hi[1]; ++b)
        for (int64_t c = lo[2]; c <= hi[2]; ++c) exact(e, {a, b, c}, overflow);
    ProofResult z3 = proveNoOverflowWithZ3({{"e", e, trial % 2 == 0}}, map);
    SCOPED_TRACE(printCExpr(e) + " over " + printIndexingMap(map));
    ASSERT_FALSE(z3.isUnknown()) << z3.reason;
    EXPECT_EQ(z3.isRefuted(), overflow) << z3.reason;
    (overflow ? refuted : proven)++;
  }
  EXPECT_GT(proven, 50);
  EXPECT_GT(refuted, 50);
}

// One query for several expressions: the refutation names the one that overflows.
TEST(WidthProof, ARefutationNamesTheExpression) {
  IndexingMap map = parseIndexingMap("(d0) -> (d0), domain: d0 in [0, 70000]");
  CExpr fine = binary(COp::kAdd, variable("d0", CWidth::k32), literal(1));
  CExpr wraps = binary(COp::kMul, variable("d0", CWidth::k32), literal(65536));
  ProofResult both = proveNoOverflowWithZ3({{"fine", fine, false}, {"wraps", wraps, false}}, map);
  ASSERT_TRUE(both.isRefuted());
  EXPECT_NE(both.reason.find("wraps"), std::string::npos) << both.reason;
  EXPECT_EQ(both.reason.find("fine"), std::string::npos) << both.reason;
  EXPECT_TRUE(proveNoOverflowWithZ3({{"fine", fine, false}}, map).isProven());
}

}  // namespace width_proof_tests
}  // namespace idxmap::codegen
