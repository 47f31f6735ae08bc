// Index values as isl relations, op by op. Each op's relation is built from the relations of
// its operands by the op's rule (movement_rules.cpp, arithmetic_rules.cpp).
#include <isl/map.h>
#include <isl/set.h>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/index_values.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;
using mlir_ir::Operation;

IndexValues Tracer::trace(const mlir_ir::Value& value, const mlir_ir::Type& type, int depth) {
  static const Rules rules({movementRules(), arithmeticRules()});
  std::vector<int64_t> shape = type.shape;
  if (!type.isTensor || type.isOpaque() || !type.hasStaticShape())
    return unknown({}, value.toString() + " has no static tensor type");
  const Operation* op = mlir_ir::definingOp(scope_, value);
  if (!op)
    return unknown(shape, value.toString() +
                              " is an argument (or defined outside the function's entry "
                              "block): known at run time only");
  if (depth > kMaxDepth)
    return unknown(shape, "more than " + std::to_string(kMaxDepth) + " ops to follow");
  const Rule* rule = rules.find(op->name);
  if (!rule) return unknown(shape, op->name + " is not followed");
  IndexValues values = (this->**rule)(*op, shape, depth);
  if (!values.anyKnown()) return values;
  return finish(std::move(values), type.elementType());
}

std::optional<mlir_ir::Type> Tracer::operandType(const Operation& op, size_t i) {
  const mlir_ir::Value& value = op.operands[i];
  if (const Operation* def = mlir_ir::definingOp(scope_, value))
    if (value.resultNumber < static_cast<int64_t>(def->resultTypes.size()))
      return def->resultTypes[value.resultNumber];
  if (i < op.operandTypes.size()) return op.operandTypes[i];
  return std::nullopt;
}

std::optional<IndexValues> Tracer::operand(const Operation& op, size_t i, int depth) {
  if (i >= op.operands.size()) return std::nullopt;
  std::optional<mlir_ir::Type> type = operandType(op, i);
  if (!type) return std::nullopt;
  return trace(op.operands[i], *type, depth + 1);
}

const mlir_ir::Attribute* firstAttribute(const Operation& op, const char* generic,
                                         const char* pretty) {
  if (const mlir_ir::Attribute* a = op.attribute(generic)) return a;
  return op.attribute(pretty);
}

bool IndexValues::anyKnown() const { return !checked(isl_map_is_empty(known.get())); }

bool IndexValues::allKnown() const {
  if (complete) return true;
  isl::set domain = own(isl_map_domain(known.copy()));
  isl::map all = relation(tuple('p', shape.size()), "[]", box('p', shape));
  isl::set points = own(isl_map_domain(all.release()));
  return checked(isl_set_is_subset(points.get(), domain.get()));
}

IndexValues indexValues(const std::vector<Operation>& scope, const mlir_ir::Value& value,
                        const mlir_ir::Type& type) {
  try {
    return Tracer(scope).trace(value, type, 0);
  } catch (const Error& error) {  // isl gave up, or an int64 overflow in a stride
    return unknown(type.hasStaticShape() ? type.shape : std::vector<int64_t>{},
                   std::string("not representable: ") + error.what());
  }
}

}  // namespace idxmap::index_provenance
