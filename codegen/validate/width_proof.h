// The bit-width question asked of Z3, on bit-vectors: printed index expressions, evaluated in
// C's fixed widths (each node in its int32_t or int64_t with its operands sign-extended to it,
// `/` and `%` truncating, the prelude's floor helpers, casts that truncate), never overflow a
// node where the kernel evaluates them: dims and runtime variables in their ranges, with the
// map's constraints on dims alone or, for a guarded expression, all of them. validation.h
// proves the same with isl, bounding each node's range over exact integers (and proves the
// values equal to the map's); this is the independent proof at the level of bits, one query
// for all of a kernel's expressions.
#pragma once

#include <string>
#include <vector>

#include "codegen/kernel/c_expr.h"
#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap::codegen {

struct WidthQuestion {
  std::string role;  // "store to result", for a refutation's message
  CExpr code;        // variables d<i> (dim i of the map) and rt<k> (runtime variable k)
  bool guarded = false;
};

// Proven; refuted naming an expression and the point where a node of it overflows (as
// "d0 = 3, rt0 = -1"); unknown with Z3's reason, or for an expression it does not encode.
ProofResult proveNoOverflowWithZ3(const std::vector<WidthQuestion>& questions,
                                  const IndexingMap& map);

}  // namespace idxmap::codegen
