// Values through elementwise integer arithmetic: the operands' values paired point by point and
// a piecewise quasi-affine function applied, then wrapped into the result's element type as
// the op's two's complement (or unsigned) arithmetic wraps: add, subtract, multiply by a
// constant, negate, abs, min, max, clamp, divide and remainder by a constant (C's truncation),
// shifts by a constant, and integer converts.
#include <isl/ilp.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <cstdlib>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;
using mlir_ir::Operation;

std::span<const Tracer::Rules::Row> Tracer::arithmeticRules() {
  static const Rules::Row rows[] = {
      {"stablehlo.clamp", &Tracer::clamp},
      {"stablehlo.add", &Tracer::addSub},
      {"stablehlo.subtract", &Tracer::addSub},
      {"stablehlo.multiply", &Tracer::multiply},
      {"stablehlo.negate", &Tracer::negateAbs},
      {"stablehlo.abs", &Tracer::negateAbs},
      {"stablehlo.minimum", &Tracer::minMax},
      {"stablehlo.maximum", &Tracer::minMax},
      {"stablehlo.divide", &Tracer::divideRemainder},
      {"stablehlo.remainder", &Tracer::divideRemainder},
      {"stablehlo.shift_left", &Tracer::shift},
      {"stablehlo.shift_right_arithmetic", &Tracer::shift},
      {"stablehlo.shift_right_logical", &Tracer::shift},
      {"stablehlo.convert", &Tracer::convert},
  };
  return rows;
}

std::optional<std::vector<IndexValues>> Tracer::operands(const Operation& op,
                                                         const std::vector<int64_t>& shape,
                                                         int depth) {
  std::vector<IndexValues> all;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    std::optional<IndexValues> value = operand(op, i, depth);
    if (!value || (value->shape != shape && !value->shape.empty())) return std::nullopt;
    // A 0-d operand stands for every point.
    if (value->shape != shape && value->represented())
      value = pulled(*value, shape, relation(tuple('p', shape.size()), "[]", box('p', shape)),
                     "broadcast");
    all.push_back(std::move(*value));
  }
  return all;
}

std::optional<int64_t> Tracer::singleValue(const IndexValues& values) {
  if (!values.represented() || checked(isl_map_dim(values.symbolic->get(), isl_dim_param)) > 0 ||
      !values.allKnown())
    return std::nullopt;
  isl::set range = own(isl_map_range(values.known.copy()));
  if (!checked(isl_set_is_singleton(range.get()))) return std::nullopt;
  return isl_bridge::toInt64(own(isl_set_dim_min_val(range.copy(), 0)));
}

IndexValues Tracer::elementwise(const std::vector<IndexValues>& inputs, const mlir_ir::Type& type,
                                const std::string& in, const std::vector<std::string>& conditions,
                                const std::string& what) {
  const std::vector<int64_t>& shape = type.shape;
  std::vector<std::string> parts;
  bool complete = true;
  for (const IndexValues& input : inputs) {
    parts.push_back(input.provenance);
    complete = complete && input.complete;
    if (!input.represented()) return unknown(shape, what + " of " + input.provenance);
  }
  // Leaves with one name are one element: isl pairs the relations on their parameters.
  isl::map values = *inputs[0].symbolic;
  for (size_t i = 1; i < inputs.size(); ++i) {
    std::optional<isl::map> pair = paired(values, *inputs[i].symbolic);
    if (!pair) return unknown(shape, what + ": too many pieces to pair");
    values = *pair;
  }
  IndexValues out = unknown(shape, "");
  out.symbolic = applyRange(values, relation(in, "[v]", conditions));
  out.provenance = what + "(" + join(parts, ", ") + ")";
  out.complete = complete;
  return wrapped(std::move(out), type);
}

