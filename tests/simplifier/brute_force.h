// Brute-force oracle for tests: the relation of a map over a small domain, by enumeration.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::testing {

// (dims, runtime vars, results) for every point of the domain. Enumerates every variable
// over its declared range, so keep ranges small.
using Relation = std::set<std::vector<int64_t>>;

inline void enumerate(const std::vector<Variable>& vars, std::vector<int64_t>& values, size_t i,
                      const std::function<void()>& visit) {
  if (i == vars.size()) return visit();
  for (int64_t v = vars[i].range.lo; v <= vars[i].range.hi; ++v) {
    values[i] = v;
    enumerate(vars, values, i + 1, visit);
  }
}

inline Relation relationOf(const IndexingMap& map) {
  Relation out;
  if (map.knownEmpty) return out;
  std::vector<int64_t> d(map.dims.size()), s(map.rangeVars.size()), rt(map.runtimeVars.size());
  enumerate(map.dims, d, 0, [&] {
    enumerate(map.runtimeVars, rt, 0, [&] {
      enumerate(map.rangeVars, s, 0, [&] {
        if (!map.contains(d, s, rt)) return;
        std::vector<int64_t> tuple = d;
        tuple.insert(tuple.end(), rt.begin(), rt.end());
        for (Expr r : map.results) tuple.push_back(r.evaluate(d, s, rt));
        out.insert(tuple);
      });
    });
  });
  return out;
}

// Number of points enumerate() would visit (to keep tests within their budget).
inline double domainVolume(const IndexingMap& map) {
  double volume = 1;
  for (auto* vars : {&map.dims, &map.rangeVars, &map.runtimeVars})
    for (const Variable& v : *vars)
      volume *= std::max<double>(0, double(v.range.hi) - v.range.lo + 1);
  return volume;
}

}  // namespace idxmap::testing
