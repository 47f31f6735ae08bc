// Values through the movements that may read `?` sizes: along a `?` dim a concatenation, a
// reverse, a pad and get_dimension_size read its size (a parameter z<i>, IndexValues::sizes); a
// reshape follows one `?` on each side when it moves as a whole (unit dims added or dropped) or is
// the first dim of both (its stride is static). Static shapes as movement_rules.cpp's other rules
// do.
#include <isl/map.h>
#include <isl/set.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"
#include "core/checked.h"
#include "core/tensor_type.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::own;
using mlir_ir::Operation;

namespace {

// `[z0, z1] -> { in -> out : conditions }`: a relation that reads sizes (a size named twice,
// a concatenation of a value with itself, declared once).
isl::map sized(std::vector<std::string> sizes, const std::string& in, const std::string& out,
               const std::vector<std::string>& conditions) {
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return readMap("[" + join(sizes, ", ") + "] -> { " + in + " -> " + out + " : " +
                 (conditions.empty() ? "true" : join(conditions, " and ")) + " }");
}

// The dims of `shape` that are not a static 1, in order.
std::vector<size_t> nonUnitDims(const std::vector<int64_t>& shape) {
  std::vector<size_t> dims;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) dims.push_back(d);
  return dims;
}

}  // namespace

// Result point p reads part k at p - offset_k along the axis, offset_k the sizes of the parts
// before it (a `?` part's a parameter z<i>, and the part read only below it).
IndexValues Tracer::concatenate(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  const mlir_ir::Attribute* dim = firstAttribute(op, "dimension", "dim");
  std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
  if (!axis || *axis < 0 || *axis >= static_cast<int64_t>(shape.size()))
    return opaque(op, type, "a concatenate without a valid dimension");
  const size_t along = static_cast<size_t>(*axis);
  IndexValues result = exactly(shape, {"1 = 0"}, "");
  std::vector<std::string> parts;
  int64_t offset = 0;              // the static sizes before the part
  std::vector<std::string> sizes;  // and the `?` ones (then the part's own, if `?`)
  for (size_t i = 0; i < op.operands.size(); ++i) {
    std::optional<IndexValues> part = operand(op, i, depth);
    if (!part || part->shape.size() != shape.size() || !part->represented())
      return opaque(op, type, "concatenate operand " + std::to_string(i) + " is not represented");
    parts.push_back(part->provenance);
    std::vector<std::string> shift = concat(box('p', shape), box('q', part->shape));
    for (size_t a = 0; a < shape.size(); ++a) {
      std::string q = var('p', a);
      if (a == along) {
        q += " - " + std::to_string(offset);
        for (const std::string& z : sizes) q += " - " + z;
      }
      shift.push_back(var('q', a) + " = " + q);
    }
    if (part->shape[along] == kDynamic) {
      sizes.push_back(size(op.operands[i], along));
      shift.push_back(var('q', along) + " < " + sizes.back());
    } else {
      offset = checkedAdd(offset, part->shape[along]);
    }
    result.complete = result.complete && part->complete && sizes.empty();
    IndexValues moved =
        pulled(*part, shape,
               sized(sizes, tuple('p', shape.size()), tuple('q', shape.size()), shift), "part");
    result.symbolic = own(isl_map_union(result.symbolic->release(), moved.symbolic->release()));
  }
  if (shape[along] != kDynamic && sizes.empty() && offset != shape[along])
    return opaque(op, type, "concatenate sizes do not add up");
  result.provenance = "concatenate(" + join(parts, ", ") + ")";
  return result;
}

// Row-major: the point of the result and the point of the operand with the same linear
// position. With a `?` dim on each side (one only: two could trade sizes, 2x3 for 3x2), the
// position needs no size when the `?` is the first dim of both (its stride is the static rest)
// or when the reshape only adds or drops unit dims (each other dim is read as it is).
IndexValues Tracer::reshape(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!source) return opaque(op, type, "reshape without an operand type");
  const std::vector<size_t> dynamic = dynamicDims(shape),
                            sourceDynamic = dynamicDims(source->shape);
  std::vector<std::string> conditions = concat(box('p', shape), box('q', source->shape));
  if (!dynamic.empty() || !sourceDynamic.empty()) {
    if (dynamic.size() != 1 || sourceDynamic.size() != 1)
      return opaque(op, type, "reshape of `?` dims other than one on each side");
    const std::vector<size_t> kept = nonUnitDims(shape), sourceKept = nonUnitDims(source->shape);
    bool sameDims = kept.size() == sourceKept.size();
    for (size_t k = 0; sameDims && k < kept.size(); ++k)
      sameDims = shape[kept[k]] == source->shape[sourceKept[k]];
    if (sameDims) {
      for (size_t k = 0; k < kept.size(); ++k)
        conditions.push_back(var('q', sourceKept[k]) + " = " + var('p', kept[k]));
      return pulled(
          *source, shape,
          relation(tuple('p', shape.size()), tuple('q', source->shape.size()), conditions),
          "reshape");
    }
    if (dynamic[0] != 0 || sourceDynamic[0] != 0)
      return opaque(op, type, "reshape of a `?` dim that is not the first of both shapes");
  }
  auto linear = [](char prefix, const std::vector<int64_t>& sizes, int64_t& count) {
    std::vector<std::string> terms;
    count = 1;
    for (size_t a = sizes.size(); a-- > 0;) {
      terms.push_back(std::to_string(count) + " * " + var(prefix, a));
      if (sizes[a] != kDynamic) count = checkedMul(count, sizes[a]);
    }
    return terms.empty() ? std::string("0") : join(terms, " + ");
  };
  int64_t resultCount = 0, sourceCount = 0;
  std::string p = linear('p', shape, resultCount), q = linear('q', source->shape, sourceCount);
  if (dynamic.empty() && resultCount != sourceCount)
    return opaque(op, type, "reshape changes the element count");
  conditions.push_back(p + " = " + q);
  return pulled(*source, shape,
                relation(tuple('p', shape.size()), tuple('q', source->shape.size()), conditions),
                "reshape");
}

