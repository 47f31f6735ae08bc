// Expr and CExpr as isl piecewise affine functions over one set space whose dims are named
// variables (d0, ..., rt0, ...): the arithmetic validation proves things about. Core's
// Expr keeps floor semantics (floor, ceil, mod); a CExpr's `/` and `%` truncate (isl's
// tdiv_q / tdiv_r), its calls are the prelude's floor helpers. Used by loop_nest.cpp (the
// domain isl's AST generator walks) and codegen/validate/.
#pragma once

#include <isl/cpp.h>

#include <string>
#include <vector>

#include "codegen/kernel/c_expr.h"
#include "core/expr.h"
#include "core/interval.h"

namespace idxmap::codegen {

class IslExpressions {
 public:
  // dims d0..d<dims-1>, then rt0..rt<runtimeVars-1>, in that order; `parameters`: names of
  // isl parameters (a thread's share bounds), which every set holds for each of their values.
  IslExpressions(size_t dims, size_t runtimeVars, std::vector<std::string> parameters = {});

  const std::vector<std::string>& names() const { return names_; }
  isl::set universe() const;
  // The variable at `position` in [range.lo, range.hi].
  isl::set inRange(size_t position, Interval range) const;

  isl::pw_aff fromExpr(Expr expr) const;
  isl::pw_aff fromCExpr(const CExpr& expr) const;                    // arithmetic nodes
  isl::set fromCondition(const CExpr& expr) const;                   // comparisons and &&
  isl::set valueIn(const isl::pw_aff& value, Interval range) const;  // where lo <= value <= hi

  // d<i>, rt<k>, or v<k> (rt<k>'s raw loaded value); throws Error for an unknown name.
  size_t position(const std::string& name) const;

 private:
  isl::pw_aff variable(size_t position) const;
  isl::pw_aff parameter(size_t position) const;
  isl::pw_aff constant(int64_t value) const;

  isl::space space_;
  std::vector<std::string> names_;
  std::vector<std::string> parameters_;
};

}  // namespace idxmap::codegen
