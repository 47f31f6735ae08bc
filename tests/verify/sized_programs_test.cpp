// The index provers on programs with `?` dims between the indices and the op (issue 31, item 2):
// a random chain of reverse, pad, concatenation (with itself, or with a constant after it),
// argsort, reshape round trips, added and multiplied constants, JAX's negative-index fix-up and
// clip-mode clamp with the operand's size from get_dimension_size, over an argument %idx of `?`
// elements (or a dynamic_iota of its size), feeding a gather from (or a scatter into) %x:
// tensor<?x2xf32>. Every verdict is checked by brute force at sizes n = 1..3 of %x and m = 0..3 of
// %idx, for every value of %idx in [-2, 2]: the program made static at those sizes, run by the
// interpreter, spec 000's formulas on its indices. Proven must hold at every size and value;
// refuted must fail for some value at every size where the op has an index point; a condition on
// the sizes alone must hold exactly at the sizes where the property holds for every value.
#include <gtest/gtest.h>
#include <isl/set.h>

#include <functional>
#include <random>
#include <regex>

#include "core/bridges/isl_bridge.h"
#include "ops/interp/interpreter.h"
#include "ops/mlir/module.h"
#include "tests/support/sampling.h"
#include "tests/verify/index_truth.h"
#include "verify/op_properties.h"

namespace idxmap {
namespace sized_programs_tests {

using gather_scatter::Tensor;

constexpr int64_t kLo = -2, kHi = 2, kMaxRows = 3, kMaxIndices = 3;

enum class Step { Reverse, Pad, Reshape, AddConstant, Double, FixUp, Clip, Concatenate, ArgSort };

struct PadStep {
  int64_t low = 0, high = 0, interior = 0, value = 0;
};

struct Chain {
  bool fromIota = false;
  std::vector<Step> steps;
  std::vector<PadStep> pads;       // one per Pad step, in order
  std::vector<int64_t> constants;  // one per AddConstant step, in order
  bool scatter = false;

  std::vector<bool> withItself;  // one per Concatenate step: the value twice, or [1, -1] after it

