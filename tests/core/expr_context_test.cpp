// ExprContext: nodes built under a context are uniqued there and freed with it; the rules of
// core/expr_context.h on mixing contexts; and simplification inside short-lived contexts
// agrees with simplification in the process's table (a freed node's address reused as
// another expression must not reach a cache keyed by addresses).
#include "core/expr_context.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "core/expr.h"
#include "core/text.h"
#include "simplifier/simplify.h"

namespace idxmap {
namespace expr_context_test {
namespace {

TEST(ExprContextTest, UniquesWithinAContextAndCountsItsNodes) {
  ExprContext context;
  ExprContext::Use use(context);
  Expr a = Expr::dim(7) * 5000 + 123456;
  Expr b = Expr::dim(7) * 5000 + 123456;
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.node()->owner, b.node()->owner);
  // d7, 5000, d7 * 5000, 123456 and the sum: five nodes unless the process has d7 already.
  EXPECT_GE(context.size(), 4u);
  EXPECT_LE(context.size(), 5u);
}

TEST(ExprContextTest, FindsTheProcessNodeBeforeBuildingItsOwn) {
  Expr outside = Expr::dim(3) * 7777 + Expr::rangeVar(2);
  ExprContext context;
  ExprContext::Use use(context);
  Expr inside = Expr::dim(3) * 7777 + Expr::rangeVar(2);
  EXPECT_EQ(inside, outside);
  EXPECT_EQ(context.size(), 0u);
  // A new node over process operands is the context's.
  Expr grown = outside.floorDiv(3);
  EXPECT_EQ(context.size(), 1u);
  EXPECT_EQ(grown.lhs(), outside);
}

TEST(ExprContextTest, SmallConstantsAreSharedByEveryContext) {
  Expr fromFirst, fromSecond;
  {
    ExprContext first;
    ExprContext::Use use(first);
    fromFirst = Expr::constant(42);
  }
  ExprContext second;
  ExprContext::Use use(second);
  fromSecond = Expr::constant(42);
  EXPECT_EQ(fromFirst, fromSecond);  // still valid: the shared constants are the process's
  EXPECT_EQ(fromFirst.constantValue(), 42);
}

TEST(ExprContextTest, RefusesToCombineTwoContextsOrLeakIntoTheProcess) {
  Expr fromProcess = Expr::dim(5) * 4243;
  ExprContext first, second;
  Expr a;
  {
    ExprContext::Use use(first);
    a = Expr::dim(0) * 9001;
  }
  {
    ExprContext::Use use(second);
    EXPECT_THROW((void)(a + Expr::dim(1) * 9001), ExprError);
    // Process nodes combine with any context's.
    EXPECT_NO_THROW((void)(fromProcess + Expr::dim(1) * 9001));
  }
  EXPECT_THROW((void)(a + Expr::dim(1)), ExprError);
  EXPECT_NO_THROW({
    ExprContext::Use use(first);
    (void)(a + Expr::dim(1));
  });
}

TEST(ExprContextTest, UsesNestAndRestore) {
  ExprContext outer, inner;
  ExprContext::Use useOuter(outer);
  {
    ExprContext::Use useInner(inner);
    (void)(Expr::dim(0) * 31337);
  }
  size_t before = outer.size();
  (void)(Expr::dim(0) * 31338);
  EXPECT_GT(outer.size(), before);
}

// Each thread keeps the nodes it built last in front of the tables (expr_context.cpp): a
// node cached under one context is never the answer under another, nor after its context
// is gone (under ASan, reading a freed node here fails the test).
TEST(ExprContextTest, RecentlyBuiltNodesStayWithTheirContext) {
  auto build = [] { return Expr::dim(4) * 65537 + 99991; };
  {
    ExprContext first;
    ExprContext::Use use(first);
    Expr inFirst = build();
    EXPECT_NE(inFirst.node()->owner, 0u);
    {
      ExprContext second;
      ExprContext::Use useSecond(second);
      Expr inSecond = build();
      EXPECT_NE(inSecond.node()->owner, 0u);
      EXPECT_NE(inSecond.node()->owner, inFirst.node()->owner);
    }
    EXPECT_EQ(build(), inFirst);  // back in the first: its own node again
  }
  Expr inProcess = build();
  EXPECT_EQ(inProcess.node()->owner, 0u);
  EXPECT_EQ(inProcess.lhs().rhs().constantValue(), 65537);
}

TEST(ExprContextTest, SeveralThreadsShareOneContext) {
  auto build = [] {
    Expr sum = Expr::dim(2).mod(4099);
    for (int i = 0; i < 2000; ++i) sum = sum + Expr::dim(1) * (5000 + i);
    return sum;
  };
  ExprContext context;
  std::vector<Expr> built(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < built.size(); ++t)
    threads.emplace_back([&, t] {
      ExprContext::Use use(context);
      built[t] = build();
    });
  for (std::thread& thread : threads) thread.join();
  for (const Expr& e : built) EXPECT_EQ(e, built[0]);
  size_t shared = context.size();
  ExprContext alone;
  ExprContext::Use use(alone);
  build();
  EXPECT_EQ(shared, alone.size());  // no node was built twice
}

TEST(ExprContextTest, ANodeAtAFreedNodesAddressIsSimplifiedAsItself) {
  // Each context builds the same shape with other constants, so a node is likely to land
  // at the address of the previous context's: a cache keyed by addresses must notice.
  for (int64_t k = 2000; k < 2300; ++k) {
    ExprContext context;
    ExprContext::Use use(context);
    IndexingMap map = IndexingMap::identity({10, k});
    Expr d0 = Expr::dim(0), d1 = Expr::dim(1);
    map.results = {(d0 * k + d1).floorDiv(k), (d0 * k + d1).mod(k)};
    IndexingMap simplified = simplify(map);
    ASSERT_EQ(simplified.results, (std::vector<Expr>{d0, d1}))
        << printIndexingMap(map) << " simplified to " << printIndexingMap(simplified);
  }
}

// Maps whose constants differ from one to the next, so each needs nodes of its own.
std::string mapText(int i) {
  return "(d0, d1) -> (d0 * " + std::to_string(2000 + i) + " + d1 floordiv 4, (d1 + " +
         std::to_string(3000 + 7 * i) + ") mod 16 + d0 * " + std::to_string(16 * (2000 + i)) +
         " floordiv 16), domain: d0 in [0, " + std::to_string(i % 50 + 1) + "], d1 in [0, 15]";
}

TEST(ExprContextTest, SimplifyingInShortLivedContextsAgreesWithTheProcessTable) {
  constexpr int kMaps = 300;
  std::vector<std::string> inProcess;
  for (int i = 0; i < kMaps; ++i)
    inProcess.push_back(printIndexingMap(simplify(parseIndexingMap(mapText(i)))));
  // One context after another, nothing built between them: each reuses the addresses of
  // the last one's nodes.
  for (int i = 0; i < kMaps; ++i) {
    ExprContext context;
    ExprContext::Use use(context);
    ASSERT_EQ(printIndexingMap(simplify(parseIndexingMap(mapText(i)))), inProcess[i]) << mapText(i);
  }
}

}  // namespace
}  // namespace expr_context_test
}  // namespace idxmap
