// StableHLO scatters whose region no prelude function computes (issue 32, item 6): the region
// becomes the kernel's own functions (codegen/lower/update_functions), one an input, each of
// every input's current value and update. Run on both targets against the interpreter's
// reference engine, which evaluates the region once per update, bit for bit: an argmax over two
// inputs (pretty form), random regions (compare and select, arithmetic, bitwise ops, converts
// and constants over one or two inputs of f32, f16, i32, i4 or ui8) on random scatters, and an
// op kernels do not compute refused at its location.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "codegen/emit.h"
#include "codegen/run/jit.h"
#include "codegen/run/kernel_engine.h"
#include "ops/interp/interpreter.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/random_mlir.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace {

using gather_scatter::Tensor;
using gather_scatter::testing::uniform;

// A region's ops in generic form over %a0 .. %a<2n-1>, each input's new value a random
// expression of its type, then the return.
class RandomRegion {
 public:
  RandomRegion(std::mt19937& rng, const std::vector<std::string>& types) : rng_(rng) {
    for (size_t k = 0; k < 2 * types.size(); ++k)
      leaves_.push_back({"%a" + std::to_string(k), types[k % types.size()]});
    std::string returned, returnedTypes;
    for (size_t i = 0; i < types.size(); ++i) {
      returned += (i ? ", " : "") + expression(types[i], 2);
      returnedTypes += std::string(i ? ", " : "") + "tensor<" + types[i] + ">";
    }
    text_ += "    \"stablehlo.return\"(" + returned + ") : (" + returnedTypes + ") -> ()\n";
  }
  const std::string& text() const { return text_; }

