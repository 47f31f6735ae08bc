// Each expression is asked over the map's domain (variable ranges and constraints): the points
// a kernel computes results for. A runtime value outside its variable's range never reaches
// the expressions (the kernel checks it against the range first, in its own type).
#include "verify/int32_safety.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <set>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "simplifier/range_evaluator.h"
#include "simplifier/simplify.h"
#include "verify/index_points.h"

namespace idxmap {
namespace {

using isl_bridge::checked;
using isl_bridge::own;

bool fits(int64_t lo, int64_t hi) { return lo >= kInt32Min && hi <= kInt32Max; }

// Every distinct node of `roots`, in the order a walk meets them.
std::vector<Expr> subexpressions(const std::vector<Expr>& roots) {
  std::vector<Expr> nodes;
  std::set<const ExprNode*> seen;
  for (Expr root : roots)
    root.walk([&](Expr e) {
      if (seen.insert(e.node()).second) nodes.push_back(e);
    });
  return nodes;
}

// sum_k result_k * stride_k for a row-major tensor of `shape`.
Expr linearOffset(const IndexingMap& map, const std::vector<int64_t>& shape) {
  Expr offset = Expr::constant(0);
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    offset = map.results[k] * stride + offset;
    stride = checkedMul(stride, std::max<int64_t>(shape[k], 1));
  }
  return offset;
}

// The map with its range variables as extra dims: a sample point then names every variable.
IndexingMap rangeVarsAsDims(const IndexingMap& map, std::vector<Expr>& rangeVarDims) {
  IndexingMap flat = map;
  rangeVarDims.clear();
  for (size_t s = 0; s < map.rangeVars.size(); ++s) {
    rangeVarDims.push_back(Expr::dim(static_cast<unsigned>(map.dims.size() + s)));
    flat.dims.push_back(map.rangeVars[s]);
  }
  flat.rangeVars.clear();
  for (Expr& result : flat.results) result = result.replaceVariables({}, rangeVarDims, {});
  for (auto& constraint : flat.constraints)
    constraint.expr = constraint.expr.replaceVariables({}, rangeVarDims, {});
  return flat;
}

// "(d0 = 3, s0 = 1, rt0 = 7)" with the original map's names.
std::string pointText(const IndexingMap& map, const std::vector<int64_t>& flatDims,
                      const std::vector<int64_t>& runtimeVars) {
  std::string text;
  auto add = [&](ExprKind kind, size_t index, int64_t value) {
    text += (text.empty() ? "" : ", ") +
            printExpr(Expr::variable(kind, static_cast<unsigned>(index)), &map) + " = " +
            std::to_string(value);
  };
  for (size_t i = 0; i < flatDims.size(); ++i)
    i < map.dims.size() ? add(ExprKind::Dim, i, flatDims[i])
                        : add(ExprKind::RangeVar, i - map.dims.size(), flatDims[i]);
  for (size_t i = 0; i < runtimeVars.size(); ++i) add(ExprKind::RuntimeVar, i, runtimeVars[i]);
  return "(" + text + ")";
}

class ExpressionChecker {
 public:
  ExpressionChecker(std::string name, const IndexingMap& map)
      : name_(std::move(name)),
        map_(map),
        flat_(rangeVarsAsDims(map, rangeVarDims_)),
        ranges_(flat_, RangeEvaluator::Use::RangesAndConstraints) {}

  ExpressionSafety check(Expr e, const std::string& text) {
    ExpressionSafety safety{name_, text, 0, 0, ProofResult::unknown("")};
    Expr flat = e.replaceVariables({}, rangeVarDims_, {});
    Interval bounds = ranges_.range(flat);
    if (bounds.isBounded() && fits(bounds.lo, bounds.hi)) {
      safety.min = bounds.lo;
      safety.max = bounds.hi;
      safety.verdict = ProofResult::proven("interval");
      return safety;
    }
    try {
      safety.verdict = isl_bridge::withIslBudget([&] { return exact(flat, text, safety); });
    } catch (const Error& error) {
      safety.verdict = ProofResult::unknown(error.what());
    }
    return safety;
  }

