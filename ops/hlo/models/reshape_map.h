// The index map of a row-major reshape, shared by reshape and bitcast.
#pragma once

#include <vector>

#include "core/indexing_map.h"

namespace idxmap::ops {

// The map from an index of shape `from` to the index of shape `to` holding the same element in
// row-major order (equal element counts). Like XLA, the dims are cut into the smallest groups
// whose element counts agree (a collapse, an expansion, or a generic group), and each group
// goes through its own linear index, so that the maps stay as simple as the reshape. Not
// simplified.
IndexingMap reshapeMap(const std::vector<int64_t>& from, const std::vector<int64_t>& to);

}  // namespace idxmap::ops
