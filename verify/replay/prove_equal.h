// `idxmap prove-equal`: two functions proven to compute the same results for every content of
// their arguments (verify/programs/function_terms.h), or refuted with argument values on which
// the interpreter, run with both engines (the spec's formulas and the indexing maps), gives
// different results — a counterexample that does not replay is "unknown", never "refuted".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/verdict.h"
#include "ops/interp/interpreter.h"
#include "verify/programs/function_terms.h"

namespace idxmap::program_equality {

using program_terms::ComparedFunction;
using program_terms::ComparisonOptions;

struct ArgumentValue {
  std::string name;   // "%indices"
  std::string type;   // "tensor<2xi64>"
  std::string value;  // its elements as the interpreter prints them, `[[0, 2], [1, 0]]`
  bool shown = true;  // integer arguments are shown; float ones are "arbitrary"
};

struct EqualityVerdict {
  ProofResult proof;                     // proven (z3) / refuted (z3, replayed) / unknown (reason)
  std::vector<std::string> assumptions;  // preconditions relied on, in words
  // Equal over the reals: the float ops compared as arithmetic on reals (rounding not modeled).
  std::vector<std::string> realArithmetic;
  // Proven or refuted bit-exactly: the float ops that computed, as IEEE-754 arithmetic (round
  // to nearest even) or as one uninterpreted rounding function each (equal under any).
  std::vector<std::string> ieeeArithmetic;
  // Refuted: the arguments of the counterexample, the result element and what it is in each
  // function (described, and the values both runs computed there).
  std::vector<ArgumentValue> arguments;
  size_t result = 0;
  std::vector<int64_t> element;
  std::string first, second;
  std::string firstValue, secondValue;
  std::string floatValues;  // which float argument values replayed it, in words
};

// Throws program_terms::IncomparablePrograms for functions that cannot be compared.
EqualityVerdict proveEqual(const ComparedFunction& first, const ComparedFunction& second,
                           const ComparisonOptions& options = {});

// What the function returns on `arguments`, gather and scatter computed by `engine` (the
// replay runs both engines; tests cross-check proofs with it). InterpretError propagates.
std::vector<mlir_interpreter::Tensor> runFunction(
    const ComparedFunction& function, const std::vector<mlir_interpreter::Tensor>& arguments,
    mlir_interpreter::Engine engine);

}  // namespace idxmap::program_equality
