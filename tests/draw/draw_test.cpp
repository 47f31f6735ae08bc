// Pictures against independent oracles. For random gathers and scatters with start indices the
// file fixes, every drawn pair is what the reference evaluator does: the operand element a
// result point reads (operand values are their own positions), the result element an update
// lands on (a one-hot update added to zeros), nothing for a skipped update. A map's fan-out is
// brute-force enumeration. The SVG parses with a real SVG library (librsvg's rsvg-convert, when
// installed) and names the tensors and pairs it draws.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "core/text.h"
#include "draw/op_picture.h"
#include "draw/svg.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/hlo/module.h"
#include "tests/codegen/random_mlir.h"

namespace idxmap::draw {
namespace draw_tests {

using gather_scatter::Tensor;
using namespace gather_scatter::testing;

Index positionOf(const Index& shape, int64_t linear) {
  Index out(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    out[d] = linear % shape[d];
    linear /= shape[d];
  }
  return out;
}

TEST(DrawGather, EachPointReachesTheElementTheReferenceReads) {
  std::mt19937 rng(1511);
  int drawn = 0, clamped = 0;
  for (int trial = 0; trial < 80; ++trial) {
    RandomOp random = randomOp(rng);
    if (gather_scatter::isEmptyShape(random.resultShape)) continue;
    gather_scatter::GatherOp op = asGatherOp(random);
    Tensor indices = randomIndices(rng, random);
    mlir_ir::Module module =
        mlir_ir::parseMlirModule(codegen::testing::gatherFunction("g", op, indices), "random.mlir");
    Picture picture = drawMlirOp(module, 1, {});
    Tensor operand = distinctValues("i64", random.operandShape, 0);  // value = position
    Tensor result = gather_scatter::referenceGather(op, operand, indices);
    for (const DrawnPoint& p : picture.points) {
      SCOPED_TRACE("trial " + std::to_string(trial));
      ASSERT_FALSE(p.runtimeUnknown);
      ASSERT_EQ(p.targets.size(), 1u);
      int64_t read =
          result.ints.at(static_cast<size_t>(linearPosition(random.resultShape, p.point)));
      EXPECT_EQ(p.targets[0], positionOf(random.operandShape, read));
      ++drawn;
      clamped += p.clamped;
    }
  }
  EXPECT_GT(drawn, 200);
  EXPECT_GT(clamped, 20);
}

TEST(DrawScatter, EachUpdateLandsWhereTheReferenceAddsIt) {
  std::mt19937 rng(1512);
  int landed = 0, skipped = 0;
  for (int trial = 0; trial < 80; ++trial) {
    RandomOp random = randomOp(rng);
    if (gather_scatter::isEmptyShape(random.resultShape)) continue;
    gather_scatter::ScatterOp op = asScatterOp(random, gather_scatter::UpdateComputation::kAdd);
    op.inputs.resize(1);
    op.updates.resize(1);
    Tensor indices = randomIndices(rng, random);
    mlir_ir::Module module = mlir_ir::parseMlirModule(
        codegen::testing::scatterFunction("s", op, indices), "random.mlir");
    Picture picture = drawMlirOp(module, 1, {});
    for (const DrawnPoint& p : picture.points) {
      SCOPED_TRACE("trial " + std::to_string(trial));
      Tensor updates = gather_scatter::zeros("i64", random.resultShape);
      updates.ints.at(static_cast<size_t>(linearPosition(random.resultShape, p.point))) = 1;
      Tensor result = gather_scatter::referenceScatter(
          op, {gather_scatter::zeros("i64", random.operandShape)}, indices, {updates})[0];
      std::vector<Index> written;
      for (size_t i = 0; i < result.ints.size(); ++i)
        if (result.ints[i] != 0)
          written.push_back(positionOf(random.operandShape, static_cast<int64_t>(i)));
      EXPECT_EQ(p.targets, written);
      (written.empty() ? skipped : landed)++;
    }
  }
  EXPECT_GT(landed, 100);
  EXPECT_GT(skipped, 20);
}

// Range variables fan out to every element brute force finds; unknown runtime values to every
// position they could take, marked.
TEST(DrawMap, RangeVariablesFanOutAndUnknownValuesShade) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1)[s0]{rt0} -> (d0 + s0, rt0 * 2 + d1), domain: d0 in [0, 3], d1 in [0, 1], "
      "s0 in [0, 2], rt0 in [0, 2], d0 + s0 in [0, 4]");
  Picture picture = drawMap(map, {"in", {4, 2}}, {"out", {5, 6}}, {{3, 1}});
  ASSERT_EQ(picture.points.size(), 1u);
  std::set<Index> expected;
  for (int64_t s = 0; s <= 2; ++s)
    for (int64_t rt = 0; rt <= 2; ++rt)
      if (3 + s <= 4) expected.insert({3 + s, rt * 2 + 1});
  EXPECT_EQ(std::set<Index>(picture.points[0].targets.begin(), picture.points[0].targets.end()),
            expected);
  EXPECT_TRUE(picture.points[0].runtimeUnknown);
  // Known values: one value of rt0, the fan-out over s0 only.
  Picture known = drawMap(map, {"in", {4, 2}}, {"out", {5, 6}}, {{0, 0}},
                          [](const Index&) { return Index{2}; });
  EXPECT_EQ(known.points[0].targets, (std::vector<Index>{{0, 4}, {1, 4}, {2, 4}}));
  EXPECT_FALSE(known.points[0].runtimeUnknown);
}