namespace {

// { [r] -> [v] }: r wrapped into [lo, hi] modulo `modulus` (decimal texts). Where the values r
// can be (`values`, with any parameters) span a few periods, a piece per period, v = r - k *
// modulus: the same relation as with an existential k, which isl's emptiness tests pay for in
// every later question (a sum of an index and an i32 argument spans two).
isl::map wrapping(const isl::set& values, const std::string& modulus, const std::string& lo,
                  const std::string& hi) {
  const isl::map general = readMap("{ [r] -> [v] : exists (k : v = r - " + modulus + " * k and " +
                                   lo + " <= v <= " + hi + ") }");
  constexpr int kMaxPeriods = 3;
  const isl_size parameters = isl_set_dim(values.get(), isl_dim_param);
  if (parameters < 0) return general;
  isl::set range =
      own(isl_set_project_out(values.copy(), isl_dim_param, 0, static_cast<unsigned>(parameters)));
  isl::val least = own(isl_set_dim_min_val(range.copy(), 0));
  isl::val most = own(isl_set_dim_max_val(range.copy(), 0));
  if (least.is_null() || most.is_null() || !isl_val_is_int(least.get()) ||
      !isl_val_is_int(most.get()))
    return general;
  isl::ctx ctx = islContext();
  const isl::val period(ctx, modulus), bottom(ctx, lo);
  // The periods k of the values: floor((r - lo) / modulus).
  auto periodOf = [&](const isl::val& r) { return r.sub(bottom).div(period).floor(); };
  const isl::val first = periodOf(least), last = periodOf(most);
  if (last.sub(first).gt(isl::val(ctx, kMaxPeriods - 1))) return general;
  std::vector<std::string> pieces;
  for (isl::val k = first; k.le(last); k = k.add(isl::val(ctx, 1))) {
    char* text = isl_val_to_str(k.mul(period).get());
    const std::string shift = text;
    free(text);
    pieces.push_back("(v = r - (" + shift + ") and " + lo + " + (" + shift + ") <= r <= " + hi +
                     " + (" + shift + "))");
  }
  return readMap("{ [r] -> [v] : " + join(pieces, " or ") + " }");
}

}  // namespace

IndexValues Tracer::wrapped(IndexValues values, const mlir_ir::Type& type) {
  if (!values.represented()) return values;
  const mlir_ir::ElementType element = type.elementType();
  std::optional<std::pair<int64_t, int64_t>> range = valueRange(element);
  if (!range) return unknown(values.shape, "element type " + element.toString());
  const std::string lo = std::to_string(range->first), hi = std::to_string(range->second);
  isl::set fits = readSet("{ [v] : " + lo + " <= v <= " + hi + " }");
  isl::set all = own(isl_map_range(values.symbolic->copy()));
  if (checked(isl_set_is_subset(all.get(), fits.get()))) return values;
  // ui64 holds values past int64, which nothing downstream represents.
  if (element.kind == mlir_ir::ElementKind::UI64)
    return unknown(values.shape, values.provenance + ": may exceed what ui64 values int64 holds");
  const int width = element.bitWidth();
  std::string modulus = "1";
  for (int bit = 0; bit < width; ++bit) {  // 2^width in decimal, past int64 for 64 bits
    int carry = 0;
    for (size_t k = modulus.size(); k-- > 0;) {
      int digit = (modulus[k] - '0') * 2 + carry;
      modulus[k] = static_cast<char>('0' + digit % 10);
      carry = digit / 10;
    }
    if (carry) modulus.insert(modulus.begin(), static_cast<char>('0' + carry));
  }
  values.symbolic = applyRange(*values.symbolic, wrapping(all, modulus, lo, hi));
  values.provenance += " (wrapped to " + element.toString() + ")";
  return values;
}

IndexValues Tracer::clamp(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 3) return opaque(op, type, "clamp without usable operands");
  // v = min(max(x, lo), hi), case by case (StableHLO's clamp, lo > hi included).
  return elementwise(*inputs, type, "[lo, x, hi]",
                     {"((lo <= x <= hi and v = x) or (x >= lo and x > hi and v = hi) or "
                      "(x < lo and lo <= hi and v = lo) or (x < lo and lo > hi and v = hi))"},
                     "clamp");
}

IndexValues Tracer::addSub(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 2) return opaque(op, type, op.name + " without usable operands");
  bool add = op.name == "stablehlo.add";
  if (type.elementType().kind == mlir_ir::ElementKind::I1) {  // add of predicates is "or"
    if (!add) return opaque(op, type, "subtract of predicates");
    return elementwise(*inputs, type, "[a, b]", {"(a >= b and v = a) or (a < b and v = b)"}, "or");
  }
  return elementwise(*inputs, type, "[a, b]", {add ? "v = a + b" : "v = a - b"},
                     add ? "add" : "subtract");
}

IndexValues Tracer::multiply(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 2) return opaque(op, type, "multiply without usable operands");
  if (type.elementType().kind == mlir_ir::ElementKind::I1)  // multiply of predicates is "and"
    return elementwise(*inputs, type, "[a, b]", {"(a <= b and v = a) or (a > b and v = b)"}, "and");
  std::optional<int64_t> right = singleValue((*inputs)[1]), left = singleValue((*inputs)[0]);
  if (!left && !right)
    return opaque(op, type, "multiply of two tensors that are not constant (not affine)");
  const IndexValues& other = right ? (*inputs)[0] : (*inputs)[1];
  const int64_t factor = right ? *right : *left;
  IndexValues product =
      elementwise({other}, type, "[a]", {"v = " + std::to_string(factor) + " * a"}, "multiply");
  product.provenance = "multiply(" + other.provenance + ", " + std::to_string(factor) + ")";
  return product;
}

