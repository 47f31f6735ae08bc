// Checked int64 arithmetic: the library never wraps silently (DESIGN.md, "Semantics we
// never bend"). Every helper throws OverflowError instead of producing a wrong value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace idxmap {

// Base of every error the library reports about its inputs; the CLI maps it to exit 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OverflowError : public Error {
 public:
  using Error::Error;
};

inline int64_t checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    throw OverflowError("integer overflow: " + std::to_string(a) + " + " + std::to_string(b));
  return r;
}

inline int64_t checkedSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    throw OverflowError("integer overflow: " + std::to_string(a) + " - " + std::to_string(b));
  return r;
}

inline int64_t checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    throw OverflowError("integer overflow: " + std::to_string(a) + " * " + std::to_string(b));
  return r;
}

inline int64_t checkedNeg(int64_t a) { return checkedSub(0, a); }

// Division helpers take a positive divisor (the IR's invariant); they cannot overflow.
inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

inline int64_t ceilDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

inline int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return r < 0 ? r + b : r;
}

}  // namespace idxmap
