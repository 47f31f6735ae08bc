// Values through data movement: constants and iotas give them, concatenate, broadcast_in_dim,
// reshape, transpose, slice, reverse and pad pull the operand's values back along the op's
// index map (their dynamic_ forms too, where the result's type is static), dynamic_slice
// along its clamped starts; func.call follows the callee; get_dimension_size is the dim's size.
// Reshape, reverse, pad and get_dimension_size, which may read `?` sizes, are in
// sized_rules.cpp.
#include <isl/map.h>
#include <isl/set.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"
#include "core/checked.h"
#include "core/tensor_type.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
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
      {"stablehlo.slice", &Tracer::slice},
      {"stablehlo.dynamic_slice", &Tracer::dynamicSlice},
      {"stablehlo.reverse", &Tracer::reverse},
      {"stablehlo.pad", &Tracer::pad},
      {"stablehlo.dynamic_iota", &Tracer::iota},
      {"stablehlo.dynamic_broadcast_in_dim", &Tracer::broadcast},
      {"stablehlo.dynamic_reshape", &Tracer::reshape},
      {"stablehlo.get_dimension_size", &Tracer::dimensionSize},
      {"func.call", &Tracer::call},
      {"call", &Tracer::call},
  };
  return rows;
}

IndexValues exactly(const std::vector<int64_t>& shape, const std::vector<std::string>& conditions,
                    const std::string& provenance) {
  IndexValues values = unknown(shape, provenance);
  values.symbolic = relation(tuple('p', shape.size()), "[v]", concat(box('p', shape), conditions));
  values.complete = true;
  return values;
}