  // The index count after the steps, from %idx's m.
  int64_t indices(int64_t m) const {
    size_t pad = 0, concatenation = 0;
    for (Step step : steps) {
      if (step == Step::Pad) {
        const PadStep& p = pads[pad++];
        m = p.low + p.high + m + (m > 0 ? (m - 1) * p.interior : 0);
      }
      if (step == Step::Concatenate) m = withItself[concatenation++] ? 2 * m : m + 2;
    }
    return m;
  }
};

Chain randomChain(std::mt19937& rng, size_t trial) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Chain chain;
  chain.fromIota = trial % 4 == 3;
  chain.scatter = trial % 2 == 1;
  const size_t length = 1 + trial % 4;
  for (size_t k = 0; k < length; ++k) {
    Step step = static_cast<Step>(pick(0, 8));
    chain.steps.push_back(step);
    if (step == Step::Pad) chain.pads.push_back({pick(0, 1), pick(0, 1), pick(0, 1), pick(-1, 2)});
    if (step == Step::AddConstant) chain.constants.push_back(pick(-2, 2));
    if (step == Step::Concatenate) chain.withItself.push_back(pick(0, 1) == 1);
  }
  return chain;
}

// The program, with `?` for the sizes (no `sizes`) or made static at {n, m}. With `indicesOnly`,
// @main returns the index column instead of using it.
std::string programText(const Chain& chain, std::optional<std::pair<int64_t, int64_t>> sizes,
                        bool indicesOnly) {
  auto dim = [&](std::function<int64_t()> size) {
    return sizes ? std::to_string(size()) : std::string("?");
  };
  const std::string n = dim([&] { return sizes->first; });
  int64_t count = sizes ? sizes->second : 0;
  const std::string x = "tensor<" + n + "x2xf32>";
  auto vec = [&] { return "tensor<" + dim([&] { return count; }) + "xi32>"; };
  std::string t =
      "func.func @main(%x: " + x + ", %idx: " + vec() + ", %u: tensor<" +
      dim([&] { return chain.indices(sizes ? sizes->second : 0); }) + "x2xf32>) -> " +
      (indicesOnly ? "tensor<" + dim([&] { return chain.indices(sizes->second); }) + "x1xi32>"
                   : x) +
      " {\n";
  t += "  %n = stablehlo.get_dimension_size %x, dim = 0 : (" + x + ") -> tensor<i32>\n";
  t += "  %zero = stablehlo.constant dense<0> : tensor<i32>\n";
  t += "  %one = stablehlo.constant dense<1> : tensor<i32>\n";
  std::string v = "%idx";
  int id = 0;
  auto fresh = [&] { return "%v" + std::to_string(id++); };
  // `scalar` at every element of the current value: dynamic_broadcast_in_dim of its size.
  auto spread = [&](const std::string& scalar) {
    const std::string size = fresh(), shape = fresh(), out = fresh();
    t += "  " + size + " = stablehlo.get_dimension_size " + v + ", dim = 0 : (" + vec() +
         ") -> tensor<i32>\n";
    t += "  " + shape + " = stablehlo.reshape " + size + " : (tensor<i32>) -> tensor<1xi32>\n";
    t += "  " + out + " = stablehlo.dynamic_broadcast_in_dim " + scalar + ", " + shape +
         ", dims = [] : (tensor<i32>, tensor<1xi32>) -> " + vec() + "\n";
    return out;
  };
  if (chain.fromIota) {
    const std::string size = fresh(), shape = fresh(), iota = fresh();
    t += "  " + size + " = stablehlo.get_dimension_size %idx, dim = 0 : (" + vec() +
         ") -> tensor<i32>\n";
    t += "  " + shape + " = stablehlo.reshape " + size + " : (tensor<i32>) -> tensor<1xi32>\n";
    t += "  " + iota + " = stablehlo.dynamic_iota " + shape + ", dim = 0 : (tensor<1xi32>) -> " +
         vec() + "\n";
    v = iota;
  }
  size_t pad = 0, constant = 0, concatenation = 0;
  for (Step step : chain.steps) {
    const std::string out = fresh();
    switch (step) {
      case Step::Reverse:
        t += "  " + out + " = stablehlo.reverse " + v + ", dims = [0] : " + vec() + "\n";
        break;
      case Step::Pad: {
        const PadStep& p = chain.pads[pad++];
        const std::string value = fresh(), in = vec();
        t += "  " + value + " = stablehlo.constant dense<" + std::to_string(p.value) +
             "> : tensor<i32>\n";
        count = p.low + p.high + count + (count > 0 ? (count - 1) * p.interior : 0);
        t += "  " + out + " = \"stablehlo.pad\"(" + v + ", " + value +
             ") {edge_padding_low = array<i64: " + std::to_string(p.low) +
             ">, edge_padding_high = array<i64: " + std::to_string(p.high) +
             ">, interior_padding = array<i64: " + std::to_string(p.interior) + ">} : (" + in +
             ", tensor<i32>) -> " + vec() + "\n";
        break;
      }
      case Step::Reshape: {
        const std::string column = fresh(), rows = dim([&] { return count; });
        t += "  " + column + " = stablehlo.reshape " + v + " : (" + vec() + ") -> tensor<" + rows +
             "x1xi32>\n";
        t += "  " + out + " = stablehlo.reshape " + column + " : (tensor<" + rows + "x1xi32>) -> " +
             vec() + "\n";
        break;
      }
      case Step::AddConstant:
      case Step::Double: {
        const std::string c = fresh();
        const int64_t value = step == Step::Double ? 2 : chain.constants[constant++];
        t +=
            "  " + c + " = stablehlo.constant dense<" + std::to_string(value) + "> : tensor<i32>\n";
        const std::string all = spread(c);
        t += "  " + out + " = stablehlo." + (step == Step::Double ? "multiply " : "add ") + v +
             ", " + all + " : " + vec() + "\n";
        break;
      }
      case Step::FixUp: {
        const std::string zeros = spread("%zero"), sizesAll = spread("%n");
        const std::string negative = fresh(), wrapped = fresh();
        t += "  " + negative + " = stablehlo.compare LT, " + v + ", " + zeros + ", SIGNED : (" +
             vec() + ", " + vec() + ") -> tensor<" + dim([&] { return count; }) + "xi1>\n";
        t += "  " + wrapped + " = stablehlo.add " + v + ", " + sizesAll + " : " + vec() + "\n";
        t += "  " + out + " = stablehlo.select " + negative + ", " + wrapped + ", " + v +
             " : tensor<" + dim([&] { return count; }) + "xi1>, " + vec() + "\n";
        break;
      }
      case Step::Concatenate: {
        const std::string in = vec();
        if (chain.withItself[concatenation++]) {
          count *= 2;
          t += "  " + out + " = stablehlo.concatenate " + v + ", " + v + ", dim = 0 : (" + in +
               ", " + in + ") -> " + vec() + "\n";
        } else {
          const std::string tail = fresh();
          t += "  " + tail + " = stablehlo.constant dense<[1, -1]> : tensor<2xi32>\n";
          count += 2;
          t += "  " + out + " = stablehlo.concatenate " + v + ", " + tail + ", dim = 0 : (" + in +
               ", tensor<2xi32>) -> " + vec() + "\n";
        }
        break;
      }
      case Step::ArgSort: {  // JAX's argsort: sort (value, iota) by value, keep the iota
        const std::string size = fresh(), shape = fresh(), iota = fresh(), both = fresh();
        t += "  " + size + " = stablehlo.get_dimension_size " + v + ", dim = 0 : (" + vec() +
             ") -> tensor<i32>\n";
        t += "  " + shape + " = stablehlo.reshape " + size + " : (tensor<i32>) -> tensor<1xi32>\n";
        t += "  " + iota + " = stablehlo.dynamic_iota " + shape +
             ", dim = 0 : (tensor<1xi32>) -> " + vec() + "\n";
        t += "  " + both + ":2 = \"stablehlo.sort\"(" + v + ", " + iota +
             ") ({\n  ^bb0(%k0: tensor<i32>, %k1: tensor<i32>, %i0: tensor<i32>, %i1: "
             "tensor<i32>):\n    %lt = stablehlo.compare LT, %k0, %k1, SIGNED : (tensor<i32>, "
             "tensor<i32>) -> tensor<i1>\n    stablehlo.return %lt : tensor<i1>\n  }) {dimension = "
             "0 : i64, is_stable = true} : (" +
             vec() + ", " + vec() + ") -> (" + vec() + ", " + vec() + ")\n";
        t +=
            "  " + out + " = stablehlo.convert " + both + "#1 : (" + vec() + ") -> " + vec() + "\n";
        break;
      }
      case Step::Clip: {
        const std::string top = fresh();
        t += "  " + top + " = stablehlo.subtract %n, %one : tensor<i32>\n";
        t += "  " + out + " = stablehlo.clamp %zero, " + v + ", " + top + " : (tensor<i32>, " +
             vec() + ", tensor<i32>) -> " + vec() + "\n";
        break;
      }
    }
    v = out;
  }
  const std::string rows = dim([&] { return count; });
  t += "  %col = stablehlo.reshape " + v + " : (" + vec() + ") -> tensor<" + rows + "x1xi32>\n";
  if (indicesOnly) return t + "  return %col : tensor<" + rows + "x1xi32>\n}\n";
  if (chain.scatter)
    t += "  %r = \"stablehlo.scatter\"(%x, %col, %u) ({\n  ^bb0(%a: tensor<f32>, %b: "
         "tensor<f32>):\n    stablehlo.return %b : tensor<f32>\n  }) {scatter_dimension_numbers = "
         "#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], "
         "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (" +
         x + ", tensor<" + rows + "x1xi32>, tensor<" + rows + "x2xf32>) -> " + x + "\n";
  else
    t += "  %r = \"stablehlo.gather\"(%x, %col) {dimension_numbers = #stablehlo.gather<offset_dims "
         "= [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
         "slice_sizes = array<i64: 1, 2>} : (" +
         x + ", tensor<" + rows + "x1xi32>) -> tensor<" + rows + "x2xf32>\n";
  return t + "  return %r : " + x + "\n}\n";
}

// The truth at sizes {n, m} for every value of %idx: whether each property holds for all.
index_truth::Truth truthAt(const Chain& chain, int64_t n, int64_t m) {
  const std::string text = programText(chain, std::pair(n, m), true);
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "static.mlir");
  mlir_interpreter::Interpreter interpreter(module, mlir_interpreter::Engine::kReference);
  const int64_t rows = chain.indices(m);
  index_truth::Truth all;
  Tensor x{"f32", {n, 2}, {}, std::vector<double>(static_cast<size_t>(2 * n), 0.0)};
  Tensor u{"f32", {rows, 2}, {}, std::vector<double>(static_cast<size_t>(2 * rows), 0.0)};
  Tensor idx{"i32", {m}, std::vector<int64_t>(static_cast<size_t>(m), kLo), {}};
  while (true) {
    Tensor col = interpreter.call(*module.function("main"), {x, idx, u}).at(0);
    index_truth::Truth truth;
    if (chain.scatter) {
      gather_scatter::ScatterOp op;
      op.inputs = {{{n, 2}, "f32"}};
      op.scatter_indices = {{rows, 1}, "i32"};
      op.updates = {{{rows, 2}, "f32"}};
      op.dimension_numbers.update_window_dims = {1};
      op.dimension_numbers.inserted_window_dims = {0};
      op.dimension_numbers.scatter_dims_to_operand_dims = {0};
      op.dimension_numbers.index_vector_dim = 1;
      truth = index_truth::scatterTruth(op, col);
    } else {
      gather_scatter::GatherOp op;
      op.operand = {{n, 2}, "f32"};
      op.start_indices = {{rows, 1}, "i32"};
      op.dimension_numbers.offset_dims = {1};
      op.dimension_numbers.collapsed_slice_dims = {0};
      op.dimension_numbers.start_index_map = {0};
      op.dimension_numbers.index_vector_dim = 1;
      op.slice_sizes = {1, 2};
      truth = index_truth::gatherTruth(op, col, {rows, 2});
    }
    all.unique = all.unique && truth.unique;
    all.sorted = all.sorted && truth.sorted;
    all.inBounds = all.inBounds && truth.inBounds;
    size_t d = 0;
    while (d < idx.ints.size() && idx.ints[d] == kHi) idx.ints[d++] = kLo;
    if (d == idx.ints.size()) break;
    ++idx.ints[d];
  }
  return all;
}

