// Programs the interpreter must refuse get located diagnostics, under both engines alike, and
// the functions `idxmap run` executes.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include "ops/interp/interpreter.h"
#include "tests/ops/interp/test_util.h"

namespace idxmap::mlir_interpreter {
namespace {

TEST(MlirInterpreter, BadProgramsGetLocatedDiagnostics) {
  InterpretError unknown = errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.cholesky %a : tensor<f32>
  func.return
})");
  EXPECT_EQ(unknown.location().line, 3);
  EXPECT_EQ(unknown.location().column, 8);
  EXPECT_NE(unknown.message().find("unsupported op 'stablehlo.cholesky'"), std::string::npos);

  InterpretError mismatch = errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.reshape %a : (tensor<2xi32>) -> tensor<3xi32>
  func.return
})");
  EXPECT_EQ(mismatch.location().line, 3);
  EXPECT_NE(mismatch.message().find("element counts differ"), std::string::npos);

  InterpretError declared = errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = "stablehlo.add"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi64>
  func.return
})");
  EXPECT_EQ(declared.location().line, 3);
  EXPECT_NE(declared.message().find("declared tensor<2xi64>"), std::string::npos)
      << declared.message();

  InterpretError invalidGather = errorOf(R"(func.func @main() {
  %t = stablehlo.constant dense<0> : tensor<3x2xi64>
  %i = stablehlo.constant dense<0> : tensor<2x1xi64>
  %r = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>} : (tensor<3x2xi64>, tensor<2x1xi64>) -> tensor<2x5xi64>
  func.return
})");
  EXPECT_EQ(invalidGather.location().line, 4);
  EXPECT_NE(invalidGather.message().find("stablehlo.gather (C"), std::string::npos)
      << invalidGather.message();

  // Padding whose size overflows int64: the library's OverflowError, located at the op.
  InterpretError overflow = errorOf(R"(func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %p = stablehlo.constant dense<0> : tensor<i64>
  %b = stablehlo.pad %a, %p, low = [9223372036854775807], high = [1], interior = [0] : (tensor<2xi64>, tensor<i64>) -> tensor<4xi64>
  func.return
})");
  EXPECT_EQ(overflow.location().line, 4);
  EXPECT_NE(overflow.message().find("overflow"), std::string::npos) << overflow.message();

  InterpretError undefined = errorOf(R"(func.func @main() {
  %b = stablehlo.add %nowhere, %nowhere : tensor<f32>
  func.return
})");
  EXPECT_EQ(undefined.location().line, 2);
  EXPECT_NE(undefined.message().find("%nowhere"), std::string::npos);
}

// What one engine makes of a program: its check outcomes, or the diagnostic that stopped it.
std::string outcomeOf(const std::string& text, Engine engine) {
  std::string outcome;
  try {
    mlir_ir::Module module = mlir_ir::parseMlirModule(text, "mutated.mlir");
    Interpreter interpreter(module, engine);
    for (const mlir_ir::Function* function : entryFunctions(module))
      interpreter.call(*function, {});
    for (const CheckOutcome& check : interpreter.checks())
      outcome += check.failure.value_or("passed") + "\n";
  } catch (const Error& error) {  // ParseError, InterpretError: a diagnostic, not a crash
    outcome = std::string("error: ") + error.what();
  }
  return outcome;
}

// The spec example with digits changed at random (seeded): indices out of bounds, shapes that
// no longer match, wrong expectations. Whatever the change, both engines give the same
// outcome, and a program they cannot run is a diagnostic.
TEST(MlirInterpreter, EnginesAgreeOnMutatedSpecExamples) {
  std::ifstream file(std::filesystem::path(IDXMAP_SOURCE_DIR) / "examples" / "spec_example.mlir");
  std::stringstream text;
  text << file.rdbuf();
  const std::string original = text.str();
  ASSERT_FALSE(original.empty());
  std::mt19937 random(20261122);
  int failedChecks = 0, diagnostics = 0;
  for (int round = 0; round < 150; ++round) {
    std::string mutated = original;
    for (int k = 0; k < 2; ++k) {
      size_t at = std::uniform_int_distribution<size_t>(0, mutated.size() - 1)(random);
      if (std::isdigit(static_cast<unsigned char>(mutated[at])))
        mutated[at] = static_cast<char>('0' + std::uniform_int_distribution<int>(0, 9)(random));
    }
    std::string reference = outcomeOf(mutated, Engine::kReference);
    EXPECT_EQ(reference, outcomeOf(mutated, Engine::kMaps)) << mutated;
    failedChecks += reference.find("expected") != std::string::npos;
    diagnostics += reference.rfind("error: ", 0) == 0;
  }
  // The mutations reach both kinds of outcome, so the agreement is not only on passes.
  EXPECT_GT(failedChecks, 0);
  EXPECT_GT(diagnostics, 0);
}

TEST(MlirInterpreter, EntryFunctionsAreMainOrEveryFunctionWithoutArguments) {
  mlir_ir::Module withMain = mlir_ir::parseMlirModule(
      "func.func @a() { func.return }\nfunc.func @main() { func.return }", "m.mlir");
  ASSERT_EQ(entryFunctions(withMain).size(), 1u);
  EXPECT_EQ(entryFunctions(withMain)[0]->name, "main");
  mlir_ir::Module without = mlir_ir::parseMlirModule(
      "func.func @a() { func.return }\nfunc.func @b(%x: tensor<i1>) { func.return }\n"
      "func.func @c() { func.return }",
      "m.mlir");
  std::vector<const mlir_ir::Function*> entries = entryFunctions(without);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]->name, "a");
  EXPECT_EQ(entries[1]->name, "c");
  EXPECT_THROW(entryFunctions(mlir_ir::parseMlirModule(
                   "func.func @main(%x: tensor<i1>) { func.return }", "m.mlir")),
               InterpretError);
}

}  // namespace
}  // namespace idxmap::mlir_interpreter
