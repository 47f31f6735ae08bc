// reshape and bitcast: XLA's maps by meaning, and brute force against row-major linear
// indices computed directly.
#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace reshape_test {
namespace {

std::string module(const std::string& body) { return "HloModule m\nENTRY e {\n" + body + "\n}"; }

int64_t linearIndex(const Index& index, const std::vector<int64_t>& dims) {
  int64_t linear = 0;
  for (size_t i = 0; i < dims.size(); ++i) linear = linear * dims[i] + index[i];
  return linear;
}

Index delinearize(int64_t linear, const std::vector<int64_t>& dims) {
  Index index(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    index[i] = linear % dims[i];
    linear /= dims[i];
  }
  return index;
}

// result[i] = operand[delinearize(linearize(i))], both row-major.
Relation reshapeReads(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  return readsRelation(to, [&](const Index& out) {
    return std::vector<Index>{delinearize(linearIndex(out, to), from)};
  });
}

TEST(ReshapeOp, XlaMaps) {
  Hlo expand(module("p0 = f32[32] parameter(0)\n ROOT r = f32[4, 8] reshape(p0)"));
  expectMap(outToIn(expand.root()).entries[0],
            "(d0, d1) -> (d0 * 8 + d1), domain: d0 in [0, 3], d1 in [0, 7]");
  Hlo both(module("p0 = f32[4, 8, 12] parameter(0)\n ROOT r = f32[32, 3, 4] reshape(p0)"));
  expectMap(outToIn(both.root()).entries[0],
            "(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2), domain: d0 in [0, 31],"
            " d1 in [0, 2], d2 in [0, 3]");
  expectMap(inToOut(both.root(), 0).entries[0],
            "(d0, d1, d2) -> (d0 * 8 + d1, d2 floordiv 4, d2 mod 4), domain: d0 in [0, 3],"
            " d1 in [0, 7], d2 in [0, 11]");
  Hlo generic(module("p0 = f32[4,8] parameter(0)\n ROOT r = f32[2, 4, 4] reshape(p0)"));
  expectMap(outToIn(generic.root()).entries[0],
            "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, (d1 mod 2) * 4 + d2), domain:"
            " d0 in [0, 1], d1 in [0, 3], d2 in [0, 3]");
}

TEST(ReshapeOp, SimplifiedOutputsAreReadable) {
  // The generic case is a composition through the linear index; simplification removes it.
  Hlo hlo(module("p0 = f32[4, 8, 12] parameter(0)\n ROOT r = f32[32, 3, 4] reshape(p0)"));
  EXPECT_EQ(printIndexingMap(outToIn(hlo.root()).entries[0].maps[0]),
            printIndexingMap(
                parseIndexingMap("(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2), domain:"
                                 " d0 in [0, 31], d1 in [0, 2], d2 in [0, 3]")));
}

TEST(ReshapeOp, AgreesWithDirectEvaluation) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"f32[6, 4]", "f32[4, 6]"},       {"f32[2, 3, 4]", "f32[24]"},
      {"f32[1, 6, 1]", "f32[3, 1, 2]"}, {"f32[12]", "f32[2, 2, 3]"},
      {"f32[4, 6]", "f32[2, 3, 2, 2]"}, {"f32[2, 0]", "f32[0, 5]"}};
  for (const auto& [from, to] : cases) {
    Hlo hlo(module("p0 = " + from + " parameter(0)\n ROOT r = " + to + " reshape(p0)"));
    const hlo::Shape& in = hlo.root().operands[0]->shape;
    EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]),
              reshapeReads(in.extents(), hlo.root().shape.extents()))
        << from << " -> " << to;
    expectInputToOutputInvertsOutputToInput(hlo.root());
  }
}

// Every ordered factorization of `n` into `rank` factors (1s included).
void factorizations(int64_t n, size_t rank, std::vector<int64_t>& prefix,
                    std::vector<std::vector<int64_t>>& out) {
  if (prefix.size() + 1 == rank) {
    prefix.push_back(n);
    out.push_back(prefix);
    prefix.pop_back();
    return;
  }
  for (int64_t f = 1; f <= n; ++f) {
    if (n % f != 0) continue;
    prefix.push_back(f);
    factorizations(n / f, rank, prefix, out);
    prefix.pop_back();
  }
}

std::string shapeText(const std::vector<int64_t>& dims) {
  std::string text = "f32[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

TEST(ReshapeOp, EveryFactorizationOf12AgreesWithDirectEvaluation) {
  std::vector<std::vector<int64_t>> shapes;
  for (size_t rank = 1; rank <= 3; ++rank) {
    std::vector<int64_t> prefix;
    factorizations(12, rank, prefix, shapes);
  }
  ASSERT_EQ(shapes.size(), 1u + 6u + 18u);  // 12 = 2^2 * 3 has 6 ordered 2- and 18 3-factorizations
  for (const auto& from : shapes) {
    for (const auto& to : shapes) {
      Hlo hlo(module("p0 = " + shapeText(from) + " parameter(0)\n ROOT r = " + shapeText(to) +
                     " reshape(p0)"));
      EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]), reshapeReads(from, to))
          << shapeText(from) << " -> " << shapeText(to);
      EXPECT_EQ(relationOf(inToOut(hlo.root(), 0).entries[0]), reshapeReads(to, from))
          << shapeText(from) << " -> " << shapeText(to);
    }
  }
}

