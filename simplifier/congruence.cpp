#include "simplifier/congruence.h"

#include <numeric>

#include "core/checked.h"

namespace idxmap {
namespace {

// Runs `f`; an overflow means the fact is too large to track, so forget it.
template <typename F>
Congruence orUnknown(F f) {
  try {
    return f();
  } catch (const OverflowError&) {
    return Congruence::unknown();
  }
}

template <typename F>
int64_t orUnknownValue(int64_t fallback, F f) {
  try {
    return f();
  } catch (const OverflowError&) {
    return fallback;
  }
}

// Inverse of a modulo m (gcd(a, m) = 1, m > 1), by the extended Euclidean algorithm.
__int128 inverseModulo(__int128 a, __int128 m) {
  __int128 oldR = ((a % m) + m) % m, r = m, oldS = 1, s = 0;
  while (r != 0) {
    __int128 q = oldR / r;
    __int128 t = oldR - q * r;
    oldR = r, r = t;
    t = oldS - q * s;
    oldS = s, s = t;
  }
  return ((oldS % m) + m) % m;
}

}  // namespace

Congruence Congruence::of(int64_t m, int64_t r) {
  if (m < 0) m = checkedNeg(m);
  if (m == 0) return {0, r};
  return {m, floorMod(r, m)};
}

Congruence Congruence::operator+(const Congruence& o) const {
  return orUnknown(
      [&] { return of(std::gcd(modulus, o.modulus), checkedAdd(remainder, o.remainder)); });
}

Congruence Congruence::operator*(int64_t k) const {
  return orUnknown([&] { return of(checkedMul(modulus, k), checkedMul(remainder, k)); });
}

Congruence Congruence::floorDiv(int64_t d) const {
  if (isExact()) return exactly(idxmap::floorDiv(remainder, d));
  // (m*k + r) / d = (m/d)*k + r/d exactly when d divides m.
  if (modulus % d == 0) return of(modulus / d, idxmap::floorDiv(remainder, d));
  return unknown();
}

Congruence Congruence::mod(int64_t m) const {
  if (isExact()) return exactly(floorMod(remainder, m));
  // x mod m = x - m*q, so it keeps x's residue modulo gcd(modulus, m).
  int64_t g = std::gcd(modulus, m);
  return of(g, remainder);
}

Congruence Congruence::intersect(const Congruence& o) const {
  if (isExact() && o.isExact()) return remainder == o.remainder ? *this : Congruence{-1, -1};
  if (modulus == 1) return o;
  if (o.modulus == 1) return *this;
  if (isExact())
    return floorMod(floorMod(remainder, o.modulus) - o.remainder, o.modulus) == 0
               ? *this
               : Congruence{-1, -1};
  if (o.isExact()) return o.intersect(*this);
  // Chinese remainder theorem: x = r1 (mod m1) and x = r2 (mod m2).
  __int128 m1 = modulus, m2 = o.modulus, r1 = remainder, r2 = o.remainder;
  __int128 g = std::gcd(modulus, o.modulus);
  if ((r2 - r1) % g != 0) return {-1, -1};
  __int128 m2Reduced = m2 / g;
  __int128 lcm = m1 * m2Reduced;
  if (lcm > INT64_MAX) return modulus >= o.modulus ? *this : o;  // keep the stronger fact
  __int128 k = m2Reduced == 1 ? 0
                              : (((r2 - r1) / g) % m2Reduced + m2Reduced) % m2Reduced *
                                    inverseModulo(m1 / g, m2Reduced) % m2Reduced;
  return of(static_cast<int64_t>(lcm), static_cast<int64_t>((r1 + m1 * k) % lcm));
}

Interval Congruence::tighten(const Interval& range) const {
  if (range.isEmpty() || modulus == 1) return range;
  if (isExact()) return range.contains(remainder) ? Interval::point(remainder) : Interval{};
  Interval out = range;
  if (range.lo != Interval::kNegInf)
    out.lo = orUnknownValue(range.lo, [&] {
      return checkedAdd(range.lo, floorMod(checkedSub(remainder, range.lo), modulus));
    });
  if (range.hi != Interval::kPosInf)
    out.hi = orUnknownValue(range.hi, [&] {
      return checkedSub(range.hi, floorMod(checkedSub(range.hi, remainder), modulus));
    });
  return out;
}

}  // namespace idxmap
