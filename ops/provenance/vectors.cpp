// An op's index vectors from the values of its index tensor: the tensor's relation read at each
// entry of the vector dim, the entries' relations paired point by point. And the values as
// verify's symbolic sizes replay them: at one static shape, with the leaves fixed.
#include <isl/id.h>
#include <isl/map.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/index_values.h"
#include "ops/provenance/relations_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;

namespace {

// `map` with parameter `position` fixed to `value`, and gone.
isl::map withParameterAt(const isl::map& map, int position, int64_t value) {
  isl::map fixed = own(isl_map_fix_val(map.copy(), isl_dim_param, static_cast<unsigned>(position),
                                       isl_bridge::toIslVal(value).release()));
  return own(
      isl_map_project_out(fixed.release(), isl_dim_param, static_cast<unsigned>(position), 1));
}

// `map` read at entry k of input dim `dim`, that dim gone.
isl::map atEntry(const isl::map& map, unsigned dim, int64_t k) {
  isl::map fixed = own(isl_map_fix_si(map.copy(), isl_dim_in, dim, static_cast<int>(k)));
  return own(isl_map_project_out(fixed.release(), isl_dim_in, dim, 1));
}

}  // namespace

IndexValues atShape(const IndexValues& values, const std::vector<int64_t>& shape) {
  IndexValues out = values;
  out.shape = shape;
  const isl::set points =
      own(isl_map_domain(relation(tuple('p', shape.size()), "[]", box('p', shape)).release()));
  out.known = out.known.intersect_domain(points);
  if (out.symbolic) out.symbolic = out.symbolic->intersect_domain(points);
  for (Leaf& leaf : out.leaves) leaf.access = leaf.access.intersect_domain(points);
  return out;
}

IndexValues withLeavesFixed(IndexValues values) {
  if (!values.symbolic || values.leaves.empty()) return values;
  isl::map fixed = *values.symbolic;
  for (int i = checked(isl_map_dim(fixed.get(), isl_dim_param)); i-- > 0;) {
    const std::string name = isl_map_get_dim_name(fixed.get(), isl_dim_param, i);
    if (isSizeParameter(name)) continue;  // sizes are fixed by withSizesAt
    const Leaf& leaf = values.leaves.at(leafOfParameter(name));
    fixed = withParameterAt(fixed, i, std::clamp<int64_t>(0, leaf.range.first, leaf.range.second));
  }
  values.provenance += " (each run-time value fixed to 0 or its range's nearest end)";
  values.symbolic = fixed;
  values.leaves.clear();
  const bool sizesLeft = checked(isl_map_dim(fixed.get(), isl_dim_param)) > 0;
  values.known = sizesLeft ? knownPart(fixed, {}) : fixed;
  values.complete = !sizesLeft;
  return values;
}

IndexValues withSizesAt(IndexValues values, const std::map<size_t, int64_t>& at) {
  auto fix = [&](isl::map map) {
    for (int i = checked(isl_map_dim(map.get(), isl_dim_param)); i-- > 0;) {
      const std::string name = isl_map_get_dim_name(map.get(), isl_dim_param, i);
      if (!isSizeParameter(name)) continue;
      auto value = at.find(static_cast<size_t>(std::stoull(name.substr(1))));
      if (value != at.end()) map = withParameterAt(map, i, value->second);
    }
    return map;
  };
  if (!values.symbolic) return values;
  values.symbolic = fix(*values.symbolic);
  for (Leaf& leaf : values.leaves) leaf.access = fix(leaf.access);
  // Pieces that read a size only are known once it is fixed (sizes `at` leaves out are not).
  values.known = knownPart(*values.symbolic, values.leaves);
  return values;
}

std::optional<VectorValues> indexVectors(const IndexValues& values, int64_t indexVectorDim) {
  if (!values.represented()) return std::nullopt;
  const std::vector<int64_t>& shape = values.shape;
  VectorValues out;
  if (indexVectorDim < 0 || indexVectorDim >= static_cast<int64_t>(shape.size())) {
    out.pointShape = shape;
    out.entries = 1;
    out.relation = *values.symbolic;
    out.leaves = values.leaves;
    return out;
  }
  const auto dim = static_cast<unsigned>(indexVectorDim);
  out.pointShape = shape;
  out.pointShape.erase(out.pointShape.begin() + indexVectorDim);
  if (shape[dim] == kDynamic) throw Error("the index vector dim is `?`: its entries are not known");
  out.entries = static_cast<size_t>(shape[dim]);
  out.relation = relation(tuple('p', out.pointShape.size()), "[]", box('p', out.pointShape));
  for (size_t k = 0; k < out.entries; ++k) {
    isl::map entry = atEntry(*values.symbolic, dim, static_cast<int64_t>(k));
    std::vector<std::pair<size_t, size_t>> renames;
    for (int i = 0; i < checked(isl_map_dim(entry.get(), isl_dim_param)); ++i) {
      isl_id* id = isl_map_get_dim_id(entry.get(), isl_dim_param, static_cast<unsigned>(i));
      const std::string name = isl_id_get_name(id);
      isl_id_free(id);
      if (isSizeParameter(name)) continue;  // one number for every entry
      size_t from = leafOfParameter(name);
      Leaf read = values.leaves.at(from);
      read.access = atEntry(read.access, dim, static_cast<int64_t>(k));
      size_t to = out.leaves.size();
      for (size_t j = 0; j < out.leaves.size(); ++j)
        if (out.leaves[j].tensor == read.tensor &&
            checked(isl_map_is_equal(out.leaves[j].access.get(), read.access.get())))
          to = j;
      if (to == out.leaves.size()) out.leaves.push_back(read);
      renames.emplace_back(from, to);
    }
    entry = renamedLeaves(entry, renames);
    out.relation = own(isl_map_flat_range_product(out.relation.release(), entry.release()));
  }
  return out;
}

}  // namespace idxmap::index_provenance
