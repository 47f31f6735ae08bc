// isl relation -> IndexingMap.
//
// A single-valued relation that isl writes as one quasi-affine piece becomes results plus a
// domain. Otherwise each output that is a function of the inputs (one piece, or the min or
// max of its pieces) becomes a result, and every other output a range variable tied down
// by the relation's constraints, which is always exact. Domains become variable ranges (the
// bounding box, computed by isl) plus constraints for whatever the box does not imply; a
// union of convex pieces gets a 0/1 range variable per piece that switches the piece's
// constraints on, one of them on (affine throughout, so isl reads the map back cheaply).
//
// isl writes integer divisions as local variables `floor(f / d)` and `x mod d` as
// `x - d * floor(x / d)`; the conversion turns the latter back into `mod`.
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/set.h>

#include <memory>
#include <optional>
#include <unordered_map>

#include "core/isl_bridge.h"
#include "core/isl_internal.h"

namespace idxmap::isl_bridge {
namespace {

// sum(atom * coefficient) + constant, with distinct atoms (variables, divisions, modulos).
struct LinearForm {
  std::vector<std::pair<Expr, int64_t>> terms;
  int64_t constant = 0;

  int64_t coefficientOf(Expr atom) const {
    for (const auto& [a, c] : terms)
      if (a == atom) return c;
    return 0;
  }
  void add(Expr atom, int64_t coefficient) {
    if (atom.isConstant()) {  // a division of constants folds; keep atoms variable
      constant = checkedAdd(constant, checkedMul(atom.constantValue(), coefficient));
      return;
    }
    for (auto it = terms.begin(); it != terms.end(); ++it) {
      if (it->first != atom) continue;
      it->second = checkedAdd(it->second, coefficient);
      if (it->second == 0) terms.erase(it);
      return;
    }
    if (coefficient != 0) terms.emplace_back(atom, coefficient);
  }
  Expr toExpr() const {
    Expr sum = Expr::constant(0);
    for (const auto& [atom, c] : terms) sum = sum + atom * c;
    return sum + constant;
  }
};

// Where isl's variables go: parameters are runtime variables; set dimensions are dims or,
// for a relation's output dimensions, range variables.
struct IslVariables {
  std::vector<Expr> params;
  std::vector<Expr> setDims;
};

// Converts the affine expressions that share one local space (the constraints of one basic
// set, or one isl_aff), caching its integer divisions by position.
class AffConverter {
 public:
  explicit AffConverter(const IslVariables& vars) : vars_(vars) {}

  // `aff` is numerator / denominator; isl keeps one common denominator.
  LinearForm numerator(isl_aff* aff, int64_t& denominator) {
    isl::val common = own(isl_aff_get_denominator_val(aff));
    denominator = toInt64(common);
    auto scaled = [&](isl_val* coefficient) {
      return toInt64(own(isl_val_mul(coefficient, common.copy())));
    };
    LinearForm form;
    int dims = checked(isl_aff_dim(aff, isl_dim_in));
    for (int i = 0; i < dims; ++i)
      form.add(vars_.setDims.at(i), scaled(isl_aff_get_coefficient_val(aff, isl_dim_in, i)));
    int params = checked(isl_aff_dim(aff, isl_dim_param));
    for (int i = 0; i < params; ++i)
      form.add(vars_.params.at(i), scaled(isl_aff_get_coefficient_val(aff, isl_dim_param, i)));
    int divs = checked(isl_aff_dim(aff, isl_dim_div));
    if (cache_.empty()) cache_.resize(divs);
    for (int i = 0; i < divs; ++i) {
      int64_t c = scaled(isl_aff_get_coefficient_val(aff, isl_dim_div, i));
      if (c != 0) form.add(division(aff, i, divs), c);
    }
    form.constant = checkedAdd(form.constant, scaled(isl_aff_get_constant_val(aff)));
    foldModulos(form);
    return form;
  }

  // floor(aff), which is aff itself wherever aff is integral.
  Expr floorOf(isl_aff* aff) {
    int64_t denominator;
    Expr e = numerator(aff, denominator).toExpr();
    return denominator == 1 ? e : e.floorDiv(denominator);
  }

 private:
  struct Division {
    LinearForm numerator;
    int64_t denominator = 1;
  };

  // The value floor(f / d) of the division at `position`; isl_aff_get_div gives its
  // argument f / d, over the same local space when every division is known.
  Expr division(isl_aff* aff, int position, int divs) {
    bool cacheable = divs == static_cast<int>(cache_.size());
    if (cacheable && !cache_[position].isNull()) return cache_[position];
    isl::aff argument = own(isl_aff_get_div(aff, position));
    Division d;
    d.numerator = numerator(argument.get(), d.denominator);
    Expr value = d.numerator.toExpr().floorDiv(d.denominator);
    divisions_.emplace(value, std::move(d));
    if (cacheable) cache_[position] = value;
    return value;
  }

