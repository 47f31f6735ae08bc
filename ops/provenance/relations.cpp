#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <limits>
#include <string>

#include "core/bridges/isl_bridge.h"
#include "core/checked.h"
#include "core/tensor_type.h"
#include "ops/provenance/relations_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;

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

namespace {

// Whether every value lies in [lo, hi], whatever the leaves are.
bool fitsIn(const isl::map& known, std::pair<int64_t, int64_t> range) {
  if (auto points = isl_bridge::plainPoints(known)) {  // a table: its values, read off
    for (const std::vector<int64_t>& point : *points)
      if (point.back() < range.first || point.back() > range.second) return false;
    return true;
  }
  isl::set values = own(isl_map_range(known.copy()));
  if (checked(isl_set_is_empty(values.get()))) return true;
  isl::set allowed = readSet("{ [v] : " + std::to_string(range.first) +
                             " <= v <= " + std::to_string(range.second) + " }");
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
    bounds.push_back(  // a `?` dim's size is at most INT64_MAX; the caller knows it
        "0 <= " + var(prefix, i) +
        " <= " + std::to_string(shape[i] == kDynamic ? INT64_MAX - 1 : shape[i] - 1));
  return bounds;
}

isl::map readMap(const std::string& text) { return isl_bridge::parsedMap(text); }

isl::set readSet(const std::string& text) { return isl_bridge::parsedSet(text); }

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

std::vector<size_t> dynamicDims(const std::vector<int64_t>& shape) {
  std::vector<size_t> dims;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] == kDynamic) dims.push_back(d);
  return dims;
}

IndexValues unknown(const std::vector<int64_t>& shape, std::string reason) {
  IndexValues values;
  values.shape = shape;
  values.known = relation(tuple('p', shape.size()), "[v]", {"1 = 0"});
  values.provenance = std::move(reason);
  return values;
}

std::string leafParameter(size_t leaf) { return "l" + std::to_string(leaf); }

std::string sizeParameter(size_t size) { return "z" + std::to_string(size); }

bool isSizeParameter(const std::string& name) { return name.size() >= 2 && name[0] == 'z'; }

size_t leafOfParameter(const std::string& name) {
  if (name.size() < 2 || name[0] != 'l') throw Error("not a leaf parameter: " + name);
  return static_cast<size_t>(std::stoull(name.substr(1)));
}

isl::map renamedLeaves(isl::map map, const std::vector<std::pair<size_t, size_t>>& renames) {
  auto target = [&](size_t leaf) {
    for (const auto& [from, to] : renames)
      if (from == leaf) return to;
    return leaf;
  };
  auto parameterName = [&](const isl::map& m, int position) {
    isl_id* id = isl_map_get_dim_id(m.get(), isl_dim_param, static_cast<unsigned>(position));
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    return name;
  };
  // Parameters bound for one leaf read one element: equal, then one of them. Sizes (z<i>)
  // keep their names.
  for (int i = checked(isl_map_dim(map.get(), isl_dim_param)); i-- > 0;) {
    if (isSizeParameter(parameterName(map, i))) continue;
    size_t to = target(leafOfParameter(parameterName(map, i)));
    for (int j = 0; j < i; ++j) {
      if (isSizeParameter(parameterName(map, j)) ||
          target(leafOfParameter(parameterName(map, j))) != to)
        continue;
      isl_constraint* same =
          isl_constraint_alloc_equality(isl_local_space_from_space(isl_map_get_space(map.get())));
      same = isl_constraint_set_coefficient_si(same, isl_dim_param, j, 1);
      same = isl_constraint_set_coefficient_si(same, isl_dim_param, i, -1);
      map = own(isl_map_add_constraint(map.release(), same));
      map = own(isl_map_project_out(map.release(), isl_dim_param, static_cast<unsigned>(i), 1));
      break;
    }
  }
  // Through names no leaf has, so that no two parameters share a name on the way.
  int count = checked(isl_map_dim(map.get(), isl_dim_param));
  std::vector<std::string> targets;
  for (int i = 0; i < count; ++i) {
    const std::string name = parameterName(map, i);
    targets.push_back(isSizeParameter(name) ? name : leafParameter(target(leafOfParameter(name))));
  }
  for (int i = 0; i < count; ++i)
    map = own(isl_map_set_dim_id(
        map.release(), isl_dim_param, static_cast<unsigned>(i),
        isl_id_alloc(islContext().get(), ("renaming" + std::to_string(i)).c_str(), nullptr)));
  for (int i = 0; i < count; ++i)
    map = own(isl_map_set_dim_id(
        map.release(), isl_dim_param, static_cast<unsigned>(i),
        isl_id_alloc(islContext().get(), targets[static_cast<size_t>(i)].c_str(), nullptr)));
  return map;
}

