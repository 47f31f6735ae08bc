// The map evaluator's fast path: a walk over an op's index space in row-major order where
// every quantity a point needs is affine in the dims (compiled once by ops/eval/compiled_map.h),
// so it is kept up to date by one addition per step instead of being evaluated per point.
// Internal to map_evaluator.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::gather_scatter {

// A walk planned from a map to a target tensor (gather's operand, scatter's result) and the
// map that reads the start indices. Positions are row-major positions in those tensors.
struct AffineWalk {
  std::vector<int64_t> sizes;  // the index space; rank >= 1 (a scalar one is {1})
  // Per dim: how far each position moves when that dim steps by one.
  std::vector<int64_t> indexStep, targetStep;
  std::vector<std::vector<int64_t>> constraintStep;  // [constraint][dim]
  int64_t indexStart = 0, targetStart = 0;
  std::vector<int64_t> constraintStart;
  int64_t vectorStride = 0;  // indices position of start index k is base + k * vectorStride
  // Per start index (runtime variable) k: its range, and its weight in each position.
  std::vector<Interval> startRange;
  std::vector<int64_t> targetPerStart;
  std::vector<std::vector<int64_t>> constraintPerStart;  // [constraint][k]
  std::vector<Interval> constraintRange;
  bool clamp = false;  // gather clamps start indices into range; scatter skips the point
};

// The plan for `toTarget` (domain `domainShape`, results indexing `targetShape`) and
// `toIndices` (results indexing `indicesShape`), or nullopt when some map is not affine, may
// overflow, or cannot be proven to stay inside its tensor; the caller then evaluates per point.
std::optional<AffineWalk> planWalk(const IndexingMap& toTarget,
                                   const std::vector<int64_t>& targetShape,
                                   const IndexingMap& toIndices,
                                   const std::vector<int64_t>& indicesShape,
                                   const std::vector<int64_t>& domainShape, bool clamp);

// Narrows [first, last] to the steps i of the innermost dim where value + step * i is in
// `range` (an unbounded end is no bound); empty as last < first. 128-bit, so that no
// difference of a bound and a value can overflow.
inline void narrowToRange(int64_t value, int64_t step, const Interval& range, int64_t& first,
                          int64_t& last) {
  using Wide = __int128;
  // Floor and ceiling of a / b for b > 0.
  auto floorDiv = [](Wide a, Wide b) { return a / b - (a % b != 0 && a < 0); };
  auto ceilDiv = [&](Wide a, Wide b) { return -floorDiv(-a, b); };
  const bool hasLo = range.lo != Interval::kNegInf, hasHi = range.hi != Interval::kPosInf;
  Wide from = first, to = last;
  if (step == 0) {
    if ((hasLo && value < range.lo) || (hasHi && value > range.hi)) to = from - 1;
  } else if (step > 0) {
    if (hasLo) from = std::max(from, ceilDiv(Wide{range.lo} - value, step));
    if (hasHi) to = std::min(to, floorDiv(Wide{range.hi} - value, step));
  } else {
    if (hasLo) to = std::min(to, floorDiv(Wide{value} - range.lo, -Wide{step}));
    if (hasHi) from = std::max(from, ceilDiv(Wide{value} - range.hi, -Wide{step}));
  }
  if (from > to) {
    last = first - 1;
    return;
  }
  first = static_cast<int64_t>(from);
  last = static_cast<int64_t>(to);
}

// Visits every point of the walk in row-major order, skipping scatter points outside the
// map's domain, as runs: run(target, targetStride, domainPosition, count) stands for the
// points domainPosition + t, t in [0, count), whose targets are target + t * targetStride.
// A run is a whole innermost row when the start indices do not change along it, else a
// single point. Allocates only the walk's few counters.
template <class Run>
void walkRuns(const AffineWalk& w, const int64_t* indices, Run&& run) {
  const size_t inner = w.sizes.size() - 1, starts = w.startRange.size();
  const size_t constraints = w.constraintRange.size();
  const int64_t count = w.sizes[inner];
  std::vector<int64_t> dims(inner, 0), start(starts, 0);
  std::vector<int64_t> constraintBase = w.constraintStart;
  int64_t indexBase = w.indexStart, targetBase = w.targetStart, domainPosition = 0;

  // Reads the start indices at `position`; false when scatter must skip the point.
  auto readStarts = [&](int64_t position) {
    for (size_t k = 0; k < starts; ++k) {
      int64_t value = indices[position + static_cast<int64_t>(k) * w.vectorStride];
      if (w.clamp)
        value = std::clamp(value, w.startRange[k].lo, w.startRange[k].hi);
      else if (!w.startRange[k].contains(value))
        return false;
      start[k] = value;
    }
    return true;
  };
  auto weighted = [&](const std::vector<int64_t>& weights) {
    int64_t sum = 0;
    for (size_t k = 0; k < starts; ++k) sum += weights[k] * start[k];
    return sum;
  };

  for (;;) {
    if (w.indexStep[inner] == 0) {
      if (readStarts(indexBase)) {
        int64_t first = 0, last = count - 1;
        for (size_t c = 0; c < constraints && first <= last; ++c)
          narrowToRange(constraintBase[c] + weighted(w.constraintPerStart[c]),
                        w.constraintStep[c][inner], w.constraintRange[c], first, last);
        if (first <= last)
          run(targetBase + weighted(w.targetPerStart) + first * w.targetStep[inner],
              w.targetStep[inner], domainPosition + first, last - first + 1);
      }
    } else if (starts == 1 && constraints == 0) {
      // One start index per point and nothing else to check (element gathers): a short loop
      // body, so that many of its independent random reads are in flight at once.
      const Interval range = w.startRange[0];
      const int64_t weight = w.targetPerStart[0], indexStep = w.indexStep[inner];
      const int64_t targetStep = w.targetStep[inner];
      for (int64_t i = 0; i < count; ++i) {
        int64_t value = indices[indexBase + i * indexStep];
        if (w.clamp)
          value = std::clamp(value, range.lo, range.hi);
        else if (!range.contains(value))
          continue;
        run(targetBase + i * targetStep + weight * value, 0, domainPosition + i, 1);
      }
    } else {
      for (int64_t i = 0; i < count; ++i) {
        if (!readStarts(indexBase + i * w.indexStep[inner])) continue;
        bool holds = true;
        for (size_t c = 0; c < constraints && holds; ++c)
          holds = w.constraintRange[c].contains(constraintBase[c] + i * w.constraintStep[c][inner] +
                                                weighted(w.constraintPerStart[c]));
        if (holds)
          run(targetBase + i * w.targetStep[inner] + weighted(w.targetPerStart), 0,
              domainPosition + i, 1);
      }
    }
    domainPosition += count;
    // Odometer over the outer dims. A dim wraps by stepping back from its last value, never
    // past it, so every position stays the value of a compiled form at a point of the domain
    // (the bound the plan proved).
    size_t j = inner;
    for (;;) {
      if (j == 0) return;
      --j;
      if (dims[j] + 1 < w.sizes[j]) {
        ++dims[j];
        indexBase += w.indexStep[j];
        targetBase += w.targetStep[j];
        for (size_t c = 0; c < constraints; ++c) constraintBase[c] += w.constraintStep[c][j];
        break;
      }
      indexBase -= w.indexStep[j] * dims[j];
      targetBase -= w.targetStep[j] * dims[j];
      for (size_t c = 0; c < constraints; ++c)
        constraintBase[c] -= w.constraintStep[c][j] * dims[j];
      dims[j] = 0;
    }
  }
}

}  // namespace idxmap::gather_scatter
