#include "simplifier/small_domain.h"

#include <vector>

#include "core/checked.h"
#include "simplifier/linear_form.h"
#include "simplifier/rewriter.h"

namespace idxmap {
namespace {

// Whether `e` is built of dims, constants, + and * alone (affine already: nothing to gain).
bool isAffine(Expr e) {
  switch (e.kind()) {
    case ExprKind::Constant:
    case ExprKind::Dim:
      return true;
    case ExprKind::Add:
    case ExprKind::Mul:
      return isAffine(e.lhs()) && isAffine(e.rhs());
    default:
      return false;
  }
}

}  // namespace

Expr affineOnSmallBox(Expr e, const IndexingMap& map, int64_t maxPoints) {
  if (isAffine(e)) return e;
  bool dimsOnly = true;
  std::vector<bool> used(map.dims.size(), false);
  e.walk([&](Expr v) {
    if (v.kind() == ExprKind::Dim) used[v.variableIndex()] = true;
    dimsOnly = dimsOnly && (v.kind() != ExprKind::RangeVar && v.kind() != ExprKind::RuntimeVar);
  });
  if (!dimsOnly) return e;
  int64_t points = 1;
  for (size_t d = 0; d < used.size(); ++d) {
    if (!used[d]) continue;
    const Interval& r = map.dims[d].range;
    int64_t width = 0;
    if (r.isEmpty() || __builtin_sub_overflow(r.hi, r.lo, &width) || width >= maxPoints) return e;
    points *= r.hi - r.lo + 1;
    if (points > maxPoints) return e;
  }
  try {
    // The candidate: f at the low corner, plus one step along each dim.
    std::vector<int64_t> at(map.dims.size());
    for (size_t d = 0; d < at.size(); ++d)
      at[d] = map.dims[d].range.isEmpty() ? 0 : map.dims[d].range.lo;
    const std::vector<int64_t> low = at;
    const int64_t base = e.evaluate(at, {}, {});
    std::vector<int64_t> slope(at.size(), 0);
    Expr affine = Expr::constant(base);
    for (size_t d = 0; d < at.size(); ++d) {
      if (!used[d] || map.dims[d].range.hi == low[d]) continue;
      at[d] = low[d] + 1;
      slope[d] = checkedSub(e.evaluate(at, {}, {}), base);
      at[d] = low[d];
      affine = affine + (Expr::dim(static_cast<unsigned>(d)) - low[d]) * slope[d];
    }
    // Every point of the box, row-major over the used dims.
    std::vector<size_t> usedDims;
    for (size_t d = 0; d < used.size(); ++d)
      if (used[d]) usedDims.push_back(d);
    for (;;) {
      int64_t expected = base;
      for (size_t d : usedDims)
        expected = checkedAdd(expected, checkedMul(slope[d], checkedSub(at[d], low[d])));
      if (e.evaluate(at, {}, {}) != expected) return e;
      size_t k = usedDims.size();
      while (k > 0 && at[usedDims[k - 1]] == map.dims[usedDims[k - 1]].range.hi) {
        at[usedDims[k - 1]] = low[usedDims[k - 1]];
        --k;
      }
      if (k == 0) break;
      ++at[usedDims[k - 1]];
    }
    Expr canonical = LinearForm::of(affine).build();
    return simplificationCost(canonical) < simplificationCost(e) ? canonical : e;
  } catch (const OverflowError&) {
    return e;
  }
}

}  // namespace idxmap