 private:
  std::string expression(const std::string& type, int depth) {
    if (depth == 0 || uniform(rng_, 0, 3) == 0) return leaf(type);
    const bool isFloat = type[0] == 'f';
    switch (uniform(rng_, 0, 5)) {
      case 0: {  // select on a comparison of two values of one input's type
        const std::string& of = leaves_[index(leaves_.size())].type;
        const std::string x = expression(of, depth - 1), y = expression(of, depth - 1);
        static const char* kDirections[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
        const std::string p =
            define("stablehlo.compare", {x, y}, {of, of}, "i1",
                   std::string("{comparison_direction = #stablehlo<comparison_direction ") +
                       kDirections[index(6)] + ">} ");
        const std::string a = expression(type, depth - 1), b = expression(type, depth - 1);
        return define("stablehlo.select", {p, a, b}, {"i1", type, type}, type);
      }
      case 1: {  // a constant, combined with a value
        const std::string c = define(
            "stablehlo.constant", {}, {}, type,
            "{value = dense<" + std::string(isFloat ? "1.5" : "3") + "> : tensor<" + type + ">} ");
        return define("stablehlo.add", {expression(type, depth - 1), c}, {type, type}, type);
      }
      case 2: {  // a convert from another input's type
        const std::string& from = leaves_[index(leaves_.size())].type;
        return define("stablehlo.convert", {expression(from, depth - 1)}, {from}, type);
      }
      default: {
        std::vector<std::string> ops = {"add", "subtract", "multiply", "maximum", "minimum"};
        if (!isFloat) ops.insert(ops.end(), {"and", "or", "xor"});
        return define("stablehlo." + ops[index(ops.size())],
                      {expression(type, depth - 1), expression(type, depth - 1)}, {type, type},
                      type);
      }
    }
  }

  std::string leaf(const std::string& type) {
    std::vector<std::string> same;
    for (const Leaf& l : leaves_)
      if (l.type == type) same.push_back(l.name);
    return same[index(same.size())];
  }

  std::string define(const std::string& op, const std::vector<std::string>& operands,
                     const std::vector<std::string>& types, const std::string& result,
                     const std::string& attributes = "") {
    const std::string v = "%v" + std::to_string(values_++);
    std::string list, typeList;
    for (size_t i = 0; i < operands.size(); ++i) {
      list += (i ? ", " : "") + operands[i];
      typeList += (i ? ", " : "") + std::string("tensor<") + types[i] + ">";
    }
    text_ += "    " + v + " = \"" + op + "\"(" + list + ") " + attributes + ": (" + typeList +
             ") -> tensor<" + result + ">\n";
    return v;
  }

  size_t index(size_t n) {
    return static_cast<size_t>(uniform(rng_, 0, static_cast<int64_t>(n) - 1));
  }

  struct Leaf {
    std::string name, type;
  };
  std::mt19937& rng_;
  std::vector<Leaf> leaves_;
  std::string text_;
  int values_ = 0;
};

class RegionKernels : public ::testing::TestWithParam<EmitTarget::Kind> {};

// Every kernel of `module` run on `operands` (one list per function, in order) and compared with
// the reference engine's evaluation of its op.
void expectAgreement(const mlir_ir::Module& module,
                     const std::vector<std::vector<Tensor>>& operands, EmitTarget::Kind target) {
  EmittedModule emitted = emitMlirModule(module, {}, {target, {}});
  for (const EmitProblem& problem : emitted.problems) ADD_FAILURE() << problem.message;
  ASSERT_EQ(emitted.kernels.size(), operands.size());
  std::shared_ptr<LoadedLibrary> library =
      compileAndLoad(emitted.source(), testing::testJitOptions());
  mlir_interpreter::Interpreter reference(module, mlir_interpreter::Engine::kReference);
  for (size_t i = 0; i < emitted.kernels.size(); ++i) {
    const EmittedKernel& kernel = emitted.kernels[i];
    std::vector<const Tensor*> reads;
    for (const Tensor& t : operands[i]) reads.push_back(&t);
    std::vector<Tensor> results = runKernel(*library, kernel.kernel, reads);
    std::vector<Tensor> expected = reference.evaluate(*kernel.op, operands[i]);
    ASSERT_EQ(results.size(), expected.size());
    for (size_t r = 0; r < results.size(); ++r) {
      std::string shown;  // the first element that differs
      for (int64_t k = 0; shown.empty() && k < results[r].elementCount(); ++k)
        if (!testing::sameBits(gather_scatter::scalarAt(results[r], k),
                               gather_scatter::scalarAt(expected[r], k)))
          shown = "element " + std::to_string(k) + " is " + std::to_string(results[r].valueAt(k)) +
                  ", the reference's " + std::to_string(expected[r].valueAt(k));
      EXPECT_TRUE(testing::sameBits(results[r], expected[r]))
          << kernel.kernel.location << " result " << r << ": " << shown;
    }
  }
}

TEST_P(RegionKernels, RandomRegionsAgreeWithTheReference) {
  const sampling::Sample sample = sampling::sampleOf("RegionKernels", 40, 10);
  std::mt19937 rng(sample.seed);
  std::string text;
  std::vector<std::vector<Tensor>> operands;
  const std::vector<std::string> types = {"f32", "f16", "i32", "i4", "ui8"};
  for (size_t c = 0; c < sample.count; ++c) {
    const gather_scatter::testing::RandomOp random = gather_scatter::testing::randomOp(rng);
    gather_scatter::ScatterOp op =
        gather_scatter::testing::asScatterOp(random, gather_scatter::UpdateComputation::kOther);
    const size_t n = static_cast<size_t>(uniform(rng, 1, 2));
    op.inputs.resize(n);
    op.updates.resize(n);
    std::vector<std::string> chosen;
    std::vector<Tensor> inputs, updates;
    for (size_t i = 0; i < n; ++i) {
      chosen.push_back(types[static_cast<size_t>(uniform(rng, 0, 4))]);
      op.inputs[i] = {random.operandShape, chosen[i]};
      op.updates[i] = {random.resultShape, chosen[i]};
      inputs.push_back(testing::randomTensor(rng, chosen[i], random.operandShape));
      updates.push_back(testing::randomTensor(rng, chosen[i], random.resultShape));
    }
    RandomRegion region(rng, chosen);
    text +=
        testing::scatterFunction("f" + std::to_string(c), op, std::nullopt, nullptr, region.text());
    Tensor indices = gather_scatter::testing::randomIndices(rng, random);
    std::vector<Tensor> reads = inputs;
    reads.push_back(indices);
    reads.insert(reads.end(), updates.begin(), updates.end());
    operands.push_back(std::move(reads));
  }
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "regions.mlir");
  expectAgreement(module, operands, GetParam());
}

