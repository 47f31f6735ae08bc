// Internal to the isl bridge (core/isl_*.cpp); not part of the library's API: the importer
// behind fromIslMap and simplifyWithIsl, without their budget.
#pragma once

#include <isl/cpp.h>

#include <optional>

#include "core/indexing_map.h"
#include "core/isl_bridge.h"

namespace idxmap::isl_bridge {

// isl relation -> IndexingMap (see fromIslMap), without the budget reset.
IndexingMap importIslMap(const isl::map& map);
// The map when isl writes `map` as a single quasi-affine piece (or it is empty), else
// nullopt.
std::optional<IndexingMap> importSingleValued(const isl::map& map);

}  // namespace idxmap::isl_bridge
