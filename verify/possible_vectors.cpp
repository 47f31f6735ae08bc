#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"
#include "verify/index_points.h"
#include "verify/possible_vectors_internal.h"

namespace idxmap::index_points {
namespace {

using index_provenance::Leaf;
using index_provenance::VectorValues;
using isl_bridge::checked;
using isl_bridge::own;

isl::map readMap(const std::string& text) { return isl_bridge::parsedMap(text); }

std::string names(char prefix, size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i) text += (i ? ", " : "") + (prefix + std::to_string(i));
  return text;
}

// Vectors of one tensor an op reads: which leaf parameter (by position) holds entry j of the
// tensor's vector, and the tensor's point the vector sits at.
struct VectorsOfTensor {
  std::vector<size_t> positions;  // entry j of the tensor's vector -> leaf position
  isl::map row;                   // { [p] -> [a] }: the tensor's point the vector sits at
  std::vector<int64_t> pointShape;
};

// How the op reads `tensor`'s vectors, one group per place it reads them from; empty when it
// reads no whole vector. A tensor whose last dim is the op's vectors' (or a block of entries
// of them, as a concatenation along the vector dim makes) is read row by row: every entry of
// a row found among the leaves. Where the op's vectors have one entry, or the tensor's last
// dim is 1, each element is a vector. Nothing else is read as whole vectors: a fact about
// rows does not say anything about the elements alone.
std::vector<VectorsOfTensor> vectorsOf(const std::string& tensor, const VectorValues& vectors,
                                       const std::vector<size_t>& leafAt) {
  std::vector<size_t> reads;
  for (size_t position = 0; position < leafAt.size(); ++position)
    if (vectors.leaves[leafAt[position]].tensor == tensor) reads.push_back(position);
  if (reads.empty()) return {};
  const std::vector<int64_t>& shape = vectors.leaves[leafAt[reads[0]]].tensorShape;
  std::vector<VectorsOfTensor> groups;
  if (vectors.entries == 1 || (!shape.empty() && shape.back() == 1)) {
    for (size_t position : reads)
      groups.push_back({{position}, vectors.leaves[leafAt[position]].access, shape});
    return groups;
  }
  if (shape.empty()) return {};
  const auto rank = static_cast<unsigned>(shape.size());
  const std::string p = "[" + names('p', vectors.pointShape.size()) + "]";
  for (size_t position : reads) {
    const Leaf& first = vectors.leaves[leafAt[position]];
    VectorsOfTensor group;
    group.row = own(isl_map_project_out(first.access.copy(), isl_dim_out, rank - 1, 1));
    group.pointShape = std::vector<int64_t>(shape.begin(), shape.end() - 1);
    for (int64_t j = 0; j < shape.back(); ++j) {
      isl::map expected =
          flatProduct(group.row, readMap("{ " + p + " -> [" + std::to_string(j) + "] }"));
      for (size_t other : reads)
        if (checked(isl_map_is_equal(vectors.leaves[leafAt[other]].access.get(), expected.get()))) {
          group.positions.push_back(other);
          break;
        }
      if (group.positions.size() != static_cast<size_t>(j) + 1) break;
    }
    bool whole = group.positions.size() == static_cast<size_t>(shape.back());
    bool seen = false;
    for (const VectorsOfTensor& g : groups) seen = seen || g.positions == group.positions;
    if (whole && !seen) groups.push_back(std::move(group));
  }
  return groups;
}

// { [p, L, x] -> [a, t] }: the tensor's point and vector the op reads at p.
isl::map tensorVector(const VectorsOfTensor& group, size_t leaves, size_t entries) {
  std::string picked;
  for (size_t k = 0; k < group.positions.size(); ++k)
    picked += (k ? ", l" : "l") + std::to_string(group.positions[k]);
  isl::map select = readMap("{ [" + names('l', leaves) + "] -> [" + picked + "] }");
  isl::map drop = readMap("{ [" + names('x', entries) + "] -> [] }");
  return flatProduct(flatProduct(group.row, select), drop);
}

// The points of `set` whose image under `map` lies in `image`.
isl::set preimage(const isl::set& image, const isl::map& map) {
  return own(isl_set_apply(image.copy(), isl_map_reverse(map.copy())));
}

// The universe of the set's space.
isl::set everywhere(const isl::set& like) {
  return own(isl_set_universe(isl_set_get_space(like.get())));
}

// [p, L, x]: the points where the group reads no vector (its leaves are read at some points
// only), extended to every L and x. Taken in p alone, where the complement is cheap.
isl::set unread(const VectorsOfTensor& group, size_t leaves, size_t entries) {
  isl::set read = own(isl_map_domain(group.row.copy()));
  isl::set none = everywhere(read);  // (not in the call below: arguments have no order)
  none = own(isl_set_subtract(none.release(), read.release()));
  isl::set rest = own(isl_set_universe(
      isl_space_set_alloc(islContext().get(), 0, static_cast<unsigned>(leaves + entries))));
  return own(isl_set_flat_product(none.release(), rest.release()));
}

// The pairs of points where two leaves of one tensor read one element with two values:
// { [p, L, x, q, M, y] : access_i(p) = access_j(q) and L_i != M_j }. What no pair of vectors
// can be: the same element read twice has one value.
isl::set twoValuesOfOneElement(const VectorValues& vectors, const std::vector<size_t>& leafAt,
                               size_t i, size_t j) {
  const size_t m = vectors.pointShape.size(), k = leafAt.size(), e = vectors.entries;
  const Leaf& first = vectors.leaves[leafAt[i]];
  const Leaf& second = vectors.leaves[leafAt[j]];
  const size_t rank = first.tensorShape.size();
  isl::map rest =
      readMap("{ [" + names('l', k) + (k && e ? ", " : "") + names('x', e) + "] -> [] }");
  isl::map elements =
      flatProduct(flatProduct(first.access, rest), flatProduct(second.access, rest));
  std::string same;
  for (size_t d = 0; d < rank; ++d)
    same += (d ? " and a" : "a") + std::to_string(d) + " = b" + std::to_string(d);
  isl::set diagonal =
      isl_bridge::parsedSet("{ [" + names('a', rank) + (rank ? ", " : "") + names('b', rank) + "]" +
                            (same.empty() ? "" : " : " + same) + " }");
  std::string all = names('p', m) + (m ? ", " : "") + names('l', k) + (k ? ", " : "") +
                    names('x', e) + (e ? ", " : "") + names('q', m) + (m ? ", " : "") +
                    names('m', k) + (k ? ", " : "") + names('y', e);
  isl::set differ = isl_bridge::parsedSet("{ [" + all + "] : l" + std::to_string(i) + " != m" +
                                          std::to_string(j) + " }");
  return own(isl_set_intersect(preimage(diagonal, elements).release(), differ.release()));
}

}  // namespace

