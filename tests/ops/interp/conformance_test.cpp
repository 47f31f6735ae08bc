// StableHLO's own gather / scatter / dynamic_gather cases run through the MLIR interpreter
// under both engines: whole test functions (interpret_cases.jsonl), whose check ops must all
// pass, and single ops (the spec's examples, JAX-generated testdata) whose operands are bound
// from the record and whose result must equal the record's expected value. The two engines
// must agree exactly on every case. Skips cleanly when the conformance folder is absent;
// records that cannot run (dynamic shapes, quantized types, values not in the record) are
// counted by reason and printed.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include "ops/interp/check_comparisons.h"
#include "ops/interp/interpreter.h"
#include "tests/ops/interp/conformance_cases.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::mlir_interpreter {
namespace {

using gather_scatter::Tensor;
using gather_scatter::testing::tensorFrom;
using nlohmann::json;

constexpr Engine kEngines[] = {Engine::kReference, Engine::kMaps};

const char* engineName(Engine engine) { return engine == Engine::kMaps ? "maps" : "reference"; }

using conformance_cases::conformancePath;
using conformance_cases::readRecords;
using conformance_cases::tensorOfType;

// The record's operand values; the op must take as many as the record gives.
std::vector<Tensor> boundOperands(const json& record, const mlir_ir::Operation& op) {
  std::vector<Tensor> operands = conformance_cases::boundOperands(record, op);
  EXPECT_EQ(operands.size(), op.operandTypes.size()) << record.at("id");
  return operands;
}

struct Tally {
  int ran = 0;
  std::map<std::string, int> skipped;

  void print(const std::string& name) const {
    std::cout << name << ": " << ran << " cases ran under both engines\n";
    for (const auto& [reason, count] : skipped)
      std::cout << "  skipped " << count << " (" << reason << ")\n";
  }
};

// A bare op: evaluate under both engines, compare with `expected` and with each other.
void runSingleOp(const json& record, const std::string& mlir) {
  const std::string id = record.at("id");
  mlir_ir::Module module = mlir_ir::parseMlirModule(mlir, id);
  ASSERT_FALSE(module.operations.empty()) << id;
  const mlir_ir::Operation& op = module.operations.back();
  std::vector<Tensor> operands = boundOperands(record, op);
  ASSERT_EQ(operands.size(), op.operands.size()) << id;
  ASSERT_FALSE(op.resultTypes.empty()) << id;
  Tensor expected = tensorOfType(op.resultTypes[0], record.at("expected"));
  bool close = record.value("expected_check", json()) == "check.expect_close";
  std::vector<Tensor> results;
  for (Engine engine : kEngines) {
    Interpreter interpreter(module, engine);
    std::vector<Tensor> result = interpreter.evaluate(op, operands);
    ASSERT_EQ(result.size(), op.resultTypes.size()) << id;
    // expect_close records: StableHLO's check.expect_close default, 1 ULP; else exact (the
    // expected decimals read back rounded to the element type).
    std::optional<std::string> failure =
        close ? expectClose(result[0], expected, 1, 0) : expectEqual(result[0], expected);
    EXPECT_FALSE(failure) << id << " (" << engineName(engine) << "): " << *failure;
    results.push_back(result[0]);
  }
  EXPECT_EQ(results[0], results[1]) << id << ": the engines disagree";
}

// A whole function with check ops: every check passes under both engines.
void runFunctions(const json& record, const std::string& mlir) {
  const std::string id = record.at("id");
  mlir_ir::Module module = mlir_ir::parseMlirModule(mlir, id);
  for (Engine engine : kEngines) {
    Interpreter interpreter(module, engine);
    for (const mlir_ir::Function* function : entryFunctions(module))
      interpreter.call(*function, {});
    EXPECT_FALSE(interpreter.checks().empty()) << id;
    for (const CheckOutcome& check : interpreter.checks())
      EXPECT_FALSE(check.failure) << id << " (" << engineName(engine) << ") line "
                                  << check.location.line << ": " << *check.failure;
  }
}

std::optional<std::string> skipReason(const json& record) {
  if (record.value("values_complete", true)) return std::nullopt;
  std::string group = record.value("group", "");
  if (group == "quantized" || record.contains("operand_quantized_type")) return "quantized";
  if (group == "dynamic") return "dynamic";
  return "values not in the record";
}

TEST(InterpretConformance, InterpretCasesPassUnderBothEngines) {
  if (!std::ifstream(conformancePath("interpret_cases.jsonl")).good())
    GTEST_SKIP() << "no conformance data";
  Tally tally;
  for (const json& record : readRecords("interpret_cases.jsonl")) {
    std::string mlir = record.at("mlir");
    SCOPED_TRACE(record.at("id").get<std::string>());
    if (mlir.find("func.func") != std::string::npos)
      runFunctions(record, mlir);
    else
      runSingleOp(record, mlir);
    ++tally.ran;
  }
  tally.print("interpret_cases.jsonl");
  EXPECT_EQ(tally.ran, 8);  // 5 test functions, 3 spec examples
}

TEST(InterpretConformance, TestdataCasesMatchUnderBothEngines) {
  if (!std::ifstream(conformancePath("testdata_cases.jsonl")).good())
    GTEST_SKIP() << "no conformance data";
  Tally tally;
  for (const json& record : readRecords("testdata_cases.jsonl")) {
    if (std::optional<std::string> reason = skipReason(record)) {
      ++tally.skipped[*reason];
      continue;
    }
    SCOPED_TRACE(record.at("id").get<std::string>());
    runSingleOp(record, record.at("mlir"));
    ++tally.ran;
  }
  tally.print("testdata_cases.jsonl");
  EXPECT_EQ(tally.ran, 269);  // every values_complete record
}

}  // namespace
}  // namespace idxmap::mlir_interpreter
