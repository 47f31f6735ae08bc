// StableHLO's own gather / scatter / dynamic_gather cases (interpret tests, the spec's
// examples, JAX-generated testdata) run through both evaluators against their expected
// values. Skips cleanly when the conformance folder is absent; cases that cannot be run here
// (dynamic shapes, quantized types, unknown values) are counted by reason.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <optional>

#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"
#include "tests/ops/stablehlo/conformance_records.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using nlohmann::json;
using testing::describe;
using testing::gatherDims;
using testing::ints;
using testing::parseTensorType;
using testing::scatterDims;
using testing::tensorFrom;

std::optional<UpdateComputation> computationNamed(const std::string& name) {
  static const std::map<std::string, UpdateComputation> names = {
      {"add", UpdateComputation::kAdd},
      {"mul", UpdateComputation::kMul},
      {"min", UpdateComputation::kMin},
      {"max", UpdateComputation::kMax},
      {"replace", UpdateComputation::kReplace}};
  auto found = names.find(name);
  if (found == names.end()) return std::nullopt;
  return found->second;
}

// Exact, floats included: both evaluators round every float result to its element type, and
// the expected values, printed in decimal, are read back rounded to that type too.
void expectMatches(const std::string& id, const std::string& engine, const Tensor& actual,
                   const Tensor& expected) {
  ASSERT_EQ(actual.shape, expected.shape) << id << " (" << engine << ")";
  EXPECT_EQ(actual.ints, expected.ints) << id << " (" << engine << ")";
  EXPECT_EQ(actual.floats, expected.floats) << id << " (" << engine << ")";
}

class CaseRunner {
 public:
  // Runs one record; returns the reason when it cannot be run.
  std::optional<std::string> run(const json& record) {
    if (!record.contains("attrs")) return "no attrs";
    if (record.value("values_complete", true) == false) return "values not complete";
    if (record.contains("operand_quantized_type")) return "quantized";
    std::string op = record.at("op");
    if (op == "gather") return runGather(record);
    if (op == "dynamic_gather") return runDynamicGather(record);
    if (op == "scatter") return runScatter(record);
    return "op " + op;
  }

 private:
  std::optional<std::string> runGather(const json& record) {
    std::optional<TensorType> operandType = parseTensorType(record.at("operand_type"));
    std::optional<TensorType> indicesType = parseTensorType(record.at("indices_type"));
    std::optional<TensorType> resultType = parseTensorType(record.at("result_types").at(0));
    if (!operandType || !indicesType || !resultType) return "type not static";
    GatherOp op;
    op.operand = *operandType;
    op.start_indices = *indicesType;
    op.dimension_numbers = gatherDims(record.at("attrs"));
    op.slice_sizes = ints(record.at("attrs").at("slice_sizes"));
    op.result = *resultType;
    return evaluateGather(record, op);
  }

  std::optional<std::string> runDynamicGather(const json& record) {
    std::optional<TensorType> operandType = parseTensorType(record.at("operand_type"));
    std::optional<TensorType> indicesType = parseTensorType(record.at("indices_type"));
    std::optional<TensorType> sizesType = parseTensorType(record.at("slice_sizes_type"));
    std::optional<TensorType> resultType = parseTensorType(record.at("result_types").at(0));
    if (!operandType || !indicesType || !sizesType || !resultType) return "type not static";
    DynamicGatherOp op;
    op.operand = *operandType;
    op.start_indices = *indicesType;
    op.slice_sizes_type = *sizesType;
    op.dimension_numbers = gatherDims(record.at("attrs"));
    op.slice_sizes = ints(record.at("slice_sizes"));
    op.result = *resultType;
    std::vector<Violation> violations = validateDynamicGather(op);
    EXPECT_TRUE(violations.empty()) << record.at("id") << "\n" << describe(violations);
    Tensor operand = tensorFrom(op.operand.element_type, op.operand.shape, record.at("operand"));
    Tensor indices =
        tensorFrom(op.start_indices.element_type, op.start_indices.shape, record.at("indices"));
    Tensor expected =
        tensorFrom(resultType->element_type, resultType->shape, record.at("expected"));
    expectMatches(record.at("id"), "reference", referenceDynamicGather(op, operand, indices),
                  expected);
    expectMatches(record.at("id"), "maps", mapGather(asGather(op), operand, indices), expected);
    return std::nullopt;
  }

