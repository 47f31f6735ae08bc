#include "simplifier/simplify.h"

#include "simplifier/domain.h"
#include "simplifier/range_evaluator.h"
#include "simplifier/rewriter.h"
#include "simplifier/small_domain.h"

namespace idxmap {

IndexingMap simplify(const IndexingMap& input) {
  IndexingMap map = input;
  if (map.knownEmpty) {
    map.markKnownEmpty();
    return map;
  }
  simplifyDomain(map);
  rescaleRangeVariables(map);
  simplifyDomain(map);
  detectEmptyDomain(map);
  if (map.knownEmpty) return map;
  RangeEvaluator ranges(map, RangeEvaluator::Use::RangesAndConstraints);
  Rewriter rewriter(ranges);
  for (Expr& e : map.results) e = affineOnSmallBox(rewriter.simplify(e), map);
  removeUnusedRangeVariables(map);
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
