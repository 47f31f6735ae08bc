#include "core/interval.h"

#include "core/checked.h"

namespace idxmap {
namespace {

bool isInf(int64_t v) { return v == Interval::kNegInf || v == Interval::kPosInf; }

// a + b where either may be infinite; an overflow saturates toward the true sum's sign.
int64_t saturatingAdd(int64_t a, int64_t b) {
  if (isInf(a)) return a;
  if (isInf(b)) return b;
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? Interval::kPosInf : Interval::kNegInf;
  return r;
}

int64_t saturatingMul(int64_t a, int64_t k) {
  if (k == 0) return 0;
  bool negative = (a < 0) != (k < 0);
  if (isInf(a)) return negative ? Interval::kNegInf : Interval::kPosInf;
  int64_t r;
  if (__builtin_mul_overflow(a, k, &r)) return negative ? Interval::kNegInf : Interval::kPosInf;
  return r;
}

int64_t negate(int64_t v) {
  if (v == Interval::kNegInf) return Interval::kPosInf;
  if (v == Interval::kPosInf) return Interval::kNegInf;
  return -v;
}

}  // namespace

Interval Interval::operator+(const Interval& o) const {
  if (isEmpty() || o.isEmpty()) return {};
  return {saturatingAdd(lo, o.lo), saturatingAdd(hi, o.hi)};
}

Interval Interval::operator-() const {
  if (isEmpty()) return {};
  return {negate(hi), negate(lo)};
}

Interval Interval::operator*(int64_t k) const {
  if (isEmpty()) return {};
  int64_t a = saturatingMul(lo, k), b = saturatingMul(hi, k);
  return {std::min(a, b), std::max(a, b)};
}

Interval Interval::floorDiv(int64_t d) const {
  if (isEmpty()) return {};
  return {isInf(lo) ? lo : idxmap::floorDiv(lo, d), isInf(hi) ? hi : idxmap::floorDiv(hi, d)};
}

Interval Interval::ceilDiv(int64_t d) const {
  if (isEmpty()) return {};
  return {isInf(lo) ? lo : idxmap::ceilDiv(lo, d), isInf(hi) ? hi : idxmap::ceilDiv(hi, d)};
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
