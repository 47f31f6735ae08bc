#include "core/interval.h"

#include "core/checked.h"

namespace idxmap {
namespace {

using Wide = __int128;

constexpr Wide kMin = Interval::kNegInf, kMax = Interval::kPosInf;

// An exact lower bound rounded down to what an Interval holds: -inf below int64, INT64_MAX
// (a number, and less than the bound) above it.
int64_t lowerBound(Wide v) { return static_cast<int64_t>(v <= kMin ? kMin : v > kMax ? kMax : v); }
// An exact upper bound rounded up: +inf at or above INT64_MAX, INT64_MIN (a number) below.
int64_t upperBound(Wide v) { return static_cast<int64_t>(v >= kMax ? kMax : v < kMin ? kMin : v); }

bool infiniteLow(int64_t lo) { return lo == Interval::kNegInf; }
bool infiniteHigh(int64_t hi) { return hi == Interval::kPosInf; }

}  // namespace

Interval Interval::operator+(const Interval& o) const {
  if (isEmpty() || o.isEmpty()) return {};
  return {
      infiniteLow(lo) || infiniteLow(o.lo) ? kNegInf : lowerBound(static_cast<Wide>(lo) + o.lo),
      infiniteHigh(hi) || infiniteHigh(o.hi) ? kPosInf : upperBound(static_cast<Wide>(hi) + o.hi)};
}

Interval Interval::operator-() const {
  if (isEmpty()) return {};
  return {infiniteHigh(hi) ? kNegInf : lowerBound(-static_cast<Wide>(hi)),
          infiniteLow(lo) ? kPosInf : upperBound(-static_cast<Wide>(lo))};
}

Interval Interval::operator*(int64_t k) const {
  if (isEmpty()) return {};
  if (k == 0) return point(0);
  // The end that becomes the product's lower bound, and the one that becomes its upper bound.
  int64_t low = k > 0 ? lo : hi, high = k > 0 ? hi : lo;
  bool lowInfinite = k > 0 ? infiniteLow(lo) : infiniteHigh(hi);
  bool highInfinite = k > 0 ? infiniteHigh(hi) : infiniteLow(lo);
  return {lowInfinite ? kNegInf : lowerBound(static_cast<Wide>(low) * k),
          highInfinite ? kPosInf : upperBound(static_cast<Wide>(high) * k)};
}

Interval Interval::floorDiv(int64_t d) const {
  if (isEmpty()) return {};
  return {infiniteLow(lo) ? lo : idxmap::floorDiv(lo, d),
          infiniteHigh(hi) ? hi : idxmap::floorDiv(hi, d)};
}

Interval Interval::ceilDiv(int64_t d) const {
  if (isEmpty()) return {};
  return {infiniteLow(lo) ? lo : idxmap::ceilDiv(lo, d),
          infiniteHigh(hi) ? hi : idxmap::ceilDiv(hi, d)};
}

Interval Interval::mod(int64_t m) const {
  if (isEmpty()) return {};
  // Within one period the remainder is monotone; otherwise it can take any value.
  if (isBounded() && idxmap::floorDiv(lo, m) == idxmap::floorDiv(hi, m))
    return {floorMod(lo, m), floorMod(hi, m)};
  return {0, m - 1};
}

Interval Interval::min(const Interval& o) const {
  if (isEmpty() || o.isEmpty()) return {};
  return {std::min(lo, o.lo), std::min(hi, o.hi)};
}

Interval Interval::max(const Interval& o) const {
  if (isEmpty() || o.isEmpty()) return {};
  return {std::max(lo, o.lo), std::max(hi, o.hi)};
}

std::string Interval::toString() const {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

}  // namespace idxmap
