// Two functions compared as data-movement programs (issue 16): each result element as a Z3
// term over the arguments' elements (verify/programs/term_builder_internal.h), the arguments
// shared by position and uninterpreted, so "no element differs" is decided for every content
// of the index tensors (and of every other argument) at once. Z3 answers with a model when an
// element can differ; that model is only a candidate here — verify/replay runs both functions
// on it before anything is called refuted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/text.h"
#include "ops/mlir/module.h"
#include "verify/programs/float_terms.h"

namespace idxmap::program_terms {

// The two functions cannot be compared as given: argument or result types differ, or an op
// breaks its spec. Located at the second function (types) or at the op (with the spec's label).
class IncomparablePrograms : public LocatedError {
 public:
  using LocatedError::LocatedError;
};

struct ComparedFunction {
  const mlir_ir::Module* module = nullptr;
  const mlir_ir::Function* function = nullptr;
};

struct TermComparison {
  enum class Outcome { kEqual, kDiffer, kUnknown };
  Outcome outcome = Outcome::kUnknown;
  std::string reason;  // kUnknown: why

  // kDiffer: the candidate. Result `result` at `element` can differ when the arguments hold
  // `arguments` (row-major, integers for integer arguments, doubles for float ones: a real
  // rounded to the nearest, an IEEE value exactly; empty for an argument too large to write
  // out).
  size_t result = 0;
  std::vector<int64_t> element;
  std::vector<std::vector<int64_t>> integerArguments;
  std::vector<std::vector<double>> floatArguments;
  std::string first, second;  // the element in each function, described on the candidate

  // What the verdict relies on, in words: the preconditions of ops that define no result for
  // some index values, and the float ops that computed (as the float model says).
  std::vector<std::string> assumptions;
  std::vector<std::string> floatArithmetic;
  // Whether the float model may matter: either function computes on floats (rounding) or
  // reads a constant -0 (a real cannot tell it from +0). Floats that only move compare alike
  // as reals and as IEEE values.
  bool floats = false;
};

struct ComparisonOptions {
  unsigned timeoutMs = 20000;  // per result; past it the answer is unknown
  FloatModel floats = FloatModel::kReals;
};

// Throws IncomparablePrograms (see above). Ops without a term model, and solver timeouts, give
// kUnknown with the reason.
TermComparison compareFunctionTerms(const ComparedFunction& first, const ComparedFunction& second,
                                    const ComparisonOptions& options = {});

// The results of `function` on concrete argument values (row-major, integers as exact
// doubles), computed from its terms alone under the float model `floats`: every argument
// element fixed, each result element evaluated by Z3. What the tests hold against the interpreter,
// so that a term rule that is wrong the same way in both compared functions cannot pass for a
// proof. Nullopt when the values break a precondition (an index out of range for tcp.gather, say).
// Throws UnsupportedProgram (an op without a term model) like the comparison.
std::optional<std::vector<std::vector<double>>> evaluateTerms(
    const ComparedFunction& function, const std::vector<std::vector<double>>& arguments,
    FloatModel floats = FloatModel::kReals);

}  // namespace idxmap::program_terms
