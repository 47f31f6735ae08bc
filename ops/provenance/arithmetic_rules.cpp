// Index values through elementwise arithmetic: the operands' values paired point by point and
// an affine (or piecewise affine) function applied: clamp, add, subtract, multiply by a
// constant, and integer converts.
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;
using mlir_ir::Operation;

namespace {

// A 0-d operand of clamp stands for every point.
IndexValues spread(const IndexValues& values, const std::vector<int64_t>& shape) {
  if (values.shape == shape) return values;
  return {shape,
          applyRange(relation(tuple('p', shape.size()), "[]", box('p', shape)), values.known),
          values.provenance, values.complete};
}

// The single value every known point has, if so.
std::optional<int64_t> singleValue(const IndexValues& values) {
  if (!values.allKnown()) return std::nullopt;
  isl::set range = own(isl_map_range(values.known.copy()));
  if (!checked(isl_set_is_singleton(range.get()))) return std::nullopt;
  return isl_bridge::toInt64(own(isl_set_dim_min_val(range.copy(), 0)));
}

}  // namespace

std::span<const Tracer::Rules::Row> Tracer::arithmeticRules() {
  static const Rules::Row rows[] = {
      {"stablehlo.clamp", &Tracer::clamp},     {"stablehlo.add", &Tracer::addSub},
      {"stablehlo.subtract", &Tracer::addSub}, {"stablehlo.multiply", &Tracer::multiply},
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
    all.push_back(spread(*value, shape));
  }
  return all;
}

IndexValues Tracer::elementwise(const std::vector<IndexValues>& inputs,
                                const std::vector<int64_t>& shape, const std::string& in,
                                const std::vector<std::string>& conditions,
                                const std::string& what) {
  std::vector<std::string> parts;
  bool complete = true;
  for (const IndexValues& input : inputs) {
    parts.push_back(input.provenance);
    complete = complete && input.complete;
    if (!input.anyKnown()) return unknown(shape, what + " of " + input.provenance);
  }
  isl::map values = inputs[0].known;
  for (size_t i = 1; i < inputs.size(); ++i) {
    std::optional<isl::map> pair = paired(values, inputs[i].known);
    if (!pair) return unknown(shape, what + ": too many pieces to pair");
    values = *pair;
  }
  return {shape, applyRange(values, relation(in, "[v]", conditions)),
          what + "(" + join(parts, ", ") + ")", complete};
}

IndexValues Tracer::clamp(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, shape, depth);
  if (!inputs || inputs->size() != 3) return unknown(shape, "clamp without usable operands");
  // v = min(max(x, lo), hi), case by case (StableHLO's clamp, lo > hi included).
  return elementwise(*inputs, shape, "[lo, x, hi]",
                     {"((lo <= x <= hi and v = x) or (x >= lo and x > hi and v = hi) or "
                      "(x < lo and lo <= hi and v = lo) or (x < lo and lo > hi and v = hi))"},
                     "clamp");
}

IndexValues Tracer::addSub(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, shape, depth);
  if (!inputs || inputs->size() != 2) return unknown(shape, op.name + " without usable operands");
  bool add = op.name == "stablehlo.add";
  return elementwise(*inputs, shape, "[a, b]", {add ? "v = a + b" : "v = a - b"},
                     add ? "add" : "subtract");
}

IndexValues Tracer::multiply(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, shape, depth);
  if (!inputs || inputs->size() != 2) return unknown(shape, "multiply without usable operands");
  std::optional<int64_t> right = singleValue((*inputs)[1]), left = singleValue((*inputs)[0]);
  if (!left && !right)
    return unknown(shape, "multiply of two tensors that are not constant (not affine)");
  const IndexValues& other = right ? (*inputs)[0] : (*inputs)[1];
  int64_t factor = right ? *right : *left;
  if (!other.anyKnown()) return unknown(shape, "multiply of " + other.provenance);
  return {
      shape,
      applyRange(other.known, relation("[a]", "[v]", {"v = " + std::to_string(factor) + " * a"})),
      "multiply(" + other.provenance + ", " + std::to_string(factor) + ")", other.complete};
}

// Integer to integer: the values stay when they fit the new type (finish checks that).
IndexValues Tracer::convert(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  std::optional<mlir_ir::Type> from = op.operands.empty() ? std::nullopt : operandType(op, 0);
  if (!from || !from->elementType().isInteger() ||
      from->elementType().kind == mlir_ir::ElementKind::I1)
    return unknown(shape, "convert from a non-integer type");
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!source || source->shape != shape) return unknown(shape, "convert without a usable operand");
  if (!source->anyKnown()) return unknown(shape, "convert of " + source->provenance);
  return {shape, source->known, "convert(" + source->provenance + ")", source->complete};
}

}  // namespace idxmap::index_provenance
