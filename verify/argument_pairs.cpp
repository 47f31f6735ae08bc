// The condition on the one leaf a property of pairs (unique, sorted) is exactly about: "no two
// elements u and w of %idx, u before w in row-major order, satisfy { [u, w] : ... }", where each
// index point reads its own element in the elements' order and the value pairs that break the
// property are the same at every pair of points asked: bad = { [p, l, q, m] } is a product of
// the pairs of points asked (q later than p) and of value pairs.
#include <isl/map.h>
#include <isl/set.h>

#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "verify/argument_conditions_internal.h"
#include "verify/index_points.h"

namespace idxmap::index_points {
namespace {

using isl_bridge::checked;
using isl_bridge::own;

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

// `set` ([p, l, x, q, m', y], `e` entries in x and y) at the pair of points `pair` ([p, q]).
isl::set atPair(const isl::set& set, const std::vector<int64_t>& pair, size_t m, size_t e) {
  isl_set* fixed = set.copy();
  for (size_t d = 0; d < m; ++d) {
    fixed = isl_set_fix_si(fixed, isl_dim_set, static_cast<unsigned>(d), pair[d]);
    fixed = isl_set_fix_si(fixed, isl_dim_set, static_cast<unsigned>(m + 1 + e + d), pair[m + d]);
  }
  return own(fixed);
}

// [p, l, x, q, m', y] without the vectors x and y: [p, l, q, m'].
isl::set withoutVectors(const isl::set& set, size_t m, size_t e) {
  return projectedOut(projectedOut(set, m + 1, e), 2 * m + 2, e);
}

// [p, l, q, m'] without the points: the value pairs [l, m'].
isl::set valuesOnly(const isl::set& set, size_t m) {
  return projectedOut(projectedOut(set, 0, m), 1, m);
}

// The value pairs [l, m'] of `set` ([p, l, x, q, m', y]).
isl::set valuePairs(const isl::set& set, size_t m, size_t e) {
  return valuesOnly(withoutVectors(set, m, e), m);
}

}  // namespace

// Pairs: [p, l, q, m] for the values l read at p and m at a later point q.
std::optional<ArgumentCondition> pairArgumentCondition(const PossibleVectors& possible,
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
  // The exactness test below fails where the bad value pairs differ from one pair of points to
  // another, as they do where an index depends on its position (x[p] = %a[p] + p). Two pairs
  // asked, the first and the last, refute that cheaply, on sets of two dimensions: a value pair
  // bad at one that the other reads must be bad there too.
  {
    std::vector<std::pair<isl::set, isl::set>> sampledPairs;  // (bad, readable) at each
    for (isl_set* (*end)(isl_set*) : {&isl_set_lexmin, &isl_set_lexmax}) {
      const std::vector<int64_t> pair = sampled(own(end(asked.copy())));
      if (pair.empty()) return std::nullopt;  // no pair of points asked
      const isl::set readableHere = atPair(possible.pairwiseWithLeaves, pair, m, e);
      const isl::set badHere =
          own(isl_set_intersect(readableHere.copy(), atPair(violations, pair, m, e).release()));
      sampledPairs.emplace_back(valuePairs(badHere, m, e), valuePairs(readableHere, m, e));
    }
    for (size_t i = 0; i < 2; ++i) {
      const auto& [badHere, readableHere] = sampledPairs[i];
      isl::set badThere =
          own(isl_set_intersect(sampledPairs[1 - i].first.copy(), readableHere.copy()));
      if (!checked(isl_set_is_subset(badThere.get(), badHere.get()))) return std::nullopt;
    }
  }
  isl::set readable = withoutVectors(possible.pairwiseWithLeaves, m, e);
  isl::set bad = withoutVectors(
      own(isl_set_intersect(possible.pairwiseWithLeaves.copy(), violations.release())), m, e);
  isl::set points = own(isl_set_intersect(
      projectedOut(projectedOut(readable, m, 1), 2 * m, 1).release(), asked.release()));
  isl::set badValues = valuesOnly(bad, m);  // [l, m']
  isl::set values = valuesOnly(readable, m);
  // bad holds only pairs of points asked: readable's other pairs (q before p) would only
  // multiply the pieces the exactness test intersects.
  isl::set anyValues = own(isl_set_universe(isl_set_get_space(badValues.get())));
  isl::set readableAsked = isl_bridge::coalesce(
      own(isl_set_intersect(readable.copy(), interleaved(points, anyValues, m).release())));
  isl::set everywhere = own(isl_set_intersect(
      interleaved(isl_bridge::coalesce(points), badValues, m).release(), readableAsked.release()));
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
  return withCandidate(
      {"no two elements u and w of " + which + ", u before w in row-major order, satisfy " +
           setText(named),
       {},
       std::nullopt},
      [&](ArgumentCondition& stated) {
        // [p, l, q, m']: the element read at p, then the one read at q.
        const std::vector<int64_t> pair = sampled(bad);
        if (pair.size() != 2 * m + 2) return;
        for (size_t half : {size_t{0}, m + 1}) {
          std::vector<ArgumentWitness::Element> read =
              breakingAt(std::vector<int64_t>(pair.begin() + half, pair.begin() + half + m + 1), m,
                         possible.leaves);
          stated.breaking.insert(stated.breaking.end(), read.begin(), read.end());
        }
      });
}

}  // namespace idxmap::index_points
