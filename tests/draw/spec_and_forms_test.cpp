// Pictures pinned to documented semantics. Spec 000's gather and scatter examples
// (examples/spec_example.mlir): at every point of the index space, the drawn pair is what the
// spec's documented result says (the operand holds 1..48 in row-major order, so a result value
// names the element read; the scatter adds 1s, so result - input counts the updates each
// element received). The other forms (spec 001's tensor.gather / scatter, spec 003's
// tcp.gather) against their definitions applied by hand, an index out of range drawn as
// undefined. And the SVG's layout rules: upright column labels past two digits, one band of
// colour per point on a shared element, the slices a rank-12 picture's points use.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/text.h"
#include "draw/op_picture.h"
#include "draw/svg.h"

namespace idxmap::draw {
namespace draw_spec_tests {

mlir_ir::Module specExample() {
  std::ifstream file(std::filesystem::path(IDXMAP_SOURCE_DIR) / "examples" / "spec_example.mlir");
  std::stringstream text;
  text << file.rdbuf();
  return mlir_ir::parseMlirModule(text.str(), "spec_example.mlir");
}

int64_t linear(const Index& shape, const Index& index) {
  int64_t out = 0;
  for (size_t d = 0; d < shape.size(); ++d) out = out * shape[d] + index[d];
  return out;
}

// Every point of a shape, row-major.
std::vector<Index> everyPoint(const Index& shape) {
  std::vector<Index> out{{}};
  for (int64_t size : shape) {
    std::vector<Index> longer;
    for (const Index& prefix : out)
      for (int64_t i = 0; i < size; ++i) {
        longer.push_back(prefix);
        longer.back().push_back(i);
      }
    out = longer;
  }
  return out;
}

// Spec 000, gather / Examples: %result, flattened.
const int64_t kSpecGatherResult[48] = {
    1, 2, 3, 4, 3,  4,  5,  6,  13, 14, 15, 16, 33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44,
    1, 2, 3, 4, 13, 14, 15, 16, 21, 22, 23, 24, 43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30};
// Spec 000, scatter / Examples: %result, flattened (the input is 1..48, every update 1).
const int64_t kSpecScatterResult[48] = {
    3,  4,  6,  7,  6,  7,  7,  8,  9,  10, 11, 12, 15, 16, 17, 18, 17, 18, 19, 20, 22, 23, 24, 25,
    25, 26, 28, 29, 30, 31, 31, 32, 35, 36, 38, 39, 38, 39, 39, 40, 41, 42, 44, 45, 46, 47, 47, 48};

TEST(DrawSpec000, GatherReadsWhatTheSpecDocuments) {
  const Index result{2, 2, 3, 2, 2}, operand{2, 3, 4, 2};
  Picture picture = drawMlirOp(specExample(), 1, everyPoint(result));
  EXPECT_EQ(picture.source.name, "result");
  EXPECT_EQ(picture.target.shape, operand);
  ASSERT_EQ(picture.points.size(), 48u);
  for (const DrawnPoint& p : picture.points) {
    ASSERT_EQ(p.targets.size(), 1u);
    EXPECT_EQ(linear(operand, p.targets[0]) + 1, kSpecGatherResult[linear(result, p.point)]);
    // start_indices[0, 1, 2] = [0, 9]: the start 9 along dim 1 is clamped to 2.
    EXPECT_EQ(p.clamped, p.point[0] == 0 && p.point[1] == 1 && p.point[2] == 2);
  }
}

TEST(DrawSpec000, ScatterLandsWhereTheSpecAdds) {
  const Index updates{2, 2, 3, 2, 2}, input{2, 3, 4, 2};
  Picture picture = drawMlirOp(specExample(), 2, everyPoint(updates));
  EXPECT_EQ(picture.source.name, "updates");
  ASSERT_EQ(picture.points.size(), 48u);
  std::map<int64_t, int64_t> received;
  for (const DrawnPoint& p : picture.points) {
    EXPECT_LE(p.targets.size(), 1u);
    for (const Index& t : p.targets) ++received[linear(input, t)];
    // scatter_indices[0, 1, 2] = [0, 9]: that window lies outside the input, skipped.
    EXPECT_EQ(p.skipped, p.point[0] == 0 && p.point[1] == 1 && p.point[2] == 2);
    EXPECT_EQ(p.skipped, p.targets.empty());
  }
  for (int64_t e = 0; e < 48; ++e) EXPECT_EQ(received[e], kSpecScatterResult[e] - (e + 1)) << e;
  // Elements two updates reach are the picture's collisions.
  for (const Index& c : picture.collisions) EXPECT_GE(received[linear(input, c)], 2);
}

constexpr const char* kForms = R"(
func.func @g(%source: tensor<4x5xf32>) -> tensor<3x1x1xf32> {
  %indices = stablehlo.constant dense<[[1, 2], [3, 0], [0, 9]]> : tensor<3x2xi64>
  %out = tensor.gather %source[%indices] gather_dims([0, 1]) : (tensor<4x5xf32>, tensor<3x2xi64>) -> tensor<3x1x1xf32>
  return %out : tensor<3x1x1xf32>
}
func.func @t(%input: tensor<3x4xi32>) -> tensor<3x2xi32> {
  %indices = stablehlo.constant dense<[[3, 0], [1, 1], [2, 4]]> : tensor<3x2xi64>
  %x = tcp.gather %input, %indices { dim = 1 } : (tensor<3x4xi32>, tensor<3x2xi64>) -> tensor<3x2xi32>
  return %x : tensor<3x2xi32>
}
func.func @s(%src: tensor<3x4x1xf32>, %dest: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %idx = stablehlo.constant dense<[[1], [4], [7]]> : tensor<3x1xi64>
  %r = tensor.scatter %src into %dest[%idx] scatter_dims([1]) unique : (tensor<3x4x1xf32>, tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
)";

TEST(DrawForms, TensorAndTcpFormsFollowTheirDefinitions) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(kForms, "forms.mlir");
  // tensor.gather, gather_dims [0, 1]: result[i, 0, 0] = source[indices[i, 0], indices[i, 1]].
  Picture gather = drawMlirOp(module, 1, everyPoint({3, 1, 1}));
  EXPECT_EQ(gather.target.name, "source");
  EXPECT_EQ(gather.points[0].targets, (std::vector<Index>{{1, 2}}));
  EXPECT_EQ(gather.points[1].targets, (std::vector<Index>{{3, 0}}));
  EXPECT_TRUE(gather.points[2].undefined);  // column 9 of 5: undefined, not clamped
  EXPECT_TRUE(gather.points[2].targets.empty());
  EXPECT_FALSE(gather.points[2].clamped);
  // tcp.gather along dim 1: result[i, j] = input[i, indices[i, j]].
  const int64_t tcpIndices[3][2] = {{3, 0}, {1, 1}, {2, 4}};
  Picture tcp = drawMlirOp(module, 2, everyPoint({3, 2}));
  for (const DrawnPoint& p : tcp.points) {
    int64_t column = tcpIndices[p.point[0]][p.point[1]];
    EXPECT_EQ(p.undefined, column >= 4);
    if (column < 4) EXPECT_EQ(p.targets, (std::vector<Index>{{p.point[0], column}}));
  }
  // tensor.scatter, scatter_dims [1]: source[i, j, 0] lands on dest[j, idx[i]].
  const int64_t scatterIndices[3] = {1, 4, 7};
  Picture scatter = drawMlirOp(module, 3, everyPoint({3, 4, 1}));
  EXPECT_EQ(scatter.source.name, "source");
  for (const DrawnPoint& p : scatter.points) {
    int64_t column = scatterIndices[p.point[0]];
    EXPECT_EQ(p.undefined, column >= 5);
    if (column < 5) EXPECT_EQ(p.targets, (std::vector<Index>{{p.point[1], column}}));
  }
  EXPECT_NE(renderSvg(scatter).find("source[2, 0, 0] → nothing (an index is out of range: "
                                    "undefined for this op)"),
            std::string::npos);
  try {
    drawMlirOp(module, 4, {});
    ADD_FAILURE() << "op 4 does not exist";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("the file has 3 gather / scatter ops"),
              std::string::npos)
        << error.what();
  }
}

// Columns past two digits stand upright; an element two points reach shows both colours.
TEST(DrawSvg, WideIndicesStandUprightAndSharedElementsShowEveryColour) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1) -> (d0 floordiv 2, d1 * 10), domain: d0 in [0, 5], d1 in [0, 149]");
  Picture picture =
      drawMap(map, {"in", {6, 150}}, {"out", resultShape(map)}, {{0, 120}, {1, 120}, {4, 3}});
  std::string svg = renderSvg(picture);
  EXPECT_NE(svg.find("class=\"upright\">1200</text>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"upright\">1490</text>"), std::string::npos);
  EXPECT_EQ(picture.collisions, (std::vector<Index>{{0, 1200}}));
  // out[0, 1200]: two bands, the first and second points' colours, then its red border.
  size_t title = svg.find("<title>out[0, 1200]</title>");
  ASSERT_NE(title, std::string::npos);
  size_t cell = svg.rfind("<rect", title);
  EXPECT_NE(svg.substr(cell, title - cell).find("class=\"collision\""), std::string::npos);
  size_t firstBand = svg.rfind("class=\"band\"", cell);
  size_t secondBand = svg.rfind("class=\"band\"", firstBand - 1);
  ASSERT_NE(secondBand, std::string::npos);
  EXPECT_NE(svg.substr(secondBand - 80, 80).find("#1f77b4"), std::string::npos);  // point 0
  EXPECT_NE(svg.substr(firstBand - 80, 80).find("#ff7f0e"), std::string::npos);   // point 1
}

