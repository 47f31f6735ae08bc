// Index values as isl relations, op by op. Each op's relation is built from the relations of
// its operands: data movement (broadcast_in_dim, reshape, transpose, concatenate) pulls the
// operand's relation back along the op's index map; elementwise ops pair the operands'
// values and apply an affine (or piecewise affine) function to them.
#include "ops/provenance/index_values.h"

#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <limits>

#include "core/checked.h"
#include "core/isl_bridge.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;
using mlir_ir::Operation;

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? separator : "") + parts[i];
  return text;
}

std::string var(char prefix, size_t i) { return prefix + std::to_string(i); }

std::string tuple(char prefix, size_t rank) {
  std::vector<std::string> names;
  for (size_t i = 0; i < rank; ++i) names.push_back(var(prefix, i));
  return "[" + join(names, ", ") + "]";
}

// "0 <= p0 <= 2", ... for every axis of `shape`.
std::vector<std::string> box(char prefix, const std::vector<int64_t>& shape) {
  std::vector<std::string> bounds;
  for (size_t i = 0; i < shape.size(); ++i)
    bounds.push_back("0 <= " + var(prefix, i) + " <= " + std::to_string(shape[i] - 1));
  return bounds;
}

isl::map readMap(const std::string& text) {
  return own(isl_map_read_from_str(islContext().get(), text.c_str()));
}

