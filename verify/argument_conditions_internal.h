// A property's condition on the function's arguments rather than on the index vectors (issue
// 31): "every element of %idx is in [-10, 9]", what a person reads off the program. Private to
// verify/.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/verdict.h"

#include "verify/index_conditions.h"
#include "verify/possible_vectors_internal.h"

namespace idxmap::index_points {

// A property's condition on the one tensor the index values come from, when it is exact: the
// index vector at every point is a function of one element of one tensor the analysis does not
// see into (an argument, an op it does not follow), and the values of that element that break
// the property are the same at every point (in bounds: "every element of %idx is in [-10, 9]"),
// or for pairs, where index point p reads element p, at every pair of points asked (unique,
// sorted: "no two elements u and w of %idx, u before w in row-major order, satisfy
// { [u, w] : ... }"). In bounds also when each vector comes from several elements (a row of
// %idx, or elements of several tensors) and the values that keep it are a product of one set
// per element read: "every element of %idx[:, 0] that the op reads is in [0, 3] and every
// element of %idx[:, 1] that the op reads is in [0, 5]" (a tensor whose every element read has
// one set is named whole). nullopt otherwise: the condition on the index vectors stands. `possible`
// and `condition` are about the same vectors (both clamped, for a clamping gather).
//
// With it, values of the elements that break the property, as isl picks them from the breaking
// set: one element for in bounds (one per leaf read at the point), two for pairs; and for in
// bounds a value every element may hold (the other elements' value). A candidate
// witness only: the interpreter replays it (verify/replay/argument_witness.h).
struct ArgumentCondition {
  std::string text;
  std::vector<ArgumentWitness::Element> breaking;
  std::optional<int64_t> keeping;  // a value that keeps it at every element, where one does
};
std::optional<ArgumentCondition> argumentCondition(const PossibleVectors& possible,
                                                   const IndexCondition& condition);

// The pairs' case (unique, sorted), in argument_pairs.cpp.
std::optional<ArgumentCondition> pairArgumentCondition(const PossibleVectors& possible,
                                                       const IndexCondition& condition);

// Pieces both cases use (argument_conditions.cpp).
isl::set projectedOut(const isl::set& set, size_t first, size_t count);  // dims [first, +count)
std::string setText(const isl::set& set);                                // isl's text
// A point of `set` (none when it is empty).
std::vector<int64_t> sampled(const isl::set& set);
// A point of `bad` ([p, v0, v1, ...], `m` dims of p, a value per leaf read there) as the
// elements it reads and their values.
std::vector<ArgumentWitness::Element> breakingAt(const std::vector<int64_t>& point, size_t m,
                                                 const std::vector<index_provenance::Leaf>& leaves);
// The condition with the candidate witness `pick` adds to it; without it where isl cannot give
// one.
ArgumentCondition withCandidate(ArgumentCondition stated,
                                const std::function<void(ArgumentCondition&)>& pick);
// Whether the points, through the leaf's access, read every element of its tensor.
bool readsEveryElement(const isl::set& points, const index_provenance::Leaf& leaf);
// [p, q] x [a, b] as [p, a, q, b] (p and q of `m` dims each): the layout of the pair sets.
isl::set interleaved(const isl::set& points, const isl::set& values, size_t m);

}  // namespace idxmap::index_points
