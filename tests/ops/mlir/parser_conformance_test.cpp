// The MLIR reader on every `mlir` text of StableHLO's conformance records
// (../shared/conformance/stablehlo/), checked against the records' structured fields.
// Skips when the conformance folder is absent (a user's clone).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ops/mlir/module.h"

namespace idxmap::mlir_ir {
namespace {

using nlohmann::json;

std::vector<json> readRecords(const std::string& name) {
  std::string path = std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/" + name;
  std::vector<json> records;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) records.push_back(json::parse(line));
  }
  return records;
}

void forEachOp(const std::vector<Operation>& ops, const std::function<void(const Operation&)>& f);

void forEachOpInRegions(const Operation& op, const std::function<void(const Operation&)>& f) {
  for (const Region& region : op.regions) {
    for (const Block& block : region.blocks) forEachOp(block.operations, f);
  }
}

void forEachOp(const std::vector<Operation>& ops, const std::function<void(const Operation&)>& f) {
  for (const Operation& op : ops) {
    f(op);
    forEachOpInRegions(op, f);
  }
}

void forEachOp(const Module& module, const std::function<void(const Operation&)>& f) {
  forEachOp(module.operations, f);
  for (const Function& function : module.functions) {
    for (const Block& block : function.body.blocks) forEachOp(block.operations, f);
  }
}

// The first op named `name`, or with `result` given, the one defining it.
const Operation* findOp(const Module& module, const std::string& name,
                        const Value* result = nullptr) {
  const Operation* found = nullptr;
  forEachOp(module, [&](const Operation& op) {
    if (found || op.name != name) return;
    if (result == nullptr || (!op.results.empty() && op.results[0] == *result)) found = &op;
  });
  return found;
}

// The op defining `value` in `module`, or nullptr.
const Operation* definingOp(const Module& module, const Value& value) {
  const Operation* found = nullptr;
  forEachOp(module, [&](const Operation& op) {
    for (const Value& result : op.results) {
      if (!found && result == value) found = &op;
    }
  });
  return found;
}

void flatten(const json& nested, std::vector<double>& out) {
  if (nested.is_array()) {
    for (const json& element : nested) flatten(element, out);
  } else if (nested.is_boolean()) {
    out.push_back(nested.get<bool>() ? 1 : 0);
  } else {
    out.push_back(nested.get<double>());
  }
}

// The values of a constant op's dense literal, flattened (splats expanded).
std::vector<double> constantValues(const Operation& constant) {
  const Attribute* value = constant.attribute("value");
  if (value == nullptr || value->dense == nullptr) return {};
  const DenseElements& dense = *value->dense;
  int64_t count = dense.type.elementCount().value_or(0);
  std::vector<double> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(dense.floatAt(i));
  return values;
}

const char* const kDimensionNumberFields[] = {"offset_dims",
                                              "collapsed_slice_dims",
                                              "operand_batching_dims",
                                              "start_indices_batching_dims",
                                              "start_index_map",
                                              "update_window_dims",
                                              "inserted_window_dims",
                                              "input_batching_dims",
                                              "scatter_indices_batching_dims",
                                              "scatter_dims_to_operand_dims",
                                              "index_vector_dim"};

void checkDimensionNumbers(const Attribute* dims, const json& attrs) {
  ASSERT_NE(dims, nullptr);
  ASSERT_EQ(dims->kind, Attribute::Kind::Structured);
  for (const char* field : kDimensionNumberFields) {
    const Attribute* written = dims->field(field);
    if (written == nullptr || !attrs.contains(field)) continue;
    if (std::string(field) == "index_vector_dim") {
      EXPECT_EQ(written->asInt(), attrs[field].get<int64_t>()) << field;
    } else {
      EXPECT_EQ(written->asInts(), attrs[field].get<std::vector<int64_t>>()) << field;
    }
  }
}

