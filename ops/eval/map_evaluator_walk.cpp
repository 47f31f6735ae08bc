// Planning the fast walk: compile both maps, prove their positions in bounds, and read off the
// per-dim steps of each position.
#include "ops/eval/map_evaluator_walk.h"

#include "ops/eval/compiled_map.h"

namespace idxmap::gather_scatter {
namespace {

// Whether the map's dims are exactly the index space `shape`, which the walk visits.
bool dimsSpan(const CompiledMap& map, const std::vector<int64_t>& shape) {
  if (map.dimCount != shape.size()) return false;
  for (size_t d = 0; d < shape.size(); ++d)
    if (map.box[d] != Interval{0, shape[d] - 1}) return false;
  return true;
}

}  // namespace

std::optional<AffineWalk> planWalk(const IndexingMap& toTarget,
                                   const std::vector<int64_t>& targetShape,
                                   const IndexingMap& toIndices,
                                   const std::vector<int64_t>& indicesShape,
                                   const std::vector<int64_t>& domainShape, bool clamp) {
  std::optional<CompiledMap> target = CompiledMap::compile(toTarget);
  if (!target || !dimsSpan(*target, domainShape)) return std::nullopt;
  // Gather has no constraints to check (a failing one is a bug the per-point path reports).
  if (target->rangeVarCount != 0 || (clamp && !target->constraints.empty())) return std::nullopt;
  const size_t starts = target->runtimeVarCount, dims = domainShape.size();
  std::optional<AffineForm> targetPosition = target->positionIn(targetShape);
  if (!targetPosition) return std::nullopt;
  // Without start indices nothing is read (the indices map may then be KNOWN EMPTY): every
  // index position stays 0 and is never used.
  std::optional<CompiledMap> reader;
  std::optional<AffineForm> indexPosition = AffineForm{0, std::vector<int64_t>(dims + 1, 0)};
  if (starts > 0) {
    reader = CompiledMap::compile(toIndices);
    // The indices map is only read, its domain never checked, so it must have no constraints.
    if (!reader || !dimsSpan(*reader, domainShape) || reader->runtimeVarCount != 0 ||
        reader->rangeVarCount > 1 || !reader->constraints.empty())
      return std::nullopt;
    // Start index k is read at s0 = k, which the bounds below cover only inside s0's range.
    if (reader->rangeVarCount == 1 &&
        !reader->box[dims].contains(Interval{0, static_cast<int64_t>(starts) - 1}))
      return std::nullopt;
    indexPosition = reader->positionIn(indicesShape);
    if (!indexPosition) return std::nullopt;
  }

  AffineWalk w;
  w.clamp = clamp;
  w.sizes = domainShape;
  w.indexStep.assign(indexPosition->coefficients.begin(),
                     indexPosition->coefficients.begin() + dims);
  w.targetStep.assign(targetPosition->coefficients.begin(),
                      targetPosition->coefficients.begin() + dims);
  w.indexStart = indexPosition->constant;
  w.targetStart = targetPosition->constant;
  w.vectorStride = reader && reader->rangeVarCount == 1 ? indexPosition->coefficients[dims] : 0;
  const size_t offset = target->runtimeVarOffset();
  for (size_t k = 0; k < starts; ++k) {
    w.startRange.push_back(target->box[offset + k]);
    w.targetPerStart.push_back(targetPosition->coefficients[offset + k]);
  }
  for (size_t c = 0; c < target->constraints.size(); ++c) {
    const AffineForm& form = target->constraints[c];
    w.constraintStep.emplace_back(form.coefficients.begin(), form.coefficients.begin() + dims);
    w.constraintPerStart.emplace_back(form.coefficients.begin() + offset, form.coefficients.end());
    w.constraintStart.push_back(form.constant);
    w.constraintRange.push_back(target->constraintRanges[c]);
  }
  if (dims == 0) {  // a scalar index space: one row of one point that moves nothing
    w.sizes = {1};
    w.indexStep = w.targetStep = {0};
    for (std::vector<int64_t>& steps : w.constraintStep) steps = {0};
  }
  return w;
}

}  // namespace idxmap::gather_scatter
