// What the MLIR reader's tests share: the ops of a parsed module, types as text, and the
// diagnostic a malformed text gives.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/mlir/module.h"

namespace idxmap::mlir_ir {

inline const Operation& onlyOp(const Module& module) {
  EXPECT_EQ(module.operations.size(), 1u);
  return module.operations.at(0);
}

inline const std::vector<Operation>& bodyOps(const Module& module, size_t function = 0) {
  return module.functions.at(function).body.blocks.at(0).operations;
}

inline std::vector<std::string> typeStrings(const std::vector<Type>& types) {
  std::vector<std::string> strings;
  for (const Type& type : types) strings.push_back(type.toString());
  return strings;
}

// The diagnostic parseMlirModule gives for `text` (the test fails if it gives none).
inline ParseError diagnosticOf(const std::string& text) {
  try {
    parseMlirModule(text, "bad.mlir");
  } catch (const ParseError& error) {
    return error;
  }
  ADD_FAILURE() << "no diagnostic for:\n" << text;
  return ParseError({}, "", "");
}

}  // namespace idxmap::mlir_ir
