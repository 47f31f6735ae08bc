// The index helpers' one definition (codegen/kernel/helpers.h): right by the arithmetic each
// helper names (floor and ceiling quotients, the non-negative remainder, min, max, clamp),
// checked on values up to the int64 limits; and isl's reading of the printed helpers
// (isl_expressions.cpp: native floor, ceil, mod, min, max) proven equal to the definition for
// every value of the variables (isl, symbolically, instantiated with isl's own operations).
#include <gtest/gtest.h>

#include <limits>

#include "codegen/kernel/helpers.h"
#include "codegen/kernel/isl_expressions.h"
#include "core/bridges/isl_bridge.h"

namespace idxmap::codegen {
namespace {

using isl_bridge::own;
using isl_bridge::toIslVal;
using Exact = __int128;
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Exact exactHelper(const std::string& name, std::vector<Exact> args) {
  ExactHelperOps ops;
  return helperValue(ops, name, args);
}

TEST(IndexHelpers, TheDefinitionIsTheArithmeticEachNames) {
  const std::vector<int64_t> values = {kMin, kMin + 1, -1000, -65, -64,  -63,      -7,
                                       -3,   -2,       -1,    0,   1,    2,        3,
                                       7,    63,       64,    65,  1000, kMax - 1, kMax};
  const std::vector<int64_t> divisors = {1, 2, 3, 7, 64, int64_t{1} << 40, kMax};
  for (int64_t a : values) {
    for (int64_t b : divisors) {
      const Exact q = exactHelper("idxmap_floordiv", {a, b});
      EXPECT_TRUE(q * b <= a && a < q * b + b) << a << " floordiv " << b;
      const Exact c = exactHelper("idxmap_ceildiv", {a, b});
      EXPECT_TRUE(c * b >= a && a > c * b - b) << a << " ceildiv " << b;
      const Exact r = exactHelper("idxmap_floormod", {a, b});
      EXPECT_TRUE(r >= 0 && r < b && (Exact{a} - r) % b == 0) << a << " floormod " << b;
    }
    for (int64_t b : values) {
      EXPECT_EQ(exactHelper("idxmap_min", {a, b}), std::min(a, b));
      EXPECT_EQ(exactHelper("idxmap_max", {a, b}), std::max(a, b));
    }
    for (auto [lo, hi] : {std::pair<int64_t, int64_t>{-3, 5}, {0, 0}, {kMin, kMax}, {2, 9}})
      EXPECT_EQ(exactHelper("idxmap_clamp", {a, lo, hi}), std::min(std::max(a, lo), hi));
  }
}

// The definition on isl's piecewise affine functions: C's truncating quotient and remainder
// (tdiv), comparisons as sets, a choice as the union of both sides on their pieces.
struct IslHelperOps {
  const IslExpressions& space;
  using Value = isl::pw_aff;
  isl::pw_aff constant(int64_t v) const {
    return own(isl_pw_aff_val_on_domain(space.universe().release(), toIslVal(v).release()));
  }
  static isl::pw_aff add(const isl::pw_aff& a, const isl::pw_aff& b) {
    return own(isl_pw_aff_add(a.copy(), b.copy()));
  }
  static isl::pw_aff sub(const isl::pw_aff& a, const isl::pw_aff& b) {
    return own(isl_pw_aff_sub(a.copy(), b.copy()));
  }
  static isl::pw_aff quotient(const isl::pw_aff& a, const isl::pw_aff& b) {
    return own(isl_pw_aff_tdiv_q(a.copy(), b.copy()));
  }
  static isl::pw_aff remainder(const isl::pw_aff& a, const isl::pw_aff& b) {
    return own(isl_pw_aff_tdiv_r(a.copy(), b.copy()));
  }
  static isl::set less(const isl::pw_aff& a, const isl::pw_aff& b) {
    return own(isl_pw_aff_lt_set(a.copy(), b.copy()));
  }
  static isl::set notEqual(const isl::pw_aff& a, const isl::pw_aff& b) {
    return own(isl_pw_aff_ne_set(a.copy(), b.copy()));
  }
  static isl::set both(const isl::set& a, const isl::set& b) {
    return own(isl_set_intersect(a.copy(), b.copy()));
  }
  static isl::pw_aff select(const isl::set& c, const isl::pw_aff& a, const isl::pw_aff& b) {
    return own(isl_pw_aff_union_add(isl_pw_aff_intersect_domain(a.copy(), c.copy()),
                                    isl_pw_aff_subtract_domain(b.copy(), c.copy())));
  }
};

TEST(IndexHelpers, IslReadsEachHelperAsTheDefinitionForEveryValue) {
  const IslExpressions space(2, 0);
  IslHelperOps ops{space};
  const CExpr d0 = variable("d0", CWidth::k64), d1 = variable("d1", CWidth::k64);
  auto proveEqual = [&](const std::string& name, const std::vector<CExpr>& args) {
    std::vector<isl::pw_aff> values;
    for (const CExpr& arg : args) values.push_back(space.fromCExpr(arg));
    const isl::pw_aff read = space.fromCExpr(call(name, CWidth::k64, args));
    const isl::pw_aff defined = helperValue(ops, name, values);
    EXPECT_EQ(isl_pw_aff_is_equal(read.get(), defined.get()), isl_bool_true)
        << printCExpr(call(name, CWidth::k64, args));
  };
  for (int64_t b : {1, 2, 3, 7, 64, 1000})
    for (const char* name : {"idxmap_floordiv", "idxmap_ceildiv", "idxmap_floormod"})
      proveEqual(name, {d0, literal(b)});
  proveEqual("idxmap_min", {d0, d1});
  proveEqual("idxmap_max", {d0, d1});
  for (auto [lo, hi] : {std::pair<int64_t, int64_t>{-3, 5}, {0, 0}, {2, 9}})
    proveEqual("idxmap_clamp", {d0, literal(lo), literal(hi)});
  // The control: a definition that differs is not read as equal.
  const isl::pw_aff floor = space.fromCExpr(call("idxmap_floordiv", CWidth::k64, {d0, literal(3)}));
  const isl::pw_aff truncated = ops.quotient(space.fromCExpr(d0), ops.constant(3));
  EXPECT_EQ(isl_pw_aff_is_equal(floor.get(), truncated.get()), isl_bool_false);
}

}  // namespace
}  // namespace idxmap::codegen