 private:
  // isl's exact range of `e`, and a point past int32 when there is one.
  ProofResult exact(Expr e, const std::string& text, ExpressionSafety& safety) {
    IndexingMap one = flat_;
    one.results = {e};
    isl::map relation = isl_bridge::buildIslMapOverRuntimeVars(one);
    unsigned dims = static_cast<unsigned>(flat_.dims.size());
    isl::set values = own(isl_map_range(relation.copy()));
    if (checked(isl_set_is_empty(values.get()))) return ProofResult::proven("isl");
    isl::val max = own(isl_set_dim_max_val(values.copy(), 0));
    isl::val min = own(isl_set_dim_min_val(values.copy(), 0));
    bool maxFinite = isl_val_is_int(max.get()), minFinite = isl_val_is_int(min.get());
    if (maxFinite) safety.max = isl_bridge::toInt64(max);
    if (minFinite) safety.min = isl_bridge::toInt64(min);
    if (maxFinite && minFinite && fits(safety.min, safety.max)) return ProofResult::proven("isl");
    // The extreme that leaves int32 (or any value past it when unbounded).
    std::string wanted =
        maxFinite && safety.max > kInt32Max ? "v = " + std::to_string(safety.max)
        : minFinite && safety.min < kInt32Min
            ? "v = " + std::to_string(safety.min)
            : "v > " + std::to_string(kInt32Max) + " or v < " + std::to_string(kInt32Min);
    isl::set outside =
        own(isl_set_read_from_str(islContext().get(), ("{ [v] : " + wanted + " }").c_str()));
    isl::map reaching = own(isl_map_intersect_range(relation.release(), outside.release()));
    std::vector<int64_t> point =
        index_points::coordinates(own(isl_set_sample_point(isl_map_wrap(reaching.release()))));
    std::vector<int64_t> flatDims(point.begin(), point.begin() + dims);
    std::vector<int64_t> runtimeVars(point.begin() + dims, point.end() - 1);
    int64_t value = point.back();
    // Replayed: the point is in the domain and the expression evaluates to the value there.
    if (!flat_.contains(flatDims, {}, runtimeVars) ||
        e.evaluate(flatDims, {}, runtimeVars) != value)
      return ProofResult::unknown("isl found a point that evaluation does not confirm (a bug)");
    Counterexample example;
    example.dims.assign(flatDims.begin(), flatDims.begin() + map_.dims.size());
    example.runtimeVars = runtimeVars;
    example.explanation = name_ + ": " + text + " reaches " + std::to_string(value) + " at " +
                          pointText(map_, flatDims, runtimeVars) + ", outside int32";
    return ProofResult::refuted("isl", std::move(example));
  }

  std::string name_;
  const IndexingMap& map_;
  std::vector<Expr> rangeVarDims_;
  IndexingMap flat_;
  RangeEvaluator ranges_;
};

}  // namespace

Int32Safety proveInt32Safety(const std::vector<KernelMap>& maps) {
  Int32Safety safety;
  bool usedIsl = false;
  for (const KernelMap& kernelMap : maps) {
    IndexingMap map;
    try {
      map = simplify(kernelMap.map);
    } catch (const Error& error) {  // constants the simplifier cannot fold in int64
      safety.expressions.push_back({kernelMap.name, "", 0, 0, ProofResult::unknown(error.what())});
      continue;
    }
    if (map.knownEmpty) continue;
    ExpressionChecker checker(kernelMap.name, map);
    std::vector<Expr> roots = map.results;
    std::optional<Expr> offset;
    try {
      if (!kernelMap.targetShape.empty() && map.results.size() == kernelMap.targetShape.size())
        roots.push_back(*(offset = linearOffset(map, kernelMap.targetShape)));
    } catch (const OverflowError& error) {  // its constants alone pass int64
      safety.expressions.push_back(
          {kernelMap.name, "offset", 0, 0, ProofResult::unknown(error.what())});
    }
    for (Expr e : subexpressions(roots))
      if (!e.isConstant() || !fits(e.constantValue(), e.constantValue()))
        safety.expressions.push_back(
            checker.check(e, (offset && e == *offset ? "offset " : "") + printExpr(e, &map)));
  }
  safety.verdict = ProofResult::proven("interval");
  for (const ExpressionSafety& expression : safety.expressions) {
    usedIsl = usedIsl || expression.verdict.method == "isl";
    if (expression.verdict.isRefuted()) {
      safety.verdict = expression.verdict;
      return safety;
    }
    if (expression.verdict.isUnknown() && !safety.verdict.isUnknown())
      safety.verdict = expression.verdict;
  }
  if (safety.verdict.isProven() && usedIsl) safety.verdict = ProofResult::proven("isl");
  return safety;
}

}  // namespace idxmap