std::optional<PossibleVectors> possibleVectors(const index_provenance::IndexValues& values,
                                               int64_t indexVectorDim,
                                               const std::vector<Assumption>& assumptions) {
  std::optional<VectorValues> vectors = index_provenance::indexVectors(values, indexVectorDim);
  if (!vectors) return std::nullopt;
  const size_t m = vectors->pointShape.size(), e = vectors->entries;
  // The leaves become dimensions after p, in the order of the parameters: [p, L] -> [x].
  const size_t k =
      static_cast<size_t>(checked(isl_map_dim(vectors->relation.get(), isl_dim_param)));
  std::vector<size_t> leafAt;
  for (size_t i = 0; i < k; ++i) {
    isl_id* id =
        isl_map_get_dim_id(vectors->relation.get(), isl_dim_param, static_cast<unsigned>(i));
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    leafAt.push_back(static_cast<size_t>(std::stoull(name.substr(1))));
  }
  isl::map relation =
      own(isl_map_move_dims(vectors->relation.copy(), isl_dim_in, static_cast<unsigned>(m),
                            isl_dim_param, 0, static_cast<unsigned>(k)));
  isl::set single = flattened(relation);  // [p, L, x]
  isl::set pairs = own(isl_set_flat_product(single.copy(), single.copy()));
  // One element read twice has one value. A leaf that reads a different element at every point
  // reads one element twice only at one point (p = q), where `pairwise` need not be exact: no
  // subtraction there, which cost a third of the pairs' time.
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < k; ++j) {
      const Leaf& first = vectors->leaves[leafAt[i]];
      if (first.tensor != vectors->leaves[leafAt[j]].tensor) continue;
      if (i == j && checked(isl_map_is_injective(first.access.get()))) continue;
      pairs = own(isl_set_subtract(pairs.release(),
                                   twoValuesOfOneElement(*vectors, leafAt, i, j).release()));
    }
  PossibleVectors out;
  // Facts hold for every vector of the tensor, wherever the op reads it: for each group alone,
  // and between any two (the same group at two points included). A point where a group reads
  // nothing is not constrained by it. False when the op reads no whole vector of the tensor.
  auto meet = [&](const std::string& tensor, const std::vector<IndexFact>& facts) {
    std::vector<VectorsOfTensor> groups = vectorsOf(tensor, *vectors, leafAt);
    if (groups.empty()) return false;
    const size_t n = groups[0].positions.size();
    for (const VectorsOfTensor& group : groups) {
      isl::set allowed =
          preimage(factsSet(facts, group.pointShape, n, false), tensorVector(group, k, e));
      allowed = own(isl_set_union(allowed.release(), unread(group, k, e).release()));
      single = own(isl_set_intersect(single.release(), allowed.release()));
    }
    for (const VectorsOfTensor& g : groups)
      for (const VectorsOfTensor& h : groups) {
        isl::set allowed = preimage(factsSet(facts, g.pointShape, n, true),
                                    flatProduct(tensorVector(g, k, e), tensorVector(h, k, e)));
        isl::set gUnread = unread(g, k, e), hUnread = unread(h, k, e);
        allowed =
            own(isl_set_union(allowed.release(),
                              isl_set_flat_product(gUnread.copy(), everywhere(hUnread).release())));
        allowed =
            own(isl_set_union(allowed.release(),
                              isl_set_flat_product(everywhere(gUnread).release(), hUnread.copy())));
        pairs = own(isl_set_intersect(pairs.release(), allowed.release()));
      }
    return true;
  };
  // A fact is relied on where it constrains the vectors, and where its range bounds a leaf (the
  // tracer gives an assumed value's elements that range) even when the op reads no whole vector
  // of the value: `x.at[f(a), a]` under `%a: in [-4, 4]` has the range in every condition.
  for (const Assumption& assumption : assumptions) {
    const bool bounds = std::any_of(
        vectors->leaves.begin(), vectors->leaves.end(), [&](const index_provenance::Leaf& leaf) {
          return leaf.why == "assumed" && leaf.tensor == "%" + assumption.value;
        });
    if (meet("%" + assumption.value, assumption.facts) || bounds)
      out.assumptions.push_back(assumption.text);
  }
  // What the analysis knows of a leaf's tensor by construction (an argsort's distinct
  // elements), proven rather than assumed.
  std::vector<std::string> distinct;
  for (const Leaf& leaf : vectors->leaves)
    if (leaf.distinct && std::find(distinct.begin(), distinct.end(), leaf.tensor) == distinct.end())
      distinct.push_back(leaf.tensor);
  IndexFact unique;
  unique.kind = IndexFact::Kind::Unique;
  for (const std::string& tensor : distinct) meet(tensor, {unique});
  out.singleWithLeaves = single;
  out.pairwiseWithLeaves = pairs;
  for (size_t position : leafAt) out.leaves.push_back(vectors->leaves[position]);
  // The leaves projected out: [p, x] and [p, x, q, y].
  const auto mu = static_cast<unsigned>(m), ku = static_cast<unsigned>(k),
             eu = static_cast<unsigned>(e);
  out.single = own(isl_set_project_out(single.copy(), isl_dim_set, mu, ku));
  pairs = own(isl_set_project_out(pairs.copy(), isl_dim_set, mu + ku + eu + mu, ku));
  out.pairwise = own(isl_set_project_out(pairs.release(), isl_dim_set, mu, ku));
  // The pairs are left as they are: coalescing them cost more than it saved later (a third of
  // verify's time on bench/program_bench's argument-indexed scatters).
  out.single = isl_bridge::coalesce(out.single);
  return out;
}