  // k * f - k * d * floor(f / d)  ->  k * (f mod d), wherever the form holds all of k * f.
  // Each fold replaces a division atom by a `mod` one, so the loop ends.
  void foldModulos(LinearForm& form) const {
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [atom, coefficient] : form.terms) {
        auto found = divisions_.find(atom);
        if (found == divisions_.end()) continue;
        const Division& div = found->second;
        if (coefficient % div.denominator != 0) continue;
        int64_t k = -(coefficient / div.denominator);
        bool holdsAll = true;
        for (const auto& [a, c] : div.numerator.terms) {
          int64_t needed;
          holdsAll =
              holdsAll && !__builtin_mul_overflow(k, c, &needed) && form.coefficientOf(a) == needed;
        }
        if (!holdsAll) continue;
        Expr divisionAtom = atom;  // `atom` dies with the term erased below
        for (const auto& [a, c] : div.numerator.terms) form.add(a, -checkedMul(k, c));
        form.add(divisionAtom, -form.coefficientOf(divisionAtom));
        form.constant = checkedSub(form.constant, checkedMul(k, div.numerator.constant));
        form.add(div.numerator.toExpr().mod(div.denominator), k);
        changed = true;
        break;
      }
    }
  }

  const IslVariables& vars_;
  std::vector<Expr> cache_;  // by position in the local space
  std::unordered_map<Expr, Division, ExprHash> divisions_;
};

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

// Names isl gave a variable, kept only when they differ from our default name.
std::string customName(const char* islName, ExprKind kind, unsigned index) {
  if (!islName || islName == defaultVariableName(kind, index)) return "";
  return islName;
}

// Fills the variable ranges and constraints of `out` from `set`, a set over the params and
// the variables `vars.setDims` stand for. `set` must not be empty.
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

// The map's shape and names, without results or domain.
IndexingMap skeleton(const isl::map& map) {
  IndexingMap out;
  unsigned params = checked(isl_map_dim(map.get(), isl_dim_param));
  unsigned in = checked(isl_map_dim(map.get(), isl_dim_in));
  for (unsigned i = 0; i < params; ++i)
    out.runtimeVars.push_back(
        {{0, -1},
         customName(isl_map_get_dim_name(map.get(), isl_dim_param, i), ExprKind::RuntimeVar, i)});
  for (unsigned i = 0; i < in; ++i)
    out.dims.push_back(
        {{0, -1}, customName(isl_map_get_dim_name(map.get(), isl_dim_in, i), ExprKind::Dim, i)});
  return out;
}

IslVariables variablesOf(const IndexingMap& map, unsigned outputsAsRangeVars) {
  IslVariables vars;
  for (unsigned i = 0; i < map.runtimeVars.size(); ++i) vars.params.push_back(Expr::runtimeVar(i));
  for (unsigned i = 0; i < map.dims.size(); ++i) vars.setDims.push_back(Expr::dim(i));
  for (unsigned i = 0; i < outputsAsRangeVars; ++i) vars.setDims.push_back(Expr::rangeVar(i));
  return vars;
}

IndexingMap importEmpty(const isl::map& map) {
  IndexingMap out = skeleton(map);
  out.results.assign(checked(isl_map_dim(map.get(), isl_dim_out)), Expr::constant(0));
  out.markKnownEmpty();
  return out;
}

// The output as one expression of the inputs when isl writes it as one quasi-affine piece,
// or as the min or max of its pieces' expressions (floor commutes with min and max, so
// flooring each piece is exact where the output is integral); else nullopt.
std::optional<Expr> outputAsExpr(const isl::pw_aff& output, const IslVariables& vars) {
  std::vector<isl::aff> distinct;
  auto collect = [](isl_set* set, isl_aff* aff, void* user) {
    isl_set_free(set);
    auto* affs = static_cast<std::vector<isl::aff>*>(user);
    for (const isl::aff& a : *affs)
      if (isl_aff_plain_is_equal(a.get(), aff) == isl_bool_true) {
        isl_aff_free(aff);
        return isl_stat_ok;
      }
    affs->push_back(isl::manage(aff));
    return isl_stat_ok;
  };
  checked(isl_pw_aff_foreach_piece(output.get(), collect, &distinct));
  std::vector<Expr> exprs;
  for (const isl::aff& a : distinct) exprs.push_back(AffConverter(vars).floorOf(a.get()));
  if (exprs.size() == 1) return exprs.front();
  constexpr size_t kMaxMinMaxOperands = 4;
  if (exprs.empty() || exprs.size() > kMaxMinMaxOperands) return std::nullopt;
  isl::set domain = own(isl_pw_aff_domain(output.copy()));
  for (bool isMin : {true, false}) {
    isl::pw_aff candidate = own(isl_pw_aff_from_aff(distinct.front().copy()));
    Expr e = exprs.front();
    for (size_t i = 1; i < distinct.size(); ++i) {
      isl_pw_aff* next = isl_pw_aff_from_aff(distinct[i].copy());
      candidate = own(isMin ? isl_pw_aff_min(candidate.release(), next)
                            : isl_pw_aff_max(candidate.release(), next));
      e = isMin ? Expr::min(e, exprs[i]) : Expr::max(e, exprs[i]);
    }
    candidate = own(isl_pw_aff_intersect_domain(candidate.release(), domain.copy()));
    if (checked(isl_pw_aff_is_equal(candidate.get(), output.get()))) return e;
  }
  return std::nullopt;
}

