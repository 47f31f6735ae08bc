// How `idxmap verify` prints an op's index properties (verify/op_properties.h): diagnostics
// for what the op claims, and the JSON record of each property.
//   claimed, refuted   error    `unique_indices = true is false: <counterexample>`
//   claimed, unknown   warning  `... is not proven: <reason>`, then, when the answer depends
//                      on run-time values, a remark with the exact condition
//   unclaimed, proven  note     `indices_are_sorted could be set: proven (isl)`
// Claimed and proven is quiet; a property the op cannot claim appears in JSON only.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "core/text.h"
#include "verify/op_properties.h"

namespace idxmap::cli {

struct PropertyTally {
  int64_t ops = 0;  // ops with index properties
  int64_t proven = 0, refuted = 0, unknown = 0;
  int64_t claimsRefuted = 0, claimsUnknown = 0;
};

// What a refuted claim's error says: `unique_indices = true is false: <counterexample>`.
std::string refutedClaim(const OpIndexProperties& properties, const IndexProperty& property);
// How a verdict was reached: "isl", "isl, assuming %idx: unique".
std::string certificate(const ProofResult& result);
void printPropertyDiagnostics(const SourceLocation& location, const std::string& op,
                              const OpIndexProperties& properties, std::ostream& diagnostics);
nlohmann::ordered_json propertiesJson(const OpIndexProperties& properties);
void tally(const OpIndexProperties& properties, PropertyTally& tally);

}  // namespace idxmap::cli
