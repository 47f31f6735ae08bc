// Interval: an inclusive integer range [lo, hi]; empty when lo > hi.
//
// A lower bound of INT64_MIN stands for -inf and an upper bound of INT64_MAX for +inf; the other
// way round they are the numbers (a lower bound of INT64_MAX is 2^63 - 1, a constant's). Each
// endpoint is computed exactly (in 128 bits) and rounded outward to what int64 holds, so a
// result is always a sound over-approximation: a lower bound past INT64_MAX stays INT64_MAX,
// an upper bound past it becomes +inf, never a wrong finite number. A point is a bounded
// interval of one number: [2^63 - 1, +inf] is not one, though both ends print the same.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace idxmap {

struct Interval {
  static constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kPosInf = std::numeric_limits<int64_t>::max();

  int64_t lo = 0;
  int64_t hi = -1;

  static constexpr Interval point(int64_t v) { return {v, v}; }
  static constexpr Interval unbounded() { return {kNegInf, kPosInf}; }

  bool isEmpty() const { return lo > hi; }
  bool isPoint() const { return lo == hi && isBounded(); }
  bool isBounded() const { return lo != kNegInf && hi != kPosInf; }
  bool contains(int64_t v) const { return lo <= v && v <= hi; }
  bool contains(const Interval& o) const { return o.isEmpty() || (lo <= o.lo && o.hi <= hi); }
  bool operator==(const Interval& o) const = default;

  Interval intersect(const Interval& o) const { return {std::max(lo, o.lo), std::min(hi, o.hi)}; }
  Interval hull(const Interval& o) const {
    if (isEmpty()) return o;
    if (o.isEmpty()) return *this;
    return {std::min(lo, o.lo), std::max(hi, o.hi)};
  }

  Interval operator+(const Interval& o) const;
  Interval operator-() const;
  Interval operator-(const Interval& o) const { return *this + -o; }
  Interval operator*(int64_t k) const;
  // Divisor and modulus must be positive (the IR's invariant).
  Interval floorDiv(int64_t d) const;
  Interval ceilDiv(int64_t d) const;
  Interval mod(int64_t m) const;
  Interval min(const Interval& o) const;
  Interval max(const Interval& o) const;

  std::string toString() const;  // "[lo, hi]", as the text format writes it
};

}  // namespace idxmap
