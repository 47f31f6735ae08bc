// The C++ that elementwiseValue's expressions call (element_code.h), carried by every emitted
// file after the prelude.
#include "codegen/prelude/element_code.h"
#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {

namespace {
constexpr const char* kElementHelpers = R"(
// HLO's elementwise arithmetic (codegen/element_code.h): integers wrap, division by zero
// and overflowing division as XLA defines them, shifts past the width, saturating float to
// integer conversion, and 16-bit floats rounded after every operation.
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>
template <class T> static inline T idxmap_wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <class T> static inline T idxmap_wrap_neg(T a) {
  return static_cast<T>(uint64_t{0} - static_cast<uint64_t>(a));
}
template <class T> static inline T idxmap_int_abs(T a) {
  if constexpr (std::is_signed_v<T>) return a < 0 ? idxmap_wrap_neg(a) : a;
  return a;
}
template <class T> static inline T idxmap_int_sign(T a) { return static_cast<T>((a > 0) - (a < 0)); }
template <class F> static inline F idxmap_float_sign(F a) {
  return a > 0 ? F(1) : a < 0 ? F(-1) : a;  // keeps -0, +0 and NaN
}
template <class T> static inline T idxmap_int_div(T a, T b) {
  if (b == 0) return static_cast<T>(-1);
  if constexpr (std::is_signed_v<T>)
    if (b == -1 && a == std::numeric_limits<T>::min()) return a;
  return static_cast<T>(a / b);
}
template <class T> static inline T idxmap_int_rem(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>)
    if (b == -1) return 0;
  return static_cast<T>(a % b);
}
template <class T> static inline T idxmap_shl(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8) return 0;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<U>(b)));
}
template <class T> static inline T idxmap_shr_logical(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8) return 0;
  return static_cast<T>(static_cast<U>(a) >> static_cast<U>(b));
}
template <class T> static inline T idxmap_shr_arithmetic(T a, T b) {
  using U = std::make_unsigned_t<T>;
  using S = std::make_signed_t<T>;
  U shift = static_cast<U>(b) >= sizeof(T) * 8 ? static_cast<U>(sizeof(T) * 8 - 1) : static_cast<U>(b);
  return static_cast<T>(static_cast<S>(a) >> shift);
}
template <class T, class F> static inline T idxmap_float_to_int(F x) {
  if (x != x) return 0;
  if (x <= static_cast<F>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (x >= static_cast<F>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(x);
}
// Sub-byte integers: idxmap_narrow (the prelude) brings a result back to its width.
// A buffer of sub-byte integers packed 8 / Bits to a byte as XLA packs them (its util.h's
// PackIntN, a layout's E(Bits)): element i in byte i / (8 / Bits), the first of a byte's elements
// in its high bits. `b[i]` reads element i as T (its Bits sign- or zero-extended); `b[i] = v`
// writes only its bits, atomically, since the byte's other elements may be another thread's.
#ifndef IDXMAP_HOST_DEVICE
#define IDXMAP_HOST_DEVICE
#endif
template <int Bits, class T, class Byte> struct idxmap_packed {
  static constexpr int kPerByte = 8 / Bits;
  static constexpr unsigned kMask = (1u << Bits) - 1;
  struct element {
    Byte* byte;
    unsigned shift;
    IDXMAP_HOST_DEVICE operator T() const {
#ifdef __CUDA_ARCH__
      const unsigned bits = *byte;
#else
      // Other threads may be writing the byte's other elements (atomically): read it atomically
      // too, or the read races with them in C++'s memory model.
      unsigned bits;
      if constexpr (std::is_const_v<Byte>)
        bits = *byte;
      else
        bits = std::atomic_ref<uint8_t>(*byte).load(std::memory_order_relaxed);
#endif
      return idxmap_narrow<Bits>(static_cast<T>(bits >> shift));
    }
    IDXMAP_HOST_DEVICE void operator=(T value) const {
      const unsigned bits = (static_cast<unsigned>(value) & kMask) << shift;
#ifdef __CUDA_ARCH__
      // CUDA's atomics are on 32-bit words: the aligned word that holds the byte.
      const uintptr_t at = reinterpret_cast<uintptr_t>(byte);
      unsigned* word = reinterpret_cast<unsigned*>(at & ~uintptr_t{3});
      const unsigned offset = static_cast<unsigned>(at & 3) * 8;
      atomicAnd(word, ~((kMask << shift) << offset));
      atomicOr(word, bits << offset);
#else
      std::atomic_ref<uint8_t> target(*byte);
      target.fetch_and(static_cast<uint8_t>(~(kMask << shift)), std::memory_order_relaxed);
      target.fetch_or(static_cast<uint8_t>(bits), std::memory_order_relaxed);
#endif
    }
  };
  Byte* bytes;
  IDXMAP_HOST_DEVICE idxmap_packed(Byte* from) : bytes(from) {}
  IDXMAP_HOST_DEVICE element operator[](int64_t i) const {
    return {bytes + i / kPerByte, static_cast<unsigned>(Bits * (kPerByte - 1 - i % kPerByte))};
  }
};
// The opcodes that read an element's bits as unsigned, on its own `Bits` (a shift amount of the
// width or more, or negative, shifts everything out).
template <int Bits, class T> static inline T idxmap_narrow_shr_logical(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (static_cast<U>(b) >= Bits) return 0;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) & ((1u << Bits) - 1)) >> static_cast<U>(b));
}
template <int Bits, class T> static inline T idxmap_narrow_popcount(T a) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(std::popcount(static_cast<U>(static_cast<U>(a) & ((1u << Bits) - 1))));
}
template <int Bits, class T> static inline T idxmap_narrow_countl_zero(T a) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(std::countl_zero(static_cast<U>(static_cast<U>(a) & ((1u << Bits) - 1))) -
                        static_cast<int>(sizeof(T) * 8 - Bits));
}
// Float to a sub-byte integer: truncated toward zero, saturated at the `Bits`-bit range, NaN 0.
template <class T, int Bits, class F> static inline T idxmap_float_to_narrow(F x) {
  constexpr int lo = std::is_signed_v<T> ? -(1 << (Bits - 1)) : 0;
  constexpr int hi = std::is_signed_v<T> ? (1 << (Bits - 1)) - 1 : (1 << Bits) - 1;
  if (x != x) return 0;
  if (x <= static_cast<F>(lo)) return static_cast<T>(lo);
  if (x >= static_cast<F>(hi)) return static_cast<T>(hi);
  return static_cast<T>(x);
}
// Complex elements (c64, c128) as XLA stores them: the real part, then the imaginary part. Sums
// part by part; a product as XLA's elemental emitter computes it, (ac - bd) + (ad + bc)i, each
// product and sum rounded once (the files are compiled without contraction into fused
// multiply-adds), with no recovery of infinities from NaN parts (C's Annex G).
template <class F> struct idxmap_complex {
  F re, im;
};
typedef idxmap_complex<float> idxmap_c64;
typedef idxmap_complex<double> idxmap_c128;
template <class F> static inline idxmap_complex<F> idxmap_complex_add(idxmap_complex<F> a, idxmap_complex<F> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class F> static inline idxmap_complex<F> idxmap_complex_sub(idxmap_complex<F> a, idxmap_complex<F> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class F> static inline idxmap_complex<F> idxmap_complex_neg(idxmap_complex<F> a) {
  return {-a.re, -a.im};
}
template <class F> static inline idxmap_complex<F> idxmap_complex_mul(idxmap_complex<F> a, idxmap_complex<F> b) {
  const F ac = a.re * b.re, bd = a.im * b.im, ad = a.re * b.im, bc = a.im * b.re;
  return {ac - bd, ad + bc};
}
template <class F> static inline bool idxmap_complex_eq(idxmap_complex<F> a, idxmap_complex<F> b) {
  return a.re == b.re && a.im == b.im;
}
// XLA's reduce-precision on a float's bit pattern `v` (its elemental emitter's recipe; the
// format has `ownMantissa` and `ownExponent` bits, `width` in all): the mantissa rounded to
// nearest even at `mantissa` bits (a carry moves the exponent), then a value past the
// `exponent`-bit format's range becomes a signed infinity and one at or below its smallest
// normal a signed zero (denormals flush). Arithmetic wraps at `width` bits, as the emitter's.
static inline uint64_t idxmap_reduce_precision_bits(uint64_t v, int width, int ownMantissa,
                                                    int ownExponent, int exponent, int mantissa) {
  const uint64_t all = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  if (mantissa < ownMantissa) {
    const uint64_t last = uint64_t{1} << (ownMantissa - mantissa);
    v = ((v + (last >> 1) - 1 + ((v & last) >> (ownMantissa - mantissa))) & all) & ~(last - 1);
  }
  if (exponent < ownExponent) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    const uint64_t field = ((uint64_t{1} << ownExponent) - 1) << ownMantissa;
    const uint64_t bias = (uint64_t{1} << (ownExponent - 1)) - 1;
    const uint64_t reduced = (uint64_t{1} << (exponent - 1)) - 1;
    if ((v & field) > ((bias + reduced) << ownMantissa))
      v = (v & sign) | field;
    else if ((v & field) <= ((bias - reduced) << ownMantissa))
      v &= sign;
  }
  return v;
}
// On a float or double's own bits; a NaN stays, or becomes +inf with no mantissa bits left.
template <class F> static inline F idxmap_reduce_precision(F x, int exponent, int mantissa) {
  using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  constexpr int ownMantissa = std::numeric_limits<F>::digits - 1;
  U v;
  std::memcpy(&v, &x, sizeof v);
  v = static_cast<U>(idxmap_reduce_precision_bits(v, sizeof(F) * 8, ownMantissa,
                                                  sizeof(F) * 8 - 1 - ownMantissa, exponent,
                                                  mantissa));
  F out;
  std::memcpy(&out, &v, sizeof out);
  if (x != x) return mantissa > 0 ? x : std::numeric_limits<F>::infinity();
  return out;
}
// f16 and bf16 (held in float, exactly): on the 16-bit pattern, as XLA applies it.
static inline float idxmap_reduce_precision_f16(float x, int exponent, int mantissa) {
  if (x != x) return mantissa > 0 ? x : std::numeric_limits<float>::infinity();
  return idxmap_f16_to_f32(static_cast<uint16_t>(
      idxmap_reduce_precision_bits(idxmap_f32_to_f16(x), 16, 10, 5, exponent, mantissa)));
}
static inline float idxmap_reduce_precision_bf16(float x, int exponent, int mantissa) {
  if (x != x) return mantissa > 0 ? x : std::numeric_limits<float>::infinity();
  return idxmap_bf16_to_f32(static_cast<uint16_t>(
      idxmap_reduce_precision_bits(idxmap_f32_to_bf16(x), 16, 7, 8, exponent, mantissa)));
}
static inline float idxmap_round_f16(float x) { return idxmap_f16_to_f32(idxmap_f32_to_f16(x)); }
static inline float idxmap_round_bf16(float x) { return idxmap_bf16_to_f32(idxmap_f32_to_bf16(x)); }
// Rounded to odd: truncated toward zero, the last bit set when anything was cut off. Rounding
// that to a format of at most 22 bits gives the correctly rounded result of the original.
static inline float idxmap_f64_to_f32_odd(double x) {
  float f = static_cast<float>(x);
  if (x != x || static_cast<double>(f) == x) return f;
  if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
  return idxmap_bits_float(idxmap_float_bits(f) | 1u);
}
template <class T> static inline float idxmap_int_to_f32_odd(T x) {
  if constexpr (sizeof(T) < 8) return idxmap_f64_to_f32_odd(static_cast<double>(x));  // exact
  bool negative = false;
  uint64_t m;
  if constexpr (std::is_signed_v<T>) {
    negative = x < 0;
    m = negative ? uint64_t{0} - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  } else {
    m = x;
  }
  int drop = 64 - std::countl_zero(m) - 24;
  if (drop > 0) {
    uint64_t cut = m & ((uint64_t{1} << drop) - 1);
    m = (m >> drop) | (cut != 0 ? 1 : 0);
    float f = std::ldexp(static_cast<float>(m), drop);
    return negative ? -f : f;
  }
  return negative ? -static_cast<float>(m) : static_cast<float>(m);
}
)";
}  // namespace

std::string_view elementHelpers(bool device) {
  static const std::string plain = kElementHelpers, annotated = deviceAnnotated(plain);
  return device ? annotated : plain;
}

}  // namespace idxmap::codegen
