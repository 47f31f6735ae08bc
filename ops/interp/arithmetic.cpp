// Element-wise ops beyond elementwise.cpp's: the one-operand ops (negate, abs, not, sign,
// floor, ceil, rounding, square and the float functions: exponential, log, sqrt, sine, tan,
// ...) and divide, remainder, power, atan2 and the shifts. Float functions are computed in
// double and rounded once to the element type: within an ULP of the exact value for f32,
// f16 and bf16.
//
// Where StableHLO leaves a result implementation-defined, the interpreter gives what
// StableHLO's own interpreter gives, since the programs `idxmap run` takes are written
// against it: integer x / 0, x rem 0, INT_MIN / -1 and INT_MIN rem -1 are all 0 (XLA's CPU
// backend differs: x / 0 is -1, x rem 0 is x, INT_MIN / -1 is INT_MIN). A shift by an amount
// at or past the bit width (read unsigned) gives 0, or the sign fill for
// shift_right_arithmetic.
#include <cmath>
#include <cstdint>

#include "ops/interp/element_functions.h"

namespace idxmap::mlir_interpreter {
namespace {

// --- one operand ---------------------------------------------------------------------------

std::vector<Tensor> negate(const OpContext& ctx) {
  return unary(ctx, {[](const std::string&, int64_t x) {
                       return wrapping(0, x, [](uint64_t a, uint64_t b) { return a - b; });
                     },
                     [](double x) { return -x; }, nullptr});
}

std::vector<Tensor> abs(const OpContext& ctx) {
  if (isUnsignedType(ctx.operands.at(0).element_type))
    fail(ctx, "takes signed integer or float operands, found " + describeType(ctx.operands.at(0)));
  // |INT_MIN| wraps to INT_MIN, as two's complement gives it.
  return unary(ctx, {[](const std::string&, int64_t x) {
                       return x < 0 ? wrapping(0, x, [](uint64_t a, uint64_t b) { return a - b; })
                                    : x;
                     },
                     [](double x) { return std::fabs(x); }, nullptr});
}

std::vector<Tensor> bitwiseNot(const OpContext& ctx) {
  return unary(ctx, {[](const std::string&, int64_t x) { return ~x; }, nullptr,
                     [](int64_t x) { return x ^ 1; }});
}

std::vector<Tensor> sign(const OpContext& ctx) {
  if (isUnsignedType(ctx.operands.at(0).element_type))
    fail(ctx, "takes signed integer or float operands, found " + describeType(ctx.operands.at(0)));
  // Float: NaN stays NaN and -0.0 / +0.0 keep their sign, as the spec says.
  return unary(
      ctx, {[](const std::string&, int64_t x) { return int64_t{(x > 0) - (x < 0)}; },
            [](double x) { return std::isnan(x) || x == 0 ? x : std::copysign(1.0, x); }, nullptr});
}

UnaryFunctions floatOnly(double (*f)(double)) { return {nullptr, f, nullptr}; }

std::vector<Tensor> floorOp(const OpContext& ctx) {
  return unary(ctx, floatOnly([](double x) { return std::floor(x); }));
}
std::vector<Tensor> ceilOp(const OpContext& ctx) {
  return unary(ctx, floatOnly([](double x) { return std::ceil(x); }));
}
// Ties to even (IEEE roundeven); std::nearbyint would depend on the rounding mode.
std::vector<Tensor> roundNearestEven(const OpContext& ctx) {
  return unary(ctx, floatOnly([](double x) {
                 double r = std::round(x);  // ties away from zero
                 if (std::fabs(x - std::trunc(x)) == 0.5) r = 2.0 * std::round(x / 2.0);
                 return r;
               }));
}
std::vector<Tensor> roundNearestAfz(const OpContext& ctx) {
  return unary(ctx, floatOnly([](double x) { return std::round(x); }));
}

std::vector<Tensor> square(const OpContext& ctx) {
  return unary(ctx, {[](const std::string&, int64_t x) {
                       return wrapping(x, x, [](uint64_t a, uint64_t b) { return a * b; });
                     },
                     [](double x) { return x * x; }, nullptr});
}

// The float functions, one evaluator each: a table row names the function.
template <double (*F)(double)>
std::vector<Tensor> floatFunction(const OpContext& ctx) {
  return unary(ctx, floatOnly(F));
}
double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double exp(double x) { return std::exp(x); }
double expm1(double x) { return std::expm1(x); }
double log(double x) { return std::log(x); }
double log1p(double x) { return std::log1p(x); }
double sqrt(double x) { return std::sqrt(x); }
double cbrt(double x) { return std::cbrt(x); }
double sin(double x) { return std::sin(x); }
double cos(double x) { return std::cos(x); }
double tan(double x) { return std::tan(x); }
double tanh(double x) { return std::tanh(x); }

std::vector<Tensor> power(const OpContext& ctx) {
  return binary(ctx, {nullptr, [](double a, double b) { return std::pow(a, b); }, nullptr});
}
std::vector<Tensor> atan2(const OpContext& ctx) {
  return binary(ctx, {nullptr, [](double a, double b) { return std::atan2(a, b); }, nullptr});
}

// --- divide, remainder -------------------------------------------------------------------

bool isMinimum(const std::string& type, int64_t x) {
  int width = integerBitWidth(type);
  return !isUnsignedType(type) && x == wrapInteger(type, int64_t{1} << (width - 1));
}

uint64_t asUnsigned(const std::string& type, int64_t x) {
  int width = integerBitWidth(type);
  uint64_t bits = static_cast<uint64_t>(x);
  return width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
}

std::vector<Tensor> divide(const OpContext& ctx) {
  return binary(ctx, {[](const std::string& type, int64_t a, int64_t b) -> int64_t {
                        if (b == 0) return 0;
                        if (isUnsignedType(type))
                          return static_cast<int64_t>(asUnsigned(type, a) / asUnsigned(type, b));
                        if (b == -1 && isMinimum(type, a)) return 0;
                        return a / b;  // truncates toward zero, as the spec says
                      },
                      [](double a, double b) { return a / b; }, nullptr});
}

std::vector<Tensor> remainder(const OpContext& ctx) {
  return binary(ctx, {[](const std::string& type, int64_t a, int64_t b) -> int64_t {
                        if (b == 0) return 0;
                        if (isUnsignedType(type))
                          return static_cast<int64_t>(asUnsigned(type, a) % asUnsigned(type, b));
                        if (b == -1) return 0;
                        return a % b;  // the sign of the dividend, as the spec says
                      },
                      [](double a, double b) { return std::fmod(a, b); }, nullptr});
}

// chlo.mulhi: the high half of the double-width product (signed, or unsigned for ui*).
std::vector<Tensor> multiplyHigh(const OpContext& ctx) {
  return binary(ctx, {[](const std::string& type, int64_t a, int64_t b) -> int64_t {
                        int width = integerBitWidth(type);
                        if (isUnsignedType(type)) {
                          unsigned __int128 product =
                              static_cast<unsigned __int128>(asUnsigned(type, a)) *
                              asUnsigned(type, b);
                          return static_cast<int64_t>(static_cast<uint64_t>(product >> width));
                        }
                        __int128 product = static_cast<__int128>(a) * b;
                        return static_cast<int64_t>(product >> width);
                      },
                      nullptr, nullptr});
}

// --- shifts --------------------------------------------------------------------------------

std::vector<Tensor> shiftLeft(const OpContext& ctx) {
  return binary(ctx, {[](const std::string& type, int64_t a, int64_t b) -> int64_t {
                        if (asUnsigned(type, b) >= static_cast<uint64_t>(integerBitWidth(type)))
                          return 0;
                        return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
                      },
                      nullptr, nullptr});
}

std::vector<Tensor> shiftRightLogical(const OpContext& ctx) {
  return binary(ctx, {[](const std::string& type, int64_t a, int64_t b) -> int64_t {
                        if (asUnsigned(type, b) >= static_cast<uint64_t>(integerBitWidth(type)))
                          return 0;
                        return static_cast<int64_t>(asUnsigned(type, a) >> b);
                      },
                      nullptr, nullptr});
}

std::vector<Tensor> shiftRightArithmetic(const OpContext& ctx) {
  return binary(ctx, {[](const std::string& type, int64_t a, int64_t b) -> int64_t {
                        // Values are kept sign-extended (zero-extended for ui*), so the
                        // 64-bit arithmetic shift is the type's; ui* shifts in its top bit.
                        int width = integerBitWidth(type);
                        int64_t value = isUnsignedType(type) && width < 64
                                            ? wrapInteger("i" + std::to_string(width), a)
                                            : a;
                        uint64_t amount = asUnsigned(type, b);
                        if (amount >= static_cast<uint64_t>(width)) return value < 0 ? -1 : 0;
                        return value >> amount;
                      },
                      nullptr, nullptr});
}

}  // namespace

const std::vector<OpRule>& arithmeticRules() {
  static const std::vector<OpRule> rules = {
      {"stablehlo.negate", negate},
      {"stablehlo.abs", abs},
      {"stablehlo.not", bitwiseNot},
      {"stablehlo.sign", sign},
      {"stablehlo.floor", floorOp},
      {"stablehlo.ceil", ceilOp},
      {"stablehlo.round_nearest_even", roundNearestEven},
      {"stablehlo.round_nearest_afz", roundNearestAfz},
      {"stablehlo.square", square},
      {"stablehlo.exponential", floatFunction<exp>},
      {"stablehlo.exponential_minus_one", floatFunction<expm1>},
      {"stablehlo.log", floatFunction<log>},
      {"stablehlo.log_plus_one", floatFunction<log1p>},
      {"stablehlo.logistic", floatFunction<logistic>},
      {"stablehlo.sqrt", floatFunction<sqrt>},
      {"stablehlo.rsqrt", floatFunction<rsqrt>},
      {"stablehlo.cbrt", floatFunction<cbrt>},
      {"stablehlo.sine", floatFunction<sin>},
      {"stablehlo.cosine", floatFunction<cos>},
      {"stablehlo.tan", floatFunction<tan>},
      {"stablehlo.tanh", floatFunction<tanh>},
      {"stablehlo.power", power},
      {"chlo.mulhi", multiplyHigh},
      {"stablehlo.atan2", atan2},
      {"stablehlo.divide", divide},
      {"stablehlo.remainder", remainder},
      {"stablehlo.shift_left", shiftLeft},
      {"stablehlo.shift_right_logical", shiftRightLogical},
      {"stablehlo.shift_right_arithmetic", shiftRightArithmetic},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
