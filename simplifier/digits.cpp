#include "simplifier/digits.h"

#include <algorithm>
#include <climits>
#include <deque>
#include <numeric>
#include <optional>
#include <vector>

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

// The smaller of two bases of one digit: fewer terms, then smaller coefficients.
bool simpler(Expr a, Expr b) {
  auto weight = [](Expr e) {
    LinearForm form = LinearForm::of(e);
    __int128 total = static_cast<__int128>(form.terms.size()) << 64;
    for (const LinearTerm& t : form.terms)
      total += t.coefficient < 0 ? -static_cast<__int128>(t.coefficient) : t.coefficient;
    return total;
  };
  return weight(a) < weight(b);
}

// The digit with the floordiv its base holds folded in: y + L floordiv a is (a * y + L) floordiv
// a, and (z floordiv a) floordiv lo is z floordiv (a * lo), so D(y + L floordiv a, lo, b) is
// D(a * y + L, a * lo, b): digits written over a partial quotient (a reshape's
// `d1 * 2 + d0 floordiv 64`) meet the digits of the whole. Nullopt when nothing folds or a
// product leaves int64.
std::optional<Digit> folded(Digit d) {
  bool changed = false;
  for (int step = 0; step < 4; ++step) {
    LinearForm base = LinearForm::of(d.base);
    const LinearTerm* quotient = nullptr;
    for (const LinearTerm& t : base.terms)
      if (t.coefficient == 1 && t.atom.kind() == ExprKind::FloorDiv) {
        if (quotient) return changed ? std::optional<Digit>(d) : std::nullopt;  // two: ambiguous
        quotient = &t;
      }
    if (!quotient) break;
    const int64_t a = quotient->atom.rhs().constantValue();
    int64_t divisor = 0;
    if (__builtin_mul_overflow(d.divisor, a, &divisor)) return std::nullopt;
    Expr rest = d.base - quotient->atom;
    d = Digit{LinearForm::of(rest * a + quotient->atom.lhs()).build(), divisor, d.modulus};
    changed = true;
  }
  return changed ? std::optional<Digit>(d) : std::nullopt;
}

// The digit of a strided base: x = g * y + r with g dividing every coefficient of x and lo,
// and 0 <= r < g, gives floor(x / lo) = floor((y + r / g) / (lo / g)) = floor(y / (lo / g)), so
// D(x, lo, b) = D(y, lo / g, b) (a strided slice's `(d0 * 3 + 38) floordiv 60` is
// `(d0 + 12) floordiv 20`). Nullopt when no such g > 1 exists.
std::optional<Digit> destrided(const Digit& d) {
  LinearForm base = LinearForm::of(d.base);
  for (const LinearTerm& t : base.terms)
    if (t.coefficient == INT64_MIN) return std::nullopt;  // no |coefficient| in int64
  const int64_t g = std::gcd(base.coefficientGcd(), d.divisor);
  if (g <= 1 || base.terms.empty()) return std::nullopt;
  const int64_t remainder = ((base.constant % g) + g) % g;
  int64_t multiple = 0;
  if (__builtin_sub_overflow(base.constant, remainder, &multiple)) return std::nullopt;
  for (LinearTerm& t : base.terms) t.coefficient /= g;
  base.constant = multiple / g;
  return Digit{base.build(), d.divisor / g, d.modulus};
}

// Whether D(x, lo, b) = D(y, lo, b): a finite digit reads x only modulo lo * b, so it is the
// same digit of any base that differs from x by a multiple of lo * b in every coefficient and
// the constant (a reshape's `d0 mod 64` is a digit of d1 * 128 + d0 too).
bool sameDigit(const Digit& d, Expr other) {
  if (d.modulus == kNoModulus) return d.base == other;
  int64_t span = 0;
  if (__builtin_mul_overflow(d.divisor, d.modulus, &span)) return false;
  try {
    LinearForm difference = LinearForm::of(d.base - other);
    if (difference.constant % span != 0) return false;
    for (const LinearTerm& t : difference.terms)
      if (t.coefficient % span != 0) return false;
    return true;
  } catch (const OverflowError&) {
    return false;
  }
}

