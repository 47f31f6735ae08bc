#include "verify/programs/float_terms.h"

#include <bit>
#include <cmath>
#include <limits>

#include "verify/programs/term_builder_internal.h"

namespace idxmap::program_terms {
namespace {

// Exponent and significand bits (hidden bit included), as Z3 counts them.
std::pair<unsigned, unsigned> format(const mlir_ir::ElementType& element) {
  switch (element.kind) {
    case mlir_ir::ElementKind::F16:
      return {5, 11};
    case mlir_ir::ElementKind::BF16:
      return {8, 8};
    case mlir_ir::ElementKind::F32:
      return {8, 24};
    case mlir_ir::ElementKind::F64:
      return {11, 53};
    default:
      throw std::invalid_argument("element type " + element.toString() + " is not a float");
  }
}

z3::expr wrapped(z3::context& ctx, Z3_ast ast) {
  z3::expr term(ctx, ast);
  ctx.check_error();
  return term;
}

}  // namespace

z3::expr exactReal(z3::context& ctx, double value) {
  if (!std::isfinite(value)) return ctx.real_const(("nonfinite_" + std::to_string(value)).c_str());
  int exponent = 0;
  double mantissa = std::frexp(value, &exponent);  // value = mantissa * 2^exponent
  auto digits = static_cast<int64_t>(std::ldexp(mantissa, 53));
  exponent -= 53;
  z3::expr numerator = ctx.real_val(digits);
  z3::expr power = ctx.real_val(1);
  for (int i = 0; i < std::abs(exponent); ++i) power = power * 2;
  return (exponent >= 0 ? numerator * power : numerator / power).simplify();
}

z3::sort FloatTerms::sort(const mlir_ir::ElementType& element) const {
  if (!ieee()) return ctx_.real_sort();
  auto [exponent, significand] = format(element);
  return ctx_.fpa_sort(exponent, significand);
}

z3::expr FloatTerms::nearestEven() const { return wrapped(ctx_, Z3_mk_fpa_rne(ctx_)); }

z3::expr FloatTerms::constant(double value, const mlir_ir::ElementType& element) const {
  if (!ieee()) {
    readNegativeZero_ = readNegativeZero_ || (value == 0 && std::signbit(value));
    return exactReal(ctx_, value);
  }
  z3::sort s = sort(element);
  if (std::isnan(value)) return wrapped(ctx_, Z3_mk_fpa_nan(ctx_, s));
  if (std::isinf(value)) return wrapped(ctx_, Z3_mk_fpa_inf(ctx_, s, value < 0));
  if (value == 0) return wrapped(ctx_, Z3_mk_fpa_zero(ctx_, s, std::signbit(value)));
  // Rounded once more from the exact real: a no-op for a value of the type, and the type's
  // own rounding for a double that is not one.
  return wrapped(ctx_, Z3_mk_fpa_to_fp_real(ctx_, nearestEven(), exactReal(ctx_, value), s))
      .simplify();
}

z3::expr FloatTerms::opaque(const std::string& name, const std::vector<z3::expr>& operands,
                            const mlir_ir::ElementType& element) const {
  z3::sort_vector domain(ctx_);
  z3::expr_vector args(ctx_);
  for (const z3::expr& operand : operands) {
    domain.push_back(operand.get_sort());
    args.push_back(operand);
  }
  std::string full = name + "_" + element.toString();
  return ctx_.function(full.c_str(), domain, sort(element))(args);
}

z3::expr FloatTerms::commuting(const char* name, RoundedOp exact, const z3::expr& a,
                               const z3::expr& b, const mlir_ir::ElementType& element) const {
  if (model_ == FloatModel::kIeee) return wrapped(ctx_, exact(ctx_, nearestEven(), a, b));
  return a.id() <= b.id() ? opaque(name, {a, b}, element) : opaque(name, {b, a}, element);
}

z3::expr FloatTerms::add(const z3::expr& a, const z3::expr& b,
                         const mlir_ir::ElementType& element) {
  return ieee() ? commuting("fadd", Z3_mk_fpa_add, a, b, element) : a + b;
}

z3::expr FloatTerms::subtract(const z3::expr& a, const z3::expr& b,
                              const mlir_ir::ElementType& element) {
  if (!ieee()) return a - b;
  return add(a, negate(b), element);  // IEEE 754: x - y is x + (-y), rounding and zeros alike
}

z3::expr FloatTerms::multiply(const z3::expr& a, const z3::expr& b,
                              const mlir_ir::ElementType& element) {
  return ieee() ? commuting("fmul", Z3_mk_fpa_mul, a, b, element) : a * b;
}

z3::expr FloatTerms::divide(const z3::expr& a, const z3::expr& b,
                            const mlir_ir::ElementType& element) {
  if (model_ == FloatModel::kIeee) return wrapped(ctx_, Z3_mk_fpa_div(ctx_, nearestEven(), a, b));
  return opaque("fdiv", {a, b}, element);
}

z3::expr FloatTerms::sqrt(const z3::expr& a, const mlir_ir::ElementType& element) {
  if (model_ == FloatModel::kIeee) return wrapped(ctx_, Z3_mk_fpa_sqrt(ctx_, nearestEven(), a));
  return opaque("fsqrt", {a}, element);
}

z3::expr FloatTerms::negate(const z3::expr& a) const {
  return ieee() ? wrapped(ctx_, Z3_mk_fpa_neg(ctx_, a)) : -a;
}

z3::expr FloatTerms::abs(const z3::expr& a) const {
  return ieee() ? wrapped(ctx_, Z3_mk_fpa_abs(ctx_, a)) : z3::ite(a < 0, -a, a);
}

z3::expr FloatTerms::minimum(const z3::expr& a, const z3::expr& b) const {
  if (!ieee()) return z3::ite(b < a, b, a);
  z3::expr nan = wrapped(ctx_, Z3_mk_fpa_nan(ctx_, a.get_sort()));
  z3::expr aNegative = wrapped(ctx_, Z3_mk_fpa_is_negative(ctx_, a));
  return z3::ite(a.mk_is_nan() || b.mk_is_nan(), nan,
                 z3::ite(z3::fp_eq(a, b), z3::ite(aNegative, a, b), z3::ite(a < b, a, b)));
}

z3::expr FloatTerms::maximum(const z3::expr& a, const z3::expr& b) const {
  if (!ieee()) return z3::ite(a < b, b, a);
  z3::expr nan = wrapped(ctx_, Z3_mk_fpa_nan(ctx_, a.get_sort()));
  z3::expr aNegative = wrapped(ctx_, Z3_mk_fpa_is_negative(ctx_, a));
  return z3::ite(a.mk_is_nan() || b.mk_is_nan(), nan,
                 z3::ite(z3::fp_eq(a, b), z3::ite(aNegative, b, a), z3::ite(a > b, a, b)));
}

z3::expr FloatTerms::compare(const std::string& direction, const z3::expr& a,
                             const z3::expr& b) const {
  // On IEEE floats z3's == is identity (+0 and -0 differ, NaN equals NaN); a compare is fp.eq.
  z3::expr equal = ieee() ? z3::fp_eq(a, b) : a == b;
  if (direction == "EQ") return equal;
  if (direction == "NE") return !equal;
  if (direction == "LT") return a < b;
  if (direction == "LE") return a <= b;
  if (direction == "GT") return a > b;
  return a >= b;
}

z3::expr FloatTerms::fromInteger(const z3::expr& integer, const mlir_ir::ElementType& from,
                                 const mlir_ir::ElementType& to) {
  if (!ieee()) return z3::to_real(integer);
  z3::expr value = integer.simplify();
  if (value.is_numeral())  // rounded exactly by Z3's own arithmetic on the numeral
    return wrapped(ctx_, Z3_mk_fpa_to_fp_real(ctx_, nearestEven(), z3::to_real(value), sort(to)))
        .simplify();
  return opaque("convert_" + from.toString(), {integer}, to);
}

z3::expr FloatTerms::convert(const z3::expr& value, const mlir_ir::ElementType& from,
                             const mlir_ir::ElementType& to) {
  if (from == to) return value;
  bool widening = to.bitWidth() > from.bitWidth() && !(from.kind == mlir_ir::ElementKind::BF16 &&
                                                       to.kind == mlir_ir::ElementKind::F16);
  if (model_ == FloatModel::kIeee)
    return wrapped(ctx_, Z3_mk_fpa_to_fp_float(ctx_, nearestEven(), value, sort(to)));
  if (model_ == FloatModel::kReals && widening) return value;  // exact
  return opaque("convert_" + from.toString(), {value}, to);
}

double FloatTerms::valueOf(const z3::expr& numeral) {
  z3::context& ctx = numeral.ctx();
  if (!numeral.is_fpa()) {
    if (!numeral.is_numeral()) return 0;
    std::string text = numeral.get_decimal_string(17);
    if (!text.empty() && text.back() == '?') text.pop_back();
    return std::strtod(text.c_str(), nullptr);
  }
  if (Z3_fpa_is_numeral_nan(ctx, numeral)) return std::numeric_limits<double>::quiet_NaN();
  bool negative = Z3_fpa_is_numeral_negative(ctx, numeral);
  if (Z3_fpa_is_numeral_inf(ctx, numeral))
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  // Widened to a double exactly (every format here fits in one), then read bit for bit. Each
  // operand is held by a z3::expr before the next call: an unreferenced result may be freed by
  // the next API call, and the order a compiler evaluates arguments in is its own (clang's
  // order freed the rounding mode and stopped Z3 with an assertion).
  z3::expr nearest = wrapped(ctx, Z3_mk_fpa_rne(ctx));
  z3::sort doubleSort = ctx.fpa_sort(11, 53);
  z3::expr wide = wrapped(ctx, Z3_mk_fpa_to_fp_float(ctx, nearest, numeral, doubleSort)).simplify();
  z3::expr bits = wide.mk_to_ieee_bv().simplify();
  uint64_t pattern = 0;
  if (!bits.is_numeral_u64(pattern)) return 0;
  return std::bit_cast<double>(pattern);
}

}  // namespace idxmap::program_terms
