// An IndexingMap whose results and constraints are affine, compiled once into linear forms
// over one array of variable values, [dims..., range vars..., runtime vars...], so that an
// evaluator visiting millions of points does neither walk Expr trees nor allocate per point.
//
// Compilation also proves, over the map's variable ranges, that no form can overflow int64
// and that Expr::evaluate of the original tree cannot either: a form's value at a point in
// those ranges is then exactly the tree's value, and unchecked arithmetic is safe. What it
// cannot prove (non-affine results, unbounded ranges, possible overflow) it refuses, and the
// caller keeps evaluating the Exprs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap {

// constant + sum of coefficients[v] * values[v].
struct AffineForm {
  int64_t constant = 0;
  std::vector<int64_t> coefficients;  // one per variable of the map, in layout order

  // Unchecked: callers evaluate only where compilation proved the form cannot overflow.
  int64_t evaluate(std::span<const int64_t> values) const {
    int64_t value = constant;
    for (size_t v = 0; v < coefficients.size(); ++v) value += coefficients[v] * values[v];
    return value;
  }
};

// The linear form of `expr` over the variables of `map`; nullopt when `expr` uses floordiv,
// ceildiv, mod, min or max, a variable `map` does not declare, or a coefficient that does not
// fit in int64.
std::optional<AffineForm> affineFormOf(Expr expr, const IndexingMap& map);

// Every variable's range, in layout order.
std::vector<Interval> variableBox(const IndexingMap& map);

// The values `expr` takes over the variable ranges of `map` (a sound over-approximation),
// when neither `form`, its affine form, summed in any order (partial sums included), nor
// Expr::evaluate of `expr` can overflow at a point there; nullopt otherwise, or when a range
// is unbounded or empty.
std::optional<Interval> overflowFreeRange(Expr expr, const AffineForm& form,
                                          const IndexingMap& map);

struct CompiledMap {
  size_t dimCount = 0, rangeVarCount = 0, runtimeVarCount = 0;
  std::vector<Interval> box;  // every variable's range, in layout order
  std::vector<AffineForm> results;
  // Where each result can be at the map's points: its range over the box, narrowed by any
  // constraint on the very same expression (a point of the map satisfies it).
  std::vector<Interval> resultRanges;
  std::vector<AffineForm> constraints;
  std::vector<Interval> constraintRanges;  // the range each constraint must hold in

  // nullopt unless the map is not KNOWN EMPTY, every range is bounded, every result and
  // constraint is affine, and none of them can overflow over the box.
  static std::optional<CompiledMap> compile(const IndexingMap& map);

  size_t variableCount() const { return box.size(); }
  size_t runtimeVarOffset() const { return dimCount + rangeVarCount; }

  // The row-major position of the map's results in a tensor of `shape`, as one form; nullopt
  // unless every result provably lies in [0, shape[d] - 1] at the map's points (so the
  // position is exact and in bounds there) and the form cannot overflow over the box.
  std::optional<AffineForm> positionIn(std::span<const int64_t> shape) const;

  // IndexingMap::contains for a point whose variables are all within their ranges.
  bool constraintsHold(std::span<const int64_t> values) const {
    for (size_t c = 0; c < constraints.size(); ++c)
      if (!constraintRanges[c].contains(constraints[c].evaluate(values))) return false;
    return true;
  }
};

}  // namespace idxmap
