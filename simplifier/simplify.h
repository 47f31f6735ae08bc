// The simplifier's façade. Simplification preserves a map's relation exactly; it may
// tighten a variable's range only where the relation stays the same.
#pragma once

#include "core/indexing_map.h"

namespace idxmap {

// A dimension whose range is one point is a constant: kReplace (the default) writes the
// constant, kPreserve keeps the dimension, as XLA's SimplifyPointDimensions::kPreserve does
// (what its reshape, bitcast and unsimplified per-op maps print).
enum class PointDims { kReplace, kPreserve };

// Simplifies the domain (constraints folded into ranges, constraints that always hold
// dropped, empty domains detected as KNOWN EMPTY, range variables rescaled by mod
// constraints, unused range variables removed) and then the results, to a fixed point.
IndexingMap simplify(const IndexingMap& map, PointDims pointDims = PointDims::kReplace);

// compose(first, second) followed by simplify.
IndexingMap composeAndSimplify(const IndexingMap& first, const IndexingMap& second);

// Simplifies a single expression against the ranges and constraints of `context`.
Expr simplifyExpr(Expr e, const IndexingMap& context);

}  // namespace idxmap
