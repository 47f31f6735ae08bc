#include "verify/point_difference.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>

#include <exception>
#include <optional>
#include <set>
#include <vector>

#include "core/bridges/isl_bridge.h"

namespace idxmap {
namespace {

using Outputs = std::set<std::vector<int64_t>>;

// Enumerating more range-variable points than this is slower than asking isl.
constexpr int64_t kEnumerationLimit = 1 << 16;
constexpr size_t kListedOutputs = 4;

// The map's outputs at the point by enumerating its range variables; nullopt when there
// are too many points or an expression overflows int64 somewhere.
std::optional<Outputs> enumerateOutputs(const IndexingMap& map, std::span<const int64_t> dims,
                                        std::span<const int64_t> runtimeVars) {
  Outputs outputs;
  int64_t points = 1;
  for (const Variable& v : map.rangeVars) {
    if (v.range.isEmpty()) return outputs;
    int64_t size;
    if (!v.range.isBounded() || __builtin_sub_overflow(v.range.hi, v.range.lo, &size) ||
        __builtin_add_overflow(size, 1, &size) || __builtin_mul_overflow(points, size, &points) ||
        points > kEnumerationLimit)
      return std::nullopt;
  }
  std::vector<int64_t> s;
  for (const Variable& v : map.rangeVars) s.push_back(v.range.lo);
  try {
    while (true) {
      if (map.contains(dims, s, runtimeVars)) {
        std::vector<int64_t> result;
        for (Expr r : map.results) result.push_back(r.evaluate(dims, s, runtimeVars));
        outputs.insert(std::move(result));
      }
      size_t i = 0;  // odometer step
      for (; i < s.size() && s[i] == map.rangeVars[i].range.hi; ++i)
        s[i] = map.rangeVars[i].range.lo;
      if (i == s.size()) return outputs;
      ++s[i];
    }
  } catch (const OverflowError&) {
    return std::nullopt;
  }
}

// The map's outputs at the point as an isl set.
isl::set islOutputs(const IndexingMap& map, std::span<const int64_t> dims,
                    std::span<const int64_t> runtimeVars) {
  using isl_bridge::own;
  isl_map* relation = toIslMap(map).release();
  for (size_t i = 0; i < runtimeVars.size(); ++i)
    relation =
        isl_map_fix_val(relation, isl_dim_param, i, isl_bridge::toIslVal(runtimeVars[i]).release());
  for (size_t i = 0; i < dims.size(); ++i)
    relation = isl_map_fix_val(relation, isl_dim_in, i, isl_bridge::toIslVal(dims[i]).release());
  return own(isl_map_range(relation));
}

// Up to `limit` + 1 points of a bounded set (one more tells that the list is partial).
Outputs listPoints(const isl::set& set, size_t limit) {
  struct Collector {
    Outputs points;
    size_t limit;
    int dims;
    std::exception_ptr failure;
  } collector{{}, limit, isl_bridge::checked(isl_set_dim(set.get(), isl_dim_set)), nullptr};
  auto collect = [](isl_point* point, void* user) {
    auto* c = static_cast<Collector*>(user);
    isl::point p = isl::manage(point);
    try {  // no exception may cross isl's C frames
      std::vector<int64_t> coordinates;
      for (int i = 0; i < c->dims; ++i)
        coordinates.push_back(isl_bridge::toInt64(
            isl_bridge::own(isl_point_get_coordinate_val(p.get(), isl_dim_set, i))));
      c->points.insert(std::move(coordinates));
    } catch (...) {
      c->failure = std::current_exception();
      return isl_stat_error;
    }
    return c->points.size() > c->limit ? isl_stat_error : isl_stat_ok;
  };
  isl_stat status = isl_set_foreach_point(set.get(), collect, &collector);
  if (collector.failure) std::rethrow_exception(collector.failure);
  if (status < 0 && collector.points.size() <= limit) isl_bridge::throwLastIslError();
  isl_ctx_reset_error(islContext().get());  // the early stop is no error
  return collector.points;
}

std::string tuple(const std::vector<int64_t>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + ")";
}

// "gives (4)", "gives {(1), (2)}", "is not defined".
std::string describe(const Outputs& outputs, bool partial) {
  if (outputs.empty()) return "is not defined";
  if (outputs.size() == 1 && !partial) return "gives " + tuple(*outputs.begin());
  std::string out = "gives {";
  size_t listed = 0;
  for (const auto& o : outputs) {
    if (listed == kListedOutputs) break;
    out += (listed++ ? ", " : "") + tuple(o);
  }
  if (partial || outputs.size() > kListedOutputs) out += ", ...";
  return out + "}";
}

std::string describeIsl(const isl::set& outputs) {
  if (isl_bridge::checked(isl_set_is_bounded(outputs.get())) == 0)
    return "gives infinitely many outputs";
  Outputs listed = listPoints(outputs, kListedOutputs);
  return describe(listed, listed.size() > kListedOutputs);
}

std::string pointText(const IndexingMap& map, std::span<const int64_t> dims,
                      std::span<const int64_t> runtimeVars) {
  std::string out = "(";
  auto add = [&](ExprKind kind, std::span<const int64_t> values) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (out.size() > 1) out += ", ";
      out += map.variableName(kind, i) + " = " + std::to_string(values[i]);
    }
  };
  add(ExprKind::Dim, dims);
  add(ExprKind::RuntimeVar, runtimeVars);
  return out + ")";
}

}  // namespace

ProofResult comparePoint(const IndexingMap& first, const IndexingMap& second,
                         std::span<const int64_t> dims, std::span<const int64_t> runtimeVars) {
  std::string where = pointText(first, dims, runtimeVars) + ": ";
  auto differ = [&](std::string how, const char* method) {
    return ProofResult::refuted(
        method,
        Counterexample{std::vector<int64_t>(dims.begin(), dims.end()),
                       std::vector<int64_t>(runtimeVars.begin(), runtimeVars.end()), where + how});
  };
  std::optional<Outputs> a = enumerateOutputs(first, dims, runtimeVars);
  std::optional<Outputs> b = enumerateOutputs(second, dims, runtimeVars);
  if (a && b) {
    if (*a == *b) return ProofResult::proven("evaluation");
    return differ("first " + describe(*a, false) + ", second " + describe(*b, false), "evaluation");
  }
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      isl::set x = islOutputs(first, dims, runtimeVars);
      isl::set y = islOutputs(second, dims, runtimeVars);
      if (isl_bridge::checked(isl_set_is_equal(x.get(), y.get())))
        return ProofResult::proven("isl");
      return differ("first " + describeIsl(x) + ", second " + describeIsl(y), "isl");
    });
  } catch (const Error& e) {
    return ProofResult::unknown(std::string("cannot evaluate the maps at ") +
                                pointText(first, dims, runtimeVars) + ": " + e.what());
  }
}

}  // namespace idxmap
