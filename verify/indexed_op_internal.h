// Gather and scatter in one vocabulary for the index provers: an index space (the result's,
// the updates') whose points read start index vectors from an index tensor and start windows
// in a target tensor (the operand, the result). Private to verify/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "core/verdict.h"
#include "ops/stablehlo/gather_scatter.h"
#include "verify/index_conditions.h"

namespace idxmap::index_points {

// What happens to a start index outside the op's range.
enum class OutOfRange {
  Clamped,    // StableHLO gather
  Skipped,    // scatter: the update is not applied
  Undefined,  // tensor.gather, tcp: undefined behavior
};

struct IndexedOp {
  IndexOpForm::Names names;
  std::vector<int64_t> indexShape;
  std::vector<int64_t> startIndexMap;  // the target axis entry k starts
  size_t tensorRank = 0;
  IndexingMap indicesMap;  // index point -> index tensor point, s0 walking the vector
  int64_t indexVectorDim = 0;
  int64_t indicesRank = 0;
  std::vector<int64_t> indicesShape;
  std::string indicesElementType;  // "i32", "ui8", "index": bounds the run-time values
  // The index space axes that pick the point of the index tensor (its axes in order, the
  // index vector dim left out).
  std::vector<int64_t> pointAxes;
  // Gather: dim - slice size where the op clamps; none for scatter and unclamped forms.
  std::vector<std::optional<int64_t>> clampTop;
  OutOfRange outOfRange = OutOfRange::Skipped;
  IndexingMap map;  // index point -> target element, runtime variable k the start index k

  size_t entries() const { return startIndexMap.size(); }
};

IndexedOp indexedOp(const gather_scatter::GatherOp& op, const IndexOpForm& form);
IndexedOp indexedOp(const gather_scatter::ScatterOp& op, const IndexOpForm& form);

// The full start index (spec 000) of a start index vector: entry k on axis startIndexMap[k],
// clamped where the op clamps (unless `clamp` is false), 0 on every other axis.
std::vector<int64_t> fullStartIndex(const IndexedOp& op, const std::vector<int64_t>& vector,
                                    bool clamp = true);

// The counterexamples, in the words of the op's tensors; each names the index vectors read
// (`scatter_indices[2] = [3]`). The caller has confirmed them by evaluation.
// `first` <lex `second` are index points whose full start indices are out of order.
Counterexample outOfOrder(const IndexedOp& op, const std::vector<int64_t>& first,
                          const std::vector<int64_t>& firstVector,
                          const std::vector<int64_t>& second,
                          const std::vector<int64_t>& secondVector);
// `point` reads `vector`, which is clamped (gather), skipped (scatter) or out of range.
Counterexample notInBounds(const IndexedOp& op, const std::vector<int64_t>& point,
                           const std::vector<int64_t>& vector);
// Two index points reach the same `target` element.
Counterexample collision(const IndexedOp& op, const std::vector<int64_t>& first,
                         const std::vector<int64_t>& firstVector,
                         const std::vector<int64_t>& second,
                         const std::vector<int64_t>& secondVector,
                         const std::vector<int64_t>& target);

}  // namespace idxmap::index_points
