// Every violation set is built from the op's own map W = { [i, v] -> [o] } (index point i,
// start index vector v as input dims instead of runtime variables) and the index point's
// position in the index tensor, B = { [i] -> [p] }; the pairs are then lifted from index points
// to index tensor points, keeping only pairs a real index tensor can have (one point holds one
// vector).
#include "verify/index_conditions.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>
#include <cstdlib>

#include "core/bridges/isl_bridge.h"
#include "core/tensor_type.h"
#include "verify/index_points.h"
#include "verify/indexed_op_internal.h"

namespace idxmap {
namespace {

using index_points::flatProduct;
using index_points::flattened;
using index_points::identity;
using index_points::IndexedOp;
using index_points::universe;
using isl_bridge::checked;
using isl_bridge::own;

// The op's map with its runtime variables rt_k as input dims after the index point:
// { [i, v] -> [o] }.
isl::map opRelation(const IndexedOp& op) {
  isl::map relation = isl_bridge::buildIslMapOverRuntimeVars(op.map);
  if (checked(isl_map_dim(relation.get(), isl_dim_param)) != 0)
    throw Error("the op's map has parameters other than its start indices");
  return relation;
}

// { [i] -> [p] }: the index tensor point an index point reads its vector at.
isl::map positionOf(const IndexedOp& op) {
  IndexingMap position = IndexingMap::identity(op.indexShape);
  position.results.clear();
  for (int64_t axis : op.pointAxes)
    position.results.push_back(Expr::dim(static_cast<unsigned>(axis)));
  return isl_bridge::buildIslMap(position, isl_bridge::IslNames::Positional);
}

// { [i, v] -> [p, v] }: an index point's vector is the one at its index tensor point.
isl::map liftToIndexTensor(const IndexedOp& op) {
  return flatProduct(positionOf(op), identity(op.entries()));
}

// The index tensor's shape without the index vector dim: where index vectors are.
std::vector<int64_t> vectorPositions(const IndexedOp& op) {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < op.indicesRank; ++d)
    if (d != op.indexVectorDim) shape.push_back(op.indicesShape[d]);
  return shape;
}

// Pairs { [p, x] -> [q, y] } of index tensor points and vectors as the set [p, x, q, y],
// keeping those where p = q only with x = y (one point holds one vector).
IndexCondition possiblePairs(const IndexedOp& op, const std::vector<int64_t>& points,
                             const isl::map& pairs) {
  size_t m = points.size(), k = op.entries();
  isl::map samePoint = flatProduct(identity(m), universe(k, k));
  isl::map possible = own(isl_map_union(
      own(isl_map_subtract(universe(m + k, m + k).release(), samePoint.release())).release(),
      identity(m + k).release()));
  isl::map kept = own(isl_map_intersect(pairs.copy(), possible.release()));
  return {true, points, k, isl_bridge::coalesce(flattened(kept)), {}};
}

// Pairs { [i1, v1] -> [i2, v2] } of index points as pairs of index tensor points.
IndexCondition pairCondition(const IndexedOp& op, const std::vector<int64_t>& points,
                             const isl::map& indexPointPairs) {
  isl::map lift = liftToIndexTensor(op);
  isl::map pairs = own(isl_map_apply_range(
      own(isl_map_apply_domain(indexPointPairs.copy(), lift.copy())).release(), lift.copy()));
  return possiblePairs(op, points, pairs);
}

// Two applied index points (updates; gather's result points) that reach the same element.
IndexCondition uniqueCondition(const IndexedOp& op, const std::vector<int64_t>& points,
                               const isl::map& relation) {
  isl::map same = own(isl_map_apply_range(relation.copy(), isl_map_reverse(relation.copy())));
  isl::map ordered = flatProduct(index_points::earlierToLater(op.indexShape),
                                 universe(op.entries(), op.entries()));
  return pairCondition(op, points, own(isl_map_intersect(same.release(), ordered.release())));
}

// { [v1] -> [v2] : full start index of v1 >lex that of v2 } over start vectors as the full
// start index holds them (clamped ones for a clamping gather: each entry in [0, top]).
isl::map laterIsSmaller(const IndexedOp& op) {
  // Entries in the order of the axes they start: the full start index's lexicographic order.
  std::vector<size_t> byAxis(op.entries());
  for (size_t k = 0; k < byAxis.size(); ++k) byAxis[k] = k;
  std::sort(byAxis.begin(), byAxis.end(),
            [&](size_t a, size_t b) { return op.startIndexMap[a] < op.startIndexMap[b]; });
  std::string first, second, condition;
  std::vector<std::string> ranges;
  for (size_t k = 0; k < op.entries(); ++k) {
    std::string a = "a" + std::to_string(k), b = "b" + std::to_string(k);
    first += (k ? ", " : "") + a;
    second += (k ? ", " : "") + b;
    if (op.clampTop[k]) {
      std::string range = " <= " + std::to_string(*op.clampTop[k]);
      ranges.push_back("0 <= " + a + range + " and 0 <= " + b + range);
    }
  }
  for (size_t j = 0; j < byAxis.size(); ++j) {
    std::string term = "a" + std::to_string(byAxis[j]) + " > b" + std::to_string(byAxis[j]);
    for (size_t e = 0; e < j; ++e)
      term += " and a" + std::to_string(byAxis[e]) + " = b" + std::to_string(byAxis[e]);
    condition += (j ? " or (" : "(") + term + ")";
  }
  if (condition.empty()) condition = "false";  // no entries: every full start index is 0
  for (const std::string& range : ranges) condition = "(" + condition + ") and " + range;
  std::string text = "{ [" + first + "] -> [" + second + "] : " + condition + " }";
  return isl_bridge::parsedMap(text);
}

// An earlier index point whose full start index is lexicographically greater. The order of
// index points is taken to index tensor points first, values apart: cheaper than lifting
// pairs that carry the values.
IndexCondition sortedCondition(const IndexedOp& op, const std::vector<int64_t>& points) {
  isl::map position = positionOf(op);
  isl::map earlier = own(isl_map_apply_range(
      own(isl_map_apply_domain(index_points::earlierToLater(op.indexShape).release(),
                               position.copy()))
          .release(),
      position.copy()));
  IndexCondition condition = possiblePairs(op, points, flatProduct(earlier, laterIsSmaller(op)));
  condition.clampTop = op.clampTop;
  return condition;
}

// An index point with no image: its start index is clamped (gather), out of range (forms), or
// its update skipped (scatter).
IndexCondition inBoundsCondition(const IndexedOp& op, const std::vector<int64_t>& points,
                                 const isl::map& relation) {
  isl::set all =
      own(isl_set_flat_product(index_points::indexSpace(op.indexShape).release(),
                               own(isl_map_range(universe(0, op.entries()).release())).release()));
  isl::set outside = own(isl_set_subtract(all.release(), isl_map_domain(relation.copy())));
  isl::set violations = own(isl_set_apply(outside.release(), liftToIndexTensor(op).release()));
  return {false, points, op.entries(), isl_bridge::coalesce(violations), {}};
}

IndexConditions conditions(const IndexedOp& op, bool uniqueAsked) {
  return isl_bridge::withIslBudget([&] {
    std::vector<int64_t> points = vectorPositions(op);
    isl::map relation = opRelation(op);
    IndexConditions result;
    if (uniqueAsked) result.unique = uniqueCondition(op, points, relation);
    result.sorted = sortedCondition(op, points);
    result.inBounds = inBoundsCondition(op, points, relation);
    return result;
  });
}

}  // namespace

