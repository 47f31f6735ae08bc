// Sums as mixed-radix digits (TVM's iter-map idea, restricted to what sums of one base need).
//
// A digit of an expression x is D(x, a, b) = (x floordiv a) mod b, with a >= 1 and b >= 2 or
// b = ∞ (no mod): `x mod b` is D(x, 1, b), `x floordiv a` is D(x, a, ∞). Reshape chains write
// their indices as sums of such digits, and two facts make those sums small again:
//
//   merge:  c * D(x, a, b) + c * b * D(x, a * b, b') = c * D(x, a, b * b')   (b' may be ∞)
//           adjacent digits of one base are one wider digit;
//   flip:   D(x, a, b) with every coefficient of x negative (a reversed dim) is
//           b - 1 - D(-x - 1, a, b), and x floordiv a is -((-x - 1) floordiv a) - 1:
//           the base with positive coefficients, where it meets the other digits of it.
//
// Digits are matched in the forms reshapes, bitcasts and strided slices write them:
//
//   folded:    D(y + L floordiv a, lo, b) = D(a * y + L, a * lo, b)   (a partial quotient)
//   shifted:   D(x, lo, b) = D(x', lo, b) when lo * b divides every coefficient of x - x'
//   destrided: D(g * y + r, g * lo, b) = D(y, lo, b) for 0 <= r < g, and read backwards
//              (restrided) where the digit below is over g * y + r (modulo its span)
//   sub-is-mod: c * D(x, a, ∞) - c * b * D(x, a * b, ∞) = c * D(x, a, b), and
//              c * x - c * a * D(x, a, ∞) = c * D(x, 1, a) where the sum holds c * x term by
//              term (a shifted sum: `d0 + 1 - ((s0 + 1) floordiv 3) * 3 + s0`)
//
// All are identities over all integers: simplifier/proofs/digits.v proves each for every value
// (Coq); tests/simplifier/digit_proof_test.cpp proves with Z3 that the sums this code returns
// equal the sums it was given, on a grid of a, b, b' and on generated sums of every form.
// The rewriter applies them to each sum, as written and after its atoms are rewritten (a
// rewritten digit may no longer show its base), keeping whichever costs less.
#pragma once

#include "simplifier/linear_form.h"

namespace idxmap {

// The sum with adjacent digits of one base merged, to a fixed point. Unchanged when nothing
// merges.
LinearForm mergeDigits(const LinearForm& sum);

// The sum with each mod / floordiv term whose dividend has only negative coefficients flipped
// to its positive base; whether anything was flipped.
bool flipNegatedDigits(LinearForm& sum);

}  // namespace idxmap
