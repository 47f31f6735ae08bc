// The HLO reader's shapes: an array shape `f32[10,<=20]{1,0}` (static, bounded `<=N` and
// unbounded `?` dims, an optional layout) or a tuple of shapes.
#pragma once

#include "ops/hlo/lexer.h"
#include "ops/hlo/module.h"

namespace idxmap::hlo {

// A shape starts with '(' (a tuple) or an element type followed right away by '['.
bool atShape(HloCursor& cursor);
// The shape at the cursor. Throws ParseError for malformed text, tuples nested deeper than 64
// levels, dims past 2^62, element counts past int64, layouts that are not permutations.
Shape parseShape(HloCursor& cursor, int nesting = 0);
// Same element types and dims (tuples element by element); layouts are not compared.
bool sameArrayType(const Shape& a, const Shape& b);

}  // namespace idxmap::hlo