// `{ [in] -> [out] : conditions }`.
isl::map relation(const std::string& in, const std::string& out,
                  const std::vector<std::string>& conditions) {
  std::string text = "{ " + in + " -> " + out;
  if (!conditions.empty()) text += " : " + join(conditions, " and ");
  return readMap(text + " }");
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

IndexValues unknown(const std::vector<int64_t>& shape, std::string reason) {
  return {shape, relation(tuple('p', shape.size()), "[v]", {"1 = 0"}), std::move(reason)};
}

int pieces(const isl::map& map) { return checked(isl_map_n_basic_map(map.get())); }

// The values an element type holds, as int64 (ui64 up to 2^63 - 1: larger values are not
// modeled); nullopt for non-integer types.
std::optional<std::pair<int64_t, int64_t>> valueRange(const mlir_ir::ElementType& type) {
  using K = mlir_ir::ElementKind;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  switch (type.kind) {
    case K::I1:
      return std::pair<int64_t, int64_t>{0, 1};
    case K::I8:
      return std::pair<int64_t, int64_t>{-128, 127};
    case K::I16:
      return std::pair<int64_t, int64_t>{-32768, 32767};
    case K::I32:
      return std::pair<int64_t, int64_t>{-2147483648LL, 2147483647LL};
    case K::I64:
    case K::Index:
      return std::pair<int64_t, int64_t>{std::numeric_limits<int64_t>::min(), kMax};
    case K::UI8:
      return std::pair<int64_t, int64_t>{0, 255};
    case K::UI16:
      return std::pair<int64_t, int64_t>{0, 65535};
    case K::UI32:
      return std::pair<int64_t, int64_t>{0, 4294967295LL};
    case K::UI64:
      return std::pair<int64_t, int64_t>{0, kMax};
    default:
      return std::nullopt;
  }
}

// Whether every known value lies in [lo, hi]: then the op computed it without wrapping.
bool fitsIn(const isl::map& known, std::pair<int64_t, int64_t> range) {
  isl::set values = own(isl_map_range(known.copy()));
  if (checked(isl_set_is_empty(values.get()))) return true;
  isl::set allowed = own(isl_set_read_from_str(
      islContext().get(),
      ("{ [v] : " + std::to_string(range.first) + " <= v <= " + std::to_string(range.second) + " }")
          .c_str()));
  return checked(isl_set_is_subset(values.get(), allowed.get()));
}

// Coalesces and checks the limits every op's result must meet.
IndexValues finish(IndexValues values, const mlir_ir::ElementType& elementType) {
  if (pieces(values.known) <= kMaxCoalescedPieces)
    values.known = isl_bridge::coalesce(values.known);
  if (pieces(values.known) > kMaxPieces)
    return unknown(values.shape,
                   values.provenance + ": more than " + std::to_string(kMaxPieces) + " pieces");
  std::optional<std::pair<int64_t, int64_t>> range = valueRange(elementType);
  if (!range) return unknown(values.shape, "element type " + elementType.toString());
  if (!fitsIn(values.known, *range))
    return unknown(values.shape,
                   values.provenance + ": values may not fit " + elementType.toString());
  return values;
}

// { [p] -> [a, b] }: both values where both are known. isl intersects piece by piece, so the
// product of the piece counts is what it costs.
std::optional<isl::map> paired(const isl::map& a, const isl::map& b) {
  if (static_cast<int64_t>(pieces(a)) * pieces(b) > 16 * kMaxPieces) return std::nullopt;
  return own(isl_map_flat_range_product(a.copy(), b.copy()));
}

isl::map applyRange(const isl::map& map, const isl::map& function) {
  return own(isl_map_apply_range(map.copy(), function.copy()));
}

const mlir_ir::Attribute* firstAttribute(const Operation& op, const char* generic,
                                         const char* pretty) {
  if (const mlir_ir::Attribute* a = op.attribute(generic)) return a;
  return op.attribute(pretty);
}

class Tracer {
 public:
  explicit Tracer(const std::vector<Operation>& scope) : scope_(scope) {}

  IndexValues trace(const mlir_ir::Value& value, const mlir_ir::TensorType& type, int depth) {
    std::vector<int64_t> shape = type.dims;
    if (!type.isTensor || type.isOpaque() || !type.hasStaticShape())
      return unknown({}, value.toString() + " has no static tensor type");
    const Operation* op = mlir_ir::definingOp(scope_, value);
    if (!op)
      return unknown(shape, value.toString() +
                                " is an argument (or defined outside the function's entry "
                                "block): known at run time only");
    if (depth > kMaxDepth)
      return unknown(shape, "more than " + std::to_string(kMaxDepth) + " ops to follow");
    std::string name = op->name;
    IndexValues values = unknown(shape, name + " is not followed");
    if (name == "stablehlo.constant")
      values = constant(*op, shape);
    else if (name == "stablehlo.iota")
      values = iota(*op, shape);
    else if (name == "stablehlo.concatenate")
      values = concatenate(*op, shape, depth);
    else if (name == "stablehlo.broadcast_in_dim")
      values = broadcast(*op, shape, depth);
    else if (name == "stablehlo.reshape")
      values = reshape(*op, shape, depth);
    else if (name == "stablehlo.transpose")
      values = transpose(*op, shape, depth);
    else if (name == "stablehlo.clamp")
      values = clamp(*op, shape, depth);
    else if (name == "stablehlo.add" || name == "stablehlo.subtract")
      values = addSub(*op, shape, depth);
    else if (name == "stablehlo.multiply")
      values = multiply(*op, shape, depth);
    else if (name == "stablehlo.convert")
      values = convert(*op, shape, depth);
    if (!values.anyKnown()) return values;
    return finish(std::move(values), type.elementType);
  }

 private:
  // Operand i's type: as its definition says, else as the op's signature says.
  std::optional<mlir_ir::TensorType> operandType(const Operation& op, size_t i) {
    const mlir_ir::Value& value = op.operands[i];
    if (const Operation* def = mlir_ir::definingOp(scope_, value))
      if (value.resultNumber < static_cast<int64_t>(def->resultTypes.size()))
        return def->resultTypes[value.resultNumber];
    if (i < op.operandTypes.size()) return op.operandTypes[i];
    return std::nullopt;
  }

  std::optional<IndexValues> operand(const Operation& op, size_t i, int depth) {
    if (i >= op.operands.size()) return std::nullopt;
    std::optional<mlir_ir::TensorType> type = operandType(op, i);
    if (!type) return std::nullopt;
    return trace(op.operands[i], *type, depth + 1);
  }

  IndexValues constant(const Operation& op, const std::vector<int64_t>& shape) {
    const mlir_ir::Attribute* value = op.attribute("value");
    if (!value || !value->dense || !value->dense->floats.empty())
      return unknown(shape, "constant without integer dense values");
    const mlir_ir::DenseElements& dense = *value->dense;
    std::string p = tuple('p', shape.size());
    if (dense.isSplat)
      return {
          shape,
          relation(p, "[v]", concat(box('p', shape), {"v = " + std::to_string(dense.intAt(0))})),
          "constant", true};
    int64_t count = 1;
    for (int64_t size : shape) count = checkedMul(count, size);
    if (count > kMaxConstantElements)
      return unknown(shape,
                     "constant of more than " + std::to_string(kMaxConstantElements) + " elements");
    if (static_cast<int64_t>(dense.ints.size()) != count)
      return unknown(shape, "constant whose value count differs from its type");
    std::vector<isl::map> points;
    std::vector<int64_t> index(shape.size(), 0);
    for (int64_t position = 0; position < count; ++position) {
      std::vector<std::string> coordinates;
      for (int64_t c : index) coordinates.push_back(std::to_string(c));
      points.push_back(readMap("{ [" + join(coordinates, ", ") + "] -> [" +
                               std::to_string(dense.intAt(position)) + "] }"));
      for (size_t axis = shape.size(); axis-- > 0;) {
        if (++index[axis] < shape[axis]) break;
        index[axis] = 0;
      }
    }
    if (points.empty()) return {shape, unknown(shape, "").known, "constant", true};
    return {shape, disjointUnion(points, 0, points.size()), "constant", true};
  }

  // The points are distinct, so their union is disjoint. Parsing one union of n points, or
  // adding them one by one, costs isl quadratic time; halves joined pairwise do not.
  static isl::map disjointUnion(const std::vector<isl::map>& maps, size_t begin, size_t end) {
    if (end - begin == 1) return maps[begin];
    size_t middle = begin + (end - begin) / 2;
    return own(isl_map_union_disjoint(disjointUnion(maps, begin, middle).release(),
                                      disjointUnion(maps, middle, end).release()));
  }

  IndexValues iota(const Operation& op, const std::vector<int64_t>& shape) {
    const mlir_ir::Attribute* dim = firstAttribute(op, "iota_dimension", "dim");
    std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
    if (!axis || *axis < 0 || *axis >= static_cast<int64_t>(shape.size()))
      return unknown(shape, "iota without a valid dimension");
    return {shape,
            relation(tuple('p', shape.size()), "[v]",
                     concat(box('p', shape), {"v = " + var('p', static_cast<size_t>(*axis))})),
            "iota", true};
  }

  IndexValues concatenate(const Operation& op, const std::vector<int64_t>& shape, int depth) {
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

  // Values pulled back along `pull` ({ [p] -> [q] }, result point to operand point).
  static IndexValues pulled(const IndexValues& source, const std::vector<int64_t>& shape,
                            const isl::map& pull, const std::string& what) {
    if (!source.anyKnown()) return unknown(shape, what + " of " + source.provenance);
    return {shape, applyRange(pull, source.known), what + "(" + source.provenance + ")",
            source.complete};
  }

  IndexValues broadcast(const Operation& op, const std::vector<int64_t>& shape, int depth) {
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
  IndexValues reshape(const Operation& op, const std::vector<int64_t>& shape, int depth) {
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

  IndexValues transpose(const Operation& op, const std::vector<int64_t>& shape, int depth) {
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
                  relation(tuple('p', shape.size()), tuple('q', shape.size()), select),
                  "transpose");
  }

  // A 0-d operand of clamp stands for every point.
  static IndexValues spread(const IndexValues& values, const std::vector<int64_t>& shape) {
    if (values.shape == shape) return values;
    return {shape,
            applyRange(relation(tuple('p', shape.size()), "[]", box('p', shape)), values.known),
            values.provenance, values.complete};
  }

  std::optional<std::vector<IndexValues>> operands(const Operation& op,
                                                   const std::vector<int64_t>& shape, int depth) {
    std::vector<IndexValues> all;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      std::optional<IndexValues> value = operand(op, i, depth);
      if (!value || (value->shape != shape && !value->shape.empty())) return std::nullopt;
      all.push_back(spread(*value, shape));
    }
    return all;
  }

  // f applied to the paired values of the operands: { [a, b, ...] -> [v] : conditions }.
  IndexValues elementwise(const std::vector<IndexValues>& inputs, const std::vector<int64_t>& shape,
                          const std::string& in, const std::vector<std::string>& conditions,
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

  IndexValues clamp(const Operation& op, const std::vector<int64_t>& shape, int depth) {
    std::optional<std::vector<IndexValues>> inputs = operands(op, shape, depth);
    if (!inputs || inputs->size() != 3) return unknown(shape, "clamp without usable operands");
    // v = min(max(x, lo), hi), case by case (StableHLO's clamp, lo > hi included).
    return elementwise(*inputs, shape, "[lo, x, hi]",
                       {"((lo <= x <= hi and v = x) or (x >= lo and x > hi and v = hi) or "
                        "(x < lo and lo <= hi and v = lo) or (x < lo and lo > hi and v = hi))"},
                       "clamp");
  }

  IndexValues addSub(const Operation& op, const std::vector<int64_t>& shape, int depth) {
    std::optional<std::vector<IndexValues>> inputs = operands(op, shape, depth);
    if (!inputs || inputs->size() != 2) return unknown(shape, op.name + " without usable operands");
    bool add = op.name == "stablehlo.add";
    return elementwise(*inputs, shape, "[a, b]", {add ? "v = a + b" : "v = a - b"},
                       add ? "add" : "subtract");
  }

  // The single value every known point has, if so.
  static std::optional<int64_t> singleValue(const IndexValues& values) {
    if (!values.allKnown()) return std::nullopt;
    isl::set range = own(isl_map_range(values.known.copy()));
    if (!checked(isl_set_is_singleton(range.get()))) return std::nullopt;
    return isl_bridge::toInt64(own(isl_set_dim_min_val(range.copy(), 0)));
  }

  IndexValues multiply(const Operation& op, const std::vector<int64_t>& shape, int depth) {
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
  IndexValues convert(const Operation& op, const std::vector<int64_t>& shape, int depth) {
    std::optional<mlir_ir::TensorType> from =
        op.operands.empty() ? std::nullopt : operandType(op, 0);
    if (!from || !from->elementType.isInteger() ||
        from->elementType.kind == mlir_ir::ElementKind::I1)
      return unknown(shape, "convert from a non-integer type");
    std::optional<IndexValues> source = operand(op, 0, depth);
    if (!source || source->shape != shape)
      return unknown(shape, "convert without a usable operand");
    if (!source->anyKnown()) return unknown(shape, "convert of " + source->provenance);
    return {shape, source->known, "convert(" + source->provenance + ")", source->complete};
  }

  const std::vector<Operation>& scope_;
};

}  // namespace

bool IndexValues::anyKnown() const { return !checked(isl_map_is_empty(known.get())); }

bool IndexValues::allKnown() const {
  if (complete) return true;
  isl::set domain = own(isl_map_domain(known.copy()));
  isl::map all = relation(tuple('p', shape.size()), "[]", box('p', shape));
  isl::set points = own(isl_map_domain(all.release()));
  return checked(isl_set_is_subset(points.get(), domain.get()));
}

IndexValues indexValues(const std::vector<Operation>& scope, const mlir_ir::Value& value,
                        const mlir_ir::TensorType& type) {
  try {
    return Tracer(scope).trace(value, type, 0);
  } catch (const Error& error) {  // isl gave up, or an int64 overflow in a stride
    return unknown(type.hasStaticShape() ? type.dims : std::vector<int64_t>{},
                   std::string("not representable: ") + error.what());
  }
}

std::string islText(const isl::map& relation) {
  char* text = isl_map_to_str(relation.get());
  std::string result = text ? text : "";
  free(text);
  return result;
}

}  // namespace idxmap::index_provenance
