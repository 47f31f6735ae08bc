// Generated map families for the benchmark corpus: the shapes XLA's indexing analysis
// produces for reshapes, linearize/delinearize pairs and GPU loop tiling. Each family is
// deterministic in its parameter (a fixed seed per family and rank), so a map named in a
// report can be rebuilt exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::bench {

// delinearize(linearize(d)) over a random shape of `rank` dims; the identity in meaning.
IndexingMap delinearizeLinearize(int rank);
// linearize(delinearize(d0)) of one dim through `levels` random factors; the identity in
// meaning, with an expression that grows linearly in `levels` at rank 1.
IndexingMap linearizeDelinearize(int levels);
// The output->input map of a reshape between two factorizations of the same size, both of
// `rank` dims, through the linear index. `aligned` keeps the prime factors in order, so the
// reshape only merges and splits neighbouring dims (the common case); otherwise they are
// shuffled, which leaves floordiv/mod pairs no rule can remove.
IndexingMap reshape(int rank, bool aligned);
// Per-dim tiling (d floordiv T) * T + d mod T, rank dims; the identity in meaning.
IndexingMap tiling(int rank);
// XLA's GPU loop map: (th, bl)[s0] -> delinearize((bl * 128 + th) * U + s0) into a shape of
// `rank` dims, with a bound on the linear index when the grid overshoots the tensor.
IndexingMap gpuTiling(int rank);

// Row-major strides of `shape`.
std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape);

}  // namespace idxmap::bench
