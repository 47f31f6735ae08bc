// Expressions over few points. An expression of dims whose ranges hold at most a few dozen
// points, equal at every one of them to an affine function of those dims, is that function:
// a proof by exhaustion, every point of the box evaluated. isl finds such functions by
// enumerating small domains (`((d0 * 3) mod 2) * 9` over d0 in [0, 1] is `d0 * 9`); the
// rewriter's rules, which hold for all integers, cannot.
#pragma once

#include "core/indexing_map.h"

namespace idxmap {

// The affine function `e` equals on the box of `map`'s dim ranges, when it is cheaper than `e`
// (simplificationCost); else `e`. Only for expressions of dims alone (range and runtime
// variables take other values than a box shows) over at most `maxPoints` points.
Expr affineOnSmallBox(Expr e, const IndexingMap& map, int64_t maxPoints = 64);

}  // namespace idxmap
