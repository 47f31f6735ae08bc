// What the verify tests read from `idxmap verify --json`.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {

// Unique, sorted and in bounds of the first op ("none" where the op has no such property).
inline std::vector<std::string> verdicts(const CliResult& result) {
  nlohmann::json records = nlohmann::json::parse(result.out);
  const nlohmann::json& properties = records.at(0).at("properties");
  std::vector<std::string> out;
  for (const char* name : {"unique", "sorted", "in_bounds"}) {
    const nlohmann::json& property = properties.value(name, nlohmann::json());
    out.push_back(property.is_object() ? property.value("verdict", "none") : "none");
  }
  return out;
}

}  // namespace idxmap::cli_test