  std::optional<std::string> evaluateGather(const json& record, const GatherOp& op) {
    std::vector<Violation> violations = validateGather(op);
    EXPECT_TRUE(violations.empty()) << record.at("id") << "\n" << describe(violations);
    Tensor operand = tensorFrom(op.operand.element_type, op.operand.shape, record.at("operand"));
    Tensor indices =
        tensorFrom(op.start_indices.element_type, op.start_indices.shape, record.at("indices"));
    Tensor expected = tensorFrom(op.result->element_type, op.result->shape, record.at("expected"));
    expectMatches(record.at("id"), "reference", referenceGather(op, operand, indices), expected);
    expectMatches(record.at("id"), "maps", mapGather(op, operand, indices), expected);
    return std::nullopt;
  }

  std::optional<std::string> runScatter(const json& record) {
    ScatterOp op;
    for (const json& text : record.at("input_types")) {
      std::optional<TensorType> type = parseTensorType(text);
      if (!type) return "type not static";
      op.inputs.push_back(*type);
    }
    for (const json& text : record.at("updates_types")) {
      std::optional<TensorType> type = parseTensorType(text);
      if (!type) return "type not static";
      op.updates.push_back(*type);
    }
    for (const json& text : record.at("result_types")) {
      std::optional<TensorType> type = parseTensorType(text);
      if (!type) return "type not static";
      op.results.push_back(*type);
    }
    std::optional<TensorType> indicesType = parseTensorType(record.at("indices_type"));
    if (!indicesType) return "type not static";
    if (op.updates.size() != 1) return "variadic case in this file's layout";
    std::optional<UpdateComputation> computation =
        computationNamed(record.value("update_computation", ""));
    if (!computation) return "update computation not recognized";
    op.scatter_indices = *indicesType;
    op.dimension_numbers = scatterDims(record.at("attrs"));
    op.update_computation = *computation;
    op.unique_indices = record.at("attrs").value("unique_indices", false);
    op.indices_are_sorted = record.at("attrs").value("indices_are_sorted", false);
    std::vector<Violation> violations = validateScatter(op);
    EXPECT_TRUE(violations.empty()) << record.at("id") << "\n" << describe(violations);

    std::vector<Tensor> inputs;
    for (size_t i = 0; i < op.inputs.size(); ++i)
      inputs.push_back(
          tensorFrom(op.inputs[i].element_type, op.inputs[i].shape, record.at("inputs").at(i)));
    Tensor indices =
        tensorFrom(op.scatter_indices.element_type, op.scatter_indices.shape, record.at("indices"));
    std::vector<Tensor> updates = {
        tensorFrom(op.updates[0].element_type, op.updates[0].shape, record.at("updates"))};
    Tensor expected =
        tensorFrom(op.results[0].element_type, op.results[0].shape, record.at("expected"));
    expectMatches(record.at("id"), "reference",
                  referenceScatter(op, inputs, indices, updates).at(0), expected);
    expectMatches(record.at("id"), "maps", mapScatter(op, inputs, indices, updates).at(0),
                  expected);
    return std::nullopt;
  }
};

struct Tally {
  int ran = 0;
  std::map<std::string, int> skipped;
};

Tally runFile(const std::string& name) {
  Tally tally;
  std::ifstream in(std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/" + name);
  std::string line;
  CaseRunner runner;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json record = json::parse(line);
    std::optional<std::string> skip = runner.run(record);
    if (skip)
      ++tally.skipped[*skip];
    else
      ++tally.ran;
  }
  std::cout << name << ": " << tally.ran << " cases ran through both evaluators\n";
  for (const auto& [reason, count] : tally.skipped)
    std::cout << "  skipped " << count << " (" << reason << ")\n";
  return tally;
}

bool conformanceFile(const std::string& name) {
  return std::ifstream(std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/" + name).good();
}

TEST(GatherScatterConformance, InterpretCases) {
  if (!conformanceFile("interpret_cases.jsonl")) GTEST_SKIP() << "no conformance data";
  Tally tally = runFile("interpret_cases.jsonl");
  EXPECT_GE(tally.ran, 8);  // every record there: 3 gather, 3 scatter, 2 dynamic_gather
}

TEST(GatherScatterConformance, TestdataCases) {
  if (!conformanceFile("testdata_cases.jsonl")) GTEST_SKIP() << "no conformance data";
  Tally tally = runFile("testdata_cases.jsonl");
  EXPECT_GE(tally.ran, 250);
}

}  // namespace
}  // namespace idxmap::gather_scatter
