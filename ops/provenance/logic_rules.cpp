// Values through predicates: compare gives 1 or 0 (i1), select picks an operand point by point,
// and / or / not combine predicates. What makes JAX's negative-index fix-up
// (select(compare(i, 0, LT), add(i, n), i)) exact.
#include <isl/map.h>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using mlir_ir::Operation;

std::span<const Tracer::Rules::Row> Tracer::logicRules() {
  static const Rules::Row rows[] = {
      {"stablehlo.compare", &Tracer::compare}, {"stablehlo.select", &Tracer::select},
      {"stablehlo.and", &Tracer::logic},       {"stablehlo.or", &Tracer::logic},
      {"stablehlo.not", &Tracer::logic},       {"stablehlo.xor", &Tracer::logic},
  };
  return rows;
}

IndexValues Tracer::compare(const Operation& op, const mlir_ir::Type& type, int depth) {
  // Each direction, and where it fails.
  struct Direction {
    const char* word;
    const char* holds;
    const char* fails;
  };
  static const Direction directions[] = {{"EQ", "a = b", "a != b"}, {"NE", "a != b", "a = b"},
                                         {"LT", "a < b", "a >= b"}, {"LE", "a <= b", "a > b"},
                                         {"GT", "a > b", "a <= b"}, {"GE", "a >= b", "a < b"}};
  const std::string direction =
      op.namedWord("comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}).value_or("");
  const std::string kind =
      op.namedWord("compare_type", {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}).value_or("");
  std::optional<mlir_ir::Type> of = op.operands.empty() ? std::nullopt : operandType(op, 0);
  if (!of || !of->elementType().isInteger())
    return opaque(op, type, "compare of values that are not integers");
  // Values are held as the numbers they stand for: a signed type compared UNSIGNED would
  // compare bit patterns, which this does not model.
  if (kind == "FLOAT" || kind == "TOTALORDER" ||
      (kind == "UNSIGNED" && of->elementType().isSigned()))
    return opaque(op, type, "compare of integers as " + kind);
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 2) return opaque(op, type, "compare without usable operands");
  for (const Direction& d : directions)
    if (d.word == direction)
      return elementwise(
          *inputs, type, "[a, b]",
          {std::string("(") + d.holds + " and v = 1) or (" + d.fails + " and v = 0)"},
          std::string("compare ") + d.word);
  return opaque(op, type, "compare without a direction");
}

IndexValues Tracer::select(const Operation& op, const mlir_ir::Type& type, int depth) {
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  if (!inputs || inputs->size() != 3) return opaque(op, type, "select without usable operands");
  return elementwise(*inputs, type, "[c, a, b]", {"(c = 1 and v = a) or (c = 0 and v = b)"},
                     "select");
}

// Of predicates only: on wider integers these are bitwise, which is not affine.
IndexValues Tracer::logic(const Operation& op, const mlir_ir::Type& type, int depth) {
  if (type.elementType().kind != mlir_ir::ElementKind::I1)
    return opaque(op, type, op.name + " of integers wider than i1 (bitwise)");
  std::optional<std::vector<IndexValues>> inputs = operands(op, type.shape, depth);
  const size_t arity = op.name == "stablehlo.not" ? 1 : 2;
  if (!inputs || inputs->size() != arity)
    return opaque(op, type, op.name + " without usable operands");
  if (op.name == "stablehlo.not") return elementwise(*inputs, type, "[a]", {"v = 1 - a"}, "not");
  if (op.name == "stablehlo.and")
    return elementwise(*inputs, type, "[a, b]", {"(a <= b and v = a) or (a > b and v = b)"}, "and");
  if (op.name == "stablehlo.or")
    return elementwise(*inputs, type, "[a, b]", {"(a >= b and v = a) or (a < b and v = b)"}, "or");
  return elementwise(*inputs, type, "[a, b]", {"(a = b and v = 0) or (a != b and v = 1)"}, "xor");
}

}  // namespace idxmap::index_provenance
