// Congruence: what is known about a value modulo an integer (TVM's ModularSet).
// The value is in { modulus * k + remainder : k integer }. modulus 0 means the value is
// exactly `remainder`; modulus 1 means nothing is known. remainder is in [0, modulus)
// when modulus > 0. Every operation is a sound over-approximation (one lemma each, proven for
// all values in simplifier/proofs/congruence.v); on overflow it forgets (modulus 1).
#pragma once

#include <cstdint>

#include "core/interval.h"

namespace idxmap {

struct Congruence {
  int64_t modulus = 1;
  int64_t remainder = 0;

  static Congruence unknown() { return {1, 0}; }
  static Congruence exactly(int64_t v) { return {0, v}; }
  static Congruence of(int64_t modulus, int64_t remainder);  // normalizes the remainder

  bool isExact() const { return modulus == 0; }
  bool operator==(const Congruence&) const = default;

  Congruence operator+(const Congruence& o) const;
  Congruence operator*(int64_t k) const;
  Congruence floorDiv(int64_t d) const;
  Congruence mod(int64_t m) const;
  // Both facts at once (Chinese remainder theorem); nullopt-like {-1, -1} when they
  // contradict, which callers test with isContradiction().
  Congruence intersect(const Congruence& o) const;
  bool isContradiction() const { return modulus < 0; }

  // The narrowest sub-interval of `range` whose endpoints satisfy the congruence.
  Interval tighten(const Interval& range) const;
};

}  // namespace idxmap
