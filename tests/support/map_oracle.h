// Test oracles independent of isl and Z3: the relation of a small indexing map by brute-force
// enumeration, and seeded random maps for differential tests.
#pragma once

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "core/indexing_map.h"
#include "core/bridges/isl_bridge.h"

namespace idxmap::oracle {

// A relation point: (runtime vars..., dims..., results...).
using Tuple = std::vector<int64_t>;

// Calls visit(values) for every assignment of `ranges` (inclusive, all small).
template <class F>
void forEachAssignment(const std::vector<Interval>& ranges, F&& visit) {
  std::vector<int64_t> values;
  for (const Interval& r : ranges) {
    if (r.isEmpty()) return;
    values.push_back(r.lo);
  }
  while (true) {
    visit(values);
    size_t i = 0;
    for (; i < values.size() && values[i] == ranges[i].hi; ++i) values[i] = ranges[i].lo;
    if (i == values.size()) return;
    ++values[i];
  }
}

// Every (rt, d, results) the map relates, by enumerating all variables in their ranges.
inline std::set<Tuple> bruteForceRelation(const IndexingMap& map) {
  std::set<Tuple> out;
  if (map.knownEmpty) return out;
  std::vector<Interval> ranges;
  for (const auto* vars : {&map.runtimeVars, &map.dims, &map.rangeVars})
    for (const Variable& v : *vars) ranges.push_back(v.range);
  size_t nrt = map.runtimeVars.size(), nd = map.dims.size();
  forEachAssignment(ranges, [&](const std::vector<int64_t>& values) {
    std::span<const int64_t> all(values);
    auto rt = all.subspan(0, nrt), d = all.subspan(nrt, nd), s = all.subspan(nrt + nd);
    if (!map.contains(d, s, rt)) return;
    Tuple t(values.begin(), values.begin() + nrt + nd);
    for (Expr r : map.results) t.push_back(r.evaluate(d, s, rt));
    out.insert(t);
  });
  return out;
}

// Every point of a bounded isl relation, as (params, in, out).
inline std::set<Tuple> islRelationPoints(const isl::map& map) {
  isl_set* wrapped = isl_set_flatten(isl_map_wrap(map.copy()));
  unsigned params = isl_set_dim(wrapped, isl_dim_param);
  isl_set* flat = isl_set_move_dims(wrapped, isl_dim_set, 0, isl_dim_param, 0, params);
  struct Collector {
    std::set<Tuple> points;
    int dims;
  } collector{{}, isl_set_dim(flat, isl_dim_set)};
  isl_set_foreach_point(
      flat,
      [](isl_point* p, void* user) {
        auto* c = static_cast<Collector*>(user);
        Tuple t;
        for (int i = 0; i < c->dims; ++i) {
          isl_val* v = isl_point_get_coordinate_val(p, isl_dim_set, i);
          t.push_back(isl_val_get_num_si(v));
          isl_val_free(v);
        }
        isl_point_free(p);
        c->points.insert(t);
        return isl_stat_ok;
      },
      &collector);
  isl_set_free(flat);
  return collector.points;
}

// A random quasi-affine expression over the map's variables, with small constants.
inline Expr randomExpr(std::mt19937& rng, const IndexingMap& map, int depth) {
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  if (depth == 0 || pick(4) == 0) {
    std::vector<Expr> leaves = {Expr::constant(pick(7) - 3)};
    for (unsigned i = 0; i < map.dims.size(); ++i) leaves.push_back(Expr::dim(i));
    for (unsigned i = 0; i < map.rangeVars.size(); ++i) leaves.push_back(Expr::rangeVar(i));
    for (unsigned i = 0; i < map.runtimeVars.size(); ++i) leaves.push_back(Expr::runtimeVar(i));
    return leaves[pick(leaves.size())];
  }
  Expr a = randomExpr(rng, map, depth - 1);
  int64_t c = pick(4) + 2;
  switch (pick(8)) {
    case 0:
      return a + randomExpr(rng, map, depth - 1);
    case 1:
      return a * (pick(7) - 3);
    case 2:
      return a.floorDiv(c);
    case 3:
      return a.ceilDiv(c);
    case 4:
      return a.mod(c);
    case 5:
      return Expr::min(a, randomExpr(rng, map, depth - 1));
    case 6:
      return Expr::max(a, randomExpr(rng, map, depth - 1));
    default:
      return a + (pick(5) - 2);
  }
}

// A small random map: at most 2 dims, 1 range variable, 1 runtime variable, 2 results and
// 1 constraint, every range within [-4, 6], so brute force stays cheap.
inline IndexingMap randomMap(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  auto range = [&] {
    int64_t lo = pick(5) - 2;
    return Interval{lo, lo + pick(5)};
  };
  IndexingMap m;
  m.dims.resize(1 + pick(2));
  m.rangeVars.resize(pick(2));
  m.runtimeVars.resize(pick(2));
  for (auto* vars : {&m.dims, &m.rangeVars, &m.runtimeVars})
    for (Variable& v : *vars) v.range = range();
  int results = 1 + pick(2);
  for (int i = 0; i < results; ++i) m.results.push_back(randomExpr(rng, m, 3));
  if (pick(2)) {
    int64_t lo = pick(7) - 3;
    m.constraints.push_back({randomExpr(rng, m, 2), {lo, lo + pick(4)}});
  }
  return m;
}

// `m` changed in one small way: a result, a range or a constraint bound.
inline IndexingMap perturb(std::mt19937& rng, IndexingMap m) {
  switch (rng() % 3) {
    case 0: {
      Expr& r = m.results[rng() % m.results.size()];
      r = rng() % 2 ? r + 1 : randomExpr(rng, m, 2);
      break;
    }
    case 1: {
      Variable& v = m.dims[rng() % m.dims.size()];
      if (v.range.hi > v.range.lo && rng() % 2)
        --v.range.hi;
      else
        ++v.range.hi;
      break;
    }
    default:
      if (m.constraints.empty())
        m.constraints.push_back({randomExpr(rng, m, 2), {-1, 3}});
      else
        ++m.constraints.front().range.lo;
  }
  return m;
}

}  // namespace idxmap::oracle
