// isl sets as an IndexingMap's domain: variable ranges (the bounding box isl proves) plus
// constraints for whatever the box does not imply; a union of convex pieces gets a 0/1 range
// variable per piece that switches the piece's constraints on, one of them on.
#include <isl/constraint.h>
#include <isl/set.h>

#include <memory>

#include "core/bridges/isl_bridge.h"
#include "core/bridges/isl_internal.h"

namespace idxmap::isl_bridge {
namespace {

// The range of `e` over the variable ranges of `map`, by interval arithmetic (sound).
Interval rangeOver(Expr e, const IndexingMap& map) {
  switch (e.kind()) {
    case ExprKind::Constant:
      return Interval::point(e.constantValue());
    case ExprKind::Dim:
    case ExprKind::RangeVar:
    case ExprKind::RuntimeVar:
      return map.variables(e.kind()).at(e.variableIndex()).range;
    default:
      break;
  }
  Interval lhs = rangeOver(e.lhs(), map);
  switch (e.kind()) {
    case ExprKind::Add:
      return lhs + rangeOver(e.rhs(), map);
    case ExprKind::Mul:
      return lhs * e.rhs().constantValue();
    case ExprKind::FloorDiv:
      return lhs.floorDiv(e.rhs().constantValue());
    case ExprKind::CeilDiv:
      return lhs.ceilDiv(e.rhs().constantValue());
    case ExprKind::Mod:
      return lhs.mod(e.rhs().constantValue());
    case ExprKind::Min:
      return lhs.min(rangeOver(e.rhs(), map));
    case ExprKind::Max:
      return lhs.max(rangeOver(e.rhs(), map));
    default:
      throw Error("isl bridge: unexpected expression kind");
  }
}

// One isl constraint `form >= 0` or `form = 0`, as `expr in range` with the constant moved
// into the range and a positive leading coefficient.
struct Bound {
  enum { AlwaysTrue, Never, Constraint } kind;
  idxmap::Constraint constraint;
  Interval values;  // of constraint.expr over the box, a superset of constraint.range
};

Bound toBound(LinearForm form, bool equality, const IndexingMap& map) {
  int64_t c = form.constant;
  form.constant = 0;
  if (form.terms.empty()) {
    bool holds = equality ? c == 0 : c >= 0;
    return {holds ? Bound::AlwaysTrue : Bound::Never, {}, {}};
  }
  bool negate = form.terms.front().second < 0;
  if (negate)
    for (auto& term : form.terms) term.second = checkedNeg(term.second);
  Expr e = form.toExpr();
  // E + c >= 0 means E >= -c; after negation, -E + c >= 0 means E <= c.
  int64_t bound = negate ? c : checkedNeg(c);
  Interval needed = equality ? Interval::point(bound)
                    : negate ? Interval{Interval::kNegInf, bound}
                             : Interval{bound, Interval::kPosInf};
  Interval values = rangeOver(e, map);
  if (needed.contains(values)) return {Bound::AlwaysTrue, {}, {}};
  Interval range = needed.intersect(values);
  if (range.isEmpty()) return {Bound::Never, {}, {}};
  return {Bound::Constraint, {e, range}, values};
}

// `b` enforced only where the 0/1 range variable `selector` is 1: with the expression's
// values in [vlo, vhi] over the box, E >= lo becomes E - (lo - vlo) * selector >= vlo and
// E <= hi becomes E + (vhi - hi) * selector <= vhi; both are vacuous when selector = 0.
std::vector<idxmap::Constraint> selectedBy(const Bound& b, Expr selector) {
  const Interval& range = b.constraint.range;
  if (!b.values.isBounded())
    throw Error("cannot represent the isl relation as an indexing map: a constraint is unbounded");
  std::vector<idxmap::Constraint> out;
  if (range.lo > b.values.lo)
    out.push_back({b.constraint.expr - selector * checkedSub(range.lo, b.values.lo), b.values});
  if (range.hi < b.values.hi)
    out.push_back({b.constraint.expr + selector * checkedSub(b.values.hi, range.hi), b.values});
  return out;
}

// isl often bounds one expression by two constraints (e >= a, e <= b): keep one.
void addConstraint(const idxmap::Constraint& c, IndexingMap& out) {
  for (idxmap::Constraint& existing : out.constraints)
    if (existing.expr == c.expr) {
      existing.range = existing.range.intersect(c.range);
      return;
    }
  out.constraints.push_back(c);
}

using ConstraintPtr = std::unique_ptr<isl_constraint, decltype(&isl_constraint_free)>;

std::vector<ConstraintPtr> constraintsOf(const isl::basic_set& piece) {
  std::vector<ConstraintPtr> out;
  auto collect = [](isl_constraint* c, void* user) {
    static_cast<std::vector<ConstraintPtr>*>(user)->emplace_back(c, &isl_constraint_free);
    return isl_stat_ok;
  };
  checked(isl_basic_set_foreach_constraint(piece.get(), collect, &out));
  return out;
}

std::vector<isl::basic_set> basicSetsOf(const isl::set& set) {
  std::vector<isl::basic_set> out;
  auto collect = [](isl_basic_set* b, void* user) {
    static_cast<std::vector<isl::basic_set>*>(user)->push_back(isl::manage(b));
    return isl_stat_ok;
  };
  checked(isl_set_foreach_basic_set(set.get(), collect, &out));
  return out;
}

}  // namespace

std::string customName(const char* islName, ExprKind kind, unsigned index) {
  if (!islName || islName == defaultVariableName(kind, index)) return "";
  return islName;
}

void importDomain(const isl::set& set, const IslVariables& vars, IndexingMap& out) {
  unsigned params = vars.params.size();
  isl::set flat = own(isl_set_move_dims(set.copy(), isl_dim_set, 0, isl_dim_param, 0, params));
  for (unsigned i = 0; i < params + vars.setDims.size(); ++i) {
    Expr var = i < params ? vars.params[i] : vars.setDims[i - params];
    isl::val lo = own(isl_set_dim_min_val(flat.copy(), i));
    isl::val hi = own(isl_set_dim_max_val(flat.copy(), i));
    std::string name = out.variableName(var.kind(), var.variableIndex());
    if (!checked(isl_val_is_int(lo.get())) || !checked(isl_val_is_int(hi.get())))
      throw Error("cannot represent the isl relation as an indexing map: " + name +
                  " is unbounded");
    Interval range{toInt64(lo), toInt64(hi)};
    // Interval reserves the int64 limits for -inf and +inf.
    if (range.lo == Interval::kNegInf || range.hi == Interval::kPosInf)
      throw OverflowError("cannot represent the isl relation as an indexing map: " + name +
                          " reaches the int64 limit");
    out.variables(var.kind())[var.variableIndex()].range = range;
  }

  // Every local variable needs an explicit floor() form to become an expression.
  isl::set explicitSet = own(isl_set_compute_divs(coalesce(set).release()));
  std::vector<std::vector<Bound>> disjuncts;
  for (const isl::basic_set& piece : basicSetsOf(explicitSet)) {
    AffConverter converter(vars);
    std::vector<Bound> conjunction;
    bool possible = true;
    for (const ConstraintPtr& c : constraintsOf(piece)) {
      isl::aff aff = own(isl_constraint_get_aff(c.get()));
      int64_t denominator;
      LinearForm form = converter.numerator(aff.get(), denominator);
      Bound b = toBound(form, checked(isl_constraint_is_equality(c.get())), out);
      if (b.kind == Bound::Never) possible = false;
      if (b.kind == Bound::Constraint) conjunction.push_back(b);
    }
    if (!possible) continue;
    if (conjunction.empty()) return;  // this piece fills the whole box
    disjuncts.push_back(std::move(conjunction));
  }
  if (disjuncts.empty()) throw Error("isl bridge: a non-empty set without any non-empty piece");
  if (disjuncts.size() == 1) {
    for (const Bound& b : disjuncts.front()) addConstraint(b.constraint, out);
    return;
  }
  // A union of pieces: 0/1 range variables choose the piece whose constraints hold.
  Expr chosen = Expr::constant(0);
  for (const auto& conjunction : disjuncts) {
    Expr selector = Expr::rangeVar(out.rangeVars.size());
    out.rangeVars.push_back({{0, 1}, ""});
    chosen = chosen + selector;
    for (const Bound& b : conjunction)
      for (const idxmap::Constraint& c : selectedBy(b, selector)) addConstraint(c, out);
  }
  addConstraint({chosen, {1, 1}}, out);
}

}  // namespace idxmap::isl_bridge
