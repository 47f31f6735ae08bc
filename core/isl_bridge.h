// The isl bridge: IndexingMap <-> isl::map, and the exact questions isl answers.
//
// A map becomes the relation [rt0, ...] -> { [d0, ...] -> [r0, ...] : exists s : domain }
// with runtime variables as isl parameters, floordiv/ceildiv/mod written with isl's
// floor()/ceil()/mod, min/max as isl piecewise expressions. isl is exact; it is also slow,
// so every question here runs under an operation budget and answers nullopt when isl gives
// up (callers report "unknown").
#pragma once

#include <isl/cpp.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/indexing_map.h"

namespace idxmap {

// The calling thread's isl context (created on first use, with a bounded operation budget).
isl::ctx islContext();

// What one isl question may cost on the calling thread before it answers nullopt. isl
// counts simplex pivots as operations and checks both limits at every pivot.
struct IslLimits {
  unsigned long maxOperations = 5'000'000;
  std::chrono::milliseconds timeLimit{5000};
};
void setIslLimits(const IslLimits& limits);
IslLimits islLimits();

isl::map toIslMap(const IndexingMap& map);
// isl's text for the relation, e.g. "[rt0] -> { [d0] -> [d0 + rt0] : 0 <= d0 <= 9 and ... }".
std::string printIsl(const IndexingMap& map);
// Back to an IndexingMap: single-valued maps become results; other output dimensions become
// range variables tied by constraints. Throws Error when the relation is not representable
// (unbounded variables, several pieces that cannot be merged).
IndexingMap fromIslMap(const isl::map& map);
// isl text -> IndexingMap. Throws Error with isl's message on malformed text.
IndexingMap parseIsl(std::string_view text);

// Exact relation equality / emptiness / composition; nullopt when isl exceeded its budget.
std::optional<bool> islEqual(const IndexingMap& a, const IndexingMap& b);
std::optional<bool> islIsEmpty(const IndexingMap& map);
// second ∘ first as an isl relation (same meaning as idxmap::compose).
isl::map islCompose(const IndexingMap& first, const IndexingMap& second);

// isl's own simplification path, the benchmark's anchor: convert, coalesce,
// isl_pw_multi_aff_from_map, convert back. nullopt when the result is not a single piece.
std::optional<IndexingMap> simplifyWithIsl(const IndexingMap& map);

}  // namespace idxmap