TEST(ReshapeOp, Validation) {
  auto error =
      validationError(module("p0 = f32[4, 8] parameter(0)\n ROOT r = f32[33] reshape(p0)"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "reshape: result f32[33] has 33 elements, operand f32[4,8] has 32");
}

TEST(ReshapeOp, DynamicShapesHaveUnknownIndexing) {
  Hlo hlo(module("p0 = f32[<=4, 8] parameter(0)\n ROOT r = f32[<=32] reshape(p0)"));
  EXPECT_TRUE(outToIn(hlo.root()).entries[0].unknown);
}

TEST(BitcastOp, XlaTransposeReshapeTranspose) {
  Hlo hlo(module("p0 = f32[16, 17, 3] parameter(0)\n ROOT b = f32[51, 16]{0, 1} bitcast(p0)"));
  expectMap(
      inToOut(hlo.root(), 0).entries[0],
      "(d0, d1, d2) -> (d1 * 3 + d2, d0), domain: d0 in [0, 15], d1 in [0, 16], d2 in [0, 2]");
  Hlo transpose(
      module("p0 = f32[3, 12288, 6, 128] parameter(0)\n"
             " ROOT b = f32[3, 6, 128, 12288]{2, 1, 3, 0} bitcast(p0)"));
  expectMap(outToIn(transpose.root()).entries[0],
            "(d0, d1, d2, d3) -> (d0, d3, d1, d2), domain: d0 in [0, 2], d1 in [0, 5],"
            " d2 in [0, 127], d3 in [0, 12287]");
}

TEST(BitcastOp, AgreesWithPhysicalLinearIndices) {
  // The element at a logical index lives at the row-major position of its physical index
  // (dims listed major to minor, i.e. the layout reversed).
  auto physicalLinear = [](const Index& index, const hlo::Shape& shape) {
    std::vector<int64_t> layout = *shape.layout;
    Index physical;
    std::vector<int64_t> dims;
    for (size_t k = layout.size(); k-- > 0;) {
      physical.push_back(index[layout[k]]);
      dims.push_back(shape.extent(layout[k]));
    }
    return linearIndex(physical, dims);
  };
  Hlo hlo(
      module("p0 = f32[2, 3, 4]{0, 2, 1} parameter(0)\n"
             " ROOT b = f32[4, 6]{0, 1} bitcast(p0)"));
  const hlo::Shape& in = hlo.root().operands[0]->shape;
  const hlo::Shape& out = hlo.root().shape;
  Relation expected = readsRelation(out.extents(), [&](const Index& o) {
    int64_t position = physicalLinear(o, out);
    std::vector<Index> reads;
    forEachIndex(in.extents(), [&](const Index& i) {
      if (physicalLinear(i, in) == position) reads.push_back(i);
    });
    return reads;
  });
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries[0]), expected);
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

TEST(BitcastOp, ValidatesElementCounts) {
  auto error =
      validationError(module("p0 = f32[2, 3] parameter(0)\n"
                             " ROOT b = f32[7]{0} bitcast(p0)"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "bitcast: result f32[7]{0} has 7 elements, operand f32[2,3] has 6");
}

TEST(BitcastConvertOp, SplitsAndJoinsElementsAlongANewMinorDimension) {
  Hlo same(module("p0 = f32[2, 3] parameter(0)\n ROOT b = s32[2, 3] bitcast-convert(p0)"));
  expectMap(outToIn(same.root()).entries[0],
            "(d0, d1) -> (d0, d1), domain: d0 in [0, 1], d1 in [0, 2]");
  Hlo narrower(module("p0 = f32[3] parameter(0)\n ROOT b = u8[3, 4] bitcast-convert(p0)"));
  // Byte (i, j) of the result lies in element i of the operand.
  EXPECT_EQ(relationOf(outToIn(narrower.root()).entries[0]),
            readsRelation({3, 4}, [](const Index& o) { return std::vector<Index>{{o[0]}}; }));
  expectInputToOutputInvertsOutputToInput(narrower.root());
  Hlo wider(module("p0 = u16[3, 2] parameter(0)\n ROOT b = f32[3] bitcast-convert(p0)"));
  EXPECT_EQ(relationOf(outToIn(wider.root()).entries[0]), readsRelation({3}, [](const Index& o) {
              return std::vector<Index>{{o[0], 0}, {o[0], 1}};
            }));
  auto error =
      validationError(module("p0 = u16[3, 4] parameter(0)\n"
                             " ROOT b = f32[3] bitcast-convert(p0)"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "bitcast-convert: operand u16[3,4] needs a minor-most dimension of 2 to make f32");
}

}  // namespace
}  // namespace reshape_test
}  // namespace idxmap::optest