namespace {

// A tensor's values element by element (at most kMaxConstantElements, checked by the caller).
IndexValues table(const std::vector<int64_t>& shape, const std::vector<int64_t>& values,
                  const std::string& provenance) {
  if (values.empty()) return exactly(shape, {"1 = 0"}, provenance);
  // v = c + sum_d a_d * p_d (a table of an iota, a stride): one piece, as isl would coalesce
  // it, without the quadratic cost of coalescing a piece per element.
  if (std::optional<std::string> affine = affineValue(shape, values))
    return exactly(shape, {"v = " + *affine}, provenance);
  IndexValues out = exactly(shape, {}, provenance);
  out.symbolic = pointTable(shape, values);
  return out;
}

// Whether operand dim `k` of a broadcast, of size `from`, is stretched onto a result dim of
// size `to` (its element 0 read everywhere) or read point for point; nullopt when the sizes
// do not match, or when a `?` dim may be either (1 or the result's size at run time) and
// dynamic_broadcast_in_dim's known_(non)expanding_dimensions do not say which.
std::optional<bool> stretches(const Operation& op, size_t k, int64_t from, int64_t to) {
  if (from == 1) return true;  // onto a `?` too: stretched, or onto 1 where q = p = 0
  if (from != kDynamic && to != kDynamic) return from == to ? std::optional(false) : std::nullopt;
  if (from != kDynamic || to == 1) return false;  // n onto `?` (which is n), or `?` onto 1
  for (const auto& [name, stretched] : {std::pair("known_nonexpanding_dimensions", false),
                                        std::pair("known_expanding_dimensions", true)}) {
    const mlir_ir::Attribute* listed = firstAttribute(op, name, name);
    std::optional<std::vector<int64_t>> dims = listed ? listed->asInts() : std::nullopt;
    if (dims && std::count(dims->begin(), dims->end(), static_cast<int64_t>(k)) > 0)
      return stretched;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<int64_t>> ints(const Operation& op, const char* generic,
                                         const char* pretty, size_t rank) {
  const mlir_ir::Attribute* attribute = firstAttribute(op, generic, pretty);
  std::optional<std::vector<int64_t>> values = attribute ? attribute->asInts() : std::nullopt;
  if (!values || values->size() != rank) return std::nullopt;
  return values;
}

IndexValues Tracer::constant(const Operation& op, const mlir_ir::Type& type, int) {
  const std::vector<int64_t>& shape = type.shape;
  const mlir_ir::Attribute* value = op.attribute("value");
  if (!value || !value->dense || !value->dense->floats.empty())
    return opaque(op, type, "a constant without integer dense values");
  const mlir_ir::DenseElements& dense = *value->dense;
  if (dense.isSplat) return exactly(shape, {"v = " + std::to_string(dense.intAt(0))}, "constant");
  int64_t count = 1;
  for (int64_t size : shape) count = checkedMul(count, size);
  if (count > kMaxConstantElements)
    return opaque(op, type,
                  "a constant of more than " + std::to_string(kMaxConstantElements) + " elements");
  if (static_cast<int64_t>(dense.ints.size()) != count)
    return opaque(op, type, "a constant whose value count differs from its type");
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (int64_t position = 0; position < count; ++position)
    values[static_cast<size_t>(position)] = dense.intAt(position);
  return table(shape, values, "constant");
}

IndexValues Tracer::iota(const Operation& op, const mlir_ir::Type& type, int) {
  const std::vector<int64_t>& shape = type.shape;
  const mlir_ir::Attribute* dim = firstAttribute(op, "iota_dimension", "dim");
  std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
  if (!axis || *axis < 0 || *axis >= static_cast<int64_t>(shape.size()))
    return opaque(op, type, "an iota without a valid dimension");
  IndexValues values = exactly(shape, {"v = " + var('p', static_cast<size_t>(*axis))}, "iota");
  // Along a `?` dim, positions past the element type wrap as a convert would (an i32 iota of
  // more than 2^31 elements); of a static shape, values past the type are refused where the
  // relation is finished (finish()).
  return shape[static_cast<size_t>(*axis)] == kDynamic ? wrapped(std::move(values), type) : values;
}

IndexValues Tracer::broadcast(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  const mlir_ir::Attribute* attribute = firstAttribute(op, "broadcast_dimensions", "dims");
  std::optional<std::vector<int64_t>> dims = attribute ? attribute->asInts() : std::nullopt;
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!dims || !source || dims->size() != source->shape.size())
    return opaque(op, type, "broadcast_in_dim without usable dims or operand");
  std::vector<std::string> select = box('p', shape);
  for (size_t k = 0; k < dims->size(); ++k) {
    int64_t d = (*dims)[k];
    if (d < 0 || d >= static_cast<int64_t>(shape.size()))
      return opaque(op, type, "broadcast_in_dim dims out of range");
    std::optional<bool> stretched = stretches(op, k, source->shape[k], shape[d]);
    if (!stretched)
      return opaque(op, type,
                    source->shape[k] == kDynamic
                        ? "broadcast_in_dim of a `?` dim that may or may not be stretched"
                        : "broadcast_in_dim sizes do not match");
    select.push_back(var('q', k) + " = " + (*stretched ? "0" : var('p', static_cast<size_t>(d))));
  }
  return pulled(*source, shape,
                relation(tuple('p', shape.size()), tuple('q', dims->size()), select),
                "broadcast_in_dim");
}

IndexValues Tracer::transpose(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  const mlir_ir::Attribute* attribute = firstAttribute(op, "permutation", "dims");
  std::optional<std::vector<int64_t>> perm = attribute ? attribute->asInts() : std::nullopt;
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!perm || !source || perm->size() != shape.size() || source->shape.size() != shape.size())
    return opaque(op, type, "transpose without usable dims or operand");
  std::vector<std::string> select = box('p', shape);
  for (size_t k = 0; k < perm->size(); ++k) {
    int64_t d = (*perm)[k];
    const bool bothStatic = source->shape[d] != kDynamic && shape[k] != kDynamic;
    if (d < 0 || d >= static_cast<int64_t>(shape.size()) ||
        (bothStatic && source->shape[d] != shape[k]))
      return opaque(op, type, "transpose dims do not match the shapes");
    select.push_back(var('q', static_cast<size_t>(d)) + " = " + var('p', k));
  }
  return pulled(*source, shape,
                relation(tuple('p', shape.size()), tuple('q', shape.size()), select), "transpose");
}

IndexValues Tracer::slice(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!source || source->shape.size() != shape.size())
    return opaque(op, type, "slice without a usable operand");
  std::optional<std::vector<int64_t>> start = ints(op, "start_indices", "start", shape.size());
  std::optional<std::vector<int64_t>> strides = ints(op, "strides", "strides", shape.size());
  if (!strides && !firstAttribute(op, "strides", "strides"))
    strides = std::vector<int64_t>(shape.size(), 1);
  if (!start || !strides) return opaque(op, type, "slice without usable start indices or strides");
  std::vector<std::string> select = concat(box('p', shape), box('q', source->shape));
  for (size_t d = 0; d < shape.size(); ++d)
    select.push_back(var('q', d) + " = " + std::to_string((*start)[d]) + " + " +
                     std::to_string((*strides)[d]) + " * " + var('p', d));
  return pulled(*source, shape,
                relation(tuple('p', shape.size()), tuple('q', shape.size()), select), "slice");
}

