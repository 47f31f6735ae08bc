// dot_general and dot against an oracle that enumerates differently: every pair of an lhs
// and an rhs element that agree on the batching and contracting dims adds its product to the
// result element their batch and free indices name. Random shapes and dim pairings, both the
// pretty and the generic syntax, integer wrap-around, and the located refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "tests/ops/interp/test_util.h"

namespace idxmap::mlir_interpreter {
namespace dot_test {
namespace {

using Shape = std::vector<int64_t>;

std::string typeText(const Shape& shape, const std::string& element) {
  std::string text = "tensor<";
  for (int64_t d : shape) text += std::to_string(d) + "x";
  return text + element + ">";
}

std::string listText(const std::vector<int64_t>& v) {
  std::string text = "[";
  for (size_t i = 0; i < v.size(); ++i) text += (i ? ", " : "") + std::to_string(v[i]);
  return text + "]";
}

// `dense<[[1, 2], [3, 4]]>`: nested as the shape says (MLIR's literal syntax).
std::string nested(const Tensor& t, size_t dim, int64_t& next) {
  if (dim == t.shape.size()) return std::to_string(t.ints[static_cast<size_t>(next++)]);
  std::string text = "[";
  for (int64_t i = 0; i < t.shape[dim]; ++i) text += (i ? ", " : "") + nested(t, dim + 1, next);
  return text + "]";
}

std::string denseText(const Tensor& t) {
  int64_t next = 0;
  return "dense<" + nested(t, 0, next) + ">";
}

Shape unflatten(int64_t position, const Shape& shape) {
  Shape index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = position % shape[d];
    position /= shape[d];
  }
  return index;
}

struct Case {
  Shape lhsShape, rhsShape;
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
  Tensor lhs, rhs;
};

Case randomCase(std::mt19937& rng) {
  auto in = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Case c;
  int64_t batch = in(0, 1), contracting = in(0, 2), lhsFree = in(0, 2), rhsFree = in(0, 1);
  std::vector<int64_t> roles;  // 0 batch, 1 contracting, 2 free, per lhs dim
  std::vector<int64_t> sizes;
  for (int64_t k = 0; k < batch + contracting; ++k) sizes.push_back(in(1, 3));
  Shape lhsDims(static_cast<size_t>(batch + contracting + lhsFree));
  Shape rhsDims(static_cast<size_t>(batch + contracting + rhsFree));
  std::iota(lhsDims.begin(), lhsDims.end(), 0);
  std::iota(rhsDims.begin(), rhsDims.end(), 0);
  std::shuffle(lhsDims.begin(), lhsDims.end(), rng);
  std::shuffle(rhsDims.begin(), rhsDims.end(), rng);
  c.lhsShape.assign(lhsDims.size(), 0);
  c.rhsShape.assign(rhsDims.size(), 0);
  for (int64_t k = 0; k < batch + contracting; ++k) {
    auto& l = k < batch ? c.lhsBatch : c.lhsContracting;
    auto& r = k < batch ? c.rhsBatch : c.rhsContracting;
    l.push_back(lhsDims[k]);
    r.push_back(rhsDims[k]);
    c.lhsShape[lhsDims[k]] = c.rhsShape[rhsDims[k]] = sizes[k];
  }
  for (size_t k = batch + contracting; k < lhsDims.size(); ++k) c.lhsShape[lhsDims[k]] = in(1, 3);
  for (size_t k = batch + contracting; k < rhsDims.size(); ++k) c.rhsShape[rhsDims[k]] = in(1, 3);
  auto fill = [&](const Shape& shape) {
    Tensor t{"i32", shape, {}, {}};
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    for (int64_t i = 0; i < n; ++i) t.ints.push_back(in(-9, 9));
    return t;
  };
  c.lhs = fill(c.lhsShape);
  c.rhs = fill(c.rhsShape);
  return c;
}

// The oracle: sum over agreeing pairs of operand elements.
Tensor expected(const Case& c) {
  auto isIn = [](const std::vector<int64_t>& v, int64_t d) {
    return std::find(v.begin(), v.end(), d) != v.end();
  };
  Shape shape;
  for (int64_t d : c.lhsBatch) shape.push_back(c.lhsShape[d]);
  for (size_t d = 0; d < c.lhsShape.size(); ++d)
    if (!isIn(c.lhsBatch, d) && !isIn(c.lhsContracting, d)) shape.push_back(c.lhsShape[d]);
  for (size_t d = 0; d < c.rhsShape.size(); ++d)
    if (!isIn(c.rhsBatch, d) && !isIn(c.rhsContracting, d)) shape.push_back(c.rhsShape[d]);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  Tensor out{"i32", shape, std::vector<int64_t>(static_cast<size_t>(n), 0), {}};
  for (size_t i = 0; i < c.lhs.ints.size(); ++i)
    for (size_t j = 0; j < c.rhs.ints.size(); ++j) {
      Shape l = unflatten(static_cast<int64_t>(i), c.lhsShape);
      Shape r = unflatten(static_cast<int64_t>(j), c.rhsShape);
      bool agree = true;
      for (size_t k = 0; k < c.lhsBatch.size(); ++k)
        agree = agree && l[c.lhsBatch[k]] == r[c.rhsBatch[k]];
      for (size_t k = 0; k < c.lhsContracting.size(); ++k)
        agree = agree && l[c.lhsContracting[k]] == r[c.rhsContracting[k]];
      if (!agree) continue;
      Shape at;
      for (int64_t d : c.lhsBatch) at.push_back(l[d]);
      for (size_t d = 0; d < l.size(); ++d)
        if (!isIn(c.lhsBatch, d) && !isIn(c.lhsContracting, d)) at.push_back(l[d]);
      for (size_t d = 0; d < r.size(); ++d)
        if (!isIn(c.rhsBatch, d) && !isIn(c.rhsContracting, d)) at.push_back(r[d]);
      int64_t position = 0;
      for (size_t d = 0; d < at.size(); ++d) position = position * shape[d] + at[d];
      out.ints[static_cast<size_t>(position)] += c.lhs.ints[i] * c.rhs.ints[j];
    }
  return out;
}

std::string program(const Case& c, const Shape& resultShape, bool pretty) {
  std::string lt = typeText(c.lhsShape, "i32"), rt = typeText(c.rhsShape, "i32"),
              ot = typeText(resultShape, "i32");
  std::string body = "  %a = stablehlo.constant " + denseText(c.lhs) + " : " + lt + "\n" +
                     "  %b = stablehlo.constant " + denseText(c.rhs) + " : " + rt + "\n";
  if (pretty) {
    body += "  %r = stablehlo.dot_general %a, %b,";
    if (!c.lhsBatch.empty())
      body += " batching_dims = " + listText(c.lhsBatch) + " x " + listText(c.rhsBatch) + ",";
    body += " contracting_dims = " + listText(c.lhsContracting) + " x " +
            listText(c.rhsContracting) + ", precision = [DEFAULT, DEFAULT] : (" + lt + ", " + rt +
            ") -> " + ot;
  } else {
    body +=
        "  %r = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = "
        "#stablehlo.dot<lhs_batching_dimensions = " +
        listText(c.lhsBatch) + ", rhs_batching_dimensions = " + listText(c.rhsBatch) +
        ", lhs_contracting_dimensions = " + listText(c.lhsContracting) +
        ", rhs_contracting_dimensions = " + listText(c.rhsContracting) + ">} : (" + lt + ", " + rt +
        ") -> " + ot;
  }
  return body;
}

TEST(InterpreterDot, DotGeneralSumsAgreeingPairs) {
  std::mt19937 rng(20261126);
  for (int round = 0; round < 60; ++round) {
    Case c = randomCase(rng);
    Tensor want = expected(c);
    for (bool pretty : {true, false}) {
      std::string body = program(c, want.shape, pretty);
      SCOPED_TRACE(body);
      EXPECT_EQ(runBody(body, typeText(want.shape, "i32")), want);
    }
  }
}

TEST(InterpreterDot, IntegersWrapAndDotIsAMatrixProduct) {
  Tensor wrapped = runBody(R"(  %a = stablehlo.constant dense<[100, 100]> : tensor<2xi8>
  %r = stablehlo.dot_general %a, %a, contracting_dims = [0] x [0] : (tensor<2xi8>, tensor<2xi8>) -> tensor<i8>)",
                           "tensor<i8>");
  EXPECT_EQ(wrapped, ints("i8", {}, {static_cast<int8_t>(20000 & 0xff)}));  // 20000 mod 256
  Tensor product =
      runBody(R"(  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %v = stablehlo.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %r = "stablehlo.dot"(%a, %v) : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2xf32>)",
              "tensor<2xf32>");
  EXPECT_EQ(product, floats("f32", {2}, {17.0, 39.0}));
}

TEST(InterpreterDot, InconsistentDimsAreRefusedAtTheOp) {
  InterpretError error = errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<2x3xi32>
  %r = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  func.return
})");
  EXPECT_NE(std::string(error.what())
                .find("test.mlir:3:8: error: stablehlo.dot_general: contracting dimensions 1 of "
                      "lhs (size 3) and 0 of rhs (size 2) differ"),
            std::string::npos)
      << error.what();
}

}  // namespace
}  // namespace dot_test
}  // namespace idxmap::mlir_interpreter
