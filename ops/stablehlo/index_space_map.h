// Pieces gather's and scatter's maps share: the domain of an index space, where a batching
// dim of the indices lands among the batch (scatter) dims, and the map that reads the index
// vector.
#pragma once

#include <algorithm>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::gather_scatter {

inline bool isIn(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// A map with one dimension per axis of `shape`, each ranging over that axis; no results yet.
inline IndexingMap domainOver(const std::vector<int64_t>& shape) {
  IndexingMap map;
  for (int64_t size : shape) map.dims.push_back({{0, size - 1}, ""});
  return map;
}

// A map with a zero-sized axis, or an empty index vector to walk, has no points; the
// IndexingMap invariant wants that said as KNOWN EMPTY rather than with an empty range.
inline IndexingMap markEmptyDomain(IndexingMap map) {
  auto empty = [](const Variable& v) { return v.range.isEmpty(); };
  if (std::any_of(map.dims.begin(), map.dims.end(), empty) ||
      std::any_of(map.rangeVars.begin(), map.rangeVars.end(), empty))
    map.markKnownEmpty();
  return map;
}

// The spec's `d_start - (d_start < index_vector_dim ? 0 : 1)`: the position of indices axis
// d_start among the batch dims, which skip the index vector axis.
inline int64_t batchPosition(int64_t indicesAxis, int64_t indexVectorDim) {
  return indicesAxis - (indicesAxis < indexVectorDim ? 0 : 1);
}

// Index space -> indices tensor: batch dim i reads indices axis i (skipping the index vector
// axis), and range variable s0 walks the index vector when it is an axis of the indices.
inline IndexingMap indicesMap(const std::vector<int64_t>& domainShape,
                              const std::vector<int64_t>& batchDims,
                              const std::vector<int64_t>& indicesShape, int64_t indexVectorDim) {
  IndexingMap map = domainOver(domainShape);
  const auto rank = static_cast<int64_t>(indicesShape.size());
  if (indexVectorDim < rank) map.rangeVars.push_back({{0, indicesShape[indexVectorDim] - 1}, ""});
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis == indexVectorDim)
      map.results.push_back(Expr::rangeVar(0));
    else
      map.results.push_back(
          Expr::dim(static_cast<unsigned>(batchDims[batchPosition(axis, indexVectorDim)])));
  }
  return markEmptyDomain(std::move(map));
}

}  // namespace idxmap::gather_scatter
