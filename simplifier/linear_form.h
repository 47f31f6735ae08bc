// LinearForm: a sum as a list of (atom, coefficient) terms plus a constant.
//
// Atoms are the non-linear leaves of a sum: variables, mod, floordiv, ceildiv, min, max.
// Linearizing flattens nested sums, distributes constant products over them and combines
// like terms; building sorts the terms into the one canonical order, so two expressions
// that are equal as linear combinations become the same Expr.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>

#include "core/expr.h"

namespace idxmap {

struct LinearTerm {
  Expr atom;
  int64_t coefficient;
};

struct LinearForm {
  // No zero coefficients, no repeated atoms. Sums in maps are short: keep them inline.
  boost::container::small_vector<LinearTerm, 8> terms;
  int64_t constant = 0;

  // Throws OverflowError when a coefficient does not fit int64.
  static LinearForm of(Expr e);
  // The canonical Expr: terms sorted (products first, then by atom kind and operands),
  // the constant last.
  Expr build() const;
  // The terms in the order build() writes them (and so LinearForm::of(build()) leaves them).
  void sortTerms();
  // gcd of all coefficients (0 when there are none).
  int64_t coefficientGcd() const;
  // Term by term, in order: two forms of one sum are equal when their terms are in one order
  // (as LinearForm::of leaves those of one Expr).
  bool operator==(const LinearForm& other) const;
};

// Total order on expressions that does not depend on pointers (so output is deterministic).
int compareExprs(Expr a, Expr b);

}  // namespace idxmap