// An argmax in pretty form: the best score of each row and the agent that holds it.
TEST_P(RegionKernels, AnArgmaxAgreesWithTheReference) {
  const std::string text =
      R"(func.func @main(%scores: tensor<8xf32>, %agents: tensor<8xi32>, %rows: tensor<9x1xi32>, %new_scores: tensor<9xf32>, %new_agents: tensor<9xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %0:2 = "stablehlo.scatter"(%scores, %agents, %rows, %new_scores, %new_agents) ({
  ^bb0(%s: tensor<f32>, %a: tensor<i32>, %ns: tensor<f32>, %na: tensor<i32>):
    %higher = stablehlo.compare GT, %ns, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %best = stablehlo.select %higher, %ns, %s : tensor<i1>, tensor<f32>
    %agent = stablehlo.select %higher, %na, %a : tensor<i1>, tensor<i32>
    stablehlo.return %best, %agent : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8xf32>, tensor<8xi32>, tensor<9x1xi32>, tensor<9xf32>, tensor<9xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
})";
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "argmax.mlir");
  Tensor scores = gather_scatter::zeros("f32", {8}), agents = gather_scatter::zeros("i32", {8});
  Tensor rows = gather_scatter::zeros("i32", {9, 1}), newScores = gather_scatter::zeros("f32", {9});
  Tensor newAgents = gather_scatter::zeros("i32", {9});
  const double s[] = {1, 5, -2, 0.5, 3, 3, 7, -1};
  const int64_t r[] = {1, 1, 6, 9, 0, 6, -1, 1, 3};  // repeats, ties, out of range
  const double ns[] = {6, 9, 7, 100, 0, 7.5, 50, 9, NAN};
  for (size_t i = 0; i < 8; ++i) {
    scores.floats[i] = s[i];
    agents.ints[i] = static_cast<int64_t>(i);
  }
  for (size_t i = 0; i < 9; ++i) {
    rows.ints[i] = r[i];
    newScores.floats[i] = ns[i];
    newAgents.ints[i] = 10 + static_cast<int64_t>(i);
  }
  expectAgreement(module, {{scores, agents, rows, newScores, newAgents}}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Targets, RegionKernels,
                         ::testing::Values(EmitTarget::Kind::kCpp, EmitTarget::Kind::kCuda),
                         [](const auto& info) {
                           return info.param == EmitTarget::Kind::kCuda ? "Cuda" : "Cpp";
                         });

