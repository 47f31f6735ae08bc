// What the interpreter's tests share: running `@main` of a program, tensors written inline,
// and the diagnostic a program the interpreter must refuse gives.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/interp/interpreter.h"

namespace idxmap::mlir_interpreter {

using gather_scatter::Tensor;

// Runs `@main` of `text` and returns what it returns.
inline std::vector<Tensor> runMain(const std::string& text, Engine engine = Engine::kReference) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "test.mlir");
  Interpreter interpreter(module, engine);
  return interpreter.call(*module.function("main"), {});
}

// `@main` returning one tensor of `type`, its body `body` ending in a value `%r`.
inline Tensor runBody(const std::string& body, const std::string& type,
                      Engine engine = Engine::kReference) {
  std::string text =
      "func.func @main() -> " + type + " {\n" + body + "\n  func.return %r : " + type + "\n}\n";
  std::vector<Tensor> results = runMain(text, engine);
  EXPECT_EQ(results.size(), 1u);
  return results.at(0);
}

inline Tensor ints(const std::string& type, std::vector<int64_t> shape,
                   std::vector<int64_t> values) {
  return Tensor{type, std::move(shape), std::move(values), {}};
}

inline Tensor floats(const std::string& type, std::vector<int64_t> shape,
                     std::vector<double> values) {
  return Tensor{type, std::move(shape), {}, std::move(values)};
}

// The diagnostic running `text` gives (the test fails if it gives none).
inline InterpretError errorOf(const std::string& text) {
  try {
    runMain(text);
  } catch (const InterpretError& error) {
    return error;
  }
  ADD_FAILURE() << "no diagnostic for:\n" << text;
  return InterpretError({}, "");
}

}  // namespace idxmap::mlir_interpreter
