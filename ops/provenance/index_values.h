// Index provenance: where the values of a gather's or scatter's indices come from. When the
// indices are built, inside one function, from constants and iotas through concatenate,
// broadcast_in_dim, reshape, transpose, clamp, add, subtract, multiply (by a constant) and
// integer converts, their values are an exact isl relation
//   { [index point of the tensor] -> [value] }
// and the op's runtime variables (rt_k: entry k of the index vector read) can be replaced by
// those values. The result is still exact: the relation of the folded map is the set of
// (result index, operand index) pairs the op really reads.
//
// Values are tracked per point: a concatenate of an unknown tensor (a function argument) and
// an iota knows the iota's points only. Anything that is not representable exactly, or too
// big, is "unknown" with a reason, never a guess:
//   - constants with more than kMaxConstantElements elements that are not splats;
//   - relations with more than kMaxPieces convex pieces (after coalescing);
//   - values that may not fit the element type (iota/add/multiply would wrap);
//   - multiply of two non-constant tensors (not affine), float or dynamic-shaped tensors.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/mlir/module.h"

namespace idxmap::index_provenance {

inline constexpr int64_t kMaxConstantElements = 4096;
inline constexpr int64_t kMaxPieces = 4096;
// Unions of more pieces are not coalesced: isl's coalescing is quadratic in the pieces.
inline constexpr int64_t kMaxCoalescedPieces = 256;
// A table of values (one piece per element, a constant's) is coalesced only up to this many:
// its pieces rarely merge (an affine constant is written as one piece in the first place).
inline constexpr int64_t kMaxTablePiecesCoalesced = 16;
// Ops followed back from the indices before giving up (long chains cost isl time).
inline constexpr int kMaxDepth = 64;

struct IndexValues {
  std::vector<int64_t> shape;
  // { [p0, ..., p_{r-1}] -> [v] } on the points whose value is known (no parameters).
  isl::map known;
  // How the values were obtained ("concatenate(%arg1, iota)"), or why they are unknown.
  std::string provenance;
  // Known at every point by construction (a constant, an iota, ops of such): lets the
  // folding skip a subset test that costs isl quadratic time on a union of many points.
  bool complete = false;
  bool anyKnown() const;
  bool allKnown() const;  // every point of the shape has its value
};

// The values of `value`, defined by the ops of `scope` (a function's entry block, or the
// bare ops of a module), of type `type`.
IndexValues indexValues(const std::vector<mlir_ir::Operation>& scope, const mlir_ir::Value& value,
                        const mlir_ir::Type& type);

}  // namespace idxmap::index_provenance
