// The Z3 bridge: expressions and domains as Z3 terms, over mathematical integers or over
// 64-bit two's-complement bit-vectors (the arithmetic of emitted code).
#pragma once

#include <z3++.h>

#include <string>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap {

struct Z3Variables {
  std::vector<z3::expr> dims, rangeVars, runtimeVars;
};

// Fresh Z3 constants for every variable of `map`, named `<prefix><default name>`.
Z3Variables makeZ3Variables(z3::context& ctx, const IndexingMap& map, const std::string& prefix,
                            bool bitVector = false);

// Integer semantics: floordiv/ceildiv/mod with floor semantics (divisors are positive).
z3::expr toZ3(Expr e, const Z3Variables& vars, z3::context& ctx);

// 64-bit bit-vector semantics. `noOverflow` receives a formula that holds exactly when no
// operation in `e` overflows int64 (so the bit-vector value is the integer value).
z3::expr toZ3BitVector(Expr e, const Z3Variables& vars, z3::context& ctx, z3::expr& noOverflow);

// Every variable in its range and every constraint holds (integer semantics).
z3::expr domainToZ3(const IndexingMap& map, const Z3Variables& vars, z3::context& ctx);

}  // namespace idxmap