// Checks the parsed op against the record's `attrs`, operand/indices/result types.
void checkOpAgainstRecord(const Operation& op, const json& record, const std::string& id) {
  SCOPED_TRACE(id);
  const json& attrs = record.value("attrs", json::object());
  std::string dimsName =
      record["op"] == "scatter" ? "scatter_dimension_numbers" : "dimension_numbers";
  checkDimensionNumbers(op.attribute(dimsName), attrs);
  const Attribute* sliceSizes = op.attribute("slice_sizes");
  if (sliceSizes != nullptr && attrs.contains("slice_sizes") && attrs["slice_sizes"].is_array()) {
    EXPECT_EQ(sliceSizes->asInts(), attrs["slice_sizes"].get<std::vector<int64_t>>());
  }
  for (const char* flag : {"indices_are_sorted", "unique_indices"}) {
    const Attribute* written = op.attribute(flag);
    if (written != nullptr && attrs.contains(flag)) {
      EXPECT_EQ(written->asInt(), attrs[flag].get<bool>() ? 1 : 0) << flag;
    }
  }
  std::vector<std::string> operandTypes;
  for (const Type& type : op.operandTypes) operandTypes.push_back(type.toString());
  if (record.contains("operand_type") && record["operand_type"].is_string()) {
    ASSERT_GE(operandTypes.size(), 2u);
    EXPECT_EQ(operandTypes[0], record["operand_type"]);
    EXPECT_EQ(operandTypes[1], record["indices_type"]);
  }
  if (record.contains("input_types") && record["input_types"].is_array()) {
    auto inputs = record["input_types"].get<std::vector<std::string>>();
    auto updates = record["updates_types"].get<std::vector<std::string>>();
    std::vector<std::string> expected = inputs;
    expected.push_back(record["indices_type"]);
    expected.insert(expected.end(), updates.begin(), updates.end());
    EXPECT_EQ(operandTypes, expected);
  }
  if (record.contains("result_types") && record["result_types"].is_array()) {
    std::vector<std::string> results;
    for (const Type& type : op.resultTypes) results.push_back(type.toString());
    EXPECT_EQ(results, record["result_types"].get<std::vector<std::string>>());
  }
}

struct Counts {
  int texts = 0;
  int opsChecked = 0;
  int valuesChecked = 0;
  int diagnosed = 0;  // invalid records the reader rejects
};

// Parses every MLIR text of `file`'s records; checks the gather/scatter op of each.
Counts checkFile(const std::string& file) {
  Counts counts;
  for (const json& record : readRecords(file)) {
    std::string id = record["id"];
    std::string opName = record["op"];
    std::optional<Value> opResult;  // of the op in `mlir`, to find it in `function_mlir`
    for (const char* key : {"mlir", "test_mlir", "function_mlir"}) {
      if (!record.contains(key) || !record[key].is_string()) continue;
      std::string text = record[key];
      Module module;
      try {
        module = parseMlirModule(text, id + ":" + key);
      } catch (const ParseError& error) {
        // StableHLO rejects some invalid records while parsing; so does the reader, with
        // StableHLO's message.
        if (record.value("valid", true) || !record["expected_error"].is_string()) {
          ADD_FAILURE() << error.what();
        } else {
          EXPECT_NE(error.message().find(record["expected_error"].get<std::string>()),
                    std::string::npos)
              << error.what();
          ++counts.diagnosed;
        }
        continue;
      }
      ++counts.texts;
      if (opName.size() > 5 && opName.substr(opName.size() - 5) == "_attr") {
        // A dimension-numbers attribute alone, or held by `module attributes {...}`.
        if (module.attributes.empty()) {
          ADD_FAILURE() << id << ": no attribute read";
        } else if (record["valid"] == true) {
          checkDimensionNumbers(&module.attributes.back().value,
                                record.value("attrs", json::object()));
        }
        ++counts.opsChecked;
        continue;
      }
      bool inFunction = std::string(key) == "function_mlir";
      const Operation* op =
          findOp(module, "stablehlo." + opName, inFunction && opResult ? &*opResult : nullptr);
      if (op == nullptr) {
        ADD_FAILURE() << id << " " << key << ": no stablehlo." << record["op"];
        continue;
      }
      if (!op->results.empty() && !inFunction) opResult = op->results[0];
      checkOpAgainstRecord(*op, record, id + " " + key);
      ++counts.opsChecked;
      // Where the operand is a constant in the same text, its values are the record's.
      if (record.contains("operand") && !record["operand"].is_null() && !op->operands.empty()) {
        const Operation* constant = definingOp(module, op->operands[0]);
        if (constant != nullptr && constant->name == "stablehlo.constant") {
          std::vector<double> expected;
          flatten(record["operand"], expected);
          EXPECT_EQ(constantValues(*constant), expected) << id;
          ++counts.valuesChecked;
        }
      }
    }
  }
  return counts;
}