// The results of `map`, where each output whose value is an expression of the inputs has
// it (an output can be a function of the inputs even where others are not).
std::vector<std::optional<Expr>> outputsAsExprs(const isl::map& map, const IslVariables& vars) {
  unsigned outputs = checked(isl_map_dim(map.get(), isl_dim_out));
  std::vector<std::optional<Expr>> exprs(outputs);
  if (checked(isl_map_is_single_valued(map.get()))) {
    isl::pw_multi_aff function = own(isl_pw_multi_aff_from_map(map.copy()));
    for (unsigned i = 0; i < outputs; ++i) {
      isl::pw_aff output = coalesce(own(isl_pw_multi_aff_get_at(function.get(), i)));
      exprs[i] = outputAsExpr(output, vars);
    }
    return exprs;
  }
  for (unsigned i = 0; i < outputs; ++i) {
    isl_map* alone = isl_map_project_out(map.copy(), isl_dim_out, i + 1, outputs - i - 1);
    isl::map single = own(isl_map_project_out(alone, isl_dim_out, 0, i));
    if (!checked(isl_map_is_single_valued(single.get()))) continue;
    isl::pw_multi_aff function = own(isl_pw_multi_aff_from_map(single.release()));
    isl::pw_aff output = coalesce(own(isl_pw_multi_aff_get_at(function.get(), 0)));
    exprs[i] = outputAsExpr(output, vars);
  }
  return exprs;
}

// Outputs without an expression become range variables tied down by the relation's
// constraints; the others are projected out of the relation (they are functions of the
// inputs, so that loses nothing) and become results.
IndexingMap importRelation(const isl::map& map) {
  IndexingMap out = skeleton(map);
  std::vector<std::optional<Expr>> known = outputsAsExprs(map, variablesOf(out, 0));
  isl_map* rest = map.copy();
  for (size_t i = known.size(); i-- > 0;)
    if (known[i]) rest = isl_map_project_out(rest, isl_dim_out, i, 1);
  for (const std::optional<Expr>& e : known) {
    if (e) {
      out.results.push_back(*e);
      continue;
    }
    out.results.push_back(Expr::rangeVar(out.rangeVars.size()));
    out.rangeVars.push_back({});
  }
  isl::set graph = own(isl_set_flatten(isl_map_wrap(rest)));
  importDomain(graph, variablesOf(out, out.rangeVars.size()), out);
  return out;
}

}  // namespace

std::optional<IndexingMap> importSingleValued(const isl::map& map) {
  if (checked(isl_map_is_empty(map.get()))) return importEmpty(map);
  if (!checked(isl_map_is_single_valued(map.get()))) return std::nullopt;
  isl::pw_multi_aff function = coalesce(own(isl_pw_multi_aff_from_map(map.copy())));
  if (checked(isl_pw_multi_aff_n_piece(function.get())) != 1) return std::nullopt;
  struct Piece {
    isl::set domain;
    isl::multi_aff results;
  } piece;
  auto take = [](isl_set* set, isl_multi_aff* results, void* user) {
    *static_cast<Piece*>(user) = {isl::manage(set), isl::manage(results)};
    return isl_stat_ok;
  };
  checked(isl_pw_multi_aff_foreach_piece(function.get(), take, &piece));

  IndexingMap out = skeleton(map);
  IslVariables vars = variablesOf(out, 0);
  int outputs = checked(isl_multi_aff_dim(piece.results.get(), isl_dim_out));
  for (int i = 0; i < outputs; ++i) {
    isl::aff result = own(isl_multi_aff_get_at(piece.results.get(), i));
    out.results.push_back(AffConverter(vars).floorOf(result.get()));
  }
  importDomain(piece.domain, vars, out);
  return out;
}

IndexingMap importIslMap(const isl::map& map) {
  isl::map coalesced = coalesce(map);
  if (auto single = importSingleValued(coalesced)) return *single;
  return importRelation(coalesced);
}

}  // namespace idxmap::isl_bridge

namespace idxmap {

IndexingMap fromIslMap(const isl::map& map) {
  return isl_bridge::withIslBudget([&] { return isl_bridge::importIslMap(map); });
}

}  // namespace idxmap
