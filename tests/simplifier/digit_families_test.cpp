// Sums of the digits of one base, written as reshapes, bitcasts and strided slices leave them
// (tests/support/digit_families.h): every simplified map against brute-force enumeration of the
// one given (and the generator's own sum against w * x, so the oracle is checked too), and the
// share that simplifies to no more than the exact result w * x, which is isl's answer.
#include <gtest/gtest.h>

#include <map>

#include "core/text.h"
#include "simplifier/simplify.h"
#include "tests/simplifier/brute_force.h"
#include "tests/support/digit_families.h"
#include "tests/support/sampling.h"

namespace idxmap {
namespace digit_families_tests {

int nodes(const IndexingMap& map) {
  int n = 0;
  for (Expr e : map.results) n += e.size();
  return n;
}

TEST(DigitFamilies, SumsOfDigitsKeepTheirMeaningAndMergeToTheirBase) {
  sampling::Sample sample = sampling::sampleOf("DigitFamilies", 4000, 800);
  testing::DigitFamilyGenerator generator(sample.seed);
  size_t merged = 0;
  std::map<std::string, int> unmergedForms;
  std::string firstUnmerged;
  for (size_t i = 0; i < sample.count; ++i) {
    testing::DigitFamily family = generator.next();
    SCOPED_TRACE("family " + std::to_string(i) + " (" + family.forms +
                 "): " + printIndexingMap(family.map));
    IndexingMap exact = family.map;
    exact.results = {family.exact};
    const testing::Relation truth = testing::relationOf(exact);
    ASSERT_EQ(testing::relationOf(family.map), truth) << "the generator's sum is not w * x";
    IndexingMap simplified = simplify(family.map);
    ASSERT_EQ(testing::relationOf(simplified), truth) << printIndexingMap(simplified);
    if (nodes(simplified) <= nodes(simplify(exact))) {
      ++merged;
    } else {
      ++unmergedForms[family.forms];
      if (firstUnmerged.empty())
        firstUnmerged = printIndexingMap(family.map) + "\n  -> " + printIndexingMap(simplified);
    }
  }
  std::string tally;
  for (const auto& [forms, count] : unmergedForms)
    tally += "\n  " + std::to_string(count) + "x " + forms;
  std::cout << "[ digits ] " << merged << " of " << sample.count
            << " merged to w * x; not merged, by form:" << tally << "\n";
  EXPECT_GE(merged * 100, sample.count * 99) << "first not merged: " << firstUnmerged;
}

// The forms by hand, each against brute force and its exact result: a strided reshape's round
// trip, whose middle digit is written over a partial quotient (`d1 * 2 + d0 floordiv 64`) and
// whose lowest digit over another base (d0 is d1 * 128 + d0 modulo 64); x - 3 * (x floordiv 3)
// for a shifted sum x = s0 + 1 spelled out term by term; and the generator's cases that CI
// seed 2979859400 drew unmerged (all merge now).
TEST(DigitFamilies, FormsByHand) {
  const struct {
    const char* input;
    const char* expected;
  } cases[] = {
      {"(d0, d1) -> (((d1 * 2 + d0 floordiv 64) mod 3) * 256 + (d0 mod 64) * 4 + ((d1 * 128 + d0) "
       "floordiv 192) * 768), domain: d0 in [0, 127], d1 in [0, 11]",
       "(d0, d1) -> (d0 * 4 + d1 * 512), domain: d0 in [0, 127], d1 in [0, 11]"},
      {"(d0)[s0] -> (d0 + 1 - ((s0 + 1) floordiv 3) * 3 + s0), domain: d0 in [0, 9], s0 in [0, 3]",
       "(d0)[s0] -> ((s0 + 1) mod 3 + d0), domain: d0 in [0, 9], s0 in [0, 3]"},
      {"(d0) -> (((d0 * 3 + 38) floordiv 60) * 20 + (d0 + 12) mod 20), domain: d0 in [0, 47]",
       "(d0) -> (d0 + 12), domain: d0 in [0, 47]"},
      // The quotient over y = d0 * 10 + d1 + 1 is the digit above a remainder of x = 3 * y + 1.
      {"(d0, d1) -> (((d0 * 10 + d1 + 1) floordiv 16) * 48 + (d0 * 30 + d1 * 3 + 4) mod 48), "
       "domain: d0 in [0, 400], d1 in [0, 9]",
       "(d0, d1) -> (d0 * 30 + d1 * 3 + 4), domain: d0 in [0, 400], d1 in [0, 9]"},
      // Digits that merge only once rewritten merge to x mod 200, and x < 200 on the domain.
      {"(d0, d1, d2) -> ((d2 + d1 * 4 + d0 * 28 - ((d2 + d1 * 4 + d0 * 28) floordiv 5) * 5) * 3 "
       "+ (((d2 + d1 * 4 + d0 * 28 + d1 * 25) floordiv 5) mod 5) * 15 + (((d2 + d1 * 4 + d0 * 28 "
       "+ d2 * 400) floordiv 25) mod 8) * 75 + ((d2 + d1 * 4 + d0 * 28) floordiv 200) * 600), "
       "domain: d0 in [0, 4], d1 in [0, 6], d2 in [0, 3]",
       "(d0, d1, d2) -> (d0 * 84 + d1 * 12 + d2 * 3), domain: d0 in [0, 4], d1 in [0, 6], d2 in "
       "[0, 3]"},
      // A coefficient beyond the modulus, reduced: then the modulus splits by 24.
      {"(d0, d1) -> ((d0 * 24 + d1 * 97) mod 96), domain: d0 in [0, 700], d1 in [0, 5]",
       "(d0, d1) -> ((d0 mod 4) * 24 + d1), domain: d0 in [0, 700], d1 in [0, 5]"},
  };
  for (const auto& c : cases) {
    IndexingMap input = parseIndexingMap(c.input);
    IndexingMap simplified = simplify(input);
    EXPECT_EQ(printIndexingMap(simplified), printIndexingMap(parseIndexingMap(c.expected)));
    EXPECT_EQ(testing::relationOf(simplified), testing::relationOf(input)) << c.input;
  }
}

}  // namespace digit_families_tests
}  // namespace idxmap