IndexValues Tracer::negateAbs(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 1) return opaque(op, type, op.name + " without an operand");
  if (op.name == "stablehlo.negate") return elementwise(*inputs, type, "[a]", {"v = -a"}, "negate");
  return elementwise(*inputs, type, "[a]", {"(a >= 0 and v = a) or (a < 0 and v = -a)"}, "abs");
}

IndexValues Tracer::minMax(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 2) return opaque(op, type, op.name + " without usable operands");
  if (op.name == "stablehlo.minimum")
    return elementwise(*inputs, type, "[a, b]", {"(a <= b and v = a) or (a > b and v = b)"},
                       "minimum");
  return elementwise(*inputs, type, "[a, b]", {"(a >= b and v = a) or (a < b and v = b)"},
                     "maximum");
}

// By a constant divisor c != 0 only; C truncates toward zero, and the remainder takes the
// dividend's sign. The one overflow (the type's minimum divided by -1) is left to the type:
// the spec does not define it, so such a value is not represented.
IndexValues Tracer::divideRemainder(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 2) return opaque(op, type, op.name + " without usable operands");
  std::optional<int64_t> divisor = singleValue((*inputs)[1]);
  const bool divide = op.name == "stablehlo.divide";
  if (!divisor || *divisor == 0)
    return opaque(op, type, op.name + " by a value that is not one nonzero constant");
  if (*divisor == -1 && type.elementType().isSigned()) {
    std::pair<int64_t, int64_t> range = *valueRange(type.elementType());
    isl::set dividends = own(isl_map_range((*inputs)[0].symbolic->copy()));
    isl::set minimum = readSet("{ [v] : v = " + std::to_string(range.first) + " }");
    if (!checked(isl_set_is_disjoint(dividends.get(), minimum.get())))
      return opaque(op, type, op.name + " of the type's minimum by -1 (not defined)");
  }
  const std::string c = std::to_string(*divisor < 0 ? -*divisor : *divisor);
  const std::string sign = *divisor < 0 ? "-" : "";
  // q = trunc(a / |c|), then the divisor's sign.
  const std::string quotient =
      "((a >= 0 and q = floor(a/" + c + ")) or (a < 0 and q = -floor(-a/" + c + ")))";
  std::vector<std::string> conditions = {quotient,
                                         divide ? "v = " + sign + "q" : "v = a - " + c + " * q"};
  return elementwise({(*inputs)[0]}, type, "[a]",
                     {"exists (q : " + join(conditions, " and ") + ")"},
                     divide ? "divide(" + std::to_string(*divisor) + ")"
                            : "remainder(" + std::to_string(*divisor) + ")");
}

// By a constant count in [0, bits): left multiplies by 2^k (and wraps); arithmetic right
// floors; logical right shifts the unsigned bit pattern.
IndexValues Tracer::shift(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 2) return opaque(op, type, op.name + " without usable operands");
  std::optional<int64_t> count = singleValue((*inputs)[1]);
  const int width = type.elementType().bitWidth();
  if (!count || *count < 0 || *count >= width || *count > 62)
    return opaque(op, type, op.name + " by a count that is not one constant within the width");
  const std::string factor = std::to_string(int64_t{1} << *count);
  if (op.name == "stablehlo.shift_left")
    return elementwise({(*inputs)[0]}, type, "[a]", {"v = " + factor + " * a"}, "shift_left");
  if (op.name == "stablehlo.shift_right_arithmetic" || !type.elementType().isSigned())
    return elementwise({(*inputs)[0]}, type, "[a]", {"v = floor(a/" + factor + ")"}, "shift_right");
  if (width >= 64) return opaque(op, type, "shift_right_logical of a 64-bit signed value");
  const std::string modulus = std::to_string(int64_t{1} << width);
  return elementwise({(*inputs)[0]}, type, "[a]",
                     {"exists (u : u = a - " + modulus + " * floor(a/" + modulus +
                      ") and v = floor(u/" + factor + "))"},
                     "shift_right_logical");
}

// Integer (or predicate) to integer: the value, wrapped where the new type cannot hold it.
IndexValues Tracer::convert(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<mlir_ir::Type> from = op.operands.empty() ? std::nullopt : operandType(op, 0);
  if (!from || !from->elementType().isInteger())
    return opaque(op, type, "convert from a non-integer type");
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!source || source->shape != type.shape)
    return opaque(op, type, "convert without a usable operand");
  if (type.elementType().kind == mlir_ir::ElementKind::I1)  // nonzero is true
    return elementwise({*source}, type, "[a]", {"(a = 0 and v = 0) or (a != 0 and v = 1)"},
                       "convert");
  return elementwise({*source}, type, "[a]", {"v = a"}, "convert");
}

}  // namespace idxmap::index_provenance
