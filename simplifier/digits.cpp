#include "simplifier/digits.h"

#include <algorithm>
#include <climits>
#include <numeric>
#include <optional>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "core/checked.h"

namespace idxmap {
namespace {

constexpr int64_t kNoModulus = 0;  // b = ∞

// Bases are held as linear forms, not Exprs: matching digits compares, scales, shifts and
// subtracts bases many times per sum, and building an Expr for each step (then linearizing it
// again) was a third of the merging's instructions. A base's terms are kept in node order, so two
// bases equal as sums are equal forms however they were written; an Expr is built only for a digit
// that goes into the result.
void order(LinearForm& form) {
  std::sort(form.terms.begin(), form.terms.end(),
            [](const LinearTerm& a, const LinearTerm& b) { return a.atom.node() < b.atom.node(); });
}

// k * x (k != 0; the atoms, and so their order, are unchanged). Throws OverflowError.
LinearForm scaled(LinearForm x, int64_t k) {
  for (LinearTerm& t : x.terms) t.coefficient = checkedMul(t.coefficient, k);
  x.constant = checkedMul(x.constant, k);
  return x;
}

// into + x, like terms combined. Throws OverflowError.
void addTo(LinearForm& into, const LinearForm& x) {
  for (const LinearTerm& t : x.terms) {
    auto it = std::find_if(into.terms.begin(), into.terms.end(),
                           [&](const LinearTerm& u) { return u.atom == t.atom; });
    if (it == into.terms.end())
      into.terms.push_back(t);
    else
      it->coefficient = checkedAdd(it->coefficient, t.coefficient);
  }
  into.constant = checkedAdd(into.constant, x.constant);
  into.terms.erase(std::remove_if(into.terms.begin(), into.terms.end(),
                                  [](const LinearTerm& t) { return t.coefficient == 0; }),
                   into.terms.end());
}

// (x - k * y) mod span, when span divides every coefficient of x - k * y: x and k * y then
// differ by a multiple of span plus that constant. Nullopt otherwise. Exact (128-bit).
std::optional<int64_t> residueOfDifference(const LinearForm& x, const LinearForm& y, int64_t k,
                                           int64_t span) {
  auto coefficientIn = [](const LinearForm& form, Expr atom) -> __int128 {
    for (const LinearTerm& t : form.terms)
      if (t.atom == atom) return t.coefficient;
    return 0;
  };
  for (const LinearTerm& t : x.terms)
    if ((t.coefficient - static_cast<__int128>(k) * coefficientIn(y, t.atom)) % span != 0)
      return std::nullopt;
  for (const LinearTerm& t : y.terms)
    if (coefficientIn(x, t.atom) == 0 && static_cast<__int128>(k) * t.coefficient % span != 0)
      return std::nullopt;
  __int128 r = (x.constant - static_cast<__int128>(k) * y.constant) % span;
  return static_cast<int64_t>(r < 0 ? r + span : r);
}

struct Digit {
  LinearForm base;               // x, in node order
  int64_t divisor = 1;           // a
  int64_t modulus = kNoModulus;  // b
};

// The forms one atom can be matched as (digitsOf): most atoms have one or two.
using DigitForms = boost::container::small_vector<Digit, 2>;

// The digit an atom is, when it is one: `x mod b`, `x floordiv a`, `(x floordiv a) mod b`.
// Throws OverflowError when x has no linear form in int64.
std::optional<Digit> digitOf(Expr atom) {
  // One Digit built in place and returned as is: digits are matched by the thousand, and each
  // moved form copies its terms.
  std::optional<Digit> digit;
  Expr base;
  if (atom.kind() == ExprKind::FloorDiv) {
    base = atom.lhs();
    digit.emplace().divisor = atom.rhs().constantValue();
  } else if (atom.kind() == ExprKind::Mod) {
    digit.emplace().modulus = atom.rhs().constantValue();
    base = atom.lhs();
    if (base.kind() == ExprKind::FloorDiv) {
      digit->divisor = base.rhs().constantValue();
      base = base.lhs();
    }
  } else {
    return digit;
  }
  digit->base = LinearForm::of(base);
  order(digit->base);
  return digit;
}

Expr build(const Digit& d) {
  Expr base = d.base.build();
  Expr value = d.divisor == 1 ? base : base.floorDiv(d.divisor);
  return d.modulus == kNoModulus ? value : value.mod(d.modulus);
}

// The smaller of two bases of one digit: fewer terms, then smaller coefficients.
bool simpler(const LinearForm& a, const LinearForm& b) {
  auto weight = [](const LinearForm& form) {
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
// `d1 * 2 + d0 floordiv 64`) meet the digits of the whole. Nullopt when nothing folds; throws
// OverflowError when a product leaves int64.
std::optional<Digit> folded(Digit d) {
  bool changed = false;
  for (int step = 0; step < 4; ++step) {
    const LinearTerm* quotient = nullptr;
    for (const LinearTerm& t : d.base.terms)
      if (t.coefficient == 1 && t.atom.kind() == ExprKind::FloorDiv) {
        if (quotient) return changed ? std::optional<Digit>(d) : std::nullopt;  // two: ambiguous
        quotient = &t;
      }
    if (!quotient) break;
    const Expr atom = quotient->atom;
    const int64_t a = atom.rhs().constantValue();
    int64_t divisor = 0;
    if (__builtin_mul_overflow(d.divisor, a, &divisor)) return std::nullopt;
    LinearForm rest = d.base;
    rest.terms.erase(rest.terms.begin() + (quotient - d.base.terms.data()));
    LinearForm base = scaled(std::move(rest), a);
    addTo(base, LinearForm::of(atom.lhs()));
    order(base);
    d = Digit{std::move(base), divisor, d.modulus};
    changed = true;
  }
  return changed ? std::optional<Digit>(d) : std::nullopt;
}

// The digit of a strided base: x = g * y + r with g dividing every coefficient of x and lo,
// and 0 <= r < g, gives floor(x / lo) = floor((y + r / g) / (lo / g)) = floor(y / (lo / g)), so
// D(x, lo, b) = D(y, lo / g, b) (a strided slice's `(d0 * 3 + 38) floordiv 60` is
// `(d0 + 12) floordiv 20`). Nullopt when no such g > 1 exists.
std::optional<Digit> destrided(const Digit& d) {
  for (const LinearTerm& t : d.base.terms)
    if (t.coefficient == INT64_MIN) return std::nullopt;  // no |coefficient| in int64
  const int64_t g = std::gcd(d.base.coefficientGcd(), d.divisor);
  if (g <= 1 || d.base.terms.empty()) return std::nullopt;
  const int64_t remainder = ((d.base.constant % g) + g) % g;
  int64_t multiple = 0;
  if (__builtin_sub_overflow(d.base.constant, remainder, &multiple)) return std::nullopt;
  Digit out{d.base, d.divisor / g, d.modulus};
  for (LinearTerm& t : out.base.terms) t.coefficient /= g;
  out.base.constant = multiple / g;
  return out;
}

// Whether D(x, lo, b) = D(y, lo, b): a finite digit reads x only modulo lo * b, so it is the
// same digit of any base that differs from x by a multiple of lo * b in every coefficient and
// the constant (a reshape's `d0 mod 64` is a digit of d1 * 128 + d0 too).
bool sameDigit(const Digit& d, const LinearForm& other) {
  if (d.modulus == kNoModulus) return d.base == other;
  int64_t span = 0;
  if (__builtin_mul_overflow(d.divisor, d.modulus, &span)) return false;
  return residueOfDifference(d.base, other, 1, span) == 0;
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
  std::optional<int64_t> r = residueOfDifference(low.base, high.base, g, span);
  if (!r || *r >= g) return std::nullopt;
  try {
    LinearForm strided = scaled(high.base, g);
    strided.constant = checkedAdd(strided.constant, *r);
    return Digit{std::move(strided), span, high.modulus};
  } catch (const OverflowError&) {
    return std::nullopt;
  }
}

// c * low + c * b * high = c * merged, when high is the digit right above low (b' may be ∞):
// `merge` in digits.h. And c * D(x, a, ∞) - c * b * D(x, a * b, ∞) = c * D(x, a, b), the
// floordiv's remainder written as a difference (`sub-is-mod`).
std::optional<Digit> merged(const Digit& low, int64_t lowCoefficient, const Digit& written,
                            int64_t highCoefficient) {
  if (low.modulus == kNoModulus) {
    if (written.modulus != kNoModulus || low.base != written.base ||
        written.divisor <= low.divisor || written.divisor % low.divisor != 0)
      return std::nullopt;
    const int64_t width = written.divisor / low.divisor;
    int64_t scaled = 0;
    if (__builtin_mul_overflow(lowCoefficient, -width, &scaled) || scaled != highCoefficient)
      return std::nullopt;
    return Digit{low.base, low.divisor, width};
  }
  int64_t next = 0, scaled = 0, width = 0;
  // The coefficients first: they rule out most pairs before any base is compared.
  if (__builtin_mul_overflow(lowCoefficient, low.modulus, &scaled) || scaled != highCoefficient)
    return std::nullopt;
  const std::optional<Digit> over = restrided(written, low);
  const Digit& high = over ? *over : written;
  if (__builtin_mul_overflow(low.divisor, low.modulus, &next) || next != high.divisor)
    return std::nullopt;
  // One base for both: the high digit's when the low digit is also a digit of it, or the low
  // one's when the high digit is finite and a digit of it; the simpler where both are.
  const LinearForm* base = &high.base;
  if (low.base != high.base) {
    const bool onHigh = sameDigit(low, high.base), onLow = sameDigit(high, low.base);
    if (!onHigh && !onLow) return std::nullopt;
    if (onLow && (!onHigh || simpler(low.base, high.base))) base = &low.base;
  }
  if (high.modulus == kNoModulus) return Digit{*base, low.divisor, kNoModulus};
  if (__builtin_mul_overflow(low.modulus, high.modulus, &width)) return std::nullopt;
  return Digit{*base, low.divisor, width};
}

// The digits an atom can be matched as: as written, with its base's floordiv folded in, and
// each of those destrided.
void digitsOf(Expr atom, DigitForms& out) {
  try {
    std::optional<Digit> d = digitOf(atom);
    if (!d) return;
    out.push_back(std::move(*d));
    if (std::optional<Digit> f = folded(out[0])) out.push_back(std::move(*f));
    for (size_t i = 0, n = out.size(); i < n; ++i)
      if (std::optional<Digit> unstrided = destrided(out[i])) out.push_back(std::move(*unstrided));
  } catch (const OverflowError&) {
    // a base or a folded base left int64: the forms found so far are all there is
  }
}

// c * x - c * a * (x floordiv a) = c * (x mod a), where the sum holds c * x term by term (x a
// shifted sum: `d0 + 1 - ((s0 + 1) floordiv 3) * 3 + s0` is `(s0 + 1) mod 3 + d0`). The sum with
// the first such pair replaced; nullopt when there is none.
std::optional<LinearForm> wholeMinusQuotient(const LinearForm& sum) {
  for (size_t j = 0; j < sum.terms.size(); ++j) {
    const Expr atom = sum.terms[j].atom;
    if (atom.kind() != ExprKind::FloorDiv ||
        sum.terms[j].coefficient % atom.rhs().constantValue() != 0)
      continue;
    std::optional<Digit> quotient = digitOf(atom);
    const int64_t c = -(sum.terms[j].coefficient / quotient->divisor);
    const LinearForm& x = quotient->base;
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

// LinearForm::of(form.build()) without building the sum: each term whose atom is a sum, a
// product or a constant (a merged digit may be its whole base) linearized, like terms (a merged
// digit may equal another term's atom) combined, in build()'s order. Throws OverflowError.
LinearForm relinearized(const LinearForm& form) {
  LinearForm out;
  out.constant = form.constant;
  for (const LinearTerm& t : form.terms) {
    const ExprKind kind = t.atom.kind();
    LinearForm term;
    if (kind == ExprKind::Add || kind == ExprKind::Mul || kind == ExprKind::Constant)
      term = scaled(LinearForm::of(t.atom), t.coefficient);
    else
      term.terms.push_back(t);
    addTo(out, term);
  }
  out.sortTerms();
  return out;
}

// Whether c * low and c' * high can merge at all, from what their atoms show without their
// bases (merged()'s conditions): a finite low digit (x mod b, (x floordiv a) mod b) needs the
// high digit at c * b; a quotient x floordiv a needs a quotient above it at -c * w, for a
// width w >= 2. Most pairs of a sum fail this, and their bases are never linearized.
bool mayMerge(const LinearTerm& low, const LinearTerm& high) {
  const ExprKind highKind = high.atom.kind();
  if (highKind != ExprKind::Mod && highKind != ExprKind::FloorDiv) return false;
  if (low.atom.kind() == ExprKind::Mod) {
    int64_t above = 0;
    return !__builtin_mul_overflow(low.coefficient, low.atom.rhs().constantValue(), &above) &&
           above == high.coefficient;
  }
  if (low.atom.kind() != ExprKind::FloorDiv || highKind != ExprKind::FloorDiv) return false;
  // In 128 bits: INT64_MIN / -1 has no int64 value.
  const __int128 c = low.coefficient, above = high.coefficient;
  return above % c == 0 && above / c <= -2;
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
  struct Known {
    Expr atom;
    DigitForms digits;
  };
  boost::container::small_vector<Known, 8> known;
  auto digitsOfAtom = [&](Expr atom) {
    for (size_t k = 0; k < known.size(); ++k)
      if (known[k].atom == atom) return k;
    Known& entry = known.emplace_back();  // filled in place: a Known is a few hundred bytes
    entry.atom = atom;
    digitsOf(atom, entry.digits);
    return known.size() - 1;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < out.terms.size() && !changed; ++i) {
      boost::container::small_vector<size_t, 8> partners;  // the terms i may merge with
      for (size_t j = 0; j < out.terms.size(); ++j)
        if (i != j && mayMerge(out.terms[i], out.terms[j])) partners.push_back(j);
      if (partners.empty()) continue;
      const size_t lowEntry = digitsOfAtom(out.terms[i].atom);
      for (size_t lowForm = 0; lowForm < known[lowEntry].digits.size() && !changed; ++lowForm) {
        for (size_t j : partners) {
          const size_t highEntry = digitsOfAtom(out.terms[j].atom);  // may move `known`
          const Digit& low = known[lowEntry].digits[lowForm];
          for (const Digit& high : known[highEntry].digits) {
            std::optional<Digit> wide =
                merged(low, out.terms[i].coefficient, high, out.terms[j].coefficient);
            if (!wide) continue;
            out.terms[i].atom = build(*wide);
            out.terms.erase(out.terms.begin() + static_cast<long>(j));
            changed = true;
            break;
          }
          if (changed) break;
        }
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
    if (changed) {
      out = relinearized(out);
      any = true;
    }
  }
  return any ? out : sum;
}

bool flipNegatedDigits(LinearForm& sum) {
  bool flipped = false;
  for (LinearTerm& t : sum.terms) {
    std::optional<Digit> digit = digitOf(t.atom);
    if (!digit || !allNegative(digit->base)) continue;
    // y = -x - 1 has every coefficient positive; x floordiv a = -(y floordiv a) - 1, so
    // c * D(x, a, b) = c * (b - 1) - c * D(y, a, b), and c * D(x, a, ∞) = -c - c * D(y, a, ∞).
    Digit flippedDigit = *digit;
    flippedDigit.base = scaled(digit->base, -1);
    flippedDigit.base.constant = checkedSub(flippedDigit.base.constant, 1);
    const int64_t offset = digit->modulus == kNoModulus ? -1 : digit->modulus - 1;
    sum.constant = checkedAdd(sum.constant, checkedMul(t.coefficient, offset));
    t.atom = build(flippedDigit);
    t.coefficient = checkedNeg(t.coefficient);
    flipped = true;
  }
  return flipped;
}

}  // namespace idxmap
