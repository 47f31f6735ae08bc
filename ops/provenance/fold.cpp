// Composing known index values into an op's map. The op's map reads rt_k, "entry k of the
// index vector at the index point the op reads"; the read map (gatherOutputToStartIndicesMap)
// says which point that is: its range variable s0 walks the vector axis, so fixing the
// vector-axis coordinate to k gives the point of entry k. Then
//   folded = { d -> o : o in opMap(d, r), r_k = f_k(values(read_k(d))) }
// where f_k is the gather's clamp or, for scatter, the identity. Entries whose value is not
// known at every point read keep their runtime variable.
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/fold.h"
#include "ops/provenance/relations_internal.h"
#include "simplifier/simplify.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;

namespace {

FoldedMap unfolded(const IndexingMap& opMap) {
  FoldedMap result{toIslMap(opMap), simplify(opMap), std::vector<bool>(opMap.runtimeVars.size())};
  return result;
}

}  // namespace

FoldedMap foldIndexValues(const IndexingMap& opMap, const IndexingMap& indicesMap,
                          int64_t indexVectorDim, int64_t indicesRank,
                          const std::vector<std::optional<int64_t>>& clampTop,
                          const IndexValues& values) {
  const size_t entries = opMap.runtimeVars.size();
  if (opMap.knownEmpty) {  // no point has an image, whatever the values: nothing to fold
    FoldedMap empty = unfolded(opMap);
    empty.folded.assign(entries, true);
    return empty;
  }
  if (entries == 0 || !values.anyKnown()) return unfolded(opMap);
  const size_t dims = opMap.dims.size();
  const std::string d = tuple('d', dims);

  isl::map read = toIslMap(indicesMap);  // { [d] -> [indices point] }, no parameters
  std::vector<isl::map> components;
  std::vector<bool> folded(entries, false);
  for (size_t k = 0; k < entries; ++k) {
    isl::map point = read;
    if (indexVectorDim < indicesRank) {
      std::string fix = "{ " + tuple('p', static_cast<size_t>(indicesRank)) + " : p" +
                        std::to_string(indexVectorDim) + " = " + std::to_string(k) + " }";
      point = own(isl_map_intersect_range(point.release(), isl_bridge::parsedSet(fix).release()));
    }
    isl::map value = own(isl_map_apply_range(point.copy(), values.known.copy()));
    isl::set reads = own(isl_map_domain(point.copy()));
    isl::set known = own(isl_map_domain(value.copy()));
    std::string param = "rt" + std::to_string(k);
    if (values.complete || checked(isl_set_is_subset(reads.get(), known.get()))) {
      folded[k] = true;
      if (clampTop[k]) {
        std::string top = std::to_string(*clampTop[k]);
        value = own(isl_map_apply_range(
            value.release(),
            readMap("{ [v] -> [c] : (0 <= v <= " + top +
                    " and c = v) or (v < 0 and c = 0) or (v > " + top + " and c = " + top + ") }")
                .release()));
      }
      components.push_back(value);
    } else {
      components.push_back(readMap("[" + param + "] -> { " + d + " -> [r] : r = " + param + " }"));
    }
  }
  if (std::none_of(folded.begin(), folded.end(), [](bool f) { return f; })) return unfolded(opMap);

  // { [d] -> [d, r_0, ..., r_{n-1}] } followed by the op's map with rt moved into its domain.
  isl::map substitute = readMap("{ " + d + " -> " + d + " }");
  for (const isl::map& component : components)
    substitute = own(isl_map_flat_range_product(substitute.release(), component.copy()));
  isl::map op = toIslMap(opMap);
  op = own(isl_map_move_dims(op.release(), isl_dim_in, static_cast<unsigned>(dims), isl_dim_param,
                             0, static_cast<unsigned>(entries)));
  op = own(isl_map_reset_tuple_id(op.release(), isl_dim_in));
  op = own(isl_map_reset_tuple_id(op.release(), isl_dim_out));
  isl::map relation = own(isl_map_apply_range(substitute.release(), op.release()));

  // Parameters in entry order, so that position k of the remaining ones is what it was.
  std::vector<size_t> kept;
  for (size_t k = 0; k < entries; ++k)
    if (!folded[k]) kept.push_back(k);
  isl_space* params =
      isl_space_params_alloc(islContext().get(), static_cast<unsigned>(kept.size()));
  for (size_t i = 0; i < kept.size(); ++i)
    params = isl_space_set_dim_id(
        params, isl_dim_param, static_cast<unsigned>(i),
        isl_id_alloc(islContext().get(), ("rt" + std::to_string(kept[i])).c_str(), nullptr));
  relation = own(isl_map_align_params(relation.release(), own(params).release()));
  if (checked(isl_map_n_basic_map(relation.get())) <= kMaxCoalescedPieces)
    relation = isl_bridge::coalesce(relation);

  FoldedMap result{relation, std::nullopt, folded};
  if (checked(isl_map_n_basic_map(relation.get())) <= 1) {
    try {
      result.map = simplify(fromIslMap(relation));
    } catch (const Error&) {
      // An unbounded variable or an int64 overflow: the isl text still says it all.
    }
  }
  return result;
}

