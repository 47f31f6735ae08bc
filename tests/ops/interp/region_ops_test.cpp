// reduce, reduce_window, sort, while, if and case on random values against oracles written
// independently: loops over the reduced positions, a materialized padded and dilated input
// slid over by windows, std::stable_sort under a strict order, closed-form loop results.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <regex>

#include "tests/ops/interp/test_util.h"

namespace idxmap::mlir_interpreter {
namespace region_ops_test {
namespace {

// A dense literal of `values` in `shape` (nested brackets, row-major).
std::string dense(const std::vector<int64_t>& values, const std::vector<int64_t>& shape,
                  size_t dim = 0, int64_t* next = nullptr) {
  int64_t position = 0;
  if (!next) next = &position;
  if (dim == shape.size()) return std::to_string(values[(*next)++]);
  std::string text = "[";
  for (int64_t i = 0; i < shape[dim]; ++i)
    text += (i ? ", " : "") + dense(values, shape, dim + 1, next);
  return text + "]";
}

std::string tensorType(const std::vector<int64_t>& shape, const std::string& element) {
  std::string text = "tensor<";
  for (int64_t size : shape) text += std::to_string(size) + "x";
  return text + element + ">";
}

std::vector<int64_t> randomValues(size_t count, int seed, int low = -50, int high = 50) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> value(low, high);
  std::vector<int64_t> values(count);
  for (int64_t& v : values) v = value(random);
  return values;
}

TEST(InterpreterRegions, ReduceSumsAndArgmaxOverChosenDimensions) {
  std::vector<int64_t> shape = {3, 4, 5};
  std::vector<int64_t> x = randomValues(60, 1);
  std::string t = tensorType(shape, "i32");
  std::string constants = "  %x = stablehlo.constant dense<" + dense(x, shape) + "> : " + t +
                          "\n  %zero = stablehlo.constant dense<0> : tensor<i32>\n";
  // Sum over dims 0 and 2, in the region form and the pretty `applies` form.
  std::vector<int64_t> sums(4, 0);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 5; ++k) sums[j] += x[(i * 4 + j) * 5 + k];
  Tensor region = runBody(constants + R"(  %r = "stablehlo.reduce"(%x, %zero) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 0, 2>} : ()" +
                              t + ", tensor<i32>) -> tensor<4xi32>",
                          "tensor<4xi32>");
  EXPECT_EQ(region.ints, sums);
  Tensor applies = runBody(constants +
                               "  %r = stablehlo.reduce(%x init: %zero) applies "
                               "stablehlo.add across dimensions = [0, 2] : (" +
                               t + ", tensor<i32>) -> tensor<4xi32>",
                           "tensor<4xi32>");
  EXPECT_EQ(applies.ints, sums);
  // Two inputs: the largest value of each row and its first position (a variadic reduce).
  std::vector<int64_t> flat(60);
  std::iota(flat.begin(), flat.end(), 0);
  std::vector<Tensor> argmax =
      runMain("func.func @main() -> (tensor<3x4xi32>, tensor<3x4xi32>) {\n" + constants +
              "  %p = stablehlo.iota dim = 2 : " + t + R"(
  %low = stablehlo.constant dense<-1000> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %low), (%p init: %zero) across dimensions = [2] : ()" +
              t + ", " + t + R"(, tensor<i32>, tensor<i32>) -> (tensor<3x4xi32>, tensor<3x4xi32>)
   reducer(%av: tensor<i32>, %bv: tensor<i32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %bv, %av : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %v = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<i32>
    %i = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<i32>, tensor<i32>
  }
  func.return %r#0, %r#1 : tensor<3x4xi32>, tensor<3x4xi32>
})");
  ASSERT_EQ(argmax.size(), 2u);
  for (int64_t row = 0; row < 12; ++row) {
    auto begin = x.begin() + row * 5;
    auto best = std::max_element(begin, begin + 5);  // the first of equal maxima
    EXPECT_EQ(argmax[0].ints[row], *best) << row;
    EXPECT_EQ(argmax[1].ints[row], best - begin) << row;
  }
}

