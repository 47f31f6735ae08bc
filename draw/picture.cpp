#include "draw/picture.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/checked.h"
#include "simplifier/range_evaluator.h"

namespace idxmap::draw {
namespace {

int64_t extent(const Variable& v) { return v.range.isEmpty() ? 0 : v.range.hi - v.range.lo + 1; }

// Calls visit(values) for each assignment of `variables` in their ranges, row-major, until it
// returns false or `limit` assignments were visited; returns whether all were visited.
template <typename Visit>
bool forEachAssignment(const std::vector<Variable>& variables, size_t limit, Visit visit) {
  Index values;
  for (const Variable& v : variables) {
    if (extent(v) == 0) return true;
    values.push_back(v.range.lo);
  }
  for (size_t visited = 0;; ++visited) {
    if (visited == limit) return false;
    if (!visit(values)) return true;
    size_t d = values.size();
    while (d > 0) {
      --d;
      if (values[d] < variables[d].range.hi) {
        ++values[d];
        break;
      }
      values[d] = variables[d].range.lo;
      if (d == 0) return true;
    }
    if (values.empty()) return true;
  }
}

bool dimsAllowed(const IndexingMap& map, const Index& dims) {
  for (const Constraint& c : map.constraints) {
    bool onDims = true;
    for (unsigned s = 0; s < map.rangeVars.size(); ++s)
      onDims &= !c.expr.uses(ExprKind::RangeVar, s);
    for (unsigned k = 0; k < map.runtimeVars.size(); ++k)
      onDims &= !c.expr.uses(ExprKind::RuntimeVar, k);
    if (onDims && !c.range.contains(c.expr.evaluate(dims, {}, {}))) return false;
  }
  return true;
}

}  // namespace

std::vector<Index> choosePoints(const IndexingMap& map, size_t count) {
  std::vector<Index> out;
  auto add = [&](const Index& p) {
    if (out.size() < count && dimsAllowed(map, p) &&
        std::find(out.begin(), out.end(), p) == out.end())
      out.push_back(p);
  };
  const size_t rank = map.dims.size();
  for (const Variable& v : map.dims)
    if (extent(v) == 0) return out;
  // The corners (at most 2^3 of them: the low and high of the first three dims).
  const size_t cornerDims = std::min<size_t>(rank, 3);
  for (size_t mask = 0; mask < (size_t{1} << cornerDims); ++mask) {
    Index p;
    for (size_t d = 0; d < rank; ++d)
      p.push_back(d < cornerDims && (mask >> d & 1) ? map.dims[d].range.hi : map.dims[d].range.lo);
    add(p);
  }
  Index middle;
  for (const Variable& v : map.dims) middle.push_back(v.range.lo + (extent(v) - 1) / 2);
  add(middle);
  // Then every `step`-th point in row-major order.
  int64_t total = 1;  // saturating: a domain past int64 is still drawn
  for (const Variable& v : map.dims)
    total = total > INT64_MAX / extent(v) ? INT64_MAX : total * extent(v);
  const int64_t step = std::max<int64_t>(1, total / static_cast<int64_t>(count + 1));
  for (int64_t at = step; at < total && out.size() < count; at += step) {
    Index p(rank);
    int64_t rest = at;
    for (size_t d = rank; d-- > 0;) {
      p[d] = map.dims[d].range.lo + rest % extent(map.dims[d]);
      rest /= extent(map.dims[d]);
    }
    add(p);
  }
  return out;
}

Picture drawMap(const IndexingMap& map, const TensorGrid& source, const TensorGrid& target,
                const std::vector<Index>& points, const RuntimeValues& runtimeValues,
                OutOfRange outOfRange, size_t maxTargets) {
  Picture picture{source, target, {}, {}};
  std::map<Index, int> reachedBy;  // target element -> how many drawn points reach it
  for (const Index& p : points) {
    if (p.size() != map.dims.size())
      throw Error("a point has " + std::to_string(p.size()) + " coordinate" +
                  (p.size() == 1 ? "" : "s") + ", the map " + std::to_string(map.dims.size()) +
                  " dim" + (map.dims.size() == 1 ? "" : "s"));
    for (size_t d = 0; d < p.size(); ++d)
      if (!map.dims[d].range.contains(p[d]))
        throw Error("point " + std::to_string(p[d]) + " of dim " + std::to_string(d) +
                    " is outside the domain");
    DrawnPoint drawn{p, {}};
    std::optional<Index> known = runtimeValues ? runtimeValues(p) : std::nullopt;
    std::vector<Variable> free = map.rangeVars;  // enumerated: range vars, unknown runtime vars
    if (known) {
      if (known->size() != map.runtimeVars.size()) throw Error("runtime values of the wrong count");
      for (size_t k = 0; k < known->size(); ++k) {
        const Interval& range = map.runtimeVars[k].range;
        if (range.contains((*known)[k])) continue;
        drawn.clamped = outOfRange == OutOfRange::kClamp;
        drawn.skipped = outOfRange == OutOfRange::kSkip;
        drawn.undefined = outOfRange == OutOfRange::kUndefined;
        (*known)[k] = std::clamp((*known)[k], range.lo, range.hi);
      }
    } else {
      drawn.runtimeUnknown = !map.runtimeVars.empty();
      free.insert(free.end(), map.runtimeVars.begin(), map.runtimeVars.end());
    }
    std::set<Index> targets;
    if (!drawn.skipped && !drawn.undefined) {
      bool complete = forEachAssignment(free, 1 << 16, [&](const Index& values) {
        Index s(values.begin(), values.begin() + static_cast<long>(map.rangeVars.size()));
        Index rt =
            known ? *known
                  : Index(values.begin() + static_cast<long>(map.rangeVars.size()), values.end());
        if (!map.contains(p, s, rt)) return true;
        Index element;
        for (const Expr& r : map.results) element.push_back(r.evaluate(p, s, rt));
        targets.insert(element);
        return targets.size() < maxTargets;
      });
      drawn.truncated = !complete || targets.size() >= maxTargets;
      // No image at a point the dims allow: the values put an element outside the target
      // (a scatter's constraints keep every coordinate in its tensor).
      if (known && targets.empty() && dimsAllowed(map, p)) {
        drawn.skipped = outOfRange == OutOfRange::kSkip;
        drawn.undefined = outOfRange == OutOfRange::kUndefined;
      }
    }
    drawn.targets.assign(targets.begin(), targets.end());
    for (const Index& t : drawn.targets) ++reachedBy[t];
    picture.points.push_back(std::move(drawn));
  }
  for (const auto& [element, count] : reachedBy)
    if (count > 1) picture.collisions.push_back(element);
  return picture;
}

Index resultShape(const IndexingMap& map) {
  RangeEvaluator ranges(map, RangeEvaluator::Use::RangesAndConstraints);
  Index shape;
  for (const Expr& r : map.results) {
    Interval range = ranges.range(r);
    shape.push_back(range.isEmpty()         ? 0
                    : range.hi == INT64_MAX ? INT64_MAX  // saturate: hi + 1 would overflow
                                            : std::max<int64_t>(range.hi + 1, 1));
  }
  return shape;
}

}  // namespace idxmap::draw