// What kernels do not compute in a region, each refused at its op: an op of another dialect
// (tosa.maximum's nan_mode means something else), one no kernel computes, an attribute kernels
// do not read, a comparison type other than the operands' own or one kernels do not know, an add of
// three operands (no dropped operand), a select of two (no crash), operands of two types, an f8
// value; and i4 index values.
TEST(RegionKernelsRefused, WhatKernelsDoNotComputeIsNamedAtItsOp) {
  auto scatter = [](const std::string& region, const std::string& indexType = "i32") {
    return "func.func @main(%in: tensor<4xf32>, %rows: tensor<2x1x" + indexType +
           ">, %up: tensor<2xf32>) -> tensor<4xf32> {\n"
           "  %0 = \"stablehlo.scatter\"(%in, %rows, %up) ({\n"
           "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n" +
           region +
           "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
           "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, "
           "tensor<2x1x" +
           indexType + ">, tensor<2xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
  };
  const std::string half = "    %h = stablehlo.constant dense<0.5> : tensor<f32>\n";
  const std::string ret = "    stablehlo.return %c : tensor<f32>\n";
  const struct {
    std::string text;
    int line;
    std::string says;
  } cases[] = {
      {scatter("    %c = \"stablehlo.custom_call\"(%a, %b) {call_target_name = \"mystery\"} : "
               "(tensor<f32>, tensor<f32>) -> tensor<f32>\n" +
               ret),
       4, "stablehlo.custom_call in a scatter's update computation: kernels do not compute it"},
      {scatter("    %c = \"tosa.maximum\"(%a, %b) {nan_mode = \"IGNORE\"} : (tensor<f32>, "
               "tensor<f32>) -> tensor<f32>\n" +
               ret),
       4, "kernels compute StableHLO's ops only"},
      {scatter(half +
               "    %d = stablehlo.multiply %b, %h : tensor<f32>\n"
               "    %c = \"stablehlo.subtract\"(%a, %d) {precision = 1} : (tensor<f32>, "
               "tensor<f32>) -> tensor<f32>\n" +
               ret),
       6, "its attribute `precision` is not read by kernels"},
      {scatter("    %p = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> "
               "tensor<i1>\n    %c = stablehlo.select %p, %a, %b : tensor<i1>, tensor<f32>\n" +
               ret),
       4, "TOTALORDER comparisons of f32 are not computed"},
      {scatter("    %p = \"stablehlo.compare\"(%a, %b) {comparison_direction = "
               "#stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type "
               "WEAKORDER>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    %c = stablehlo.select "
               "%p, %a, %b : tensor<i1>, tensor<f32>\n" +
               ret),
       4, "its comparison direction or type is not one kernels know"},
      {scatter(half +
                   "    %d = stablehlo.multiply %b, %h : tensor<f32>\n"
                   "    %c = stablehlo.subtract %a, %d : tensor<f32>\n" +
                   ret,
               "i4"),
       2, "do not read i4 index values"},
      {scatter("    %c = \"stablehlo.add\"(%a, %b, %a) : (tensor<f32>, tensor<f32>, tensor<f32>) "
               "-> tensor<f32>\n" +
               ret),
       4, "kernels do not compute it on (f32, f32, f32) giving f32"},
      {scatter("    %c = \"stablehlo.select\"(%a, %b) : (tensor<f32>, tensor<f32>) -> "
               "tensor<f32>\n" +
               ret),
       4, "its predicate is not i1"},
      {scatter("    %e = \"stablehlo.convert\"(%b) : (tensor<f32>) -> tensor<i32>\n"
               "    %c = \"stablehlo.add\"(%a, %e) : (tensor<f32>, tensor<i32>) -> tensor<f32>\n" +
               ret),
       5, "operands and result of one type expected (s32, f32 -> f32)"},
      {scatter("    %e = \"stablehlo.convert\"(%a) : (tensor<f32>) -> tensor<f8E4M3FN>\n"
               "    %c = \"stablehlo.convert\"(%e) : (tensor<f8E4M3FN>) -> tensor<f32>\n" +
               ret),
       4, "it computes tensor<f8E4M3FN>"},
  };
  for (const auto& c : cases) {
    mlir_ir::Module module = mlir_ir::parseMlirModule(c.text, "refused.mlir");
    EmittedModule emitted = emitMlirModule(module, {}, {});
    EXPECT_TRUE(emitted.kernels.empty()) << c.says;
    ASSERT_EQ(emitted.problems.size(), 1u) << c.says;
    EXPECT_EQ(emitted.problems[0].location.line, c.line) << emitted.problems[0].message;
    EXPECT_NE(emitted.problems[0].message.find(c.says), std::string::npos)
        << emitted.problems[0].message;
  }
}

}  // namespace
}  // namespace idxmap::codegen
