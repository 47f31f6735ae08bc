// Typed attribute readers: the forms XLA prints, and diagnostics located inside the value.
#include "ops/hlo/attributes.h"

#include <gtest/gtest.h>

namespace idxmap::hlo {
namespace {

Attribute attr(std::string value) { return {std::move(value), {"f.hlo", 3, 20}}; }

std::string errorOf(const std::function<void()>& read, SourceLocation* at = nullptr) {
  try {
    read();
  } catch (const ParseError& e) {
    if (at) *at = e.location();
    return e.message();
  }
  return "";
}

TEST(HloAttributes, IntLists) {
  EXPECT_EQ(readIntList(attr("{1,0}"), "dimensions"), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(readIntList(attr("{ 3, -2 }"), "dimensions"), (std::vector<int64_t>{3, -2}));
  EXPECT_TRUE(readIntList(attr("{}"), "dimensions").empty());
  EXPECT_EQ(readIntList(attr("4"), "dimensions"), (std::vector<int64_t>{4}));
  SourceLocation at;
  EXPECT_EQ(errorOf([] { readIntList(attr("{1,x}"), "dimensions"); }, &at),
            "dimensions={1,x}: expected an integer");
  EXPECT_EQ(at.column, 23);  // at the 'x'
  EXPECT_EQ(errorOf([] { readInt(attr("99999999999999999999"), "index"); }),
            "index=99999999999999999999: integer does not fit in 64 bits");
}

TEST(HloAttributes, Slices) {
  std::vector<SliceDim> dims = readSlice(attr("{[0:10:2], [3:5]}"), "slice");
  ASSERT_EQ(dims.size(), 2u);
  EXPECT_EQ(dims[0].stride, 2);
  EXPECT_EQ(dims[1].start, 3);
  EXPECT_EQ(dims[1].limit, 5);
  EXPECT_EQ(dims[1].stride, 1);
  EXPECT_EQ(errorOf([] { readSlice(attr("{[0:10:2}"), "slice"); }),
            "slice={[0:10:2}: expected ']'");
}

TEST(HloAttributes, Padding) {
  std::vector<PadDim> dims = readPadding(attr("1_4_1x-4_8_0x2_3"), "padding");
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0].interior, 1);
  EXPECT_EQ(dims[1].low, -4);
  EXPECT_EQ(dims[2].high, 3);
  EXPECT_EQ(dims[2].interior, 0);
  EXPECT_EQ(errorOf([] { readPadding(attr("1x2_3"), "padding"); }),
            "padding=1x2_3: expected low_high or low_high_interior");
}

TEST(HloAttributes, Windows) {
  std::vector<WindowDim> dims =
      readWindow(attr("{size=3x3 stride=2x1 pad=0_1x1_1 lhs_dilate=1x2 rhs_dilate=2x1}"), "window");
  ASSERT_EQ(dims.size(), 2u);
  EXPECT_EQ(dims[0].size, 3);
  EXPECT_EQ(dims[0].stride, 2);
  EXPECT_EQ(dims[0].padHigh, 1);
  EXPECT_EQ(dims[1].lhsDilate, 2);
  EXPECT_EQ(dims[0].rhsDilate, 2);
  EXPECT_EQ(readWindow(attr("{size=1x512x1x1 pad=0_0x0_0x0_0x0_0}"), "window").size(), 4u);
  EXPECT_EQ(errorOf([] { readWindow(attr("{size=3x3 stride=2}"), "window"); }),
            "window={size=3x3 stride=2}: expected 2 dimensions");
  EXPECT_EQ(errorOf([] { readWindow(attr("{size=3 foo=1}"), "window"); }),
            "window={size=3 foo=1}: unknown window field 'foo'");
  EXPECT_EQ(errorOf([] { readWindow(attr("{size=0}"), "window"); }),
            "window={size=0}: size must be positive");
}

TEST(HloAttributes, DimLabels) {
  ConvolutionDimensions d = readDimLabels(attr("b01f_01io->b01f"), "dim_labels");
  EXPECT_EQ(d.inputBatch, 0);
  EXPECT_EQ(d.inputFeature, 3);
  EXPECT_EQ(d.inputSpatial, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(d.kernelInputFeature, 2);
  EXPECT_EQ(d.kernelOutputFeature, 3);
  EXPECT_EQ(d.kernelSpatial, (std::vector<int64_t>{0, 1}));
  ConvolutionDimensions swapped = readDimLabels(attr("f10b_o10i->10fb"), "dim_labels");
  EXPECT_EQ(swapped.inputSpatial, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(swapped.outputSpatial, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(errorOf([] { readDimLabels(attr("b01_01io->b01f"), "dim_labels"); }),
            "dim_labels=b01_01io->b01f: missing label 'f'");
  EXPECT_EQ(errorOf([] { readDimLabels(attr("b02f_01io->b01f"), "dim_labels"); }),
            "dim_labels=b02f_01io->b01f: spatial labels must be the digits 0..1, each once");
}

TEST(HloAttributes, ComparisonDirection) {
  EXPECT_EQ(readComparisonDirection(attr("GE"), "direction"), "GE");
  EXPECT_EQ(errorOf([] { readComparisonDirection(attr("GX"), "direction"); }),
            "direction=GX: expected one of EQ, NE, LT, LE, GT, GE");
}

}  // namespace
}  // namespace idxmap::hlo
