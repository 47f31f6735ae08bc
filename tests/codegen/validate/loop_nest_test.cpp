// Loop nests, isl's and as the kernel IR holds them, proven to enumerate a map's domain once
// (KernelValidator::checkLoopNest) and checked against brute-force enumeration by running them;
// nests that miss, repeat or shift points are refuted, and a thread's share of one loop runs
// exactly the domain's points in it.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "codegen/ir/loops.h"
#include "codegen/kernel/index_code.h"
#include "codegen/kernel/loop_nest.h"
#include "codegen/validate/validation.h"
#include "core/text.h"
#include "tests/codegen/validate/validator_mutants.h"

namespace idxmap::codegen {
namespace {

// The points of a map's domain (no runtime variables), row-major: brute force over its box.
std::vector<std::vector<int64_t>> domainPoints(const IndexingMap& m) {
  std::vector<std::vector<int64_t>> out;
  std::vector<int64_t> point(m.dims.size());
  std::function<void(size_t)> walk = [&](size_t i) {
    if (i == m.dims.size()) {
      if (m.contains(point, {}, {})) out.push_back(point);
      return;
    }
    for (point[i] = m.dims[i].range.lo; point[i] <= m.dims[i].range.hi; ++point[i]) walk(i + 1);
  };
  walk(0);
  return out;
}

TEST(LoopNest, EnumeratesTheDomainOnceAsBruteForceDoes) {
  const char* maps[] = {
      "(d0, d1) -> (d0, d1), domain: d0 in [0, 4], d1 in [0, 6], d0 + d1 in [2, 7]",
      "(d0, d1, d2) -> (d0), domain: d0 in [0, 3], d1 in [0, 0], d2 in [0, 5], d2 - d0 in [0, 3]",
      "(d0, d1) -> (d0), domain: d0 in [0, 11], d1 in [0, 3], d0 mod 3 in [0, 0], d0 + d1 * 4 in "
      "[0, 13]",
      "(d0) -> (d0), domain: d0 in [-3, 3]",
  };
  for (const char* text : maps) {
    IndexingMap m = parseIndexingMap(text);
    LoopNest nest = buildLoopNest(m, CWidth::k32);
    KernelValidator validator(m, IndexLowering(m, CWidth::k32).declared());
    EXPECT_TRUE(validator.checkLoopNest(nest).isProven()) << text;
    // The nest run as C would run it (the printed bounds, read back), its points collected.
    std::optional<std::vector<std::vector<int64_t>>> run = mutants::runLoopNest(nest, 1000);
    ASSERT_TRUE(run.has_value()) << text;
    std::vector<std::vector<int64_t>> points = *run;
    const std::vector<std::vector<int64_t>> expected = domainPoints(m);
    std::sort(points.begin(), points.end());
    EXPECT_EQ(points, expected) << text;  // every point, each once
  }
}

// A nest as the HLO stages print it: isl's nest as IR, threads and SIMD lanes mapped, read back
// from the IR alone. The read-back nest run as C runs it visits the domain's points once each
// (brute force), and is proven; the IR with a loop one short, a guard dropped or a statement
// at a shifted point reads back as a nest that is refuted.
TEST(LoopNest, ReadBackFromTheIrIsWhatTheIrRuns) {
  const char* maps[] = {
      "(d0, d1) -> (d0, d1), domain: d0 in [0, 4], d1 in [0, 6], d0 + d1 in [2, 7]",
      "(d0, d1, d2) -> (d0), domain: d0 in [0, 3], d1 in [0, 0], d2 in [0, 5]",
      "(d0, d1) -> (d0), domain: d0 in [0, 11], d1 in [0, 3], d0 mod 3 in [0, 0]",
  };
  for (const char* text : maps) {
    IndexingMap m = parseIndexingMap(text);
    auto statement = [&](const std::vector<CExpr>& point) {
      std::vector<ir::Node> lets;
      for (size_t i = 0; i < point.size(); ++i)
        if (point[i]->op != COp::kVariable)
          lets.push_back(ir::let("int32_t", "d" + std::to_string(i), ir::indexValue(point[i])));
      return ir::block(std::move(lets), true);
    };
    std::vector<ir::Node> nodes = ir::fromLoopNest(buildLoopNest(m, CWidth::k32), statement);
    ir::mapIndependentLoops(nodes, true);
    std::string why;
    std::optional<LoopNest> read = ir::readLoopNest(nodes, m, CWidth::k32, why);
    ASSERT_TRUE(read.has_value()) << why;
    KernelValidator validator(m, IndexLowering(m, CWidth::k32).declared());
    EXPECT_TRUE(validator.checkLoopNest(*read).isProven()) << text;
    std::optional<std::vector<std::vector<int64_t>>> run = mutants::runLoopNest(*read, 1000);
    ASSERT_TRUE(run.has_value()) << text;
    std::vector<std::vector<int64_t>> points = *run;
    const std::vector<std::vector<int64_t>> expected = domainPoints(m);
    std::sort(points.begin(), points.end());
    EXPECT_EQ(points, expected) << text;
    // Changed IR: the outer loop one step short, then a statement's point shifted in d0.
    std::vector<ir::Node> shorter = nodes;
    ir::Node& outer =
        shorter.at(0).kind == ir::Node::Kind::kFor ? shorter[0] : shorter[0].body.at(0);
    ASSERT_EQ(outer.kind, ir::Node::Kind::kFor) << text;
    ASSERT_EQ(outer.condition->op, COp::kLessEqual) << text;
    const CExpr last = outer.condition->operands[1];
    ASSERT_EQ(last->op, COp::kLiteral) << text;
    outer.condition =
        binary(COp::kLessEqual, outer.condition->operands[0], literal(last->value - outer.step));
    read = ir::readLoopNest(shorter, m, CWidth::k32, why);
    ASSERT_TRUE(read.has_value()) << why;
    EXPECT_TRUE(validator.checkLoopNest(*read).isRefuted()) << "one short: " << text;
    std::vector<ir::Node> shifted = nodes;
    std::function<void(std::vector<ir::Node>&)> shift = [&](std::vector<ir::Node>& list) {
      for (ir::Node& node : list) {
        if (node.kind == ir::Node::Kind::kBlock && node.scoped)
          node.body.insert(
              node.body.begin(),
              ir::let("int32_t", "d0",
                      ir::indexValue(binary(COp::kAdd, variable("d0", CWidth::k32), literal(1)))));
        else
          shift(node.body), shift(node.orElse);
      }
    };
    shift(shifted);
    read = ir::readLoopNest(shifted, m, CWidth::k32, why);
    ASSERT_TRUE(read.has_value()) << why;
    EXPECT_FALSE(validator.checkLoopNest(*read).isProven()) << "shifted: " << text;
  }
}

TEST(LoopNest, ANestThatMissesPointsIsRefuted) {
  IndexingMap m = parseIndexingMap("(d0, d1) -> (d0, d1), domain: d0 in [0, 4], d1 in [0, 6]");
  LoopNest nest = buildLoopNest(m, CWidth::k32);
  ASSERT_EQ(nest.root.kind, LoopNode::Kind::kFor);
  nest.root.condition = binary(COp::kLessEqual, variable("d0", CWidth::k32), literal(3));
  KernelValidator validator(m, IndexLowering(m, CWidth::k32).declared());
  EXPECT_TRUE(validator.checkLoopNest(nest).isRefuted());
}

// A thread's share of d0's loop (narrowLoop), proven for every share [first, last) of the
// range: the narrowed nest runs exactly the domain's points there. A share that also runs its
// last row, or the whole nest run by every thread, would apply a point twice: refuted.
TEST(LoopNest, AThreadsShareRunsExactlyTheDomainsPointsInIt) {
  IndexingMap m = parseIndexingMap(
      "(d0, d1) -> (d0, d1), domain: d0 in [2, 9], d1 in [0, 3], d0 + d1 in [0, 10]");
  const LoopNest whole = buildLoopNest(m, CWidth::k32);
  LoopNest nest = whole;
  ASSERT_EQ(narrowLoop(nest, "d0", "idxmap_first", "idxmap_last"),
            (std::pair<int64_t, int64_t>{2, 9}));
  KernelValidator validator(m, IndexLowering(m, CWidth::k32).declared());
  const KernelValidator::ThreadShare share{"d0", "idxmap_first", "idxmap_last", {2, 9}};
  EXPECT_TRUE(validator.checkLoopNest(nest, share).isProven());
  ASSERT_EQ(nest.root.kind, LoopNode::Kind::kFor);
  LoopNest overlapping = nest;
  overlapping.root.condition =
      binary(COp::kLessEqual, variable("d0", CWidth::k32), variable("idxmap_last", CWidth::k64));
  EXPECT_TRUE(validator.checkLoopNest(overlapping, share).isRefuted());
  EXPECT_TRUE(validator.checkLoopNest(whole, share).isRefuted());
  EXPECT_TRUE(validator.checkLoopNest(whole).isProven());
}

}  // namespace
}  // namespace idxmap::codegen
