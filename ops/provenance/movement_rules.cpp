// Index values through data movement: constants and iotas give them, concatenate,
// broadcast_in_dim, reshape and transpose pull the operand's values back along the op's index
// map.
#include <isl/map.h>

#include "core/bridges/isl_bridge.h"
#include "core/checked.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::own;
using mlir_ir::Operation;

std::span<const Tracer::Rules::Row> Tracer::movementRules() {
  static const Rules::Row rows[] = {
      {"stablehlo.constant", &Tracer::constant},
      {"stablehlo.iota", &Tracer::iota},
      {"stablehlo.concatenate", &Tracer::concatenate},
      {"stablehlo.broadcast_in_dim", &Tracer::broadcast},
      {"stablehlo.reshape", &Tracer::reshape},
      {"stablehlo.transpose", &Tracer::transpose},
  };
  return rows;
}

IndexValues Tracer::constant(const Operation& op, const std::vector<int64_t>& shape, int) {
  const mlir_ir::Attribute* value = op.attribute("value");
  if (!value || !value->dense || !value->dense->floats.empty())
    return unknown(shape, "constant without integer dense values");
  const mlir_ir::DenseElements& dense = *value->dense;
  std::string p = tuple('p', shape.size());
  if (dense.isSplat)
    return {shape,
            relation(p, "[v]", concat(box('p', shape), {"v = " + std::to_string(dense.intAt(0))})),
            "constant", true};
  int64_t count = 1;
  for (int64_t size : shape) count = checkedMul(count, size);
  if (count > kMaxConstantElements)
    return unknown(shape,
                   "constant of more than " + std::to_string(kMaxConstantElements) + " elements");
  if (static_cast<int64_t>(dense.ints.size()) != count)
    return unknown(shape, "constant whose value count differs from its type");
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (int64_t position = 0; position < count; ++position)
    values[static_cast<size_t>(position)] = dense.intAt(position);
  if (count == 0) return {shape, unknown(shape, "").known, "constant", true};
  // v = c + sum_d a_d * p_d (a table of an iota, a stride): one piece, as isl would coalesce
  // it, without the quadratic cost of coalescing a piece per element.
  if (std::optional<std::string> affine = affineValue(shape, values))
    return {shape, relation(p, "[v]", concat(box('p', shape), {"v = " + *affine})), "constant",
            true};
  return {shape, pointTable(shape, values), "constant", true};
}

IndexValues Tracer::iota(const Operation& op, const std::vector<int64_t>& shape, int) {
  const mlir_ir::Attribute* dim = firstAttribute(op, "iota_dimension", "dim");
  std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
  if (!axis || *axis < 0 || *axis >= static_cast<int64_t>(shape.size()))
    return unknown(shape, "iota without a valid dimension");
  return {shape,
          relation(tuple('p', shape.size()), "[v]",
                   concat(box('p', shape), {"v = " + var('p', static_cast<size_t>(*axis))})),
          "iota", true};
}

IndexValues Tracer::concatenate(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  const mlir_ir::Attribute* dim = firstAttribute(op, "dimension", "dim");
  std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
  if (!axis || *axis < 0 || *axis >= static_cast<int64_t>(shape.size()))
    return unknown(shape, "concatenate without a valid dimension");
  IndexValues result = unknown(shape, "");
  result.complete = true;
  std::vector<std::string> parts;
  int64_t offset = 0;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    std::optional<IndexValues> part = operand(op, i, depth);
    if (!part || part->shape.size() != shape.size())
      return unknown(shape, "concatenate operand " + std::to_string(i) + " has no usable type");
    parts.push_back(part->anyKnown() ? part->provenance : op.operands[i].toString());
    result.complete = result.complete && part->complete;
    // Result point p reads operand point p - offset along the axis.
    std::vector<std::string> shift;
    for (size_t a = 0; a < shape.size(); ++a)
      shift.push_back(var('q', a) + " = " + var('p', a) +
                      (static_cast<int64_t>(a) == *axis ? " - " + std::to_string(offset) : ""));
    isl::map pull = relation(tuple('p', shape.size()), tuple('q', shape.size()), shift);
    result.known =
        own(isl_map_union(result.known.release(), applyRange(pull, part->known).release()));
    offset += part->shape[*axis];
  }
  if (offset != shape[*axis]) return unknown(shape, "concatenate sizes do not add up");
  result.provenance = "concatenate(" + join(parts, ", ") + ")";
  return result;
}

