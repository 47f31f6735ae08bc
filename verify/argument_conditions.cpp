// The breaking values of the one leaf, from the possible vectors with their leaves
// ([p, l, x]) and the violation set ([p, x]): bad = { [p, l] : some x read at p with leaf value
// l breaks the property }. The condition "every element read is outside bad's values" is the
// property exactly when bad is a product (points read) x (values): then the position of the
// element does not matter, only its value. Pairs (unique, sorted): argument_pairs.cpp.
#include "verify/argument_conditions_internal.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <functional>
#include <span>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "verify/index_points.h"

namespace idxmap::index_points {

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

namespace {

// The one coordinate of a point of a 1-d set.
int64_t onlyCoordinate(isl::set point) {
  isl::point at = own(isl_set_sample_point(point.release()));
  isl_val* value = isl_point_get_coordinate_val(at.get(), isl_dim_set, 0);
  int64_t coordinate = isl_val_get_num_si(value);
  isl_val_free(value);
  return coordinate;
}

// The element of the leaf's tensor read at point p; none for a leaf of an entry that the
// vector at p does not use.
std::optional<std::vector<int64_t>> elementAt(const index_provenance::Leaf& leaf,
                                              std::span<const int64_t> p) {
  std::string tuple;
  for (size_t d = 0; d < p.size(); ++d) tuple += (d ? ", " : "") + std::to_string(p[d]);
  isl::set at = isl_bridge::parsedSet("{ [" + tuple + "] }");
  isl::set read = own(isl_set_apply(at.release(), leaf.access.copy()));
  if (checked(isl_set_is_empty(read.get()))) return std::nullopt;
  return coordinates(own(isl_set_sample_point(read.release())));
}

}  // namespace

// A point of `bad` ([p, v0, v1, ...], `m` dims of p, a value per leaf read there) as the
// elements it reads and their values.
std::vector<ArgumentWitness::Element> breakingAt(
    const std::vector<int64_t>& point, size_t m,
    const std::vector<index_provenance::Leaf>& leaves) {
  std::vector<ArgumentWitness::Element> out;
  if (point.size() != m + leaves.size()) return out;
  const std::span<const int64_t> p(point.data(), m);
  for (size_t k = 0; k < leaves.size(); ++k)
    if (std::optional<std::vector<int64_t>> element = elementAt(leaves[k], p))
      out.push_back({leaves[k].tensor, std::move(*element), point[m + k]});
  return out;
}

// A point of `set` (none when it is empty).
std::vector<int64_t> sampled(const isl::set& set) {
  if (checked(isl_set_is_empty(set.get()))) return {};
  return coordinates(own(isl_set_sample_point(set.copy())));
}

namespace {

// A value of a 1-d set, preferring 0 (none when it is empty).
std::optional<int64_t> onlyValue(const isl::set& values) {
  if (checked(isl_set_is_empty(values.get()))) return std::nullopt;
  isl::set zero = isl_bridge::parsedSet("{ [0] }");
  if (checked(isl_set_is_subset(zero.get(), values.get()))) return 0;
  return sampled(values).at(0);
}

}  // namespace

// The condition with the candidate witness `pick` adds to it. The candidate is extra: where isl
// cannot give one (its budget, a point it cannot sample), the condition stands without it.
ArgumentCondition withCandidate(ArgumentCondition stated,
                                const std::function<void(ArgumentCondition&)>& pick) {
  try {
    pick(stated);
  } catch (const Error&) {
    stated.breaking.clear();
  } catch (const isl::exception&) {
    stated.breaking.clear();
  }
  return stated;
}

namespace {

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

}  // namespace

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

namespace {

std::optional<ArgumentCondition> singleCondition(const PossibleVectors& possible,
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
  return withCandidate(
      {which + (described.front() == '[' || described.front() == '{' ? " is in " : " is ") +
           described,
       {},
       std::nullopt},
      [&](ArgumentCondition& stated) {
        stated.breaking = breakingAt(sampled(bad), m, possible.leaves);
        stated.keeping = onlyValue(good);
      });
}

// A slice of a tensor as a person names it, "%x[:, 2]", and as the set of its elements.
struct Slice {
  std::string text;
  isl::set elements;
};

// The slice of `leaf`'s tensor that holds `elements` (what it reads): a coordinate where every
// read has the same one along a dim known to have more than one element (of one, or of `?`
// size, ":": with "that the op reads" still true at every size).
Slice slice(const isl::set& elements, const index_provenance::Leaf& leaf) {
  std::string text, tuple, fixed;
  const size_t rank = leaf.tensorShape.size();
  for (size_t d = 0; d < rank; ++d) {
    isl::set coordinate = projectedOut(projectedOut(elements, d + 1, rank - d - 1), 0, d);
    const std::string a = "a" + std::to_string(d);
    std::string at = ":";
    if (leaf.tensorShape[d] > 1 && checked(isl_set_is_singleton(coordinate.get()))) {
      at = std::to_string(onlyCoordinate(coordinate));
      fixed += (fixed.empty() ? " : " : " and ") + a + " = " + at;
    }
    text += (d ? ", " : "") + at;
    tuple += (d ? ", " : "") + a;
  }
  return {leaf.tensor + "[" + text + "]",
          isl_bridge::parsedSet("{ [" + tuple + "]" + fixed + " }")};
}

// Several leaves (an index vector from several elements: a row of an argument, or elements of
// two tensors): "every element of %x[:, 0] that the op reads is in [0, 3] and every element of
// %x[:, 1] that the op reads is in [0, 5]". Exact when the values that keep the property are a
// product, each leaf's own set at every point: good = readable ∩ (points × V0 × V1 × ...).
std::optional<ArgumentCondition> leavesCondition(const PossibleVectors& possible,
                                                 const IndexCondition& condition) {
  const size_t m = condition.pointShape.size(), e = condition.entries, k = possible.leaves.size();
  isl::set violations =
      own(isl_set_insert_dims(condition.violations.copy(), isl_dim_set, static_cast<unsigned>(m),
                              static_cast<unsigned>(k)));
  isl::set readable = projectedOut(possible.singleWithLeaves, m + k, e);  // [p, L]
  isl::set bad = projectedOut(
      own(isl_set_intersect(possible.singleWithLeaves.copy(), violations.release())), m + k, e);
  isl::set good = own(isl_set_subtract(readable.copy(), bad.copy()));
  isl::set points = projectedOut(readable, m, k);  // [p]
  if (checked(isl_set_is_empty(points.get()))) return std::nullopt;
  std::vector<isl::set> kept, all;  // per leaf: the values that keep it, and every value
  isl::set product = points;
  for (size_t i = 0; i < k; ++i) {
    auto only = [&](const isl::set& set) {
      return projectedOut(projectedOut(set, m + i + 1, k - i - 1), 0, m + i);
    };
    kept.push_back(only(good));
    all.push_back(only(readable));
    if (checked(isl_set_is_empty(kept.back().get()))) return std::nullopt;  // every value breaks
    product = own(isl_set_flat_product(product.release(), kept.back().copy()));
  }
  product = own(isl_set_intersect(product.release(), readable.copy()));
  if (!checked(isl_set_is_subset(product.get(), good.get()))) return std::nullopt;
  // The elements each leaf reads (none: a leaf of an entry its vector does not use).
  std::vector<isl::set> reads;
  for (const index_provenance::Leaf& leaf : possible.leaves)
    reads.push_back(own(isl_set_apply(points.copy(), leaf.access.copy())));
  // A clause per leaf whose values matter; one for a tensor whose every leaf has the same set.
  std::vector<std::string> clauses;
  std::vector<std::pair<std::string, isl::set>> namedSets;  // each name given, and its values
  for (size_t i = 0; i < k; ++i) {
    if (checked(isl_set_is_subset(all[i].get(), kept[i].get()))) continue;
    const index_provenance::Leaf& leaf = possible.leaves[i];
    bool whole = true;  // every leaf of the tensor that reads an element has this set
    for (size_t j = 0; j < k; ++j)
      if (possible.leaves[j].tensor == leaf.tensor && !checked(isl_set_is_empty(reads[j].get())))
        whole = whole && checked(isl_set_is_equal(kept[i].get(), kept[j].get()));
    std::string which = leaf.tensor;
    if (!whole) {
      // "every element of %x[:, 0] that the op reads" must be the elements this leaf reads:
      // none of the slice's that only another leaf reads.
      Slice named = slice(reads[i], leaf);
      isl::set others = own(isl_set_empty(isl_set_get_space(named.elements.get())));
      for (size_t j = 0; j < k; ++j)
        if (possible.leaves[j].tensor == leaf.tensor)
          others = own(isl_set_union(others.release(), reads[j].copy()));
      isl::set strays = own(isl_set_subtract(
          isl_set_intersect(named.elements.copy(), others.release()), reads[i].copy()));
      if (!checked(isl_set_is_empty(strays.get()))) return std::nullopt;
      which = named.text;
    }
    for (const auto& [other, values] : namedSets)  // two sets for one name would read as both
      if (other == which && !checked(isl_set_is_equal(values.get(), kept[i].get())))
        return std::nullopt;
    namedSets.emplace_back(which, kept[i]);
    const std::string described = describedValues(kept[i]);
    const std::string clause =
        "every element of " + which + " that the op reads" +
        (described.front() == '[' || described.front() == '{' ? " is in " : " is ") + described;
    if (std::find(clauses.begin(), clauses.end(), clause) == clauses.end())
      clauses.push_back(clause);
  }
  if (clauses.empty()) return std::nullopt;  // no value breaks it: not a condition
  std::sort(clauses.begin(), clauses.end());
  std::string text;
  for (const std::string& clause : clauses) text += (text.empty() ? "" : " and ") + clause;
  return withCandidate({text, {}, std::nullopt}, [&](ArgumentCondition& stated) {
    isl::set everyLeafKeeps = kept.front();
    for (const isl::set& values : kept)
      everyLeafKeeps = own(isl_set_intersect(everyLeafKeeps.release(), values.copy()));
    stated.breaking = breakingAt(sampled(bad), m, possible.leaves);
    stated.keeping = onlyValue(everyLeafKeeps);
  });
}

}  // namespace

std::optional<ArgumentCondition> argumentCondition(const PossibleVectors& possible,
                                                   const IndexCondition& condition) {
  if (possible.leaves.empty()) return std::nullopt;
  if (!condition.pairwise) {
    if (possible.singleWithLeaves.is_null()) return std::nullopt;
    return possible.leaves.size() == 1 ? singleCondition(possible, condition)
                                       : leavesCondition(possible, condition);
  }
  if (possible.leaves.size() != 1) return std::nullopt;
  if (possible.pairwiseWithLeaves.is_null()) return std::nullopt;
  return pairArgumentCondition(possible, condition);
}

}  // namespace idxmap::index_points
