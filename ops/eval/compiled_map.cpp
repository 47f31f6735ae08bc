// Linear forms and the bounds that make evaluating them unchecked safe. Bounds are computed
// in 128-bit arithmetic: products of two int64 values fit, and so does any sum of the few
// dozen terms a map has, so the proofs themselves cannot overflow.
#include "ops/eval/compiled_map.h"

#include <algorithm>
#include <limits>

namespace idxmap {
namespace {

using Wide = __int128;
constexpr Wide kMax = std::numeric_limits<int64_t>::max();

Wide magnitude(Wide v) { return v < 0 ? -v : v; }

Wide largestMagnitude(const Interval& range) {
  return std::max(magnitude(range.lo), magnitude(range.hi));
}

bool isBoundedNonEmpty(const Interval& range) { return range.isBounded() && !range.isEmpty(); }

// The largest |partial sum| of `form` over `box`, summed in any order: |constant| plus every
// |term|. Saturates past int64 so that repeated sums cannot overflow 128 bits either.
Wide formMagnitude(const AffineForm& form, std::span<const Interval> box) {
  Wide total = magnitude(form.constant);
  for (size_t v = 0; v < form.coefficients.size(); ++v) {
    total += magnitude(form.coefficients[v]) * largestMagnitude(box[v]);
    if (total > kMax) return kMax + 1;
  }
  return total;
}

// The largest |value| of any node of the tree Expr::evaluate walks, or past kMax when some
// node may overflow. Only affine trees reach here.
Wide treeMagnitude(Expr expr, const IndexingMap& map, std::span<const Interval> box) {
  switch (expr.kind()) {
    case ExprKind::Constant:
      return magnitude(expr.constantValue());
    case ExprKind::Dim:
      return largestMagnitude(box[expr.variableIndex()]);
    case ExprKind::RangeVar:
      return largestMagnitude(box[map.dims.size() + expr.variableIndex()]);
    case ExprKind::RuntimeVar:
      return largestMagnitude(box[map.dims.size() + map.rangeVars.size() + expr.variableIndex()]);
    case ExprKind::Add:
      return std::min(treeMagnitude(expr.lhs(), map, box) + treeMagnitude(expr.rhs(), map, box),
                      kMax + 1);
    case ExprKind::Mul:
      return std::min(treeMagnitude(expr.lhs(), map, box) * magnitude(expr.rhs().constantValue()),
                      kMax + 1);
    default:
      return kMax + 1;
  }
}

bool addInto(int64_t& total, Wide term) {
  Wide sum = Wide{total} + term;
  if (magnitude(sum) > kMax) return false;
  total = static_cast<int64_t>(sum);
  return true;
}

}  // namespace

std::optional<AffineForm> affineFormOf(Expr expr, const IndexingMap& map) {
  const size_t count = map.dims.size() + map.rangeVars.size() + map.runtimeVars.size();
  auto variable = [&](size_t offset, size_t declared) -> std::optional<AffineForm> {
    if (expr.variableIndex() >= declared) return std::nullopt;
    AffineForm form{0, std::vector<int64_t>(count, 0)};
    form.coefficients[offset + expr.variableIndex()] = 1;
    return form;
  };
  switch (expr.kind()) {
    case ExprKind::Constant:
      return AffineForm{expr.constantValue(), std::vector<int64_t>(count, 0)};
    case ExprKind::Dim:
      return variable(0, map.dims.size());
    case ExprKind::RangeVar:
      return variable(map.dims.size(), map.rangeVars.size());
    case ExprKind::RuntimeVar:
      return variable(map.dims.size() + map.rangeVars.size(), map.runtimeVars.size());
    case ExprKind::Add: {
      std::optional<AffineForm> lhs = affineFormOf(expr.lhs(), map);
      std::optional<AffineForm> rhs = lhs ? affineFormOf(expr.rhs(), map) : std::nullopt;
      if (!rhs || !addInto(lhs->constant, rhs->constant)) return std::nullopt;
      for (size_t v = 0; v < count; ++v)
        if (!addInto(lhs->coefficients[v], rhs->coefficients[v])) return std::nullopt;
      return lhs;
    }
    case ExprKind::Mul: {
      if (!expr.rhs().isConstant()) return std::nullopt;
      std::optional<AffineForm> form = affineFormOf(expr.lhs(), map);
      const Wide factor = expr.rhs().constantValue();
      if (!form) return std::nullopt;
      int64_t product = 0;
      if (!addInto(product, factor * form->constant)) return std::nullopt;
      form->constant = product;
      for (int64_t& c : form->coefficients) {
        product = 0;
        if (!addInto(product, factor * c)) return std::nullopt;
        c = product;
      }
      return form;
    }
    default:
      return std::nullopt;  // floordiv, ceildiv, mod, min, max: not affine
  }
}

std::vector<Interval> variableBox(const IndexingMap& map) {
  std::vector<Interval> box;
  for (const auto* vars : {&map.dims, &map.rangeVars, &map.runtimeVars})
    for (const Variable& v : *vars) box.push_back(v.range);
  return box;
}

std::optional<Interval> overflowFreeRange(Expr expr, const AffineForm& form,
                                          const IndexingMap& map) {
  std::vector<Interval> box = variableBox(map);
  if (!std::all_of(box.begin(), box.end(), isBoundedNonEmpty)) return std::nullopt;
  if (formMagnitude(form, box) > kMax || treeMagnitude(expr, map, box) > kMax) return std::nullopt;
  // Within +-formMagnitude, so both ends fit in int64.
  Wide lo = form.constant, hi = form.constant;
  for (size_t v = 0; v < form.coefficients.size(); ++v) {
    Wide a = form.coefficients[v];
    lo += a * (a > 0 ? box[v].lo : box[v].hi);
    hi += a * (a > 0 ? box[v].hi : box[v].lo);
  }
  return Interval{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

std::optional<CompiledMap> CompiledMap::compile(const IndexingMap& map) {
  if (map.knownEmpty) return std::nullopt;
  CompiledMap compiled;
  compiled.dimCount = map.dims.size();
  compiled.rangeVarCount = map.rangeVars.size();
  compiled.runtimeVarCount = map.runtimeVars.size();
  compiled.box = variableBox(map);
  // Compiles one expression; its range, or nullopt when some point may overflow.
  auto compileOne = [&](Expr expr, std::vector<AffineForm>& forms) -> std::optional<Interval> {
    std::optional<AffineForm> form = affineFormOf(expr, map);
    if (!form) return std::nullopt;
    std::optional<Interval> range = overflowFreeRange(expr, *form, map);
    if (!range) return std::nullopt;
    forms.push_back(std::move(*form));
    return range;
  };
  for (const Constraint& c : map.constraints) {
    if (!compileOne(c.expr, compiled.constraints)) return std::nullopt;
    compiled.constraintRanges.push_back(c.range);
  }
  for (Expr result : map.results) {
    std::optional<Interval> range = compileOne(result, compiled.results);
    if (!range) return std::nullopt;
    for (const Constraint& c : map.constraints)
      if (c.expr == result) *range = range->intersect(c.range);
    compiled.resultRanges.push_back(*range);
  }
  return compiled;
}

std::optional<AffineForm> CompiledMap::positionIn(std::span<const int64_t> shape) const {
  if (shape.size() != results.size()) return std::nullopt;
  AffineForm position{0, std::vector<int64_t>(variableCount(), 0)};
  Wide stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (!Interval{0, shape[d] - 1}.contains(resultRanges[d]) || resultRanges[d].isEmpty())
      return std::nullopt;
    if (!addInto(position.constant, stride * results[d].constant)) return std::nullopt;
    for (size_t v = 0; v < variableCount(); ++v)
      if (!addInto(position.coefficients[v], stride * results[d].coefficients[v]))
        return std::nullopt;
    stride *= shape[d];
    if (stride > kMax) return std::nullopt;
  }
  if (formMagnitude(position, box) > kMax) return std::nullopt;
  return position;
}

}  // namespace idxmap
