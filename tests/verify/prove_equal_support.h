// What the prove-equal tests share: reading two functions, the independent check of a proof
// (both functions run by the interpreter on random argument values, results compared element
// by element, both engines) and of a refutation (the printed values parsed back and run).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "ops/interp/interpreter.h"
#include "ops/mlir/module.h"
#include "verify/replay/prove_equal.h"

namespace idxmap::program_equality::testing {

using mlir_interpreter::Engine;
using mlir_interpreter::Tensor;

inline mlir_ir::Module readExample(const std::string& name) {
  std::ifstream file(std::string(IDXMAP_SOURCE_DIR) + "/examples/prove_equal/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return mlir_ir::parseMlirModule(text.str(), name);
}

inline ComparedFunction functionOf(const mlir_ir::Module& module, const std::string& name) {
  const mlir_ir::Function* function = module.function(name);
  if (!function) throw std::runtime_error("no function @" + name);
  return {&module, function};
}

// Integer arguments get values in [lo, hi] (with `unique`, distinct along the last dim's
// vectors: a shuffled run of values, so every index vector differs); float ones quarters.
inline std::vector<Tensor> randomArguments(std::mt19937& rng, const mlir_ir::Function& function,
                                           int64_t lo, int64_t hi, bool unique) {
  std::vector<Tensor> arguments;
  for (const mlir_ir::BlockArgument& argument : function.arguments) {
    Tensor value =
        gather_scatter::zeros(argument.type.elementType().toString(), argument.type.shape);
    for (double& v : value.floats)
      v = static_cast<double>(std::uniform_int_distribution<int>(-40, 40)(rng)) / 4;
    std::vector<int64_t> pool;
    for (int64_t v = lo; v <= hi; ++v) pool.push_back(v);
    std::shuffle(pool.begin(), pool.end(), rng);
    for (size_t k = 0; k < value.ints.size(); ++k)
      value.ints[k] =
          unique ? pool.at(k % pool.size()) : std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    arguments.push_back(std::move(value));
  }
  return arguments;
}

inline bool sameTensors(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].shape != b[i].shape || a[i].ints != b[i].ints || a[i].floats != b[i].floats)
      return false;
  return true;
}

inline std::vector<double> valuesOf(const Tensor& tensor) {
  if (tensor.isFloat()) return tensor.floats;
  return std::vector<double>(tensor.ints.begin(), tensor.ints.end());
}

// The term rules against the interpreter: the function's terms evaluated with the arguments
// fixed give the interpreter's results (the values are small integers and quarters, which
// floats add exactly in any order).
inline void expectTermsComputeTheInterpretersResults(const ComparedFunction& function,
                                                     const std::vector<Tensor>& arguments) {
  std::vector<std::vector<double>> values;
  for (const Tensor& argument : arguments) values.push_back(valuesOf(argument));
  std::optional<std::vector<std::vector<double>>> terms =
      program_terms::evaluateTerms(function, values);
  ASSERT_TRUE(terms.has_value()) << "the arguments break a precondition";
  std::vector<Tensor> results = runFunction(function, arguments, Engine::kReference);
  ASSERT_EQ(terms->size(), results.size());
  for (size_t r = 0; r < results.size(); ++r)
    EXPECT_EQ((*terms)[r], valuesOf(results[r]))
        << "result " << r << " of @" << function.function->name;
}

// A proof, checked by evaluation: `tries` random argument sets give the same results; on the
// first, each function's terms give what the interpreter computes.
inline void expectSameOnRandomArguments(const ComparedFunction& first,
                                        const ComparedFunction& second, int64_t lo, int64_t hi,
                                        bool unique = false, int tries = 100) {
  constexpr int kTermChecks = 1;
  std::mt19937 rng(1234);
  for (int t = 0; t < tries; ++t) {
    std::vector<Tensor> arguments = randomArguments(rng, *first.function, lo, hi, unique);
    if (t < kTermChecks) {
      expectTermsComputeTheInterpretersResults(first, arguments);
      expectTermsComputeTheInterpretersResults(second, arguments);
    }
    for (Engine engine : {Engine::kReference, Engine::kMaps})
      ASSERT_TRUE(sameTensors(runFunction(first, arguments, engine),
                              runFunction(second, arguments, engine)))
          << "try " << t << ": the functions differ on random arguments";
  }
}

// A refutation, checked by evaluation: the printed argument values, parsed back as `idxmap run
// --args` would read them, give different values at the printed element.
inline void expectCounterexampleReplays(const EqualityVerdict& verdict,
                                        const ComparedFunction& first,
                                        const ComparedFunction& second) {
  ASSERT_TRUE(verdict.proof.isRefuted()) << verdict.proof.reason;
  std::string list = "[";
  for (size_t i = 0; i < verdict.arguments.size(); ++i) {
    const ArgumentValue& argument = verdict.arguments[i];
    // Float arguments are printed with their replayed values only in JSON; integers always.
    list += (i ? ", " : "") + std::string("dense<") + argument.value + "> : " + argument.type;
  }
  list += "]";
  std::vector<Tensor> arguments;
  for (const mlir_ir::Attribute& value : mlir_ir::parseMlirValueList(list, "<counterexample>"))
    arguments.push_back(mlir_interpreter::tensorOfDense(*value.dense, value.location, "value"));
  for (Engine engine : {Engine::kReference, Engine::kMaps}) {
    std::vector<Tensor> a = runFunction(first, arguments, engine);
    std::vector<Tensor> b = runFunction(second, arguments, engine);
    const Tensor &x = a.at(verdict.result), &y = b.at(verdict.result);
    int64_t position = linearPosition(x.shape, verdict.element);
    if (x.isFloat()) {  // bit for bit: -0 is not +0, and any two NaNs are alike
      double u = x.floats.at(position), v = y.floats.at(position);
      EXPECT_FALSE((u == v && std::signbit(u) == std::signbit(v)) ||
                   (std::isnan(u) && std::isnan(v)))
          << u << " and " << v;
    } else
      EXPECT_NE(x.ints.at(position), y.ints.at(position));
  }
}

}  // namespace idxmap::program_equality::testing
