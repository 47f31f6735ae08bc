// Variables as the maps' text writes them, for tests that build expressions directly.
#pragma once

#include "core/expr.h"

namespace idxmap::test_exprs {

inline Expr d(unsigned i) { return Expr::dim(i); }
inline Expr s(unsigned i) { return Expr::rangeVar(i); }
inline Expr rt(unsigned i) { return Expr::runtimeVar(i); }
inline const Expr d0 = Expr::dim(0), d1 = Expr::dim(1), d2 = Expr::dim(2);
inline const Expr s0 = Expr::rangeVar(0), rt0 = Expr::runtimeVar(0);

}  // namespace idxmap::test_exprs
