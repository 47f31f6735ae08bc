// Random sums of the mixed-radix digits of one base (issue 33, item 3): a base x (a linear
// function of the dims, as a reshape linearizes them), cut into digits D(x, lo, b) =
// (x floordiv lo) mod b whose radices tile it, each digit weighted by w * lo so that the sum
// is w * x, and each written in one of the forms reshapes, bitcasts and strided slices leave:
//   plain      (x floordiv lo) mod b
//   shifted    the base plus a multiple of lo * b (a finite digit reads x modulo lo * b)
//   strided    (g * x + r) floordiv (g * lo), 0 <= r < g (a strided slice's index)
//   partial    (q + L floordiv a) floordiv (lo / a) where x = a * q + L (a partial quotient)
//   remainder  the lowest digit as x - (x floordiv b) * b, the sum spelled out (sub-is-mod)
// The exact result is w * x, which is what isl gives: a simplifier that merges the digits
// returns a map no larger than it. Deterministic in the seed (`% n`, not distributions).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::testing {

struct DigitFamily {
  IndexingMap map;    // (dims) -> (the sum of digits)
  Expr exact;         // w * x
  std::string forms;  // the form of each digit, lowest first: "plain strided partial"
};

class DigitFamilyGenerator {
 public:
  // `small`: radices 2..4 and at most three digits, for proofs whose cost grows with the spans.
  explicit DigitFamilyGenerator(uint64_t seed, bool small = false) : rng_(seed), small_(small) {}

  DigitFamily next() {
    DigitFamily family;
    const int dims = 1 + pick(3);
    std::vector<int64_t> sizes;
    for (int d = 0; d < dims; ++d) sizes.push_back(1 + pick(12));
    // The base: dims linearized row-major (a reshape's index), sometimes with a stride and an
    // offset (a slice's).
    Expr x = Expr::constant(0);
    int64_t stride = 1;
    std::vector<int64_t> coefficients(dims);
    for (int d = dims; d-- > 0;) {
      coefficients[d] = stride * (pick(4) == 0 ? 1 + pick(3) : 1);
      x = x + Expr::dim(static_cast<unsigned>(d)) * coefficients[d];
      stride = coefficients[d] * sizes[d];
    }
    const int64_t offset = pick(3) == 0 ? pick(20) : 0;
    x = x + offset;
    const int64_t radices[] = {2, 3, 4, 5, 6, 8, 12, 16};
    const int digits = 2 + pick(small_ ? 2 : 3);
    const int64_t weights[] = {1, 1, 2, 4, 3, -1};
    const int64_t w = weights[pick(6)];
    Expr sum = Expr::constant(0);
    int64_t lo = 1;
    for (int k = 0; k < digits; ++k) {
      const bool top = k == digits - 1;
      const int64_t b = top ? 0 : radices[pick(small_ ? 3 : 8)];
      std::string form;
      sum = sum + written(x, lo, b, coefficients, k == 0, form) * (w * lo);
      family.forms += (k ? " " : "") + form;
      lo *= top ? 1 : b;
    }
    for (int64_t size : sizes) family.map.dims.push_back({{0, size - 1}, ""});
    family.map.results = {sum};
    family.exact = x * w;
    return family;
  }

 private:
  int64_t pick(int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); }

  static Expr digit(Expr base, int64_t lo, int64_t b) {
    Expr value = lo == 1 ? base : base.floorDiv(lo);
    return b == 0 ? value : value.mod(b);
  }

  // D(x, lo, b) (b = 0: no mod) in a random one of the forms above.
  Expr written(Expr x, int64_t lo, int64_t b, const std::vector<int64_t>& coefficients, bool lowest,
               std::string& form) {
    switch (pick(5)) {
      case 1:
        if (b == 0) break;
        form = "shifted";
        return digit(x + Expr::dim(static_cast<unsigned>(pick(coefficients.size()))) * (lo * b) *
                             (1 + pick(2)),
                     lo, b);
      case 2: {
        form = "strided";
        const int64_t g = 2 + pick(3);
        return digit(x * g + pick(g), lo * g, b);
      }
      case 3: {
        // x = a * q + L: the dims whose coefficient a divides go to q.
        if (lo == 1) break;
        const int64_t a = lo % 2 == 0 ? 2 : lo;
        Expr q = Expr::constant(0), rest = Expr::constant(0);
        for (size_t d = 0; d < coefficients.size(); ++d) {
          Expr term = Expr::dim(static_cast<unsigned>(d));
          if (coefficients[d] % a == 0)
            q = q + term * (coefficients[d] / a);
          else
            rest = rest + term * coefficients[d];
        }
        Expr base = x - (q * a + rest);  // the constant offset
        form = "partial";
        return digit(q + (rest + base).floorDiv(a), lo / a, b);
      }
      case 4:
        if (!lowest || b == 0) break;
        form = "remainder";
        return x - x.floorDiv(b) * b;
      default:
        break;
    }
    form = "plain";
    return digit(x, lo, b);
  }

  std::mt19937_64 rng_;
  bool small_;
};

}  // namespace idxmap::testing