TEST(InterpreterRegions, ReduceWindowMatchesAMaterializedPaddedDilatedInput) {
  std::vector<int64_t> shape = {5, 6};
  std::vector<int64_t> x = randomValues(30, 2);
  const int64_t window[2] = {2, 3}, stride[2] = {2, 1}, base[2] = {2, 1}, dilation[2] = {1, 2};
  const int64_t low[2] = {1, 2}, high[2] = {0, 1}, init = 100;
  // The spec's padded input, written out: holes and padding hold the init value.
  int64_t rows = (5 - 1) * base[0] + 1 + low[0] + high[0];
  int64_t cols = (6 - 1) * base[1] + 1 + low[1] + high[1];
  std::vector<std::vector<int64_t>> padded(rows, std::vector<int64_t>(cols, init));
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 6; ++j)
      padded[low[0] + i * base[0]][low[1] + j * base[1]] = x[i * 6 + j];
  int64_t outRows = (rows - ((window[0] - 1) * dilation[0] + 1)) / stride[0] + 1;
  int64_t outCols = (cols - ((window[1] - 1) * dilation[1] + 1)) / stride[1] + 1;
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < outRows; ++i)
    for (int64_t j = 0; j < outCols; ++j) {
      int64_t sum = init;
      for (int64_t a = 0; a < window[0]; ++a)
        for (int64_t b = 0; b < window[1]; ++b)
          sum += padded[i * stride[0] + a * dilation[0]][j * stride[1] + b * dilation[1]];
      expected.push_back(sum);
    }
  std::string out = tensorType({outRows, outCols}, "i64");
  Tensor r = runBody("  %x = stablehlo.constant dense<" + dense(x, shape) + R"(> : tensor<5x6xi64>
  %init = stablehlo.constant dense<100> : tensor<i64>
  %r = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %s : tensor<i64>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>,
      base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>,
      padding = dense<[[1, 0], [2, 1]]> : tensor<2x2xi64>} : (tensor<5x6xi64>, tensor<i64>) -> )" +
                         out,
                     out);
  EXPECT_EQ(r.shape, (std::vector<int64_t>{outRows, outCols}));
  EXPECT_EQ(r.ints, expected);
}

TEST(InterpreterRegions, SortPermutesEveryInputByTheComparatorStably) {
  std::vector<int64_t> shape = {4, 6};
  std::vector<int64_t> keys = randomValues(24, 3, 0, 3), payload(24);
  std::iota(payload.begin(), payload.end(), 0);
  for (int64_t dimension : {0, 1}) {
    std::vector<Tensor> sorted = runMain(
        "func.func @main() -> (tensor<4x6xi64>, tensor<4x6xi64>) {\n  %k = "
        "stablehlo.constant dense<" +
        dense(keys, shape) + "> : tensor<4x6xi64>\n  %p = stablehlo.constant dense<" +
        dense(payload, shape) + R"(> : tensor<4x6xi64>
  %r:2 = "stablehlo.sort"(%k, %p) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<i64>):
      %gt = stablehlo.compare GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %gt : tensor<i1>
  }) {dimension = )" +
        std::to_string(dimension) +
        R"( : i64, is_stable = true} : (tensor<4x6xi64>, tensor<4x6xi64>) -> (tensor<4x6xi64>, tensor<4x6xi64>)
  func.return %r#0, %r#1 : tensor<4x6xi64>, tensor<4x6xi64>
})");
    int64_t length = shape[dimension], slices = 24 / length;
    int64_t stride = dimension == 0 ? 6 : 1;
    for (int64_t s = 0; s < slices; ++s) {
      int64_t base = dimension == 0 ? s : s * 6;
      std::vector<std::pair<int64_t, int64_t>> slice;
      for (int64_t i = 0; i < length; ++i)
        slice.push_back({keys[base + i * stride], payload[base + i * stride]});
      std::stable_sort(slice.begin(), slice.end(),
                       [](auto& l, auto& r) { return l.first > r.first; });
      for (int64_t i = 0; i < length; ++i) {
        EXPECT_EQ(sorted[0].ints[base + i * stride], slice[i].first);
        EXPECT_EQ(sorted[1].ints[base + i * stride], slice[i].second);
      }
    }
  }
}

TEST(InterpreterRegions, SortWithANonStrictComparatorStillPermutes) {
  std::vector<int64_t> keys = randomValues(64, 4, 0, 2);
  Tensor r = runBody("  %k = stablehlo.constant dense<" + dense(keys, {64}) +
                         R"(> : tensor<64xi64>
  %r = "stablehlo.sort"(%k) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %le = stablehlo.compare LE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %le : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<64xi64>) -> tensor<64xi64>)",
                     "tensor<64xi64>");
  std::vector<int64_t> got = r.ints;
  std::sort(got.begin(), got.end());
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(got, keys);
}

