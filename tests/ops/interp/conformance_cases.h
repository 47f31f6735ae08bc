// Reading StableHLO's conformance records (../shared/conformance/stablehlo/*.jsonl): the
// records, and the operand values of a single-op record bound to the op's operand types. Shared
// by the interpreter's and the kernels' conformance tests.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ops/mlir/module.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::conformance_cases {

inline std::string conformancePath(const std::string& name) {
  return std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/" + name;
}

inline bool haveConformanceData(const std::string& name) {
  return std::ifstream(conformancePath(name)).good();
}

inline std::vector<nlohmann::json> readRecords(const std::string& name) {
  std::vector<nlohmann::json> records;
  std::ifstream in(conformancePath(name));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) records.push_back(nlohmann::json::parse(line));
  return records;
}

inline gather_scatter::Tensor tensorOfType(const mlir_ir::Type& type,
                                           const nlohmann::json& values) {
  return gather_scatter::testing::tensorFrom(type.elementType().toString(), type.shape, values);
}

// The values of the op's operands, in operand order, from the record (dynamic_gather's slice
// sizes included).
inline std::vector<gather_scatter::Tensor> boundOperands(const nlohmann::json& record,
                                                         const mlir_ir::Operation& op) {
  std::vector<nlohmann::json> values;
  const std::string kind = record.at("op");
  if (kind == "scatter") {
    for (const nlohmann::json& input : record.at("inputs")) values.push_back(input);
    values.push_back(record.at("indices"));
    values.push_back(record.at("updates"));
  } else {
    values = {record.at("operand"), record.at("indices")};
    if (kind == "dynamic_gather") values.push_back(record.at("slice_sizes"));
  }
  std::vector<gather_scatter::Tensor> operands;
  for (size_t i = 0; i < values.size() && i < op.operandTypes.size(); ++i)
    operands.push_back(tensorOfType(op.operandTypes[i], values[i]));
  return operands;
}

}  // namespace idxmap::conformance_cases
