// The index provers on whole programs (issue 31): a random chain of the ops the value analysis
// follows (tests/ops/provenance/random_programs.h) computes the indices of a scatter from the
// argument %a, assumed in [-4, 4] (and sometimes unique or sorted): the result's elements, or
// in every other program pairs of them with %a's. Every verdict is checked
// by brute force: the interpreter computes the indices for every argument the assumptions
// allow, and spec 000's formulas (tests/verify/index_truth.h) say whether each property holds.
// Proven must hold for every one; refuted must fail for one; a witness shown (argument values
// replayed by verify/replay/argument_witness.h) must break it. Every fourth program ends in an
// op that picks among values (chlo.top_k, argmax, argmin). Argsorts (sort of an iota) are
// checked on the interpreter's sorts of random keys.
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <set>

#include "core/bridges/isl_bridge.h"
#include "ops/interp/interpreter.h"
#include "ops/mlir/module.h"
#include "tests/ops/provenance/random_programs.h"
#include "tests/support/sampling.h"
#include "tests/verify/index_truth.h"
#include "verify/op_properties.h"
#include "verify/replay/argument_witness.h"

namespace idxmap {
namespace {

using gather_scatter::Tensor;

constexpr int64_t kLo = -4, kHi = 4, kRows = 8;

// A scatter of one element per index into tensor<8xf32>, its indices the program's result
// broadcast to [3, 1]: the program's @main with two more arguments and the scatter appended.
// With `paired`, into tensor<8x8xf32> at [result[i], %a[i]]: each vector's entries read
// different elements of %a (an entry's leaves are not the other's).
std::string withScatter(const std::string& program, const std::string& returned, bool paired) {
  std::string text = program;
  const std::string signature = "func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {\n";
  const std::string table = paired ? "tensor<8x8xf32>" : "tensor<8xf32>";
  const std::string vectors = paired ? "tensor<3x2xi32>" : "tensor<3x1xi32>";
  size_t at = text.find(signature);
  text.replace(at, signature.size(),
               "func.func @main(%a: tensor<3xi32>, %x: " + table + ", %u: tensor<3xf32>) -> " +
                   table + " {\n");
  const std::string ret = "  func.return " + returned + " : tensor<3xi32>\n";
  std::string indices = "  %col = stablehlo.broadcast_in_dim " + returned +
                        ", dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>\n";
  if (paired)
    indices +=
        "  %acol = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<3xi32>) -> "
        "tensor<3x1xi32>\n"
        "  %pairs = stablehlo.concatenate %col, %acol, dim = 1 : (tensor<3x1xi32>, "
        "tensor<3x1xi32>) -> tensor<3x2xi32>\n";
  text.replace(text.rfind(ret), ret.size(),
               indices + "  %r = \"stablehlo.scatter\"(%x, " + (paired ? "%pairs" : "%col") +
                   ", %u) ({\n"
                   "  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
                   "    \"stablehlo.return\"(%q) : (tensor<f32>) -> ()\n"
                   "  }) {\n"
                   "    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],\n"
                   "      inserted_window_dims = " +
                   (paired ? "[0, 1], scatter_dims_to_operand_dims = [0, 1]"
                           : "[0], scatter_dims_to_operand_dims = [0]") +
                   ",\n      index_vector_dim = 1>\n"
                   "  } : (" +
                   table + ", " + vectors + ", tensor<3xf32>) -> " + table + "\n" +
                   "  func.return %r : " + table + "\n");
  return text;
}

gather_scatter::ScatterOp scatterModel(bool paired) {
  gather_scatter::ScatterOp op;
  op.inputs = {{paired ? std::vector<int64_t>{kRows, kRows} : std::vector<int64_t>{kRows}, "f32"}};
  op.scatter_indices = {{3, paired ? 2 : 1}, "i32"};
  op.updates = {{{3}, "f32"}};
  op.dimension_numbers.inserted_window_dims =
      paired ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0};
  op.dimension_numbers.scatter_dims_to_operand_dims = op.dimension_numbers.inserted_window_dims;
  op.dimension_numbers.index_vector_dim = 1;
  return op;
}

// The scatter's indices from the program's result `values` at the argument `a`.
Tensor scatterIndices(const Tensor& values, const std::vector<int64_t>& a, bool paired) {
  if (!paired) return Tensor{"i32", {3, 1}, values.ints, {}};
  Tensor pairs{"i32", {3, 2}, {}, {}};
  for (size_t i = 0; i < 3; ++i) pairs.ints.insert(pairs.ints.end(), {values.ints[i], a[i]});
  return pairs;
}

// Whether the argument satisfies the facts of the assumption (besides its range).
bool allowed(const std::vector<int64_t>& a, const std::string& fact) {
  if (fact == "unique") return a[0] != a[1] && a[0] != a[2] && a[1] != a[2];
  if (fact == "sorted") return a[0] <= a[1] && a[1] <= a[2];
  return true;
}

// Checks one verdict against what brute force found over the allowed arguments.
struct HoldingTally {
  int holding = 0;  // properties brute force finds true for every allowed argument
  int proven = 0;
  int outOfTime = 0;  // unknown because isl ran out of its time or operations
};

void expectSound(const std::string& what, const ProofResult& result, bool alwaysHolds,
                 HoldingTally& tally) {
  tally.holding += alwaysHolds;
  const bool limit = result.reason.find("time limit") != std::string::npos ||
                     result.reason.find("number of operations") != std::string::npos;
  tally.outOfTime += alwaysHolds && result.isUnknown() && limit;

  if (result.isProven()) {
    EXPECT_TRUE(alwaysHolds) << what << " proven, but brute force finds an argument breaking it";
    ++tally.proven;
  }
  if (result.isRefuted()) {
    EXPECT_FALSE(alwaysHolds) << what << " refuted, but it holds for every argument";
  }
}

// A condition on the argument (verify/argument_conditions_internal.h) evaluated on one value of
// %a: "every element of %a is in [lo, hi]" (or a number, or an isl set of [v]), or "no two
// elements u and w of %a, u before w in row-major order, satisfy { [u, w] : ... }". nullopt
// for conditions of another form (on the index vectors, or on the elements the op reads).
std::optional<bool> argumentConditionHolds(const std::string& condition,
                                           const std::vector<int64_t>& a) {
  auto member = [](const std::string& set, const std::vector<int64_t>& point) {
    std::string tuple;
    for (size_t i = 0; i < point.size(); ++i) tuple += (i ? ", " : "") + std::to_string(point[i]);
    return isl::set(islContext(), "{ [" + tuple + "] }").is_subset(isl::set(islContext(), set));
  };
  const std::string every = "every element of %a is in ";
  const std::string pairs =
      "no two elements u and w of %a, u before w in row-major order, satisfy ";
  if (condition.rfind(every, 0) == 0) {
    std::string values = condition.substr(every.size());
    std::string set =
        values.front() == '{' ? values
        : values.front() == '['
            ? "{ [v] : " + values.substr(1, values.find(',') - 1) + " <= v <= " +
                  values.substr(values.find(',') + 1, values.size() - values.find(',') - 2) + " }"
            : "{ [" + values + "] }";
    for (int64_t element : a)
      if (!member(set, {element})) return false;
    return true;
  }
  if (condition.rfind(pairs, 0) == 0) {
    std::string set = condition.substr(pairs.size());
    for (size_t i = 0; i < a.size(); ++i)
      for (size_t j = i + 1; j < a.size(); ++j)
        if (member(set, {a[i], a[j]})) return false;
    return true;
  }
  return std::nullopt;
}

TEST(ProgramProperties, VerdictsAgreeWithBruteForceOverEveryArgument) {
  sampling::Sample sample = sampling::sampleOf("ProgramProperties.RandomPrograms", 160, 16);
  std::mt19937 rng(sample.seed);
  const char* facts[] = {"", "unique", "sorted"};
  // Choices (a top_k's or argmax's result as a leaf with a range) lose what the op computes:
  // their verdicts are checked for soundness and counted apart.
  // Pairs: facts about %a are not used where its elements are paired with others' (unique
  // under `%a: unique` is stated as a condition, not proven): checked for soundness, counted
  // apart.
  HoldingTally tally, choiceTally, pairedTally;
  int conditionsChecked = 0;  // argument values a condition on the argument was checked at
  // Conditions on %a: how many, how many fail for an allowed value, how many show a witness.
  struct {
    int asked = 0, failing = 0, shown = 0;
    int failingInRange = 0;  // with a range only (what a witness can keep), no choice
  } witnesses;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    // Every fourth program picks among values (top_k, argmax, argmin) in its last step.
    value_testing::RandomProgram program =
        value_testing::randomProgram(rng, 1 + trial % 6, /*choices=*/trial % 4 == 3);
    const std::string fact = facts[trial % 3];
    const std::string assumption = "%a: in [" + std::to_string(kLo) + ", " + std::to_string(kHi) +
                                   "]" + (fact.empty() ? "" : ", " + fact);
    // One program in four scatters to pairs [result[i], %a[i]] of an 8x8 table.
    const bool paired = trial % 4 == 1;
    std::string text = withScatter(program.text, program.returned, paired);
    SCOPED_TRACE(text + "assuming " + assumption);

    mlir_ir::Module module = mlir_ir::parseMlirModule(text, "random.mlir");
    const std::vector<mlir_ir::Operation>& block =
        module.function("main")->body.blocks.front().operations;
    const mlir_ir::Operation& scatter = block.at(block.size() - 2);
    ASSERT_EQ(scatter.name, "stablehlo.scatter");
    const std::vector<Assumption> assumed = parseAssumptions({assumption});
    std::optional<OpIndexProperties> properties =
        proveOpIndexProperties(scatter, block, assumed, &module);

    ASSERT_TRUE(properties && properties->unique);
    argument_witness::replayWitnesses(module, block, scatter, assumed, *properties);

    // Brute force: the indices for every allowed argument, from the program alone.
    mlir_ir::Module indicesOnly = mlir_ir::parseMlirModule(program.text, "random.mlir");
    mlir_interpreter::Interpreter interpreter(indicesOnly, mlir_interpreter::Engine::kReference);
    bool unique = true, sorted = true, inBounds = true;
    Tensor argument{"i32", {3}, {kLo, kLo, kLo}, {}};
    // A condition on the argument must hold exactly for the arguments brute force finds the
    // property true for.
    auto expectExact = [&](const char* what, const ProofResult& result, bool holds) {
      if (!result.isUnknown()) return;
      std::optional<bool> stated = argumentConditionHolds(result.condition, argument.ints);
      if (!stated) return;
      ++conditionsChecked;
      EXPECT_EQ(*stated, holds) << what << " at %a = " << ::testing::PrintToString(argument.ints)
                                << ": the condition says " << *stated << ": " << result.condition;
    };
    while (true) {
      if (allowed(argument.ints, fact)) {
        Tensor values = interpreter.call(*indicesOnly.function("main"), {argument}).at(0);
        index_truth::Truth truth = index_truth::scatterTruth(
            scatterModel(paired), scatterIndices(values, argument.ints, paired));
        unique = unique && truth.unique;
        sorted = sorted && truth.sorted;
        inBounds = inBounds && truth.inBounds;
        expectExact("unique", properties->unique->result, truth.unique);
        expectExact("sorted", properties->sorted.result, truth.sorted);
        expectExact("in bounds", properties->inBounds.result, truth.inBounds);
      }
      size_t d = 0;
      while (d < 3 && argument.ints[d] == kHi) argument.ints[d++] = kLo;
      if (d == 3) break;
      ++argument.ints[d];
    }
    // A witness shown must break the property, by brute force on its own values of %a (its
    // elements, every other element its fill), and keep the assumptions.
    auto expectBreaks = [&](const char* what, const ProofResult& result, bool alwaysHolds,
                            bool index_truth::Truth::*property) {
      if (!result.isUnknown() || result.conditionOn != "arguments") return;
      ++witnesses.asked;
      witnesses.failing += !alwaysHolds;
      witnesses.failingInRange += !alwaysHolds && fact.empty() && trial % 4 != 3;
      if (!result.witness) return;
      ASSERT_TRUE(result.witness->replayed) << what;
      ASSERT_FALSE(result.witness->elements.empty()) << what;
      Tensor a{"i32", {3}, {}, {}};
      a.ints.assign(3, result.witness->fill.value_or(result.witness->elements.front().value));
      for (const ArgumentWitness::Element& element : result.witness->elements) {
        ASSERT_EQ(element.tensor, "%a") << what;
        a.ints.at(static_cast<size_t>(element.index.at(0))) = element.value;
      }
      for (int64_t value : a.ints) EXPECT_TRUE(value >= kLo && value <= kHi) << what;
      EXPECT_TRUE(allowed(a.ints, fact)) << what;
      Tensor values = interpreter.call(*indicesOnly.function("main"), {a}).at(0);
      EXPECT_FALSE(
          index_truth::scatterTruth(scatterModel(paired), scatterIndices(values, a.ints, paired)).*
          property)
          << what << ": the witness %a = " << ::testing::PrintToString(a.ints)
          << " keeps it: " << result.witness->explanation;
      ++witnesses.shown;
    };
    expectBreaks("unique", properties->unique->result, unique, &index_truth::Truth::unique);
    expectBreaks("sorted", properties->sorted.result, sorted, &index_truth::Truth::sorted);
    expectBreaks("in bounds", properties->inBounds.result, inBounds, &index_truth::Truth::inBounds);
    HoldingTally& counted = trial % 4 == 3 ? choiceTally : paired ? pairedTally : tally;
    expectSound("unique", properties->unique->result, unique, counted);
    expectSound("sorted", properties->sorted.result, sorted, counted);
    expectSound("in bounds", properties->inBounds.result, inBounds, counted);
  }
  std::cout << "[ tally ] " << tally.proven << " of " << tally.holding
            << " properties that hold for every argument proven (" << tally.outOfTime
            << " unknown as isl ran out of time); ending in a choice: " << choiceTally.proven
            << " of " << choiceTally.holding << "; paired: " << pairedTally.proven << " of "
            << pairedTally.holding << "; conditions on %a checked at " << conditionsChecked
            << " argument values; of " << witnesses.asked << " conditions on %a, "
            << witnesses.failing << " fail for an allowed value (" << witnesses.failingInRange
            << " assuming a range only) and " << witnesses.shown
            << " show a witness that breaks it\n";
  // Not vacuous: some properties hold (about 10 in a 16-case sample, choices included; the
  // floor scales with the sample, and a sanitizer tree's 5 cases, where none may hold, have
  // none) and what holds is proven, but where isl runs out of time (a value wrapped through
  // a narrow type, then the minimum of it and itself moved, takes it seconds), which depends on
  // the machine.
  EXPECT_GT(tally.holding + choiceTally.holding + pairedTally.holding,
            sampling::scaledFloor(20, sample.count, 160));
  // Every condition on %a that an allowed value breaks shows such a value, where the facts are a
  // range (a witness cannot know what `unique` or `sorted` ask of its other elements) and %a is
  // what the indices come from (a choice's leaf is the op's result, not an argument).
  EXPECT_GE(witnesses.shown, witnesses.failingInRange);
  EXPECT_GE(tally.proven * 10, (tally.holding - tally.outOfTime) * 9);
}

