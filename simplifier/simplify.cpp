#include "simplifier/simplify.h"

#include "simplifier/domain.h"
#include "simplifier/range_evaluator.h"
#include "simplifier/rewriter.h"
#include "simplifier/small_domain.h"

namespace idxmap {

namespace {

// The index at which each runtime variable's value is read, simplified like the map itself
// (compose() leaves it as raw as the composed map).
void simplifyRuntimeSources(IndexingMap& map, PointDims pointDims) {
  for (Variable& var : map.runtimeVars) {
    if (!var.source || !var.source->index) continue;
    auto index = std::make_shared<IndexingMap>(simplify(*var.source->index, pointDims));
    var.source = std::make_shared<RuntimeSource>(RuntimeSource{var.source->tensor, index});
  }
}

int resultCost(const IndexingMap& map) {
  int cost = 0;
  for (Expr e : map.results) cost += simplificationCost(e);
  return cost;
}

// `rescaled` (when given) says whether a range variable was rescaled.
IndexingMap simplifyOnce(const IndexingMap& input, PointDims pointDims, bool* rescaled) {
  IndexingMap map = input;
  simplifyDomain(map);
  if (rescaled) {
    *rescaled = rescaleRangeVariables(map);
    simplifyDomain(map);
  }
  detectEmptyDomain(map);
  if (map.knownEmpty) return map;
  RangeEvaluator ranges(map, RangeEvaluator::Use::RangesAndConstraints);
  Rewriter rewriter(ranges, pointDims);
  for (Expr& e : map.results) {
    e = rewriter.simplify(e);
    // The box fit drops point dims (they are constants there): only where they may go.
    if (pointDims == PointDims::kReplace || !usesPointDim(e, map)) e = affineOnSmallBox(e, map);
  }
  removeUnusedRangeVariables(map);
  simplifyRuntimeSources(map, pointDims);
  return map;
}

}  // namespace

IndexingMap simplify(const IndexingMap& input, PointDims pointDims) {
  if (input.knownEmpty) {
    IndexingMap map = input;
    map.markKnownEmpty();
    return map;
  }
  bool rescaled = false;
  IndexingMap map = simplifyOnce(input, pointDims, &rescaled);
  // Rescaling a range variable by its mod constraint (s0 in [0, 5] with s0 mod 3 = 0 becomes
  // s0 * 3 with s0 in [0, 1]) drops the constraint but writes `s0 * 3` at every use. Where the
  // results come out costlier than they went in, the variable keeps its range and constraint:
  // no output is larger than its input.
  if (rescaled && !map.knownEmpty && resultCost(map) > resultCost(input)) {
    IndexingMap unscaled = simplifyOnce(input, pointDims, nullptr);
    if (resultCost(unscaled) < resultCost(map)) return unscaled;
  }
  return map;
}

IndexingMap composeAndSimplify(const IndexingMap& first, const IndexingMap& second) {
  return simplify(compose(first, second));
}

Expr simplifyExpr(Expr e, const IndexingMap& context) {
  RangeEvaluator ranges(context, RangeEvaluator::Use::RangesAndConstraints);
  return Rewriter(ranges).simplify(e);
}

}  // namespace idxmap