namespace {

// Whether the piece's value at a point is the same for every value of the leaves: no
// constraint and no division of it names a parameter.
bool freeOfLeaves(isl_basic_map* piece) {
  int parameters = checked(isl_basic_map_dim(piece, isl_dim_param));
  if (checked(isl_basic_map_involves_dims(piece, isl_dim_param, 0, parameters))) return false;
  if (checked(isl_basic_map_dim(piece, isl_dim_div)) == 0) return true;
  // A division as an affine expression needs a set space (isl cannot represent one on a map
  // space): the piece's divisions are read from it wrapped into a set.
  isl_basic_set* wrapped = isl_basic_map_wrap(isl_basic_map_copy(piece));
  bool free = true;
  for (int i = 0; free && i < checked(isl_basic_set_dim(wrapped, isl_dim_div)); ++i) {
    isl_aff* division = isl_basic_set_get_div(wrapped, i);
    free = !checked(isl_aff_involves_dims(division, isl_dim_param, 0, parameters));
    isl_aff_free(division);
  }
  isl_basic_set_free(wrapped);
  return free;
}

}  // namespace

isl::map knownPart(const isl::map& symbolic, const std::vector<Leaf>& leaves) {
  int parameters = checked(isl_map_dim(symbolic.get(), isl_dim_param));
  if (parameters == 0) return symbolic;
  // The pieces that, where the leaves lie in their ranges, name no leaf: their points have one
  // value whatever the leaves are. (Subtracting "some other value" from the projection would
  // be exact where pieces split on leaves yet agree, at a cost isl cannot always pay.)
  isl::set ranges = own(isl_set_universe(isl_space_params(isl_map_get_space(symbolic.get()))));
  for (int i = 0; i < parameters; ++i) {
    isl_id* id = isl_map_get_dim_id(symbolic.get(), isl_dim_param, static_cast<unsigned>(i));
    const std::string name = isl_id_get_name(id);
    isl_id_free(id);
    // A size is at least 0; a leaf lies in its range.
    const std::pair<int64_t, int64_t> range = isSizeParameter(name)
                                                  ? std::pair<int64_t, int64_t>(0, INT64_MAX)
                                                  : leaves.at(leafOfParameter(name)).range;
    ranges = own(isl_set_lower_bound_val(ranges.release(), isl_dim_param, static_cast<unsigned>(i),
                                         isl_bridge::toIslVal(range.first).release()));
    ranges = own(isl_set_upper_bound_val(ranges.release(), isl_dim_param, static_cast<unsigned>(i),
                                         isl_bridge::toIslVal(range.second).release()));
  }
  isl::map gisted = own(isl_map_gist_params(symbolic.copy(), ranges.release()));
  isl::map known = own(isl_map_empty(isl_map_get_space(gisted.get())));
  auto keep = [](isl_basic_map* piece, void* user) -> isl_stat {
    isl::map& into = *static_cast<isl::map*>(user);
    if (freeOfLeaves(piece))
      into = own(isl_map_union(into.release(), isl_map_from_basic_map(piece)));
    else
      isl_basic_map_free(piece);
    return isl_stat_ok;
  };
  if (isl_map_foreach_basic_map(gisted.get(), keep, &known) < 0)
    throw Error("isl could not split the values into pieces");
  known = own(
      isl_map_project_out(known.release(), isl_dim_param, 0, static_cast<unsigned>(parameters)));
  return isl_bridge::coalesce(known);
}

int pieces(const isl::map& map) { return checked(isl_map_n_basic_map(map.get())); }

IndexValues finish(IndexValues values, const mlir_ir::ElementType& elementType) {
  if (!values.represented()) return values;
  int64_t elements = 1;
  for (int64_t size : values.shape) {
    if (size == kDynamic) {  // no table has that many pieces
      elements = INT64_MAX;
      break;
    }
    elements = checkedMul(elements, size);
  }
  int count = pieces(*values.symbolic);
  bool table = count > kMaxTablePiecesCoalesced && count >= elements;
  if (count <= kMaxCoalescedPieces && !table)
    values.symbolic = isl_bridge::coalesce(*values.symbolic);
  if (pieces(*values.symbolic) > kMaxPieces)
    return unknown(values.shape,
                   values.provenance + ": more than " + std::to_string(kMaxPieces) + " pieces");
  std::optional<std::pair<int64_t, int64_t>> range = valueRange(elementType);
  if (!range) return unknown(values.shape, "element type " + elementType.toString());
  if (!fitsIn(*values.symbolic, *range))
    return unknown(values.shape,
                   values.provenance + ": values may not fit " + elementType.toString());
  // With leaves, the known part is left to the end (Tracer::finished): rules need only
  // whether a value is one constant, which a value with leaves is not taken to be.
  bool parameters = checked(isl_map_dim(values.symbolic->get(), isl_dim_param)) > 0;
  if (!parameters) values.known = *values.symbolic;
  values.complete = values.complete && !parameters;
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