// Rank 12, 10^12 elements: the slices drawn are those holding the points and what they reach
// (each point visible on both sides), the rest counted, the file small.
TEST(DrawSvg, HighRanksShowTheSlicesThePointsUse) {
  std::string dims, results, domain;
  for (int d = 0; d < 12; ++d) {
    dims += (d ? ", d" : "d") + std::to_string(d);
    results += (d ? ", d" : "d") + std::to_string(11 - d);
    domain += (d ? ", d" : "d") + std::to_string(d) + " in [0, 9]";
  }
  IndexingMap map = parseIndexingMap("(" + dims + ") -> (" + results + "), domain: " + domain);
  Picture picture =
      drawMap(map, {"in", Index(12, 10)}, {"out", resultShape(map)}, choosePoints(map, 6));
  std::string svg = renderSvg(picture);
  EXPECT_LT(svg.size(), 300'000u);
  auto sliceLabel = [](const std::string& name, const Index& element) {
    std::string label = name + "[";
    for (size_t d = 0; d + 2 < element.size(); ++d) label += std::to_string(element[d]) + ", ";
    return label + ":, :]";
  };
  for (const DrawnPoint& p : picture.points) {
    ASSERT_EQ(p.targets.size(), 1u);
    EXPECT_NE(svg.find(sliceLabel("in", p.point)), std::string::npos) << sliceLabel("in", p.point);
    EXPECT_NE(svg.find(sliceLabel("out", p.targets[0])), std::string::npos);
  }
  EXPECT_NE(svg.find("more in slices (nothing drawn there)"), std::string::npos);
}

}  // namespace draw_spec_tests
}  // namespace idxmap::draw