bool FoldedMap::anyFolded() const {
  return std::any_of(folded.begin(), folded.end(), [](bool f) { return f; });
}

FoldedMap foldGatherIndices(const gather_scatter::GatherOp& op, const IndexValues& values,
                            bool clampIndices) {
  const gather_scatter::GatherDimensionNumbers& dn = op.dimension_numbers;
  std::vector<std::optional<int64_t>> clampTop(dn.start_index_map.size());
  for (size_t k = 0; clampIndices && k < clampTop.size(); ++k) {
    int64_t d = dn.start_index_map[k];
    clampTop[k] = op.operand.shape[d] - op.slice_sizes[d];
  }
  IndexingMap opMap = gather_scatter::gatherOutputToOperandMap(op);
  if (values.shape != op.start_indices.shape) return unfolded(opMap);  // not this op's indices
  try {
    return foldIndexValues(opMap, gather_scatter::gatherOutputToStartIndicesMap(op),
                           dn.index_vector_dim, op.start_indices.rank(), clampTop, values);
  } catch (const Error&) {  // isl gave up: the runtime variables stay
    return unfolded(opMap);
  }
}

FoldedMap foldScatterIndices(const gather_scatter::ScatterOp& op, const IndexValues& values) {
  const gather_scatter::ScatterDimensionNumbers& dn = op.dimension_numbers;
  std::vector<std::optional<int64_t>> clampTop(dn.scatter_dims_to_operand_dims.size());
  IndexingMap opMap = gather_scatter::scatterUpdateToResultMap(op);
  if (values.shape != op.scatter_indices.shape) return unfolded(opMap);
  try {
    return foldIndexValues(opMap, gather_scatter::scatterUpdateToIndicesMap(op),
                           dn.index_vector_dim, op.scatter_indices.rank(), clampTop, values);
  } catch (const Error&) {
    return unfolded(opMap);
  }
}

std::optional<std::vector<IndexingMap>> foldedPieces(const FoldedMap& folded, size_t maxPieces) {
  size_t kept = static_cast<size_t>(std::count(folded.folded.begin(), folded.folded.end(), false));
  if (folded.map)
    return folded.map->knownEmpty || folded.map->runtimeVars.size() == kept
               ? std::optional(std::vector{*folded.map})
               : std::nullopt;
  // Several pieces share the runtime variables that are left, but each piece's map would
  // narrow their ranges to its own part (a variable's range says which values it takes), and
  // one pinned to a value would be dropped: pieces are exact only with none left.
  if (kept > 0 ||
      checked(isl_map_n_basic_map(folded.relation.get())) > static_cast<isl_size>(maxPieces))
    return std::nullopt;
  std::vector<isl::map> pieces;
  isl_map_foreach_basic_map(
      folded.relation.get(),
      [](isl_basic_map* piece, void* user) {
        static_cast<std::vector<isl::map>*>(user)->push_back(own(isl_map_from_basic_map(piece)));
        return isl_stat_ok;
      },
      &pieces);
  std::vector<IndexingMap> maps;
  try {
    for (const isl::map& piece : pieces) maps.push_back(simplify(fromIslMap(piece)));
  } catch (const Error&) {  // an unbounded variable or an int64 overflow
    return std::nullopt;
  }
  return maps;
}

std::string islText(const isl::map& relation) {
  char* text = isl_map_to_str(relation.get());
  std::string result = text ? text : "";
  free(text);
  return result;
}

}  // namespace idxmap::index_provenance