// Along a `?` dim of size z: point p reads z - 1 - p, for p < z.
IndexValues Tracer::reverse(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  std::optional<IndexValues> source = operand(op, 0, depth);
  const mlir_ir::Attribute* attribute = firstAttribute(op, "dimensions", "dims");
  std::optional<std::vector<int64_t>> dims = attribute ? attribute->asInts() : std::nullopt;
  if (!source || !dims || source->shape != shape)
    return opaque(op, type, "reverse without usable dims or operand");
  std::vector<std::string> select = box('p', shape), sizes;
  for (size_t d = 0; d < shape.size(); ++d) {
    bool reversed = std::find(dims->begin(), dims->end(), static_cast<int64_t>(d)) != dims->end();
    std::string last = std::to_string(shape[d] - 1);
    if (reversed && shape[d] == kDynamic) {
      sizes.push_back(size(op.operands[0], d));
      last = sizes.back() + " - 1";
      select.push_back(var('p', d) + " <= " + last);
    }
    select.push_back(var('q', d) + " = " + (reversed ? last + " - " + var('p', d) : var('p', d)));
  }
  return pulled(*source, shape,
                sized(sizes, tuple('p', shape.size()), tuple('q', shape.size()), select),
                "reverse");
}

// Result point p reads operand point q where p = low + q * (interior + 1) on every axis, and
// the padding value elsewhere (negative low or high crop). Along a `?` dim of size z, q < z.
IndexValues Tracer::pad(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  std::optional<IndexValues> source = operand(op, 0, depth);
  std::optional<IndexValues> padding = operand(op, 1, depth);
  std::optional<std::vector<int64_t>> low = ints(op, "edge_padding_low", "low", shape.size());
  std::optional<std::vector<int64_t>> interior =
      ints(op, "interior_padding", "interior", shape.size());
  if (!source || !padding || !low || !interior || source->shape.size() != shape.size() ||
      !padding->shape.empty() || !source->represented() || !padding->represented())
    return opaque(op, type, "pad without usable operands or padding");
  std::vector<std::string> read = concat(box('p', shape), box('q', source->shape)), sizes;
  for (size_t d = 0; d < shape.size(); ++d) {
    read.push_back(var('p', d) + " = " + std::to_string((*low)[d]) + " + " +
                   std::to_string((*interior)[d] + 1) + " * " + var('q', d));
    if (source->shape[d] == kDynamic) {
      sizes.push_back(size(op.operands[0], d));
      read.push_back(var('q', d) + " < " + sizes.back());
    }
  }
  isl::map pull = sized(sizes, tuple('p', shape.size()), tuple('q', shape.size()), read);
  isl::set padded = own(isl_set_subtract(
      own(isl_map_domain(relation(tuple('p', shape.size()), "[]", box('p', shape)).release()))
          .release(),
      own(isl_map_domain(pull.copy())).release()));
  IndexValues inner = pulled(*source, shape, pull, "operand");
  IndexValues outer =
      pulled(*padding, shape, own(isl_map_from_domain(padded.release())), "padding");
  IndexValues result =
      exactly(shape, {"1 = 0"}, "pad(" + source->provenance + ", " + padding->provenance + ")");
  result.complete = source->complete && padding->complete && sizes.empty();
  result.symbolic = own(isl_map_union(inner.symbolic->release(), outer.symbolic->release()));
  return result;
}

// A static dim's size, or a `?` dim's (z<i>) where sizes are followed, as its type wraps it
// (get_dimension_size gives an i32).
IndexValues Tracer::dimensionSize(const Operation& op, const mlir_ir::Type& type, int) {
  const mlir_ir::Attribute* dim = firstAttribute(op, "dimension", "dim");
  std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
  std::optional<mlir_ir::Type> of = op.operands.empty() ? std::nullopt : operandType(op, 0);
  if (!axis || !of || *axis < 0 || *axis >= static_cast<int64_t>(of->shape.size()))
    return opaque(op, type, "get_dimension_size of a dimension its operand does not have");
  if (of->shape[*axis] != kDynamic)
    return exactly(type.shape, {"v = " + std::to_string(of->shape[*axis])}, "get_dimension_size");
  if (!context_.followDynamicShapes)
    return opaque(op, type, "get_dimension_size of a dimension whose size is not static");
  const std::string z = size(op.operands[0], static_cast<size_t>(*axis));
  IndexValues values = unknown(type.shape, "");
  values.symbolic =
      sized({z}, tuple('p', type.shape.size()), "[v]", concat(box('p', type.shape), {"v = " + z}));
  values.provenance =
      "get_dimension_size(" + op.operands[0].toString() + ", " + std::to_string(*axis) + ")";
  return wrapped(std::move(values), type);
}

}  // namespace idxmap::index_provenance
