// Element-wise ops: add, subtract, multiply, minimum, maximum, and, or, xor, compare, select,
// clamp, convert. Integer results wrap to the element type's width; float results are
// computed in double and rounded once to the element type (exact for f64; for f32, f16 and
// bf16 one rounding of the exact double result of +, -, *, / is the correctly rounded result,
// since double carries more than twice their precision plus two bits).
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/interp/convert.h"
#include "ops/interp/element_functions.h"

namespace idxmap::mlir_interpreter {
namespace {

using gather_scatter::ieeeMaximum;
using gather_scatter::ieeeMinimum;

ElementFunctions minimumFunctions() {
  return {[](const std::string& t, int64_t a, int64_t b) { return integerLess(t, b, a) ? b : a; },
          ieeeMinimum, [](int64_t a, int64_t b) { return a & b; }};
}

ElementFunctions maximumFunctions() {
  return {[](const std::string& t, int64_t a, int64_t b) { return integerLess(t, a, b) ? b : a; },
          ieeeMaximum, [](int64_t a, int64_t b) { return a | b; }};
}

std::vector<Tensor> add(const OpContext& ctx) {
  return binary(ctx, {[](const std::string&, int64_t a, int64_t b) {
                        return wrapping(a, b, [](uint64_t x, uint64_t y) { return x + y; });
                      },
                      [](double a, double b) { return a + b; },
                      [](int64_t a, int64_t b) { return a | b; }});  // boolean add is or
}

std::vector<Tensor> subtract(const OpContext& ctx) {
  return binary(ctx, {[](const std::string&, int64_t a, int64_t b) {
                        return wrapping(a, b, [](uint64_t x, uint64_t y) { return x - y; });
                      },
                      [](double a, double b) { return a - b; }, nullptr});
}

std::vector<Tensor> multiply(const OpContext& ctx) {
  return binary(ctx, {[](const std::string&, int64_t a, int64_t b) {
                        return wrapping(a, b, [](uint64_t x, uint64_t y) { return x * y; });
                      },
                      [](double a, double b) { return a * b; },
                      [](int64_t a, int64_t b) { return a & b; }});  // boolean multiply is and
}

std::vector<Tensor> minimum(const OpContext& ctx) { return binary(ctx, minimumFunctions()); }
std::vector<Tensor> maximum(const OpContext& ctx) { return binary(ctx, maximumFunctions()); }

std::vector<Tensor> bitwiseAnd(const OpContext& ctx) {
  auto f = [](int64_t a, int64_t b) { return a & b; };
  return binary(ctx,
                {[f](const std::string&, int64_t a, int64_t b) { return f(a, b); }, nullptr, f});
}

std::vector<Tensor> bitwiseOr(const OpContext& ctx) {
  auto f = [](int64_t a, int64_t b) { return a | b; };
  return binary(ctx,
                {[f](const std::string&, int64_t a, int64_t b) { return f(a, b); }, nullptr, f});
}

std::vector<Tensor> bitwiseXor(const OpContext& ctx) {
  auto f = [](int64_t a, int64_t b) { return a ^ b; };
  return binary(ctx,
                {[f](const std::string&, int64_t a, int64_t b) { return f(a, b); }, nullptr, f});
}

// --- compare -------------------------------------------------------------------------------

// `#stablehlo<comparison_direction LT>` (generic) or the keyword `LT` (pretty).
std::string comparisonWord(const OpContext& ctx, std::string_view attribute,
                           const std::vector<std::string>& words) {
  std::optional<std::string> word = ctx.op.namedWord(attribute, words);
  if (!word) {
    const mlir_ir::Attribute* written = ctx.op.attribute(attribute);
    throw InterpretError(written->location,
                         ctx.op.name + ": unknown " + std::string(attribute) + " " + written->text);
  }
  return *word;
}

// A double's position in IEEE-754's totalOrder: -NaN < -inf < ... < -0 < +0 < ... < NaN.
int64_t totalOrderKey(double value) {
  int64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits < 0 ? std::numeric_limits<int64_t>::min() - bits - 1 : bits;
}

std::vector<Tensor> compare(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  const Tensor &lhs = ctx.operands[0], &rhs = ctx.operands[1];
  expectSameType(ctx, lhs, rhs);
  std::string direction =
      comparisonWord(ctx, "comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"});
  if (direction.empty()) fail(ctx, "missing comparison direction (EQ, NE, GE, GT, LE, LT)");
  const std::vector<std::string> types = {"FLOAT", "TOTALORDER", "WEAKORDER", "SIGNED", "UNSIGNED"};
  std::string compareType = comparisonWord(ctx, "compare_type", types);
  for (const std::string& keyword : ctx.op.keywords)  // a misspelt type is never ignored
    if (keyword != direction && keyword != compareType)
      fail(ctx, "unknown comparison type '" + keyword +
                    "' (FLOAT, TOTALORDER, WEAKORDER, SIGNED or UNSIGNED)");
  Tensor result{"i1", lhs.shape, std::vector<int64_t>(lhs.elementCount()), {}};
  auto decide = [&](bool less, bool equal, bool unordered) {
    if (unordered) return direction == "NE";
    if (direction == "EQ") return equal;
    if (direction == "NE") return !equal;
    if (direction == "LT") return less;
    if (direction == "LE") return less || equal;
    if (direction == "GT") return !less && !equal;
    return !less;  // GE
  };
  for (int64_t i = 0; i < lhs.elementCount(); ++i) {
    bool value;
    if (lhs.isFloat() && compareType == "WEAKORDER") {
      // Every NaN equals every other and lies above every number; -0 equals +0.
      double a = lhs.floats[i], b = rhs.floats[i];
      bool nanA = std::isnan(a), nanB = std::isnan(b);
      value = decide((!nanA && nanB) || (!nanA && !nanB && a < b),
                     (nanA && nanB) || (!nanA && !nanB && a == b), false);
    } else if (lhs.isFloat() && compareType == "TOTALORDER") {
      int64_t a = totalOrderKey(lhs.floats[i]), b = totalOrderKey(rhs.floats[i]);
      value = decide(a < b, a == b, false);
    } else if (lhs.isFloat()) {
      double a = lhs.floats[i], b = rhs.floats[i];
      value = decide(a < b, a == b, std::isnan(a) || std::isnan(b));
    } else {
      int64_t a = lhs.ints[i], b = rhs.ints[i];
      bool less = compareType == "SIGNED"     ? a < b
                  : compareType == "UNSIGNED" ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b)
                                              : integerLess(lhs.element_type, a, b);
      value = decide(less, a == b, false);
    }
    result.ints[i] = value;
  }
  return {result};
}