// Huge shapes are summarized: a map over 10^12 points draws a picture of bounded size, fast.
TEST(DrawMap, HugeShapesStaySmall) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1, d2) -> (d2, d0 * 1000 + d1), domain: d0 in [0, 999999], d1 in [0, 999], "
      "d2 in [0, 1999]");
  Picture picture =
      drawMap(map, {"in", {1000000, 1000, 2000}}, {"out", resultShape(map)}, choosePoints(map, 6));
  EXPECT_EQ(picture.points.size(), 6u);
  EXPECT_EQ(resultShape(map), (Index{2000, 1000000000}));
  std::string svg = renderSvg(picture);
  EXPECT_LT(svg.size(), 2'000'000u);
  EXPECT_NE(svg.find("in[999999, 999, 0] → out[0, 999999999]"), std::string::npos);
}

// HLO: a transpose reads in[j, i] for out[i, j]; a concatenate's operand k is read from its
// part of the result only; a fusion that reads its parameter twice (a concatenate of it with
// itself) reaches both elements: out[i] is p[i] for i < 3, p[i - 3] after.
TEST(DrawHlo, PairsFollowTheOpsSemantics) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
twice {
  x = f32[3] parameter(0)
  ROOT y = f32[6] concatenate(x, x), dimensions={0}
}
ENTRY e {
  p = f32[3] parameter(0)
  q = f32[2,5] parameter(1)
  t = f32[5,2] transpose(q), dimensions={1,0}
  c = f32[6] concatenate(p, p), dimensions={0}
  ROOT f = f32[6] fusion(p), kind=kLoop, calls=twice
})",
                                           "m.hlo");
  Picture transpose = drawHloInstruction(*module.entry->find("t"), 0, {});
  ASSERT_FALSE(transpose.points.empty());
  for (const DrawnPoint& p : transpose.points)
    EXPECT_EQ(p.targets, (std::vector<Index>{{p.point[1], p.point[0]}}));
  const hlo::Instruction& concatenate = *module.entry->find("c");
  Picture first = drawHloInstruction(concatenate, 0, {{1}, {4}});
  EXPECT_EQ(first.points[0].targets, (std::vector<Index>{{1}}));
  EXPECT_TRUE(first.points[1].targets.empty());
  Picture second = drawHloInstruction(concatenate, 1, {{1}, {4}});
  EXPECT_TRUE(second.points[0].targets.empty());
  EXPECT_EQ(second.points[1].targets, (std::vector<Index>{{1}}));
  Picture fused = drawHloInstruction(*module.entry->root, 0, {{1}, {4}});
  EXPECT_EQ(fused.points[0].targets, (std::vector<Index>{{1}}));
  EXPECT_EQ(fused.points[1].targets, (std::vector<Index>{{1}}));
  EXPECT_EQ(fused.collisions, (std::vector<Index>{{1}}));
  EXPECT_THROW(drawHloInstruction(concatenate, 2, {}), Error);
}

TEST(DrawSvg, ParsesWithARealSvgLibraryAndNamesItsPairs) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1, d2)[s0] -> (d2, d0 + s0, d1), domain: d0 in [0, 2], d1 in [0, 12], "
      "d2 in [0, 1], s0 in [0, 1]");
  Picture picture = drawMap(map, {"result", {3, 13, 2}}, {"operand", resultShape(map)},
                            {{0, 0, 0}, {1, 0, 0}, {2, 12, 1}});
  std::string svg = renderSvg(picture);
  EXPECT_NE(svg.find("result[0, :, :]"), std::string::npos);
  EXPECT_NE(svg.find("operand[1, :, :]"), std::string::npos);
  EXPECT_NE(svg.find("result[2, 12, 1] → 2 elements of operand"), std::string::npos);
  EXPECT_EQ(picture.collisions, (std::vector<Index>{{0, 1, 0}}));  // from the first two
  EXPECT_NE(svg.find("class=\"collision\""), std::string::npos);
  if (std::system("command -v rsvg-convert > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "rsvg-convert (librsvg2-bin) is not installed";
  namespace fs = std::filesystem;
  fs::path dir = fs::path(::testing::TempDir()) / "idxmap_draw_svg";
  fs::create_directories(dir);
  std::ofstream(dir / "picture.svg") << svg;
  std::string command = "rsvg-convert '" + (dir / "picture.svg").string() + "' -o '" +
                        (dir / "picture.png").string() + "' 2> '" + (dir / "log.txt").string() +
                        "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  EXPECT_GT(fs::file_size(dir / "picture.png"), 1000u);
}

}  // namespace draw_tests
}  // namespace idxmap::draw
