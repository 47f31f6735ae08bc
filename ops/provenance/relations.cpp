#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <limits>

#include "core/bridges/isl_bridge.h"
#include "core/checked.h"
#include "core/tensor_type.h"
#include "ops/provenance/relations_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;

namespace {

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
  if (auto points = isl_bridge::plainPoints(known)) {  // a table: its values, read off
    for (const std::vector<int64_t>& point : *points)
      if (point.back() < range.first || point.back() > range.second) return false;
    return true;
  }
  isl::set values = own(isl_map_range(known.copy()));
  if (checked(isl_set_is_empty(values.get()))) return true;
  isl::set allowed = own(isl_set_read_from_str(
      islContext().get(),
      ("{ [v] : " + std::to_string(range.first) + " <= v <= " + std::to_string(range.second) + " }")
          .c_str()));
  return checked(isl_set_is_subset(values.get(), allowed.get()));
}

}  // namespace

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

std::vector<std::string> box(char prefix, const std::vector<int64_t>& shape) {
  std::vector<std::string> bounds;
  for (size_t i = 0; i < shape.size(); ++i)
    bounds.push_back("0 <= " + var(prefix, i) + " <= " + std::to_string(shape[i] - 1));
  return bounds;
}

isl::map readMap(const std::string& text) {
  return own(isl_map_read_from_str(islContext().get(), text.c_str()));
}

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

IndexValues finish(IndexValues values, const mlir_ir::ElementType& elementType) {
  int64_t elements = 1;
  for (int64_t size : values.shape) elements = checkedMul(elements, size);
  int count = pieces(values.known);
  bool table = count > kMaxTablePiecesCoalesced && count >= elements;
  if (count <= kMaxCoalescedPieces && !table) values.known = isl_bridge::coalesce(values.known);
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

isl::map pointTable(const std::vector<int64_t>& shape, const std::vector<int64_t>& values) {
  isl::ctx ctx = islContext();
  isl::space space = own(isl_space_alloc(ctx.get(), 0, static_cast<unsigned>(shape.size()), 1));
  isl::map table = own(isl_map_empty(space.copy()));
  std::vector<isl::map> points;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t value : values) {
    isl_basic_map* point = isl_basic_map_universe(space.copy());
    auto fix = [&](isl_dim_type type, unsigned position, int64_t at) {
      isl_constraint* c =
          isl_constraint_alloc_equality(isl_local_space_from_space(isl_basic_map_get_space(point)));
      c = isl_constraint_set_coefficient_si(c, type, static_cast<int>(position), 1);
      c = isl_constraint_set_constant_val(c, isl_bridge::toIslVal(-at).release());
      point = isl_basic_map_add_constraint(point, c);
    };
    for (size_t d = 0; d < shape.size(); ++d) fix(isl_dim_in, static_cast<unsigned>(d), index[d]);
    fix(isl_dim_out, 0, value);
    points.push_back(own(isl_map_from_basic_map(point)));
    nextIndex(shape, index);
  }
  return points.empty() ? table : disjointUnion(points, 0, points.size());
}

std::optional<std::string> affineValue(const std::vector<int64_t>& shape,
                                       const std::vector<int64_t>& values) try {
  // The coefficient of each axis is the step from the origin along it.
  std::vector<int64_t> strides(shape.size(), 1), coefficients(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = checkedMul(strides[d], shape[d]);
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > 1) coefficients[d] = checkedSub(values[strides[d]], values[0]);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t value : values) {
    int64_t expected = values[0];
    for (size_t d = 0; d < shape.size(); ++d)
      expected = checkedAdd(expected, checkedMul(coefficients[d], index[d]));
    if (expected != value) return std::nullopt;
    nextIndex(shape, index);
  }
  std::string text = std::to_string(values[0]);
  for (size_t d = 0; d < shape.size(); ++d)
    if (coefficients[d] != 0) text += " + " + std::to_string(coefficients[d]) + " * " + var('p', d);
  return text;
} catch (const OverflowError&) {  // steps past int64: not a function isl should be given
  return std::nullopt;
}

// isl intersects piece by piece, so the product of the piece counts is what it costs.
std::optional<isl::map> paired(const isl::map& a, const isl::map& b) {
  if (static_cast<int64_t>(pieces(a)) * pieces(b) > 16 * kMaxPieces) return std::nullopt;
  return own(isl_map_flat_range_product(a.copy(), b.copy()));
}

isl::map applyRange(const isl::map& map, const isl::map& function) {
  return own(isl_map_apply_range(map.copy(), function.copy()));
}

// The points are distinct, so their union is disjoint. Parsing one union of n points, or
// adding them one by one, costs isl quadratic time; halves joined pairwise do not.
isl::map disjointUnion(const std::vector<isl::map>& maps, size_t begin, size_t end) {
  if (end - begin == 1) return maps[begin];
  size_t middle = begin + (end - begin) / 2;
  return own(isl_map_union_disjoint(disjointUnion(maps, begin, middle).release(),
                                    disjointUnion(maps, middle, end).release()));
}

}  // namespace idxmap::index_provenance