// Argsort: sorting an iota along with the keys permutes it, whatever the comparator. A 1-D
// argsort's indices are distinct and in range, so a scatter through them is proven unique and
// in bounds; a 2-D one's rows each hold 0..n-1, so only in bounds. The interpreter, on random
// keys, shows both: the 1-D indices always a permutation, the 2-D ones always repeating.
TEST(ProgramProperties, ArgsortIndicesArePermutations) {
  const std::string text = R"(func.func @main(%keys: tensor<6xf32>, %x: tensor<6xf32>,
    %u: tensor<6xf32>, %rows: tensor<2x3xf32>) -> (tensor<6xi32>, tensor<6x1xi32>) {
  %iota = stablehlo.iota dim = 0 : tensor<6xi32>
  %s:2 = "stablehlo.sort"(%keys, %iota) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  %col = stablehlo.broadcast_in_dim %s#1, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
  %r = "stablehlo.scatter"(%x, %col, %u) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    "stablehlo.return"(%q) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<6xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<6xf32>
  %iota2 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %t:2 = "stablehlo.sort"(%rows, %iota2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %flat = stablehlo.reshape %t#1 : (tensor<2x3xi32>) -> tensor<6x1xi32>
  %r2 = "stablehlo.scatter"(%x, %flat, %u) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    "stablehlo.return"(%q) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<6xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<6xf32>
  func.return %s#1, %flat : tensor<6xi32>, tensor<6x1xi32>
}
)";
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "argsort.mlir");
  const std::vector<mlir_ir::Operation>& block =
      module.function("main")->body.blocks.front().operations;
  std::vector<OpIndexProperties> found;
  for (const mlir_ir::Operation& op : block)
    if (op.name == "stablehlo.scatter")
      found.push_back(*proveOpIndexProperties(op, block, {}, &module));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_TRUE(found[0].unique->result.isProven()) << found[0].unique->result.reason;
  EXPECT_TRUE(found[0].inBounds.result.isProven()) << found[0].inBounds.result.reason;
  EXPECT_FALSE(found[1].unique->result.isProven());
  EXPECT_TRUE(found[1].inBounds.result.isProven()) << found[1].inBounds.result.reason;

  mlir_interpreter::Interpreter interpreter(module, mlir_interpreter::Engine::kReference);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> key(0, 3);  // ties too: any order of them is a permutation
  for (int trial = 0; trial < 20; ++trial) {
    Tensor keys{"f32", {6}, {}, {}}, rows{"f32", {2, 3}, {}, {}}, x{"f32", {6}, {}, {}};
    for (int i = 0; i < 6; ++i) {
      keys.floats.push_back(key(rng));
      rows.floats.push_back(key(rng));
      x.floats.push_back(0);
    }
    std::vector<Tensor> out = interpreter.call(*module.function("main"), {keys, x, x, rows});
    std::set<int64_t> once(out[0].ints.begin(), out[0].ints.end());
    EXPECT_EQ(once, (std::set<int64_t>{0, 1, 2, 3, 4, 5}));
    std::set<int64_t> twice(out[1].ints.begin(), out[1].ints.end());
    EXPECT_EQ(twice, (std::set<int64_t>{0, 1, 2}));
  }
}

}  // namespace
}  // namespace idxmap
