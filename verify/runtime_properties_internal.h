// Index properties of run-time index values, from their exact conditions
// (verify/index_conditions.h): proven when the op's structure, its index element type, the
// values known of some blocks of entries, or the user's facts exclude every violation;
// otherwise unknown with the condition (simplified by what is known). Private to verify/.
#pragma once

#include <vector>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/index_values.h"
#include "verify/index_conditions.h"
#include "verify/index_properties.h"
#include "verify/indexed_op_internal.h"

namespace idxmap::index_points {

// What is known of the values besides the conditions: facts about the whole vectors, and
// blocks of entries (verify/index_properties.h).
struct RuntimeKnowledge {
  const std::vector<Assumption>& assumptions;
  const std::vector<VectorBlock>& blocks;
};

IndexProperties runtimeProperties(const IndexConditions& conditions, const IndexedOp& op,
                                  const index_provenance::IndexValues& values,
                                  const RuntimeKnowledge& knowledge);

// Runs one prover as one isl question (under islLimits()); a limit hit or a value isl cannot
// give is unknown, with the reason.
template <class Prover>
ProofResult guarded(Prover&& prover) {
  try {
    return isl_bridge::withIslBudget(prover);
  } catch (const Error& error) {
    return ProofResult::unknown(error.what());
  }
}

}  // namespace idxmap::index_points