// The static size of dim 0 of the program's value `name` ("%v2") at {n, m}.
int64_t sizeOfValue(const Chain& chain, int64_t n, int64_t m, const std::string& name) {
  mlir_ir::Module module =
      mlir_ir::parseMlirModule(programText(chain, std::pair(n, m), false), "static.mlir");
  for (const mlir_ir::Operation& op : module.function("main")->body.blocks.front().operations)
    for (size_t r = 0; r < op.results.size(); ++r)
      if (op.results[r].toString() == name) return op.resultTypes.at(r).shape.at(0);
  ADD_FAILURE() << "no value " << name;
  return 0;
}

// A condition on the sizes ("n1 <= n0, where n0 is dim 0 of operand and ...") at {n, m}: the
// operand's or result's dims are n, the indices' and updates' the index count, a value's its
// static size there.
bool sizesConditionHolds(const std::string& condition, const Chain& chain, int64_t n, int64_t m) {
  const size_t where = condition.find(", where ");
  const std::string body = condition.substr(0, where);
  const std::string legend = where == std::string::npos ? "" : condition.substr(where);
  std::regex entry("([nz][0-9]+) is dim 0 of ([%a-z_0-9]+)");
  std::string params, fixed;
  for (std::sregex_iterator it(legend.begin(), legend.end(), entry), end; it != end; ++it) {
    const std::string name = (*it)[1], tensor = (*it)[2];
    int64_t value = chain.indices(m);
    if (tensor == "operand" || tensor == "result" || tensor == "%x") value = n;
    if (tensor == "%idx") value = m;
    if (tensor.front() == '%' && tensor != "%x" && tensor != "%idx")
      value = sizeOfValue(chain, n, m, tensor);
    params += (params.empty() ? "" : ", ") + name;
    fixed += " and " + name + " = " + std::to_string(value);
  }
  isl::set set(islContext(), "[" + params + "] -> { : (" + body + ")" + fixed + " }");
  return !set.is_empty();
}