// The high digit over the low one's base, when it is written over a coarser one: x = g * y + r
// with 0 <= r < g gives D(y, a, b) = D(x, g * a, b) (destrided, read backwards), and the low
// digit reads its base only modulo its span lo * b, so any x equal to it there serves. A
// strided reshape's `(d0 * 10 + d1 + 1) floordiv 16` is the digit above `(d0 * 30 + d1 * 3 + 4)
// mod 48`: x = 3 * y + 1. Nullopt when the spans do not line up or no such x exists.
std::optional<Digit> restrided(const Digit& high, const Digit& low) {
  int64_t span = 0;
  if (low.modulus == kNoModulus || __builtin_mul_overflow(low.divisor, low.modulus, &span) ||
      span <= high.divisor || span % high.divisor != 0)
    return std::nullopt;
  const int64_t g = span / high.divisor;
  try {
    LinearForm strided = LinearForm::of(high.base * g);
    LinearForm difference = LinearForm::of(low.base - strided.build());
    for (const LinearTerm& t : difference.terms)
      if (t.coefficient % span != 0) return std::nullopt;
    const int64_t r = ((difference.constant % span) + span) % span;
    if (r >= g) return std::nullopt;
    strided.constant = checkedAdd(strided.constant, r);
    return Digit{strided.build(), span, high.modulus};
  } catch (const OverflowError&) {
    return std::nullopt;
  }
}

// c * low + c * b * high = c * merged, when high is the digit right above low (b' may be ∞):
// `merge` in digits.h. And c * D(x, a, ∞) - c * b * D(x, a * b, ∞) = c * D(x, a, b), the
// floordiv's remainder written as a difference (`sub-is-mod`).
std::optional<Digit> merged(const Digit& low, int64_t lowCoefficient, Digit high,
                            int64_t highCoefficient) {
  if (low.modulus == kNoModulus) {
    if (high.modulus != kNoModulus || low.base != high.base || high.divisor <= low.divisor ||
        high.divisor % low.divisor != 0)
      return std::nullopt;
    const int64_t width = high.divisor / low.divisor;
    int64_t scaled = 0;
    if (__builtin_mul_overflow(lowCoefficient, -width, &scaled) || scaled != highCoefficient)
      return std::nullopt;
    return Digit{low.base, low.divisor, width};
  }
  int64_t next = 0, scaled = 0, width = 0;
  // The coefficients first: they rule out most pairs before any base is built.
  if (__builtin_mul_overflow(lowCoefficient, low.modulus, &scaled) || scaled != highCoefficient)
    return std::nullopt;
  if (std::optional<Digit> over = restrided(high, low)) high = *over;
  if (__builtin_mul_overflow(low.divisor, low.modulus, &next) || next != high.divisor)
    return std::nullopt;
  // One base for both: the high digit's when the low digit is also a digit of it, or the low
  // one's when the high digit is finite and a digit of it; the simpler where both are.
  Expr base = high.base;
  if (low.base != high.base) {
    const bool onHigh = sameDigit(low, high.base), onLow = sameDigit(high, low.base);
    if (!onHigh && !onLow) return std::nullopt;
    if (onLow && (!onHigh || simpler(low.base, high.base))) base = low.base;
  }
  if (high.modulus == kNoModulus) return Digit{base, low.divisor, kNoModulus};
  if (__builtin_mul_overflow(low.modulus, high.modulus, &width)) return std::nullopt;
  return Digit{base, low.divisor, width};
}

// The digits an atom can be matched as: as written, with its base's floordiv folded in, and
// each of those destrided.
std::vector<Digit> digitsOf(Expr atom) {
  std::vector<Digit> out;
  if (std::optional<Digit> d = digitOf(atom)) {
    out.push_back(*d);
    try {
      if (std::optional<Digit> f = folded(*d)) out.push_back(*f);
      for (size_t i = 0, n = out.size(); i < n; ++i)
        if (std::optional<Digit> unstrided = destrided(out[i])) out.push_back(*unstrided);
    } catch (const OverflowError&) {
      // a folded base left int64: the forms found so far are all there is
    }
  }
  return out;
}

