// replica_groups= of the collectives, in XLA's three forms: the list `{{0,1},{2,3}}`, the iota
// form `[2,4]<=[8]` and the mesh form `mesh['x'=2,'y'=4] {'y'}`.
#pragma once

#include <cstdint>
#include <optional>

#include "ops/hlo/module.h"

namespace idxmap::ops {

// The size of every group, where replica_groups says it: the list form's groups (the first's
// length), the iota form's second size, the product of the mesh axes named. Absent or `{}`:
// every replica, a count the module does not give. As XLA's CheckReplicaGroups: a replica in
// two places of the list is an error, and with `uniform` (all-gather) so are groups of
// different sizes. A form it cannot read is a located error.
std::optional<int64_t> groupSize(const hlo::Instruction& instruction, bool uniform);

}  // namespace idxmap::ops
