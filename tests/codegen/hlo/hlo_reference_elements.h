// The element arithmetic of the test's HLO reference evaluator (hlo_reference.h), from XLA's
// operation semantics: floats computed in their C type (f16 / bf16 in float) and rounded to the
// element type by ops/eval's rounding; integers wrapped to their width; XLA's division by zero
// and saturating float-to-integer conversion; IEEE maximum / minimum.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/run/tensor_buffers.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/eval/tensor.h"

namespace idxmap::codegen::testing {

// HLO's element type names in the Tensor's (StableHLO's) words.
inline std::string tensorType(const std::string& hlo) {
  if (hlo == "pred") return "i1";
  if (hlo == "c64") return "complex<f32>";
  if (hlo == "c128") return "complex<f64>";
  if (hlo[0] == 's') return "i" + hlo.substr(1);
  if (hlo[0] == 'u') return "ui" + hlo.substr(1);
  return hlo;
}

struct Scalar {
  double f = 0;  // a float's value; a complex value's real part
  int64_t i = 0;
  double im = 0;  // a complex value's imaginary part
};

// The values of a complex constant's literal, `(re, im)` each as HLO writes them, each part
// rounded to the part type of `type` (complex<f32> or complex<f64>).
inline std::vector<Scalar> complexLiteral(const std::string& literal, const std::string& type) {
  auto part = [&](const char* text, char** end) {
    const double v = std::strtod(text, end);
    return type == "complex<f32>" ? static_cast<double>(static_cast<float>(v)) : v;
  };
  std::vector<Scalar> values;
  for (size_t open = literal.find('('); open != std::string::npos;
       open = literal.find('(', open + 1)) {
    char* end = nullptr;
    const double re = part(literal.c_str() + open + 1, &end);
    const double im = part(std::strchr(end, ',') + 1, &end);
    values.push_back(Scalar{re, 0, im});
  }
  return values;
}

// XLA's complex arithmetic in the part type F (float for complex<f32>): sums part by part, and a
// product as its elemental emitter computes one, (ac - bd) + (ad + bc)i, every product and sum
// rounded to F.
template <class F>
Scalar complexOp(const std::string& op, const std::vector<Scalar>& a) {
  const F ar = static_cast<F>(a[0].f), ai = static_cast<F>(a[0].im);
  const F br = a.size() > 1 ? static_cast<F>(a[1].f) : F(0),
          bi = a.size() > 1 ? static_cast<F>(a[1].im) : F(0);
  if (op == "add") return {ar + br, 0, ai + bi};
  if (op == "subtract") return {ar - br, 0, ai - bi};
  if (op == "negate") return {-ar, 0, -ai};
  if (op == "multiply") {
    const F ac = ar * br, bd = ai * bi, ad = ar * bi, bc = ai * br;
    return {ac - bd, 0, ad + bc};
  }
  throw std::runtime_error("reference: no complex " + op);
}

inline int widthOf(const std::string& type) {
  return type == "i1" ? 1 : std::stoi(type.substr(type[0] == 'u' ? 2 : 1));
}

// An integer wrapped to the type's width (two's complement for signed types).
inline int64_t wrapTo(const std::string& type, int64_t v) {
  int bits = widthOf(type);
  if (bits == 1) return v != 0;
  if (bits == 64) return v;
  uint64_t mask = (uint64_t{1} << bits) - 1, u = static_cast<uint64_t>(v) & mask;
  if (type[0] == 'u') return static_cast<int64_t>(u);
  if (u >> (bits - 1)) u |= ~mask;
  return static_cast<int64_t>(u);
}

// XLA's shifts, popcnt and count-leading-zeros on an integer type of `bits` bits, from the
// operation semantics: the operands' bits as unsigned at the type's width; a shift amount of the
// width or more (read unsigned) shifts everything out, leaving 0, or the sign for an arithmetic
// shift right.
inline int64_t bitwise(const std::string& op, const std::string& type, int64_t a, int64_t b) {
  const int bits = widthOf(type);
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t x = static_cast<uint64_t>(a) & mask, amount = static_cast<uint64_t>(b) & mask;
  if (op == "popcnt") return std::popcount(x);
  if (op == "count-leading-zeros") return std::countl_zero(x) - (64 - bits);
  const bool negative = type[0] != 'u' && (x >> (bits - 1)) & 1;
  if (amount >= static_cast<uint64_t>(bits))
    return op == "shift-right-arithmetic" && negative ? wrapTo(type, -1) : 0;
  if (op == "shift-left") return wrapTo(type, static_cast<int64_t>(x << amount));
  if (op == "shift-right-logical") return wrapTo(type, static_cast<int64_t>(x >> amount));
  // Arithmetic: the sign-extended value shifted (>> of a negative int64 is arithmetic in C++20).
  return wrapTo(type, wrapTo(type, static_cast<int64_t>(x)) >> amount);
}

// A float computation in the type's C type, rounded to the type.
inline double inType(const std::string& type, double x, double y,
                     const std::function<float(float, float)>& single,
                     const std::function<double(double, double)>& wide) {
  if (type == "f64") return wide(x, y);
  return gather_scatter::roundToElementType(
      type, static_cast<double>(single(static_cast<float>(x), static_cast<float>(y))));
}

inline Scalar elementwise(const std::string& op, const std::string& direction,
                          const std::vector<std::string>& types, const std::string& result,
                          const std::vector<Scalar>& a) {
  const std::string& t = types[0];
  const bool isFloat = gather_scatter::isFloatType(t);
  Scalar out;
  // Complex values: the ops XLA defines on them, each part rounded to the part type.
  const bool complexResult = gather_scatter::isComplexType(result);
  if (complexResult || gather_scatter::isComplexType(t) ||
      (types.size() > 1 && gather_scatter::isComplexType(types[1]))) {
    const bool single = result == "complex<f32>" || t == "complex<f32>";
    auto part = [&](double v) { return single ? static_cast<double>(static_cast<float>(v)) : v; };
    if (op == "select") return a[0].i ? a[1] : a[2];
    if (op == "compare") {
      const bool equal = a[0].f == a[1].f && a[0].im == a[1].im;
      return Scalar{0, direction == "NE" ? !equal : equal, 0};
    }
    if (op == "complex") return {part(a[0].f), 0, part(a[1].f)};
    if (op == "real") return {a[0].f, 0, 0};
    if (op == "imag") return {a[0].im, 0, 0};
    if (op == "convert") {  // to a complex type
      if (gather_scatter::isComplexType(t)) return {part(a[0].f), 0, part(a[0].im)};
      return {part(isFloat ? a[0].f : static_cast<double>(a[0].i)), 0, 0};
    }
    return single ? complexOp<float>(op, a) : complexOp<double>(op, a);
  }
  if (op == "bitcast-convert") {  // the operand's bytes in memory, read as the result type
    gather_scatter::Tensor from = gather_scatter::zeros(t, {});
    if (isFloat)
      from.floats[0] = a[0].f;
    else
      from.ints[0] = a[0].i;
    const gather_scatter::Tensor to = fromBuffer(toBuffer(from), result, {});
    return to.isFloat() ? Scalar{to.floats[0], 0} : Scalar{0, to.ints[0]};
  }
  if (op == "convert") {
    if (gather_scatter::isFloatType(result)) {
      double v = isFloat ? a[0].f : static_cast<double>(a[0].i);
      out.f = result == "f32" && !isFloat ? static_cast<double>(static_cast<float>(a[0].i))
                                          : gather_scatter::roundToElementType(result, v);
    } else if (result == "i1") {
      out.i = isFloat ? a[0].f != 0 : a[0].i != 0;
    } else if (isFloat) {
      double v = std::trunc(a[0].f);
      int bits = widthOf(result);
      bool isUnsigned = result[0] == 'u';
      double lo = isUnsigned ? 0 : -std::ldexp(1.0, bits - 1);
      double hi = isUnsigned ? std::ldexp(1.0, bits) : std::ldexp(1.0, bits - 1);
      if (std::isnan(v))
        out.i = 0;
      else if (v <= lo)
        out.i = isUnsigned ? 0 : static_cast<int64_t>(lo);
      else if (v >= hi)
        out.i =
            isUnsigned ? wrapTo(result, -1) : std::numeric_limits<int64_t>::max() >> (64 - bits);
      else
        out.i = isUnsigned && bits == 64 ? static_cast<int64_t>(static_cast<uint64_t>(v))
                                         : static_cast<int64_t>(v);
    } else {
      out.i = wrapTo(result, a[0].i);
    }
    return out;
  }
  if (op == "compare") {
    auto cmp = [&](auto x, auto y) {
      if (direction == "EQ") return x == y;
      if (direction == "NE") return x != y;
      if (direction == "LT") return x < y;
      if (direction == "LE") return x <= y;
      if (direction == "GT") return x > y;
      return x >= y;
    };
    bool u = t[0] == 'u' && t == "ui64";
    out.i = isFloat ? cmp(a[0].f, a[1].f)
            : u     ? cmp(static_cast<uint64_t>(a[0].i), static_cast<uint64_t>(a[1].i))
                    : cmp(a[0].i, a[1].i);
    return out;
  }
  if (op == "select") return a[0].i ? a[1] : a[2];
  if (isFloat) {
    auto f1 = [&](float (*single)(float), double (*wide)(double)) {
      return inType(
          t, a[0].f, 0, [&](float x, float) { return single(x); },
          [&](double x, double) { return wide(x); });
    };
    auto maxOf = [](double x, double y) {
      return std::isnan(x)   ? x
             : std::isnan(y) ? y
             : x == y        ? (std::signbit(x) ? y : x)
                             : (x < y ? y : x);
    };
    auto minOf = [](double x, double y) {
      return std::isnan(x)   ? x
             : std::isnan(y) ? y
             : x == y        ? (std::signbit(x) ? x : y)
                             : (x < y ? x : y);
    };
    if (op == "negate")
      out.f = -a[0].f;
    else if (op == "abs")
      out.f = std::fabs(a[0].f);
    else if (op == "exponential")
      out.f = f1(std::exp, std::exp);
    else if (op == "log")
      out.f = f1(std::log, std::log);
    else if (op == "tanh")
      out.f = f1(std::tanh, std::tanh);
    else if (op == "sinh")
      out.f = f1(std::sinh, std::sinh);
    else if (op == "cosh")
      out.f = f1(std::cosh, std::cosh);
    else if (op == "asin")
      out.f = f1(std::asin, std::asin);
    else if (op == "acos")
      out.f = f1(std::acos, std::acos);
    else if (op == "asinh")
      out.f = f1(std::asinh, std::asinh);
    else if (op == "acosh")
      out.f = f1(std::acosh, std::acosh);
    else if (op == "atanh")
      out.f = f1(std::atanh, std::atanh);
    else if (op == "sqrt")
      out.f = f1(std::sqrt, std::sqrt);
    else if (op == "floor")
      out.f = std::floor(a[0].f);
    else if (op == "add")
      out.f = inType(t, a[0].f, a[1].f, std::plus<float>(), std::plus<double>());
    else if (op == "subtract")
      out.f = inType(t, a[0].f, a[1].f, std::minus<float>(), std::minus<double>());
    else if (op == "multiply")
      out.f = inType(t, a[0].f, a[1].f, std::multiplies<float>(), std::multiplies<double>());
    else if (op == "divide")
      out.f = inType(t, a[0].f, a[1].f, std::divides<float>(), std::divides<double>());
    else if (op == "maximum")
      out.f = maxOf(a[0].f, a[1].f);
    else if (op == "minimum")
      out.f = minOf(a[0].f, a[1].f);
    else if (op == "clamp")
      out.f = minOf(maxOf(a[1].f, a[0].f), a[2].f);
    else
      throw std::runtime_error("reference: no float " + op);
    return out;
  }
  auto wrap = [&](uint64_t v) { return wrapTo(result, static_cast<int64_t>(v)); };
  uint64_t x = static_cast<uint64_t>(a[0].i), y = a.size() > 1 ? static_cast<uint64_t>(a[1].i) : 0;
  // The signed type's minimum by an arithmetic shift: negating 2^63 would overflow.
  int64_t minimum =
      t == "i1" || t[0] == 'u' ? 0 : std::numeric_limits<int64_t>::min() >> (64 - widthOf(t));
  if (op == "negate")
    out.i = wrap(0 - x);
  else if (op == "abs")
    out.i = a[0].i < 0 ? wrap(0 - x) : a[0].i;
  else if (op == "add")
    out.i = t == "i1" ? (a[0].i || a[1].i) : wrap(x + y);
  else if (op == "subtract")
    out.i = wrap(x - y);
  else if (op == "multiply")
    out.i = t == "i1" ? (a[0].i && a[1].i) : wrap(x * y);
  else if (op == "divide")
    out.i = a[1].i == 0 ? wrapTo(result, -1)
            : (a[1].i == -1 && a[0].i == minimum && minimum)
                ? a[0].i
                : wrap(static_cast<uint64_t>(a[0].i / a[1].i));
  else if (op == "remainder")
    out.i =
        a[1].i == 0 ? a[0].i : (a[1].i == -1 ? 0 : wrap(static_cast<uint64_t>(a[0].i % a[1].i)));
  else if (op == "maximum")
    out.i = std::max(a[0].i, a[1].i);
  else if (op == "minimum")
    out.i = std::min(a[0].i, a[1].i);
  else if (op == "clamp")
    out.i = std::min(std::max(a[1].i, a[0].i), a[2].i);
  else if (op == "and")
    out.i = wrap(x & y);
  else if (op == "or")
    out.i = wrap(x | y);
  else if (op == "xor")
    out.i = wrap(x ^ y);
  else if (op == "not")
    out.i = t == "i1" ? !a[0].i : wrap(~x);
  else if (op == "shift-left" || op == "shift-right-logical" || op == "shift-right-arithmetic" ||
           op == "popcnt" || op == "count-leading-zeros")
    out.i = bitwise(op, t, a[0].i, a.size() > 1 ? a[1].i : 0);
  else
    throw std::runtime_error("reference: no integer " + op);
  return out;
}

// XLA's reduce-precision of an f16, bf16, f32 or f64 value, by arithmetic rather than bit
// patterns: the value rounded to mantissa + 1 significant bits, ties to even (below the type's
// smallest normal, at its fixed exponent), past the type's largest finite value an infinity;
// then, with fewer exponent bits than the type's, a signed infinity from 2^(bias + 1) up and a
// signed zero below the smallest normal 2^(1 - bias), bias = 2^(exponent - 1) - 1; a NaN stays
// a NaN (+inf with no mantissa bits).
inline double referenceReducePrecision(double x, const std::string& type, int exponent,
                                       int mantissa) {
  struct Format {
    int mantissa, exponent;
  };
  const Format own = type == "f16"    ? Format{10, 5}
                     : type == "bf16" ? Format{7, 8}
                     : type == "f32"  ? Format{23, 8}
                                      : Format{52, 11};
  const int ownBias = (1 << (own.exponent - 1)) - 1;
  if (std::isnan(x)) return mantissa > 0 ? x : INFINITY;
  double r = x;
  if (mantissa < own.mantissa && std::isfinite(x) && x != 0) {
    int e = 0;
    std::frexp(x, &e);             // x = f * 2^e, f in [0.5, 1)
    e = std::max(e, 2 - ownBias);  // a denormal keeps the smallest normal's exponent
    r = std::ldexp(std::nearbyint(std::ldexp(x, mantissa + 1 - e)), e - mantissa - 1);
    const double largest = std::ldexp(2.0 - std::ldexp(1.0, -own.mantissa), ownBias);
    if (std::fabs(r) > largest) r = std::copysign(INFINITY, r);
  }
  if (exponent < own.exponent) {
    const int bias = (1 << (exponent - 1)) - 1;
    if (std::fabs(r) >= std::ldexp(1.0, bias + 1))
      r = std::copysign(INFINITY, r);
    else if (std::fabs(r) < std::ldexp(1.0, 1 - bias))
      r = std::copysign(0.0, r);
  }
  return r;
}

// An operand element of a dot or convolution, converted to the result type first (XLA's
// evaluator converts an operand whose type is not the result's).
inline Scalar convertedElement(const gather_scatter::Tensor& t, const std::vector<int64_t>& index,
                               const std::string& type) {
  const int64_t p = linearPosition(t.shape, index);
  Scalar s = t.isFloat() ? Scalar{t.floats.at(static_cast<size_t>(p)), 0}
                         : Scalar{0, t.ints.at(static_cast<size_t>(p))};
  return t.element_type == type ? s : elementwise("convert", "", {t.element_type}, type, {s});
}

// A dot's or convolution's sum of products, as XLA's evaluator accumulates it: f64 in double,
// other floats in float (f16 and bf16 rounded to their type once, at the end), integers
// wrapped to the result's width.
class ProductSum {
 public:
  explicit ProductSum(std::string type) : type_(std::move(type)) {}
  void add(Scalar a, Scalar b) {
    if (type_ == "f64")
      wide_ = wide_ + a.f * b.f;
    else if (gather_scatter::isFloatType(type_))
      single_ = single_ + static_cast<float>(a.f) * static_cast<float>(b.f);
    else
      whole_ = wrapTo(
          type_, static_cast<int64_t>(static_cast<uint64_t>(whole_) +
                                      static_cast<uint64_t>(a.i) * static_cast<uint64_t>(b.i)));
  }
  // Stores the sum at position p of `out` (a tensor of the result type).
  void store(gather_scatter::Tensor& out, int64_t p) const {
    const size_t at = static_cast<size_t>(p);
    if (type_ == "f64")
      out.floats.at(at) = wide_;
    else if (gather_scatter::isFloatType(type_))
      out.floats.at(at) = gather_scatter::roundToElementType(type_, static_cast<double>(single_));
    else
      out.ints.at(at) = whole_;
  }

 private:
  std::string type_;
  float single_ = 0;
  double wide_ = 0;
  int64_t whole_ = 0;
};

}  // namespace idxmap::codegen::testing
