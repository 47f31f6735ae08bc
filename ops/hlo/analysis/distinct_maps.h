// Sets of indexing maps deduplicated by meaning: two maps that denote the same relation are
// one map, however differently they are written (spec 004, "One input, deduplicated
// indexing map").
#pragma once

#include <vector>

#include "core/indexing_map.h"

namespace idxmap {

// Adds `map` unless `maps` already holds one with the same relation (exact isl equality;
// when isl gives up the maps are kept apart, which is never wrong, only less tidy).
void insertDistinct(std::vector<IndexingMap>& maps, IndexingMap map);

// KNOWN EMPTY maps add nothing to a union; one is kept only when nothing else is left, so
// that an operand read nowhere still says so, as the op models do.
void dropEmptyPieces(std::vector<IndexingMap>& maps);

}  // namespace idxmap