// Result point p reads operand point p + t, t_d being start operand d clamped to
// [0, dim_d - size_d] as the spec clamps it. Each start is pulled to the result's points (a
// leaf of a start is one element, read at every point) and paired with the others. A run-time
// start moves the operand's own leaves by an amount that is itself a leaf, which a leaf's
// access cannot say: a run-time start reads only an operand without leaves (constants, iotas
// and ops of them: a window of a table at a run-time offset).
IndexValues Tracer::dynamicSlice(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  const size_t rank = shape.size();
  std::optional<IndexValues> source = operand(op, 0, depth);
  if (!source || !source->represented() || source->shape.size() != rank ||
      op.operands.size() != rank + 1)
    return opaque(op, type, "dynamic_slice without a usable operand and one start per dimension");
  std::optional<std::vector<int64_t>> sizes = ints(op, "slice_sizes", "sizes", rank);
  if (sizes && *sizes != shape)
    return opaque(op, type, "dynamic_slice whose sizes are not its shape");
  const isl::map everywhere = relation(tuple('p', rank), "[]", box('p', shape));
  isl::map starts = everywhere;  // { [p] -> [s0, ..., s_{r-1}] }
  std::vector<std::string> parts = {source->provenance}, in, moves;
  for (size_t d = 0; d < rank; ++d) {
    std::optional<IndexValues> start = operand(op, d + 1, depth);
    if (!start || !start->shape.empty() || !start->represented())
      return opaque(op, type, "dynamic_slice with a start that is not a represented scalar");
    parts.push_back(start->provenance);
    IndexValues spread = pulled(*start, shape, everywhere, "broadcast");
    std::optional<isl::map> pair = paired(starts, *spread.symbolic);
    if (!pair) return opaque(op, type, "dynamic_slice: too many pieces to pair its starts");
    starts = *pair;
    const int64_t last = source->shape[d] - shape[d];  // the greatest start
    if (last < 0) return opaque(op, type, "dynamic_slice larger than its operand");
    const std::string q = var('q', d), s = var('s', d), r = var('r', d), m = std::to_string(last);
    in.push_back(s);
    moves.push_back("((" + s + " < 0 and " + r + " = " + q + ") or (0 <= " + s + " <= " + m +
                    " and " + r + " = " + q + " + " + s + ") or (" + s + " > " + m + " and " + r +
                    " = " + q + " + " + m + "))");
  }
  std::vector<std::string> same = box('p', shape), points;
  for (size_t d = 0; d < rank; ++d) {
    same.push_back(var('q', d) + " = " + var('p', d));
    points.push_back(var('q', d));
  }
  isl::map both = own(isl_map_flat_range_product(
      relation(tuple('p', rank), tuple('q', rank), same).release(), starts.release()));
  isl::map read = applyRange(
      both, relation("[" + join(concat(points, in), ", ") + "]", tuple('r', rank), moves));
  const std::string what = "dynamic_slice";
  if (checked(isl_map_dim(read.get(), isl_dim_param)) == 0)  // known starts
    return pulled(*source, shape, read, what);
  if (checked(isl_map_dim(source->symbolic->get(), isl_dim_param)) > 0)
    return opaque(op, type, "dynamic_slice of values with leaves at a run-time start");
  IndexValues out = unknown(shape, "");
  out.symbolic = applyRange(read, *source->symbolic);
  out.provenance = what + "(" + join(parts, ", ") + ")";
  return out;
}

IndexValues tensorValues(const std::vector<int64_t>& shape, const std::vector<int64_t>& values,
                         const mlir_ir::ElementType& elementType, const std::string& provenance) {
  if (static_cast<int64_t>(values.size()) > kMaxConstantElements)
    return unknown(
        shape, provenance + ": more than " + std::to_string(kMaxConstantElements) + " elements");
  return isl_bridge::withIslBudget(
      [&] { return finish(table(shape, values, provenance), elementType); });
}

}  // namespace idxmap::index_provenance
