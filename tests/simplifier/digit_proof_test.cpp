// Proves the digit rewrites (simplifier/digits.h) with Z3, as rule_proof_test proves the rule
// tables: on a grid of divisors a, moduli b, b' (∞ included) and coefficients c, the sums
// mergeDigits and flipNegatedDigits return are equal to the sums they were given for every
// integer value of the variables (Z3, integer semantics, no domain), and they did rewrite.
#include <gtest/gtest.h>
#include <z3++.h>

#include "core/bridges/z3_bridge.h"
#include "core/text.h"
#include "simplifier/digits.h"
#include "tests/support/digit_families.h"
#include "tests/support/exprs.h"

namespace idxmap {
namespace digit_proof_tests {

using namespace test_exprs;

// Small, because a merge's Z3 query grows with a * b * b' (about 0.1 s each at these sizes).
constexpr int64_t kDivisors[] = {1, 2, 3};
constexpr int64_t kModuli[] = {2, 3, 4};
constexpr int64_t kUpperModuli[] = {2, 3, 0};  // 0: no mod (b' = ∞)
constexpr int64_t kCoefficients[] = {1, -2};

// (x floordiv a) mod b, or x floordiv a for b = 0.
Expr digit(Expr x, int64_t a, int64_t b) {
  Expr value = a == 1 ? x : x.floorDiv(a);
  return b == 0 ? value : value.mod(b);
}

// "" when a == b for all integer d0, d1, d2; else why not.
std::string proveEqual(Expr a, Expr b) {
  // The ranges only name the variables: no domain constraint is given to Z3.
  IndexingMap map =
      parseIndexingMap("(d0, d1, d2) -> (d0), domain: d0 in [0, 0], d1 in [0, 0], d2 in [0, 0]");
  BorrowedZ3Context borrowed;  // one a thread: making a context costs more than the proof
  z3::context& ctx = borrowed.get();
  Z3Variables vars = makeZ3Variables(ctx, map, "");
  z3::solver solver(ctx);
  solver.add(toZ3(a, vars, ctx) != toZ3(b, vars, ctx));
  switch (solver.check()) {
    case z3::unsat:
      return "";
    case z3::sat:
      return "refuted: " + printExpr(a) + " != " + printExpr(b);
    default:
      return "unknown";
  }
}

TEST(DigitProof, MergedDigitsEqualTheirSum) {
  const Expr bases[] = {d0, d0 * 3 + d1 - 7};
  int proven = 0;
  for (Expr x : bases)
    for (int64_t a : kDivisors)
      for (int64_t b : kModuli)
        for (int64_t upper : kUpperModuli)
          for (int64_t c : kCoefficients) {
            Expr sum = digit(x, a, b) * c + digit(x, a * b, upper) * (c * b) + d1 + 5;
            LinearForm merged = mergeDigits(LinearForm::of(sum));
            SCOPED_TRACE(printExpr(sum));
            EXPECT_EQ(merged.terms.size(), LinearForm::of(sum).terms.size() - 1);
            EXPECT_EQ(proveEqual(sum, merged.build()), "");
            ++proven;
          }
  EXPECT_EQ(proven, 108);
}

TEST(DigitProof, FlippedDigitsEqualTheirSum) {
  const Expr negated[] = {-d0, -d0 * 2 - d1 + 5};
  int proven = 0;
  for (Expr x : negated)
    for (int64_t a : kDivisors)
      for (int64_t b : kUpperModuli)
        for (int64_t c : kCoefficients) {
          if (a == 1 && b == 0) continue;  // x itself: not a digit
          Expr sum = digit(x, a, b) * c + d1 + 3;
          LinearForm form = LinearForm::of(sum);
          SCOPED_TRACE(printExpr(sum));
          ASSERT_TRUE(flipNegatedDigits(form));
          EXPECT_EQ(proveEqual(sum, form.build()), "");
          ++proven;
        }
  EXPECT_EQ(proven, 32);
}

// The forms digits take in reshapes, bitcasts and strided slices (tests/support/digit_families.h:
// a base shifted by a multiple of a digit's span, strided, written over a partial quotient, the
// lowest digit as x - b * (x floordiv b)): whatever mergeDigits makes of their sums equals the
// sum for every integer value of the dims, not only on the generator's domain, and it merges.
TEST(DigitProof, DigitsInEveryFormMergeToEqualSums) {
  testing::DigitFamilyGenerator generator(7, /*small=*/true);
  int merged = 0;
  for (int i = 0; i < 40; ++i) {
    testing::DigitFamily family = generator.next();
    Expr sum = family.map.results[0];
    Expr result = mergeDigits(LinearForm::of(sum)).build();
    SCOPED_TRACE(family.forms + ": " + printExpr(sum) + " -> " + printExpr(result));
    EXPECT_EQ(proveEqual(sum, result), "");
    merged += result != LinearForm::of(sum).build();
  }
  EXPECT_GE(merged, 36);
}

// Digits of different bases, or not adjacent, stay as they are.
TEST(DigitProof, OnlyAdjacentDigitsOfOneBaseMerge) {
  Expr apart = d0.mod(4) + d0.floorDiv(8).mod(2) * 4;  // a gap: digit 4..8 missing
  EXPECT_EQ(mergeDigits(LinearForm::of(apart)).terms.size(), 2u);
  Expr otherBase = d0.mod(4) + d1.floorDiv(4).mod(2) * 4;
  EXPECT_EQ(mergeDigits(LinearForm::of(otherBase)).terms.size(), 2u);
  Expr wrongScale = d0.mod(4) + d0.floorDiv(4).mod(2) * 3;
  EXPECT_EQ(mergeDigits(LinearForm::of(wrongScale)).terms.size(), 2u);
  LinearForm mixedSigns = LinearForm::of((d0 - d1).mod(4) + 1);
  EXPECT_FALSE(flipNegatedDigits(mixedSigns));
}

}  // namespace digit_proof_tests
}  // namespace idxmap