IndexValues Tracer::pulled(const IndexValues& source, const std::vector<int64_t>& shape,
                           const isl::map& pull, const std::string& what) {
  if (!source.anyKnown()) return unknown(shape, what + " of " + source.provenance);
  return {shape, applyRange(pull, source.known), what + "(" + source.provenance + ")",
          source.complete};
}

IndexValues Tracer::broadcast(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  const mlir_ir::Attribute* attribute = firstAttribute(op, "broadcast_dimensions", "dims");
  std::optional<std::vector<int64_t>> dims = attribute ? attribute->asInts() : std::nullopt;
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!dims || !source || dims->size() != source->shape.size())
    return unknown(shape, "broadcast_in_dim without usable dims or operand");
  std::vector<std::string> select = box('p', shape);
  for (size_t k = 0; k < dims->size(); ++k) {
    int64_t d = (*dims)[k];
    if (d < 0 || d >= static_cast<int64_t>(shape.size()))
      return unknown(shape, "broadcast_in_dim dims out of range");
    bool stretched = source->shape[k] == 1 && shape[d] != 1;
    if (!stretched && source->shape[k] != shape[d])
      return unknown(shape, "broadcast_in_dim sizes do not match");
    select.push_back(var('q', k) + " = " + (stretched ? "0" : var('p', static_cast<size_t>(d))));
  }
  return pulled(*source, shape,
                relation(tuple('p', shape.size()), tuple('q', dims->size()), select),
                "broadcast_in_dim");
}

// Row-major: the point of the result and the point of the operand with the same linear
// position.
IndexValues Tracer::reshape(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!source) return unknown(shape, "reshape without an operand type");
  auto linear = [](char prefix, const std::vector<int64_t>& sizes, int64_t& count) {
    std::vector<std::string> terms;
    count = 1;
    for (size_t a = sizes.size(); a-- > 0;) {
      terms.push_back(std::to_string(count) + " * " + var(prefix, a));
      count = checkedMul(count, sizes[a]);
    }
    return terms.empty() ? std::string("0") : join(terms, " + ");
  };
  int64_t resultCount = 0, sourceCount = 0;
  std::string p = linear('p', shape, resultCount), q = linear('q', source->shape, sourceCount);
  if (resultCount != sourceCount) return unknown(shape, "reshape changes the element count");
  std::vector<std::string> conditions = concat(box('p', shape), box('q', source->shape));
  conditions.push_back(p + " = " + q);
  return pulled(*source, shape,
                relation(tuple('p', shape.size()), tuple('q', source->shape.size()), conditions),
                "reshape");
}

IndexValues Tracer::transpose(const Operation& op, const std::vector<int64_t>& shape, int depth) {
  const mlir_ir::Attribute* attribute = firstAttribute(op, "permutation", "dims");
  std::optional<std::vector<int64_t>> perm = attribute ? attribute->asInts() : std::nullopt;
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!perm || !source || perm->size() != shape.size() || source->shape.size() != shape.size())
    return unknown(shape, "transpose without usable dims or operand");
  std::vector<std::string> select = box('p', shape);
  for (size_t k = 0; k < perm->size(); ++k) {
    int64_t d = (*perm)[k];
    if (d < 0 || d >= static_cast<int64_t>(shape.size()) || source->shape[d] != shape[k])
      return unknown(shape, "transpose dims do not match the shapes");
    select.push_back(var('q', static_cast<size_t>(d)) + " = " + var('p', k));
  }
  return pulled(*source, shape,
                relation(tuple('p', shape.size()), tuple('q', shape.size()), select), "transpose");
}

}  // namespace idxmap::index_provenance
