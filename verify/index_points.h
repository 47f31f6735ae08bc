// What the index provers share: index spaces and their row-major order as isl relations, and
// the evaluation side of every refutation — the start index vector an op reads at one index
// point, looked up in the known index values one element at a time, independently of the
// relational reasoning that found the point.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "ops/provenance/index_values.h"

namespace idxmap::index_points {

// { [i0, ...] : 0 <= i_k < shape[k] }.
isl::set indexSpace(const std::vector<int64_t>& shape);
// { [a] -> [b] : a <lex b } over `shape`'s index space (row-major order).
isl::map earlierToLater(const std::vector<int64_t>& shape);
// { [a] -> [b] : a >lex b } over all integer vectors of `rank`.
isl::map lexGreater(size_t rank);
// { [a] -> [a] } and { [a] -> [b] } over all integer vectors of the ranks.
isl::map identity(size_t rank);
isl::map universe(size_t fromRank, size_t toRank);
// { [a, c] -> [b, d] } from { [a] -> [b] } and { [c] -> [d] }.
isl::map flatProduct(const isl::map& first, const isl::map& second);
// { [a] -> [b] } as the set { [a, b] }.
isl::set flattened(const isl::map& pairs);
// The coordinates of `point` (a point of a set), in order.
std::vector<int64_t> coordinates(const isl::point& point);

// `[3, 0]`.
std::string text(std::span<const int64_t> values);
// `updates[0, 1]`.
std::string element(const std::string& tensor, std::span<const int64_t> index);

// The start index vectors of an op, read at index points of its index space.
class StartIndexReader {
 public:
  // `indicesMap`: index point -> point of the index tensor, its range variable s0 (when it has
  // one) walking the index vector; `entries`: the vector's length.
  StartIndexReader(IndexingMap indicesMap, size_t entries,
                   const index_provenance::IndexValues& values);
  // Entry k at index point `point`; throws Error when a value is not known.
  std::vector<int64_t> at(std::span<const int64_t> point) const;

 private:
  int64_t valueAt(const std::vector<int64_t>& tensorPoint) const;

  IndexingMap indicesMap_;
  size_t entries_;
  const index_provenance::IndexValues& values_;
};

}  // namespace idxmap::index_points
