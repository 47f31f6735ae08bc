// Random chains of reshape / transpose / reverse / slice / broadcast (tests/support/op_chains.h),
// the maps the digit rewrites (simplifier/digits.h) are for: reversed dims, factorizations that
// do not nest, strided slices. Each simplified map against brute-force enumeration of the
// unsimplified one, and never larger than it. Seeded, so a failure reproduces.
#include <gtest/gtest.h>

#include "core/text.h"
#include "simplifier/simplify.h"
#include "tests/simplifier/brute_force.h"
#include "tests/support/op_chains.h"

namespace idxmap {
namespace chain_differential_tests {

int nodes(const IndexingMap& map) {
  int n = 0;
  for (Expr e : map.results) n += e.size();
  for (const Constraint& c : map.constraints) n += c.expr.size();
  return n;
}

TEST(ChainDifferential, SimplifiedChainsMeanTheSameAndAreNoLarger) {
  int checked = 0, smaller = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    testing::OpChainGenerator generator(seed);
    testing::OpChain chain = generator.chain(1 + static_cast<int>(seed % 7), 720);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + chain.ops + "\n" +
                 printIndexingMap(chain.map));
    IndexingMap simplified = simplify(chain.map);
    EXPECT_EQ(testing::relationOf(simplified), testing::relationOf(chain.map))
        << printIndexingMap(simplified);
    EXPECT_LE(nodes(simplified), nodes(chain.map));
    smaller += nodes(simplified) < nodes(chain.map);
    ++checked;
  }
  EXPECT_EQ(checked, 1000);
  EXPECT_GT(smaller, 700);  // chains with a reshape or a slice shrink
}

}  // namespace chain_differential_tests
}  // namespace idxmap
