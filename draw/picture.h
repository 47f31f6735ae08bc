// What a picture of an indexing map shows, before any drawing: the tensors on its two sides,
// and for a few points of its domain the elements each one reaches. Range variables fan out
// (every value in the domain); runtime variables take their values where the caller knows
// them (a gather's start indices: clamped into their ranges, marked; a scatter's: an update
// out of range is skipped, marked; undefined where the op says so, marked), and otherwise every
// value in their ranges (drawn as a shaded region: where the point may land). Elements reached from
// two drawn points are collisions (two updates on one element).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::draw {

using Index = std::vector<int64_t>;

struct TensorGrid {
  std::string name;  // "result", "operand"
  Index shape;
};

struct DrawnPoint {
  Index point;                  // in the source tensor (the map's dims)
  std::vector<Index> targets;   // the elements it reaches, in row-major order
  bool runtimeUnknown = false;  // targets: every position the runtime values could give
  bool clamped = false;         // a runtime value was clamped into its range
  bool skipped = false;         // a runtime value out of range: the point reaches nothing
  bool undefined = false;       // a runtime value out of range where the op leaves it undefined
  bool truncated = false;       // more targets than are drawn
};

struct Picture {
  TensorGrid source, target;
  std::vector<DrawnPoint> points;
  std::vector<Index> collisions;  // target elements two drawn points reach
};

// How runtime values out of their ranges behave: StableHLO's gather clamps them, its scatter
// skips the update; the other forms (tensor.gather, tcp.gather, ...) leave them undefined.
enum class OutOfRange : uint8_t { kClamp, kSkip, kUndefined };

// The runtime variables' values at a point of the dims; nullopt when they are not known.
using RuntimeValues = std::function<std::optional<Index>(const Index& dims)>;

// Up to `count` points of the map's domain on dims: the corners of its box first, then its
// middle, then points spread along the row-major order; only points whose dims satisfy the
// constraints on dims alone.
std::vector<Index> choosePoints(const IndexingMap& map, size_t count);

// The picture of `map` from a tensor of the dims' sizes (named source.name) into `target`.
// `points` must lie in the dims' ranges (Error otherwise). At most `maxTargets` elements are
// kept per point (then `truncated`).
Picture drawMap(const IndexingMap& map, const TensorGrid& source, const TensorGrid& target,
                const std::vector<Index>& points, const RuntimeValues& runtimeValues = {},
                OutOfRange outOfRange = OutOfRange::kClamp, size_t maxTargets = 4096);

// The smallest shape holding every result of `map` over its domain box (each result's upper
// bound + 1, from interval arithmetic), for a map without a tensor of its own on that side.
Index resultShape(const IndexingMap& map);

}  // namespace idxmap::draw
