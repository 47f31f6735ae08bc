// Inside verify/programs: a model Z3 found where two functions' terms differ, written out as
// a candidate counterexample — the arguments' values (the replay in verify/replay runs them)
// and each function's element in words, on the model.
#pragma once

#include <z3++.h>

#include <optional>
#include <vector>

#include "verify/programs/function_terms.h"
#include "verify/programs/term_builder_internal.h"

namespace idxmap::program_terms {

// Arguments written out in a candidate, at most this many elements each.
constexpr int64_t kMaxWrittenElements = int64_t{1} << 16;

// The element count of `shape`, or kMaxWrittenElements + 1 when it is larger.
int64_t cappedElementCount(const std::vector<int64_t>& shape);

// Calls visit(the argument's term at one element) for every element of `argument`, row-major.
template <typename Visit>
void forEachElement(z3::context& z, const ArgumentTerm& argument, Visit&& visit) {
  if (cappedElementCount(argument.shape) == 0) return;
  std::vector<int64_t> index(argument.shape.size(), 0);
  do {
    z3::expr_vector args(z);
    for (int64_t entry : index) args.push_back(z.int_val(entry));
    visit(argument.function(args));
  } while (nextIndex(argument.shape, index));
}

// Fills `out`'s arguments, first and second from `model`, where `terms` are the two functions'
// elements. `onlyFloatsRead`: float elements the terms do not read are written as 0.
void writeCandidate(z3::model& model, const std::vector<ArgumentTerm>& arguments,
                    TermBuilder& builder, const std::vector<z3::expr>& terms, bool onlyFloatsRead,
                    TermComparison& out);

// A model with many integer argument elements 0, so that the elements that matter stand out
// in a counterexample: every element is assumed 0, and one assumption of each unsat core is
// dropped until the rest is satisfiable (not the fewest non-zero elements, but few). Nullopt
// when the arguments are too large, the solver gives up, or it takes more than kMaxRounds.
std::optional<z3::model> preferZeros(z3::context& z, z3::solver& solver,
                                     const std::vector<ArgumentTerm>& arguments);

}  // namespace idxmap::program_terms
