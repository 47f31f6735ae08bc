#include "core/bridges/z3_bridge.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <thread>

#include "tests/support/exprs.h"
#include "tests/support/map_oracle.h"

namespace idxmap {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

using namespace test_exprs;

// A map with two dims, a range variable and a runtime variable, all unbounded.
IndexingMap fourVariables() {
  IndexingMap m;
  m.dims.resize(2, {Interval::unbounded(), ""});
  m.rangeVars.resize(1, {Interval::unbounded(), ""});
  m.runtimeVars.resize(1, {Interval::unbounded(), ""});
  return m;
}

// Z3 "variables" that are the given numbers, so translating evaluates.
Z3Variables numerals(z3::context& ctx, const std::vector<int64_t>& v, bool bitVector) {
  auto number = [&](int64_t x) { return bitVector ? ctx.bv_val(x, 64) : ctx.int_val(x); };
  Z3Variables vars;
  vars.dims = {number(v[0]), number(v[1])};
  vars.rangeVars = {number(v[2])};
  vars.runtimeVars = {number(v[3])};
  return vars;
}

int64_t numeral(const z3::expr& e) {
  z3::expr value = e.simplify();
  if (value.is_bv()) return static_cast<int64_t>(value.get_numeral_uint64());
  return value.get_numeral_int64();
}

int64_t evaluate(Expr e, const std::vector<int64_t>& v) {
  return e.evaluate(std::span(v).subspan(0, 2), std::span(v).subspan(2, 1),
                    std::span(v).subspan(3, 1));
}

std::vector<int64_t> randomValues(std::mt19937& rng, int64_t magnitude) {
  std::uniform_int_distribution<int64_t> value(-magnitude, magnitude);
  return {value(rng), value(rng), value(rng), value(rng)};
}

TEST(Z3BridgeTest, NamesVariablesWithThePrefix) {
  z3::context ctx;
  Z3Variables ints = makeZ3Variables(ctx, fourVariables(), "a_");
  EXPECT_EQ(ints.dims[1].to_string(), "a_d1");
  EXPECT_EQ(ints.rangeVars[0].to_string(), "a_s0");
  EXPECT_EQ(ints.runtimeVars[0].to_string(), "a_rt0");
  EXPECT_TRUE(ints.dims[0].is_int());
  Z3Variables bits = makeZ3Variables(ctx, fourVariables(), "b_", true);
  EXPECT_TRUE(bits.dims[0].is_bv());
  EXPECT_EQ(bits.dims[0].get_sort().bv_size(), 64u);
}

TEST(Z3BridgeTest, IntegerTermsAgreeWithEvaluate) {
  std::mt19937 rng(11);
  IndexingMap vars = fourVariables();
  z3::context ctx;
  for (int i = 0; i < 400; ++i) {
    Expr e = oracle::randomExpr(rng, vars, 4);
    std::vector<int64_t> v = randomValues(rng, i % 2 ? 20 : 1'000'000);
    SCOPED_TRACE("expression #" + std::to_string(i));
    EXPECT_EQ(numeral(toZ3(e, numerals(ctx, v, false), ctx)), evaluate(e, v));
  }
}

TEST(Z3BridgeTest, DivisionRoundsLikeTheIrForEverySign) {
  z3::context ctx;
  for (int64_t x : {-9, -8, -7, -1, 0, 1, 7, 8, 9}) {
    std::vector<int64_t> v = {x, 0, 0, 0};
    for (int64_t c : {2, 3, 8}) {
      for (Expr e : {d0.floorDiv(c), d0.ceilDiv(c), d0.mod(c)}) {
        EXPECT_EQ(numeral(toZ3(e, numerals(ctx, v, false), ctx)), evaluate(e, v));
        z3::expr noOverflow = ctx.bool_val(false);
        EXPECT_EQ(numeral(toZ3BitVector(e, numerals(ctx, v, true), ctx, noOverflow)),
                  evaluate(e, v));
      }
    }
  }
}

// The bit-vector value equals the integer value exactly when no operation overflows, and
// `noOverflow` says which case holds.
TEST(Z3BridgeTest, BitVectorTermsAgreeWithEvaluateOrFlagOverflow) {
  std::mt19937 rng(12);
  IndexingMap vars = fourVariables();
  const std::vector<int64_t> extremes = {kMin, kMin + 1, kMin / 2, -3,       -1,  0,
                                         1,    2,        kMax / 2, kMax - 1, kMax};
  z3::context ctx;
  int overflowed = 0, exact = 0;
  for (int i = 0; i < 600; ++i) {
    Expr e = oracle::randomExpr(rng, vars, 4);
    std::vector<int64_t> v = randomValues(rng, 1'000'000);
    for (int64_t& x : v)
      if (rng() % 2) x = extremes[rng() % extremes.size()];
    SCOPED_TRACE("expression #" + std::to_string(i));
    z3::expr noOverflow = ctx.bool_val(false);
    z3::expr bits = toZ3BitVector(e, numerals(ctx, v, true), ctx, noOverflow);
    z3::expr holds = noOverflow.simplify();
    ASSERT_TRUE(holds.is_true() || holds.is_false());
    try {
      int64_t expected = evaluate(e, v);
      EXPECT_TRUE(holds.is_true());
      EXPECT_EQ(numeral(bits), expected);
      ++exact;
    } catch (const OverflowError&) {
      EXPECT_TRUE(holds.is_false());
      ++overflowed;
    }
  }
  EXPECT_GT(overflowed, 30);
  EXPECT_GT(exact, 50);
}

TEST(Z3BridgeTest, ProvesAnIdentityOverIntegersAndBitVectorsWithoutOverflow) {
  z3::context ctx;
  Expr lhs = d0.floorDiv(4) * 4 + d0.mod(4);
  Z3Variables ints = makeZ3Variables(ctx, fourVariables(), "");
  z3::solver integers(ctx);
  integers.add(toZ3(lhs, ints, ctx) != toZ3(d0, ints, ctx));
  EXPECT_EQ(integers.check(), z3::unsat);

  Z3Variables bits = makeZ3Variables(ctx, fourVariables(), "", true);
  z3::expr noOverflow = ctx.bool_val(false);
  z3::expr lhsBits = toZ3BitVector(lhs, bits, ctx, noOverflow);
  z3::solver bitVectors(ctx);
  bitVectors.add(noOverflow && lhsBits != bits.dims[0]);
  EXPECT_EQ(bitVectors.check(), z3::unsat);

  // Where it can overflow, it does: d0 * 2 floordiv 2 is not d0 for large d0.
  z3::expr doubled = ctx.bool_val(false);
  z3::expr halved = toZ3BitVector((d0 * 2).floorDiv(2), bits, ctx, doubled);
  z3::solver wraps(ctx);
  wraps.add(halved != bits.dims[0]);
  ASSERT_EQ(wraps.check(), z3::sat);
  EXPECT_TRUE(wraps.get_model().eval(doubled).is_false());
}

TEST(Z3BridgeTest, DomainHoldsExactlyWhereTheMapContainsThePoint) {
  std::mt19937 rng(13);
  z3::context ctx;
  for (int i = 0; i < 25; ++i) {
    IndexingMap m = oracle::randomMap(rng);
    m.dims.resize(2, {{-1, 2}, ""});
    m.rangeVars.resize(1, {{0, 3}, ""});
    m.runtimeVars.resize(1, {{1, 1}, ""});
    SCOPED_TRACE("map #" + std::to_string(i));
    std::vector<Interval> box(4, Interval{-2, 3});  // points inside and outside the ranges
    oracle::forEachAssignment(box, [&](const std::vector<int64_t>& v) {
      z3::expr holds = domainToZ3(m, numerals(ctx, v, false), ctx).simplify();
      bool expected = m.contains(std::span(v).subspan(0, 2), std::span(v).subspan(2, 1),
                                 std::span(v).subspan(3, 1));
      ASSERT_EQ(holds.is_true(), expected);
      ASSERT_EQ(holds.is_false(), !expected);
    });
  }
  IndexingMap empty = fourVariables();
  empty.markKnownEmpty();
  EXPECT_TRUE(domainToZ3(empty, makeZ3Variables(ctx, empty, ""), ctx).simplify().is_false());
}

// x * c == x + x has a solution x != 0 exactly when c == 2: a proof whose answer each borrow
// must get right, whether its context is fresh or used.
bool doublingHasANonZeroSolution(int64_t c) {
  BorrowedZ3Context borrowed;
  z3::context& ctx = borrowed.get();
  z3::expr x = ctx.int_const("x");
  z3::solver solver(ctx);
  solver.add(x * ctx.int_val(c) == x + x && x != 0);
  return solver.check() == z3::sat;
}

TEST(BorrowedZ3Context, NestedBorrowsShareOneContextAndEveryProofStaysRight) {
  {
    BorrowedZ3Context outer;
    z3::expr kept = outer.get().int_const("kept");  // lives across the inner borrows
    for (int i = 0; i < BorrowedZ3Context::kProofsPerZ3Context + 3; ++i) {
      BorrowedZ3Context inner;
      ASSERT_EQ(&inner.get(), &outer.get()) << "a held context was replaced at borrow " << i;
    }
    z3::solver solver(outer.get());
    solver.add(kept > 3 && kept < 5);
    EXPECT_EQ(solver.check(), z3::sat);
  }
  // Past the count and free, the context is replaced by the next borrow; proofs before and
  // after the replacement are right.
  for (int i = 0; i < 6; ++i)
    ASSERT_EQ(doublingHasANonZeroSolution(2 + i % 2), i % 2 == 0) << "borrow " << i;
}

TEST(BorrowedZ3Context, OnlyASettledAnswerComesFromTheReusedContext) {
  BorrowedZ3Context mine;  // this thread's context, held
  std::vector<z3::context*> tried;
  auto attempt = [&](z3::context& c) {
    tried.push_back(&c);
    return static_cast<int>(tried.size());
  };
  EXPECT_EQ(proveInReusedZ3Context(attempt, [](int) { return true; }), 1);
  ASSERT_EQ(tried.size(), 1u);
  EXPECT_EQ(tried[0], &mine.get());
  tried.clear();
  // Unsettled: tried again in a context of its own, and that answer is the one returned.
  EXPECT_EQ(proveInReusedZ3Context(attempt, [](int n) { return n != 1; }), 2);
  ASSERT_EQ(tried.size(), 2u);
  EXPECT_EQ(tried[0], &mine.get());
  EXPECT_NE(tried[1], &mine.get());
  EXPECT_TRUE(isZ3Timeout("timeout") && isZ3Timeout("canceled") && !isZ3Timeout("incomplete"));
}

TEST(BorrowedZ3Context, EachThreadHasItsOwn) {
  BorrowedZ3Context mine;
  z3::context* other = nullptr;
  bool right = false;
  std::thread([&] {
    BorrowedZ3Context theirs;
    other = &theirs.get();
    right = doublingHasANonZeroSolution(2) && !doublingHasANonZeroSolution(3);
  }).join();
  EXPECT_NE(other, &mine.get());
  EXPECT_TRUE(right);
}

}  // namespace
}  // namespace idxmap
