// Built as verify/index_conditions builds the static sets, from the sized op's relations
// (sized_op_internal.h) over index points i with the vectors x kept as dimensions rather than
// functions of the leaves: a pair of index points is lifted to the index tensor points they
// read (the point axes of i), and a pair at one point keeps only its one vector.
#include "verify/sized_conditions_internal.h"

#include <isl/map.h>
#include <isl/set.h>

#include "core/bridges/isl_bridge.h"
#include "core/tensor_type.h"
#include "verify/index_points.h"

namespace idxmap::symbolic_sizes {
namespace {

using index_points::flatProduct;
using index_points::identity;
using index_points::universe;
using isl_bridge::own;

// { [i, x] -> [p, x] }: an index point's vector is the one at its index tensor point.
isl::map lifted(const SizedOp& p) {
  std::string point;
  for (size_t j = 0; j < p.pointAxes.size(); ++j)
    point += (j ? ", " : "") + variable("i", static_cast<size_t>(p.pointAxes[j]));
  std::string vector;
  for (size_t k = 0; k < p.entries; ++k) vector += ", " + variable("x", k);
  if (point.empty() && !vector.empty()) vector = vector.substr(2);
  return isl::map(islContext(), "{ " + tuple("i", p.spaceSizes.size(), "x", p.entries) + " -> [" +
                                    point + vector + "] }");
}

// The index tensor's shape without its vector dim, a `?` as kDynamic: the points' names only.
std::vector<int64_t> pointShape(const SizedOp& p) {
  std::vector<int64_t> shape;
  for (size_t axis : p.indexPointAxes)
    shape.push_back(Sizes::isParameter(p.indexSizes[axis]) ? kDynamic
                                                           : std::stoll(p.indexSizes[axis]));
  return shape;
}

// { [i, x] -> [j, y] : i before j in row-major order }, over the op's index points.
isl::map earlier(const SizedOp& p, const isl::set& space) {
  isl::map order = own(isl_map_lex_lt(isl_set_get_space(space.get())))
                       .intersect_domain(space)
                       .intersect_range(space);
  return flatProduct(order, universe(p.entries, p.entries));
}

// Pairs of index points and vectors as pairs of index tensor points, [p, x, q, y], keeping a
// pair at one point only with one vector (one point holds one vector).
IndexCondition pairs(const SizedOp& p, const isl::map& atIndexPoints) {
  const size_t m = p.pointAxes.size(), e = p.entries;
  const isl::map lift = lifted(p);
  isl::map onTensor = atIndexPoints.apply_domain(lift).apply_range(lift);
  isl::map samePoint = flatProduct(identity(m), universe(e, e));
  isl::map possible = universe(m + e, m + e).subtract(samePoint).unite(identity(m + e));
  onTensor = onTensor.intersect(possible);
  return {true, pointShape(p), e, index_points::flattened(onTensor), {}};
}

// The set without what the points and the vectors they can read imply anyway (the points'
// bounds, an element type's range, an iota's entry): `read`, [p, x], is what the op's index
// tensor holds, so the condition is the same on it and easier to read.
IndexCondition simplified(IndexCondition condition, const isl::set& read) {
  const isl::set context =
      condition.pairwise ? own(isl_set_flat_product(read.copy(), read.copy())) : read;
  condition.violations = isl_bridge::coalesce(condition.violations.gist(context));
  return condition;
}

}  // namespace

VectorView vectorView(const SizedOp& p, const isl::set& space, const isl::set& withVectors) {
  return {space, withVectors, sizedRelations(p, withVectors), withVectors.apply(lifted(p))};
}

IndexCondition sizedInBounds(const SizedOp& p, const VectorView& view) {
  return simplified({false, pointShape(p), p.entries, view.relations.outside.apply(lifted(p)), {}},
                    view.read);
}

IndexCondition sizedSorted(const SizedOp& p, const VectorView& view) {
  const isl::map& startOf = view.relations.startOf;
  const isl::map larger = startOf.apply_range(index_points::lexGreater(p.targetSizes.size()))
                              .apply_range(startOf.reverse());
  return simplified(pairs(p, earlier(p, view.space).intersect(larger)), view.read);
}

IndexCondition sizedUnique(const SizedOp& p, const VectorView& view) {
  const isl::map& kept = view.relations.kept;
  return simplified(pairs(p, earlier(p, view.space).intersect(kept.apply_range(kept.reverse()))),
                    view.read);
}

std::string sizedText(const SizedOp& p, const IndexCondition& condition) {
  const std::string text = condition.text(p.names.indices);
  return text + p.sizes.legend(text);
}

}  // namespace idxmap::symbolic_sizes
