#include "simplifier/digits.h"

#include <optional>

#include "core/checked.h"

namespace idxmap {
namespace {

constexpr int64_t kNoModulus = 0;  // b = ∞

struct Digit {
  Expr base;
  int64_t divisor = 1;           // a
  int64_t modulus = kNoModulus;  // b
};

// The digit an atom is, when it is one: `x mod b`, `x floordiv a`, `(x floordiv a) mod b`.
std::optional<Digit> digitOf(Expr atom) {
  if (atom.kind() == ExprKind::FloorDiv) return Digit{atom.lhs(), atom.rhs().constantValue()};
  if (atom.kind() != ExprKind::Mod) return std::nullopt;
  const int64_t modulus = atom.rhs().constantValue();
  Expr inner = atom.lhs();
  if (inner.kind() == ExprKind::FloorDiv)
    return Digit{inner.lhs(), inner.rhs().constantValue(), modulus};
  return Digit{inner, 1, modulus};
}

Expr build(const Digit& d) {
  Expr value = d.divisor == 1 ? d.base : d.base.floorDiv(d.divisor);
  return d.modulus == kNoModulus ? value : value.mod(d.modulus);
}

// c * low + c * b * high = c * merged, when high is the digit right above low.
std::optional<Digit> merged(const Digit& low, int64_t lowCoefficient, const Digit& high,
                            int64_t highCoefficient) {
  if (low.base != high.base || low.modulus == kNoModulus) return std::nullopt;
  int64_t next = 0, scaled = 0, width = 0;
  if (__builtin_mul_overflow(low.divisor, low.modulus, &next) || next != high.divisor ||
      __builtin_mul_overflow(lowCoefficient, low.modulus, &scaled) || scaled != highCoefficient)
    return std::nullopt;
  if (high.modulus == kNoModulus) return Digit{low.base, low.divisor, kNoModulus};
  if (__builtin_mul_overflow(low.modulus, high.modulus, &width)) return std::nullopt;
  return Digit{low.base, low.divisor, width};
}

bool allNegative(const LinearForm& form) {
  if (form.terms.empty()) return false;
  for (const LinearTerm& t : form.terms)
    if (t.coefficient >= 0) return false;
  return true;
}

}  // namespace

LinearForm mergeDigits(const LinearForm& sum) {
  LinearForm out = sum;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < out.terms.size() && !changed; ++i) {
      std::optional<Digit> low = digitOf(out.terms[i].atom);
      if (!low) continue;
      for (size_t j = 0; j < out.terms.size() && !changed; ++j) {
        if (i == j) continue;
        std::optional<Digit> high = digitOf(out.terms[j].atom);
        if (!high) continue;
        std::optional<Digit> wide =
            merged(*low, out.terms[i].coefficient, *high, out.terms[j].coefficient);
        if (!wide) continue;
        out.terms[i].atom = build(*wide);
        out.terms.erase(out.terms.begin() + static_cast<long>(j));
        changed = true;
      }
    }
  }
  // A merged digit may equal another term's atom: combine like terms again.
  return out.terms.size() == sum.terms.size() ? sum : LinearForm::of(out.build());
}

bool flipNegatedDigits(LinearForm& sum) {
  bool flipped = false;
  for (LinearTerm& t : sum.terms) {
    std::optional<Digit> digit = digitOf(t.atom);
    if (!digit || !allNegative(LinearForm::of(digit->base))) continue;
    // y = -x - 1 has every coefficient positive; x floordiv a = -(y floordiv a) - 1, so
    // c * D(x, a, b) = c * (b - 1) - c * D(y, a, b), and c * D(x, a, ∞) = -c - c * D(y, a, ∞).
    Digit flippedDigit = *digit;
    flippedDigit.base = LinearForm::of(-digit->base - 1).build();
    const int64_t offset = digit->modulus == kNoModulus ? -1 : digit->modulus - 1;
    sum.constant = checkedAdd(sum.constant, checkedMul(t.coefficient, offset));
    t.atom = build(flippedDigit);
    t.coefficient = checkedNeg(t.coefficient);
    flipped = true;
  }
  return flipped;
}

}  // namespace idxmap
