// The breaking values of the one leaf, from the possible vectors with their leaves
// ([p, l, x]) and the violation set ([p, x]): bad = { [p, l] : some x read at p with leaf value
// l breaks the property }. The condition "every element read is outside bad's values" is the
// property exactly when bad is a product (points read) x (values): then the position of the
// element does not matter, only its value. Pairs likewise: bad = { [p, l, q, m] }, a product of
// the pairs of points asked (q later than p) and of value pairs.
#include "verify/argument_conditions_internal.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"

namespace idxmap::index_points {
namespace {

using isl_bridge::checked;
using isl_bridge::own;

isl::set projectedOut(const isl::set& set, size_t first, size_t count) {
  return own(isl_set_project_out(set.copy(), isl_dim_set, static_cast<unsigned>(first),
                                 static_cast<unsigned>(count)));
}

std::string setText(const isl::set& set) {
  char* raw = isl_set_to_str(set.get());
  if (!raw) isl_bridge::throwLastIslError();
  std::string out = raw;
  free(raw);
  return out;
}

// The one coordinate of a point of a 1-d set.
int64_t onlyCoordinate(isl::set point) {
  isl::point at = own(isl_set_sample_point(point.release()));
  isl_val* value = isl_point_get_coordinate_val(at.get(), isl_dim_set, 0);
  int64_t coordinate = isl_val_get_num_si(value);
  isl_val_free(value);
  return coordinate;
}

// "[-10, 9]" for an interval, isl's text of the set otherwise ("{ [v] : ... }").
std::string describedValues(const isl::set& values) {
  isl::set named = own(isl_set_set_dim_name(values.copy(), isl_dim_set, 0, "v"));
  named = own(isl_set_coalesce(named.release()));
  if (checked(isl_set_is_bounded(named.get()))) {
    const int64_t lo = onlyCoordinate(own(isl_set_lexmin(named.copy())));
    const int64_t hi = onlyCoordinate(own(isl_set_lexmax(named.copy())));
    isl::set interval = isl_bridge::parsedSet("{ [v] : " + std::to_string(lo) +
                                              " <= v <= " + std::to_string(hi) + " }");
    if (checked(isl_set_is_equal(interval.get(), named.get())))
      return lo == hi ? std::to_string(lo)
                      : "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  }
  return setText(named);
}

// Whether the points, through the leaf's access, read every element of its tensor (of a tensor
// with `?` dims, not known: its size is not the op's).
bool readsEveryElement(const isl::set& points, const index_provenance::Leaf& leaf) {
  if (std::count(leaf.tensorShape.begin(), leaf.tensorShape.end(), kDynamic) > 0) return false;
  isl::set elements = own(isl_set_apply(points.copy(), leaf.access.copy()));
  std::string box, tuple;
  for (size_t d = 0; d < leaf.tensorShape.size(); ++d) {
    const std::string a = "a" + std::to_string(d);
    tuple += (d ? ", " : "") + a;
    box += (d ? " and 0 <= " : "0 <= ") + a + " < " + std::to_string(leaf.tensorShape[d]);
  }
  isl::set all =
      isl_bridge::parsedSet("{ [" + tuple + "]" + (box.empty() ? "" : " : " + box) + " }");
  return checked(isl_set_is_subset(all.get(), elements.get()));
}

// [p, q] x [a, b] as [p, a, q, b] (p and q of `m` dims each): the layout of the pair sets.
isl::set interleaved(const isl::set& points, const isl::set& values, size_t m) {
  std::string p, q;
  for (size_t d = 0; d < m; ++d) {
    p += (d ? ", p" : "p") + std::to_string(d);
    q += (d ? ", q" : "q") + std::to_string(d);
  }
  const std::string sep = m ? ", " : "";
  isl::map reorder = isl_bridge::parsedMap("{ [" + p + sep + q + sep + "a, b] -> [" + p + sep +
                                           "a, " + q + sep + "b] }");
  return own(isl_set_apply(isl_set_flat_product(points.copy(), values.copy()), reorder.copy()));
}

std::optional<std::string> singleCondition(const PossibleVectors& possible,
                                           const IndexCondition& condition) {
  const size_t m = condition.pointShape.size(), e = condition.entries;
  // [p, l, x]: the violations with the leaf's value as a free dimension.
  isl::set violations = own(
      isl_set_insert_dims(condition.violations.copy(), isl_dim_set, static_cast<unsigned>(m), 1));
  isl::set readable = projectedOut(possible.singleWithLeaves, m + 1, e);  // [p, l]
  isl::set bad = projectedOut(
      own(isl_set_intersect(possible.singleWithLeaves.copy(), violations.release())), m + 1, e);
  isl::set points = projectedOut(readable, m, 1);  // [p]
  isl::set values = projectedOut(readable, 0, m);  // [l]
  isl::set badValues = projectedOut(bad, 0, m);    // [l]
  // Exact only when every point breaks for the same values of its element.
  isl::set everywhere = own(isl_set_intersect(
      own(isl_set_flat_product(points.copy(), badValues.copy())).release(), readable.copy()));
  if (!checked(isl_set_is_subset(everywhere.get(), bad.get()))) return std::nullopt;
  isl::set good = own(isl_set_subtract(values.copy(), badValues.release()));
  if (checked(isl_set_is_empty(good.get())) || checked(isl_set_is_empty(points.get())))
    return std::nullopt;  // broken by every value: not a condition worth stating
  const index_provenance::Leaf& leaf = possible.leaves[0];
  std::string which = "every element of " + leaf.tensor;
  if (!readsEveryElement(points, leaf)) which += " that the op reads";
  const std::string described = describedValues(good);  // "[0, 4]", "{ [v] : ... }", "0"
  return which + (described.front() == '[' || described.front() == '{' ? " is in " : " is ") +
         described;
}

// Whether the index points read the leaf's elements in their own order, one element each (a
// point p before q reads an element before q's): then "read at an earlier point" is "an earlier
// element", which a person can check on the argument.
bool readsInOrder(const isl::set& points, const index_provenance::Leaf& leaf) {
  isl::map access = own(isl_map_intersect_domain(leaf.access.copy(), points.copy()));
  if (!checked(isl_map_is_injective(access.get()))) return false;
  isl::map earlier = own(isl_map_lex_lt(isl_set_get_space(points.get())));
  isl::map elementsInOrder = own(isl_map_apply_range(
      isl_map_apply_range(isl_map_reverse(access.copy()), earlier.release()), access.copy()));
  isl::set elements = own(isl_map_range(access.copy()));
  isl::map before = own(isl_map_lex_lt(isl_set_get_space(elements.get())));
  return checked(isl_map_is_subset(elementsInOrder.get(), before.get()));
}

// { [p, q] : p before q in lexicographic order } over points of `m` dims.
isl::set laterPairs(size_t m) {
  std::string p, q, before, equal;
  for (size_t d = 0; d < m; ++d) {
    const std::string pd = "p" + std::to_string(d), qd = "q" + std::to_string(d);
    p += (d ? ", " : "") + pd;
    q += (d ? ", " : "") + qd;
    before += std::string(d ? " or (" : "(") + equal + pd + " < " + qd + ")";
    equal += pd + " = " + qd + " and ";
  }
  return isl_bridge::parsedSet("{ [" + p + (m ? ", " : "") + q +
                               "] : " + (before.empty() ? "1 = 0" : before) + " }");
}

// Pairs: [p, l, q, m] for the values l read at p and m at a later point q.
std::optional<std::string> pairCondition(const PossibleVectors& possible,
                                         const IndexCondition& condition) {
  const index_provenance::Leaf& leaf = possible.leaves[0];
  const size_t m = condition.pointShape.size(), e = condition.entries;
  // What rules a condition on the argument out is asked first, on the small sets: the pairs of
  // points the property is about must each be a later point q after p, or "u before w" would
  // leave out the pairs asked the other way round; and the points must read the elements in
  // their own order.
  isl::set asked = projectedOut(projectedOut(condition.violations, m, e), 2 * m, e);  // [p, q]
  if (!checked(isl_set_is_subset(asked.get(), laterPairs(m).get()))) return std::nullopt;
  isl::set read = projectedOut(possible.singleWithLeaves, m, 1 + e);  // [p]
  if (!readsInOrder(read, leaf)) return std::nullopt;
  isl::set violations = own(
      isl_set_insert_dims(condition.violations.copy(), isl_dim_set, static_cast<unsigned>(m), 1));
  violations = own(isl_set_insert_dims(violations.release(), isl_dim_set,
                                       static_cast<unsigned>(2 * m + 1 + e), 1));
  // [p, l, x, q, m', y] without x and y.
  auto withoutVectors = [&](const isl::set& set) {
    return projectedOut(projectedOut(set, m + 1, e), 2 * m + 2, e);
  };
  isl::set readable = withoutVectors(possible.pairwiseWithLeaves);
  isl::set bad = withoutVectors(
      own(isl_set_intersect(possible.pairwiseWithLeaves.copy(), violations.release())));
  isl::set points = own(isl_set_intersect(
      projectedOut(projectedOut(readable, m, 1), 2 * m, 1).release(), asked.release()));
  isl::set badValues = projectedOut(projectedOut(bad, 0, m), 1, m);  // [l, m']
  isl::set values = projectedOut(projectedOut(readable, 0, m), 1, m);
  isl::set everywhere =
      own(isl_set_intersect(interleaved(points, badValues, m).release(), readable.copy()));
  if (!checked(isl_set_is_subset(everywhere.get(), bad.get())) ||
      checked(isl_set_is_empty(points.get())) ||
      checked(isl_set_is_subset(values.get(), badValues.get())))
    return std::nullopt;
  isl::set named = own(isl_set_gist(badValues.release(), values.release()));
  named = own(isl_set_set_dim_name(named.release(), isl_dim_set, 0, "u"));
  named = own(isl_set_set_dim_name(named.release(), isl_dim_set, 1, "w"));
  named = own(isl_set_coalesce(named.release()));
  std::string which = leaf.tensor;
  if (!readsEveryElement(read, leaf)) which += " that the op reads";
  return "no two elements u and w of " + which + ", u before w in row-major order, satisfy " +
         setText(named);
}

}  // namespace

std::optional<std::string> argumentCondition(const PossibleVectors& possible,
                                             const IndexCondition& condition) {
  if (possible.leaves.size() != 1) return std::nullopt;
  if (!condition.pairwise) {
    if (possible.singleWithLeaves.is_null()) return std::nullopt;
    return singleCondition(possible, condition);
  }
  if (possible.pairwiseWithLeaves.is_null()) return std::nullopt;
  return pairCondition(possible, condition);
}

}  // namespace idxmap::index_points