PossibleVectors clampedVectors(const PossibleVectors& vectors,
                               const std::vector<int64_t>& pointShape,
                               const std::vector<std::optional<int64_t>>& clampTop) {
  const size_t m = pointShape.size(), e = clampTop.size();
  std::vector<std::string> conditions;
  for (size_t j = 0; j < e; ++j) {
    const std::string x = "x" + std::to_string(j), c = "c" + std::to_string(j);
    if (!clampTop[j]) {
      conditions.push_back(c + " = " + x);
      continue;
    }
    const std::string top = std::to_string(*clampTop[j]);
    conditions.push_back("((" + x + " < 0 and " + c + " = 0) or (0 <= " + x + " <= " + top +
                         " and " + c + " = " + x + ") or (" + x + " > " + top + " and " + c +
                         " = " + top + "))");
  }
  std::string all;
  for (size_t i = 0; i < conditions.size(); ++i) all += (i ? " and " : "") + conditions[i];
  // { [x] -> [c] }, then with the point (and the leaves) kept.
  isl::map clamp = readMap("{ [" + names('x', e) + "] -> [" + names('c', e) + "]" +
                           (all.empty() ? "" : " : " + all) + " }");
  isl::map atPoint = flatProduct(identity(m), clamp);
  PossibleVectors out = vectors;
  out.single = own(isl_set_apply(vectors.single.copy(), atPoint.copy()));
  out.pairwise =
      own(isl_set_apply(vectors.pairwise.copy(), flatProduct(atPoint, atPoint).release()));
  isl::map withLeaves = flatProduct(identity(m + vectors.leaves.size()), clamp);
  out.singleWithLeaves = own(isl_set_apply(vectors.singleWithLeaves.copy(), withLeaves.copy()));
  out.pairwiseWithLeaves = own(isl_set_apply(vectors.pairwiseWithLeaves.copy(),
                                             flatProduct(withLeaves, withLeaves).release()));
  return out;
}

}  // namespace idxmap::index_points