// --- select, clamp ----------------------------------------------------------------------------

// Element `i` of a tensor that is either 0-d (broadcast) or of the operand's shape.
int64_t broadcastPosition(const Tensor& tensor, int64_t i) { return tensor.shape.empty() ? 0 : i; }

void expectScalarOrShape(const OpContext& ctx, const Tensor& tensor, const Tensor& like,
                         const std::string& what) {
  if (!tensor.shape.empty() && tensor.shape != like.shape)
    fail(ctx, what + " must be 0-d or of shape " + describeType(like) + ", found " +
                  describeType(tensor));
}

std::vector<Tensor> select(const OpContext& ctx) {
  expectOperandCount(ctx, 3);
  const Tensor &pred = ctx.operands[0], &onTrue = ctx.operands[1], &onFalse = ctx.operands[2];
  if (pred.element_type != "i1") fail(ctx, "the predicate must be i1, found " + describeType(pred));
  expectSameType(ctx, onTrue, onFalse);
  expectScalarOrShape(ctx, pred, onTrue, "the predicate");
  Tensor result = onFalse;
  for (int64_t i = 0; i < result.elementCount(); ++i)
    if (pred.ints[broadcastPosition(pred, i)]) copyElement(onTrue, i, result, i);
  return {result};
}

std::vector<Tensor> clamp(const OpContext& ctx) {
  expectOperandCount(ctx, 3);
  const Tensor &low = ctx.operands[0], &operand = ctx.operands[1], &high = ctx.operands[2];
  for (const Tensor* bound : {&low, &high}) {
    if (bound->element_type != operand.element_type)
      fail(ctx, "min and max must have the operand's element type, found " + describeType(*bound));
    expectScalarOrShape(ctx, *bound, operand, "min and max");
  }
  ElementFunctions lower = maximumFunctions(), upper = minimumFunctions();
  Tensor result = operand;
  const std::string& type = operand.element_type;
  for (int64_t i = 0; i < result.elementCount(); ++i) {
    int64_t lo = broadcastPosition(low, i), hi = broadcastPosition(high, i);
    if (result.isFloat()) {
      result.floats[i] =
          upper.floating(lower.floating(operand.floats[i], low.floats[lo]), high.floats[hi]);
    } else if (isBooleanType(type)) {
      result.ints[i] = upper.boolean(lower.boolean(operand.ints[i], low.ints[lo]), high.ints[hi]);
    } else {
      result.ints[i] =
          upper.integer(type, lower.integer(type, operand.ints[i], low.ints[lo]), high.ints[hi]);
    }
  }
  return {result};
}

std::vector<Tensor> convert(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  std::string type = elementTypeName(ctx, declaredResultType(ctx));
  return {convertTensor(ctx.operands[0], type)};
}

}  // namespace

const std::vector<OpRule>& elementwiseRules() {
  static const std::vector<OpRule> rules = {
      {"stablehlo.add", add},           {"stablehlo.subtract", subtract},
      {"stablehlo.multiply", multiply}, {"stablehlo.minimum", minimum},
      {"stablehlo.maximum", maximum},   {"stablehlo.and", bitwiseAnd},
      {"stablehlo.or", bitwiseOr},      {"stablehlo.xor", bitwiseXor},
      {"stablehlo.compare", compare},   {"stablehlo.select", select},
      {"stablehlo.clamp", clamp},       {"stablehlo.convert", convert},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