TEST(SizedPrograms, VerdictsAgreeWithBruteForceAtEverySize) {
  sampling::Sample sample = sampling::sampleOf("SizedPrograms", 120, 12);
  std::mt19937 rng(sample.seed);
  int proven = 0, refuted = 0, sizeConditions = 0, asked = 0;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    const Chain chain = randomChain(rng, trial);
    const std::string text = programText(chain, std::nullopt, false);
    SCOPED_TRACE(text);
    mlir_ir::Module module = mlir_ir::parseMlirModule(text, "sized.mlir");
    const std::vector<mlir_ir::Operation>& block =
        module.function("main")->body.blocks.front().operations;
    const mlir_ir::Operation& op = block.at(block.size() - 2);
    std::optional<OpIndexProperties> properties = proveOpIndexProperties(op, block, {}, &module);
    ASSERT_TRUE(properties);
    std::map<std::pair<int64_t, int64_t>, index_truth::Truth> truths;
    for (int64_t n = 1; n <= kMaxRows; ++n)
      for (int64_t m = 0; m <= kMaxIndices; ++m) truths[{n, m}] = truthAt(chain, n, m);
    auto check = [&](const char* what, const ProofResult& result,
                     bool index_truth::Truth::*property) {
      ++asked;
      bool everywhere = true;
      for (const auto& [sizes, truth] : truths) everywhere = everywhere && truth.*property;
      if (result.isProven()) {
        ++proven;
        EXPECT_TRUE(everywhere) << what << " proven, but brute force finds sizes and values "
                                << "breaking it";
      }
      if (result.isRefuted()) {  // at every size where the op has an index point
        ++refuted;
        EXPECT_FALSE(everywhere) << what << " refuted, but it holds at every size and value";
        for (const auto& [sizes, truth] : truths)
          if (chain.indices(sizes.second) > 0)
            EXPECT_FALSE(truth.*property) << what << " refuted, but it holds at n = " << sizes.first
                                          << ", m = " << sizes.second;
      }
      if (result.isUnknown() && result.conditionOn == "sizes") {
        ++sizeConditions;
        for (const auto& [sizes, truth] : truths)
          EXPECT_EQ(sizesConditionHolds(result.condition, chain, sizes.first, sizes.second),
                    truth.*property)
              << what << " at n = " << sizes.first << ", m = " << sizes.second << ": "
              << result.condition;
      }
    };
    if (properties->unique)
      check("unique", properties->unique->result, &index_truth::Truth::unique);
    check("sorted", properties->sorted.result, &index_truth::Truth::sorted);
    check("in bounds", properties->inBounds.result, &index_truth::Truth::inBounds);
  }
  std::cout << "[ sized ] " << asked << " properties: " << proven << " proven, " << refuted
            << " refuted, " << sizeConditions << " conditions on sizes checked at every size\n";
}

}  // namespace sized_programs_tests
}  // namespace idxmap
