#include "ops/hlo/analysis/distinct_maps.h"

#include <algorithm>

#include "core/bridges/isl_bridge.h"

namespace idxmap {

void insertDistinct(std::vector<IndexingMap>& maps, IndexingMap map) {
  for (const IndexingMap& existing : maps) {
    // Same text is the common case (and cheap); isl decides the rest.
    if (existing == map) return;
    if (existing.dims.size() != map.dims.size() || existing.results.size() != map.results.size() ||
        existing.runtimeVars.size() != map.runtimeVars.size())
      continue;
    // isl sees runtime variables by position only: equal relations over variables that
    // stand for different values are different maps.
    bool sameSources = true;
    for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
      const auto& a = existing.runtimeVars[k].source;
      const auto& b = map.runtimeVars[k].source;
      sameSources = sameSources && (a == b || (a && b && *a == *b));
    }
    if (!sameSources) continue;
    if (islEqual(existing, map).isProven()) return;
  }
  maps.push_back(std::move(map));
}

void dropEmptyPieces(std::vector<IndexingMap>& maps) {
  auto isEmpty = [](const IndexingMap& map) { return map.knownEmpty; };
  if (std::all_of(maps.begin(), maps.end(), isEmpty)) {
    if (maps.size() > 1) maps.resize(1);
    return;
  }
  maps.erase(std::remove_if(maps.begin(), maps.end(), isEmpty), maps.end());
}

}  // namespace idxmap
