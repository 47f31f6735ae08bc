// Shape compatibility with bounded dynamism (spec 002, P1 and P2). A dimension is static
// (`5`), bounded (`<=3`: any size in [0, 3] at run time) or unbounded (`?`). Two shapes are
// compatible when some run-time sizes make them equal: `<=3` is compatible with `2` and with
// `<=4`, but not with `7`.
#pragma once

#include <optional>
#include <string>

#include "ops/hlo/module.h"

namespace idxmap::hlo {

bool isDynamicDim(const Shape& shape, size_t dim);
bool isUnboundedDim(const Shape& shape, size_t dim);  // `?`
bool hasDynamicDims(const Shape& shape);

// Element types, ranks and every dimension compatible (tuples element by element).
bool compatible(const Shape& a, const Shape& b);
// Why `declared` is not compatible with `inferred` ("dimension 1 is 20, expected 30"), or
// nullopt when it is.
std::optional<std::string> incompatibility(const Shape& declared, const Shape& inferred);
// The most specific shape compatible with both (the inferred result type of an elementwise
// op, spec 002: `<=3` and `2` give `2`, `<=3` and `<=4` give `<=3`). Requires compatible(a, b)
// up to element types; the element type is a's.
Shape refine(const Shape& a, const Shape& b);

}  // namespace idxmap::hlo
