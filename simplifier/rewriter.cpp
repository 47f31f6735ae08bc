#include "simplifier/rewriter.h"

#include <algorithm>
#include <limits>

#include "simplifier/digits.h"
#include "simplifier/linear_form.h"
#include "simplifier/rule_matcher.h"

namespace idxmap {
namespace {
// Rewrites that keep producing new expressions are cut off here; the result is still equal
// to the input, just less simplified. The rule set makes progress in far fewer steps.
constexpr int kMaxDepth = 64;
}  // namespace

namespace {
// Whether `e` is a sum of variables and constants (no floordiv, mod, ceildiv, min or max).
bool isLinear(Expr e) {
  switch (e.kind()) {
    case ExprKind::Add:
    case ExprKind::Mul:
      return isLinear(e.lhs()) && isLinear(e.rhs());
    case ExprKind::FloorDiv:
    case ExprKind::CeilDiv:
    case ExprKind::Mod:
    case ExprKind::Min:
    case ExprKind::Max:
      return false;
    default:
      return true;
  }
}

// The cost of `e`'s nodes, counted only up to `limit` (a larger one comes back as `limit`):
// whether an input costs at least its rewrite's cost is decided without walking all of it.
int nodeCost(Expr e, int limit = std::numeric_limits<int>::max()) {
  switch (e.kind()) {
    case ExprKind::Constant:
      return 0;  // counted with their operator, as in Expr::size
    case ExprKind::FloorDiv:
    case ExprKind::CeilDiv:
    case ExprKind::Mod:
      return limit <= 3 ? limit : 3 + nodeCost(e.lhs(), limit - 3);
    case ExprKind::Min:
    case ExprKind::Max:
    case ExprKind::Add: {
      const int own = e.kind() == ExprKind::Add ? 1 : 3;
      if (limit <= own) return limit;
      const int lhs = nodeCost(e.lhs(), limit - own);
      return lhs >= limit - own ? limit : own + lhs + nodeCost(e.rhs(), limit - own - lhs);
    }
    case ExprKind::Mul:
      return limit <= 1 ? limit : 1 + nodeCost(e.lhs(), limit - 1);
    default:
      return std::min(1, limit);
  }
}

// A cost from its nodes' cost: constants that stand alone (a sum's offset, a result) still count
// one.
int costOf(Expr e, int nodes) {
  return std::max(nodes, 1) + (e.kind() == ExprKind::Add && e.rhs().isConstant() ? 1 : 0);
}
}  // namespace

int simplificationCost(Expr e) { return costOf(e, nodeCost(e)); }

Expr Rewriter::simplify(Expr e) {
  Expr out;
  try {
    out = rewrite(e, 0);
  } catch (const OverflowError&) {
    return e;  // a coefficient left int64 while combining terms: keep the input as is
  }
  // The input's nodes counted only as far as the output's cost: exact below it, and an input
  // that reaches it is no cheaper.
  const int costOut = simplificationCost(out);
  return costOf(e, nodeCost(e, costOut)) >= costOut ? out : e;
}

Expr Rewriter::rebuildFromSimplifiedChildren(Expr e, int depth) {
  if (e.kind() == ExprKind::Add || e.kind() == ExprKind::Mul) {
    LinearForm form = LinearForm::of(e);
    // Digits merged as written first: a rewritten digit may no longer show its base (a top
    // digit `(d1 + d0 * 10) floordiv 30` is `d0 floordiv 3` once d1 < 10 is used), and then
    // it cannot meet the digits below it. A merge leaves fewer digits (and the depth bounds
    // the rest).
    Expr premerged;
    if (depth + 1 < kMaxDepth)
      if (LinearForm merged = mergeDigits(form); merged != form) {
        premerged = rewrite(merged.build(), depth + 1);
        if (isLinear(premerged)) return premerged;  // nothing left that rewriting atoms beats
      }
    bool atomsKept = true;
    for (LinearTerm& t : form.terms) {
      Expr atom = rewrite(t.atom, depth + 1);
      atomsKept = atomsKept && atom == t.atom;
      t.atom = atom;
    }
    // Rewritten atoms may be sums or constants, or equal one another: linearize again.
    Expr rebuilt = sumOfDigits(atomsKept ? form : LinearForm::of(form.build()), depth);
    return !premerged.isNull() && simplificationCost(premerged) < simplificationCost(rebuilt)
               ? premerged
               : rebuilt;
  }
  return Expr::binary(e.kind(), rewrite(e.lhs(), depth + 1), rewrite(e.rhs(), depth + 1));
}

// The sum as mixed-radix digits (simplifier/digits.h): adjacent digits merged, and the same
// with digits of negated bases flipped, whichever costs less. A merged digit is a new atom and
// is rewritten in turn: `x mod 200` may be x on the domain, and `(x + 97 * d1) mod 96` reads
// d1 once.
Expr Rewriter::sumOfDigits(const LinearForm& form, int depth) {
  auto merged = [&](const LinearForm& sum) {
    LinearForm out = mergeDigits(sum);
    return out == sum || depth + 1 >= kMaxDepth ? out.build() : rewrite(out.build(), depth + 1);
  };
  Expr best = merged(form);
  LinearForm flipped = form;
  try {
    if (depth + 1 < kMaxDepth && flipNegatedDigits(flipped)) {
      for (LinearTerm& t : flipped.terms) t.atom = rewrite(t.atom, depth + 1);
      Expr other = merged(LinearForm::of(flipped.build()));
      if (simplificationCost(other) < simplificationCost(best)) best = other;
    }
  } catch (const OverflowError&) {
    // a flipped constant left int64: keep the sum as it was
  }
  return best;
}

Expr Rewriter::pointValue(Expr e) {
  Interval r = ranges_.range(e);
  return r.isPoint() ? Expr::constant(r.lo) : Expr();
}

Expr Rewriter::rewrite(Expr e, int depth) {
  if (e.isConstant()) return e;
  // kPreserve: what is constant only through a point dimension stays as written.
  if (pointDims_ == PointDims::kPreserve && usesPointDim(e, ranges_.map()) &&
      ranges_.range(e).isPoint())
    return e;
  if (const Expr* done = memo_.find(e)) return *done;
  // A node with one value on the domain is that value, once its operands are rewritten (a
  // rewritten form may bound tighter). The range evaluator is sound, so this is exact; it
  // is the rewriter's step and not a rule because it holds of every node.
  Expr current = e.isBinary() && depth < kMaxDepth ? rebuildFromSimplifiedChildren(e, depth) : e;
  if (Expr value = pointValue(current); !value.isNull()) {
    current = value;
  } else if (depth < kMaxDepth) {
    for (const Rule* rule : rulesFor(current.kind())) {
      Expr next = applyRule(*rule, current, ranges_);
      if (next.isNull() || next == current) continue;
      current = rewrite(next, depth + 1);  // rewriting keeps sums canonical on the way up
      break;
    }
  }
  memo_.insert(e, current);
  // A result is its own fixed point: rewriting it again (as part of a larger expression a
  // rule builds) must not redo the work. Depth cut-offs are the exception, and harmless.
  memo_.insert(current, current);
  return current;
}

}  // namespace idxmap