class MlirConformance : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo")) {
      GTEST_SKIP() << "no conformance data at " << IDXMAP_CONFORMANCE_DIR;
    }
  }
};

TEST_F(MlirConformance, VerifierCasesParse) {
  Counts counts = checkFile("verifier_cases.jsonl");
  // 68 records, each `mlir` and `test_mlir`; the two duplicated dimension-number fields
  // are parse errors, as in StableHLO.
  EXPECT_EQ(counts.diagnosed, 4);
  EXPECT_EQ(counts.texts, 136 - 4);
  EXPECT_EQ(counts.opsChecked, counts.texts);
}

TEST_F(MlirConformance, InterpretCasesParse) {
  Counts counts = checkFile("interpret_cases.jsonl");
  EXPECT_EQ(counts.texts, 8);
  EXPECT_EQ(counts.opsChecked, 8);
  EXPECT_GE(counts.valuesChecked, 1);
}

TEST_F(MlirConformance, TestdataCasesParse) {
  Counts counts = checkFile("testdata_cases.jsonl");
  EXPECT_EQ(counts.texts, 306 + 37);  // every `mlir`, and the 37 `function_mlir`
  EXPECT_EQ(counts.opsChecked, counts.texts);
}

// The `expected` of interpret cases is what check.expect_eq_const compares against.
TEST_F(MlirConformance, InterpretExpectationsMatchCheckOps) {
  int checked = 0;
  for (const json& record : readRecords("interpret_cases.jsonl")) {
    Module module = parseMlirModule(record["mlir"].get<std::string>(), "interpret");
    const Operation* check = findOp(module, "check.expect_eq_const");
    if (check == nullptr || !record.contains("expected")) continue;
    SCOPED_TRACE(record["id"].get<std::string>());
    ASSERT_EQ(check->operands.size(), 1u);
    std::vector<double> expected;
    flatten(record["expected"], expected);
    EXPECT_EQ(constantValues(*check), expected);
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

// Truncated and corrupted texts give a ParseError or parse; never another exception, a
// crash or a hang. Deterministic: every tenth cut point, and a few bytes swapped for
// characters that matter to the syntax.
TEST_F(MlirConformance, DamagedTextsGiveDiagnosticsOnly) {
  const std::string swaps = "<>[](){}%#:=,\"x?-0^@!";
  int parsed = 0, diagnosed = 0;
  std::vector<std::string> texts;
  for (const char* file : {"verifier_cases.jsonl", "interpret_cases.jsonl"}) {
    for (const json& record : readRecords(file)) {
      texts.push_back(record.value("test_mlir", record["mlir"].get<std::string>()));
    }
  }
  for (const std::string& text : texts) {
    for (size_t cut = 0; cut < text.size(); cut += 3) {
      std::vector<std::string> damaged = {text.substr(0, cut), text};
      damaged[1][cut] = swaps[cut % swaps.size()];
      for (const std::string& input : damaged) {
        try {
          parseMlirModule(input, "damaged.mlir");
          ++parsed;
        } catch (const ParseError&) {
          ++diagnosed;
        }
      }
    }
  }
  EXPECT_GT(diagnosed, 1000);
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace idxmap::mlir_ir