// c * x - c * a * (x floordiv a) = c * (x mod a), where the sum holds c * x term by term (x a
// shifted sum: `d0 + 1 - ((s0 + 1) floordiv 3) * 3 + s0` is `(s0 + 1) mod 3 + d0`). The sum with
// the first such pair replaced; nullopt when there is none.
std::optional<LinearForm> wholeMinusQuotient(const LinearForm& sum) {
  for (size_t j = 0; j < sum.terms.size(); ++j) {
    std::optional<Digit> quotient = digitOf(sum.terms[j].atom);
    if (!quotient || quotient->modulus != kNoModulus || quotient->divisor < 2 ||
        sum.terms[j].coefficient % quotient->divisor != 0)
      continue;
    const int64_t c = -(sum.terms[j].coefficient / quotient->divisor);
    LinearForm x = LinearForm::of(quotient->base);
    LinearForm rest = sum;
    bool holds = !x.terms.empty();
    for (const LinearTerm& t : x.terms) {
      auto found = std::find_if(rest.terms.begin(), rest.terms.end(),
                                [&](const LinearTerm& u) { return u.atom == t.atom; });
      int64_t expected = 0;
      holds = holds && found != rest.terms.end() && found->atom != sum.terms[j].atom &&
              !__builtin_mul_overflow(c, t.coefficient, &expected) &&
              found->coefficient == expected;
      if (!holds) break;
      rest.terms.erase(found);
    }
    int64_t shift = 0;
    if (!holds || __builtin_mul_overflow(c, x.constant, &shift)) continue;
    rest.constant = checkedAdd(rest.constant, checkedNeg(shift));
    for (LinearTerm& t : rest.terms)
      if (t.atom == sum.terms[j].atom) {
        t.atom = build(Digit{quotient->base, 1, quotient->divisor});
        t.coefficient = c;
      }
    return rest;
  }
  return std::nullopt;
}

bool allNegative(const LinearForm& form) {
  if (form.terms.empty()) return false;
  for (const LinearTerm& t : form.terms)
    if (t.coefficient >= 0) return false;
  return true;
}

}  // namespace

LinearForm mergeDigits(const LinearForm& sum) {
  // Two digits merge, or one quotient meets its base's terms: nothing to do with fewer.
  size_t digitAtoms = 0, quotients = 0;
  for (const LinearTerm& t : sum.terms) {
    digitAtoms += t.atom.kind() == ExprKind::Mod || t.atom.kind() == ExprKind::FloorDiv;
    quotients += t.atom.kind() == ExprKind::FloorDiv;
  }
  if (digitAtoms < 2 && (quotients == 0 || sum.terms.size() < 2)) return sum;
  LinearForm out = sum;
  bool any = false;
  // Each atom's digits, computed once per call: a round after a merge meets the same atoms but
  // one.
  std::deque<std::pair<Expr, std::vector<Digit>>> known;  // a deque: references stay valid
  auto digitsOfAtom = [&](Expr atom) -> const std::vector<Digit>& {
    for (const auto& [seen, digits] : known)
      if (seen == atom) return digits;
    return known.emplace_back(atom, digitsOf(atom)).second;
  };
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<const std::vector<Digit>*> digits;  // each term's
    size_t atoms = 0;
    for (const LinearTerm& t : out.terms) {
      digits.push_back(&digitsOfAtom(t.atom));
      atoms += !digits.back()->empty();
    }
    if (atoms == 0) break;
    for (size_t i = 0; i < out.terms.size() && !changed && atoms > 1; ++i) {
      for (const Digit& low : *digits[i]) {
        for (size_t j = 0; j < out.terms.size() && !changed; ++j) {
          if (i == j) continue;
          for (const Digit& high : *digits[j]) {
            std::optional<Digit> wide =
                merged(low, out.terms[i].coefficient, high, out.terms[j].coefficient);
            if (!wide) continue;
            out.terms[i].atom = build(*wide);
            out.terms.erase(out.terms.begin() + static_cast<long>(j));
            changed = true;
            break;
          }
        }
        if (changed) break;
      }
    }
    if (!changed) {
      try {
        if (std::optional<LinearForm> rest = wholeMinusQuotient(out)) {
          out = *rest;
          changed = true;
        }
      } catch (const OverflowError&) {
        // a shifted constant left int64: keep the sum as it is
      }
    }
    // A merged digit may equal another term's atom, or be its whole base: linearize again.
    if (changed) {
      out = LinearForm::of(out.build());
      any = true;
    }
  }
  return any ? out : sum;
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
