// What the rule proofs share (rule_proof_test: constants on a grid; rule_universal_proof_test:
// constants symbolic): a side condition's comparison as a Z3 formula, and a solver's answer to
// "the two sides differ" as the tests report it.
#pragma once

#include <z3++.h>

#include <sstream>
#include <string>

#include "simplifier/rule.h"

namespace idxmap::rule_proofs {

// a <comparison> b, with `lessEqual` and `less` the order of the terms' sort (signed
// bit-vector or integer comparison).
template <class LessEqual, class Less>
z3::expr compared(Comparison comparison, const z3::expr& a, const z3::expr& b, LessEqual lessEqual,
                  Less less) {
  switch (comparison) {
    case Comparison::Eq:
      return a == b;
    case Comparison::Ne:
      return a != b;
    case Comparison::Lt:
      return less(a, b);
    case Comparison::Le:
      return lessEqual(a, b);
    case Comparison::Gt:
      return less(b, a);
    case Comparison::Ge:
      return lessEqual(b, a);
  }
  return a.ctx().bool_val(false);
}

// "" when the solver's assertions (a rule's sides differ) are unsatisfiable, "refuted: <model>"
// when they are satisfiable, "unknown: <why>" otherwise.
inline std::string proofVerdict(z3::solver& solver) {
  switch (solver.check()) {
    case z3::unsat:
      return "";
    case z3::sat: {
      std::ostringstream model;
      model << solver.get_model();
      return "refuted: " + model.str();
    }
    default:
      return "unknown: " + solver.reason_unknown();
  }
}

}  // namespace idxmap::rule_proofs