TEST(InterpreterRegions, WhileIfAndCase) {
  for (int64_t n : {0, 1, 10, 57}) {
    std::string bound = std::to_string(n);
    std::string pretty = R"(  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %n = stablehlo.constant dense<)" +
                         bound + R"(> : tensor<i64>
  %w:2 = stablehlo.while(%i = %zero, %acc = %zero) : tensor<i64>, tensor<i64>
   cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next = stablehlo.add %i, %one : tensor<i64>
    %sum = stablehlo.add %acc, %i : tensor<i64>
    stablehlo.return %next, %sum : tensor<i64>, tensor<i64>
  }
  %r = stablehlo.add %w#1, %zero : tensor<i64>)";
    EXPECT_EQ(runBody(pretty, "tensor<i64>").ints[0], n * (n - 1) / 2);
    std::string generic = R"(  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %n = stablehlo.constant dense<)" +
                          bound + R"(> : tensor<i64>
  %r, %acc = "stablehlo.while"(%zero, %zero) ({
    ^bb0(%i: tensor<i64>, %a: tensor<i64>):
      %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%i: tensor<i64>, %a: tensor<i64>):
      %next = stablehlo.add %i, %one : tensor<i64>
      stablehlo.return %next, %a : tensor<i64>, tensor<i64>
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>))";
    EXPECT_EQ(runBody(generic, "tensor<i64>").ints[0], n);
  }
  for (bool predicate : {true, false}) {
    Tensor r = runBody(std::string("  %p = stablehlo.constant dense<") +
                           (predicate ? "true" : "false") + R"(> : tensor<i1>
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.constant dense<7> : tensor<i64>
    stablehlo.return %a : tensor<i64>
  }, {
    %b = stablehlo.constant dense<9> : tensor<i64>
    stablehlo.return %b : tensor<i64>
  }) : (tensor<i1>) -> tensor<i64>)",
                       "tensor<i64>");
    EXPECT_EQ(r.ints[0], predicate ? 7 : 9);
  }
  for (int64_t index : {-1, 0, 1, 2, 5}) {
    Tensor r = runBody("  %x = stablehlo.constant dense<" + std::to_string(index) +
                           R"(> : tensor<i32>
  %r = "stablehlo.case"(%x) ({
    %a = stablehlo.constant dense<10> : tensor<i64>
    stablehlo.return %a : tensor<i64>
  }, {
    %b = stablehlo.constant dense<11> : tensor<i64>
    stablehlo.return %b : tensor<i64>
  }, {
    %c = stablehlo.constant dense<12> : tensor<i64>
    stablehlo.return %c : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>)",
                       "tensor<i64>");
    EXPECT_EQ(r.ints[0], index == 0 ? 10 : index == 1 ? 11 : 12) << index;  // out of range: last
  }
}

// The limit is the interpreter's (1048576 unless set): a loop that never ends stops there with
// the op's location, and one that ends before it runs to its end.
TEST(InterpreterRegions, ALoopThatNeverEndsIsStopped) {
  const std::string text = R"(func.func @main() -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.while"(%zero) ({
    ^bb0(%i: tensor<i64>):
      %n = stablehlo.constant dense<LIMIT> : tensor<i64>
      %more = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %more : tensor<i1>
  }, {
    ^bb0(%i: tensor<i64>):
      %one = stablehlo.constant dense<1> : tensor<i64>
      %next = stablehlo.add %i, %one : tensor<i64>
      stablehlo.return %next : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
})";
  auto run = [&](int64_t loopEnd, int64_t limit) {
    mlir_ir::Module module = mlir_ir::parseMlirModule(
        std::regex_replace(text, std::regex("LIMIT"), std::to_string(loopEnd)), "test.mlir");
    Interpreter interpreter(module, Engine::kReference);
    interpreter.setMaxWhileIterations(limit);
    return interpreter.call(*module.function("main"), {});
  };
  EXPECT_EQ(kDefaultMaxWhileIterations, int64_t{1} << 20);
  EXPECT_EQ(run(1000, 1000).at(0).ints, std::vector<int64_t>{1000});  // ends as it reaches it
  try {
    run(int64_t{1} << 40, 1000);
    ADD_FAILURE() << "the loop was not stopped";
  } catch (const InterpretError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("test.mlir:3:8: error: stablehlo.while: stopped after 1000 iterations"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace region_ops_test
}  // namespace idxmap::mlir_interpreter