bool IndexCondition::alwaysHolds() const {
  return checked(isl_set_is_empty(violations.get())) != 0;
}

bool IndexCondition::holdsFor(
    const std::function<std::vector<int64_t>(std::span<const int64_t>)>& vectorAt) const {
  std::vector<std::vector<int64_t>> all;
  std::vector<int64_t> point(pointShape.size(), 0);
  for (int64_t size : pointShape)
    if (size == 0) return true;
  do all.push_back(point);
  while (nextIndex(pointShape, point));
  auto contains = [&](const std::vector<int64_t>& coordinates) {
    isl::point at = own(isl_point_zero(own(isl_set_get_space(violations.get())).release()));
    for (size_t i = 0; i < coordinates.size(); ++i)
      at = own(isl_point_set_coordinate_val(at.release(), isl_dim_set, static_cast<int>(i),
                                            isl_bridge::toIslVal(coordinates[i]).release()));
    return checked(isl_set_is_subset(own(isl_set_from_point(at.release())).get(),
                                     violations.get())) != 0;
  };
  auto read = [&](const std::vector<int64_t>& point) {
    std::vector<int64_t> vector = vectorAt(point);
    for (size_t k = 0; k < clampTop.size(); ++k)
      if (clampTop[k]) vector[k] = std::clamp<int64_t>(vector[k], 0, *clampTop[k]);
    return vector;
  };
  for (const std::vector<int64_t>& p : all) {
    std::vector<int64_t> single = p, x = read(p);
    single.insert(single.end(), x.begin(), x.end());
    if (!pairwise) {
      if (contains(single)) return false;
      continue;
    }
    for (const std::vector<int64_t>& q : all) {
      std::vector<int64_t> both = single, y = read(q);
      both.insert(both.end(), q.begin(), q.end());
      both.insert(both.end(), y.begin(), y.end());
      if (contains(both)) return false;
    }
  }
  return true;
}

std::string IndexCondition::text(const std::string& indicesName) const {
  std::vector<std::string> names;
  auto add = [&](const char* prefix, size_t count) {
    for (size_t i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
  };
  add("p", pointShape.size());
  add("x", entries);
  if (pairwise) {
    add("q", pointShape.size());
    add("y", entries);
  }
  isl::set named = violations;
  for (size_t i = 0; i < names.size(); ++i)
    named = own(isl_set_set_dim_name(named.release(), isl_dim_set, static_cast<unsigned>(i),
                                     names[i].c_str()));
  isl::set simplified = own(isl_set_remove_redundancies(named.release()));
  char* raw = isl_set_to_str(simplified.get());
  if (!raw) isl_bridge::throwLastIslError();
  std::string formula = raw;
  free(raw);
  std::string clamps;
  for (size_t k = 0; k < clampTop.size(); ++k)
    if (clampTop[k])
      clamps += std::string(clamps.empty() ? "" : ", ") + "entry " + std::to_string(k) +
                " to [0, " + std::to_string(*clampTop[k]) + "]";
  std::string vectors = pairwise ? "index vector x at p, y at q" : "index vector x at p";
  if (!clamps.empty()) vectors += ", clamped as the gather clamps them: " + clamps;
  if (pairwise)
    return "no two points p, q of " + indicesName + " (" + vectors + ") satisfy " + formula;
  return "no point p of " + indicesName + " (" + vectors + ") satisfies " + formula;
}

bool IndexCondition::clamped() const {
  return std::any_of(clampTop.begin(), clampTop.end(), [](auto top) { return top.has_value(); });
}

IndexCondition IndexCondition::given(const isl::set& facts) const {
  IndexCondition result = *this;
  result.violations = own(isl_set_gist(violations.copy(), facts.copy()));
  return result;
}

IndexCondition IndexCondition::restrictedTo(const isl::set& facts) const {
  IndexCondition result = *this;
  result.violations = own(isl_set_intersect(violations.copy(), facts.copy()));
  return result;
}

IndexConditions gatherIndexConditions(const gather_scatter::GatherOp& op, const IndexOpForm& form) {
  return conditions(index_points::indexedOp(op, form), form.uniqueAsked);
}

IndexConditions scatterIndexConditions(const gather_scatter::ScatterOp& op,
                                       const IndexOpForm& form) {
  return conditions(index_points::indexedOp(op, form), true);
}

}  // namespace idxmap
