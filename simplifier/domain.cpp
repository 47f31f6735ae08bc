#include "simplifier/domain.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "core/bridges/isl_bridge.h"
#include "simplifier/congruence.h"
#include "simplifier/linear_form.h"
#include "simplifier/range_evaluator.h"
#include "simplifier/rewriter.h"

namespace idxmap {
namespace {

// Loops that should settle in a few rounds; a cap keeps pathological inputs bounded.
constexpr int kMaxRounds = 16;

int64_t ceilDivSigned(int64_t a, int64_t k) { return -floorDiv(checkedNeg(a), k); }

// `k * e in [a, b]` as `e in [...]`, exactly. Infinite bounds stay infinite.
Interval divideInterval(Interval r, int64_t k) {
  if (k < 0) {
    r = -r;
    k = checkedNeg(k);
  }
  Interval out;
  out.lo = r.lo == Interval::kNegInf ? r.lo : ceilDivSigned(r.lo, k);
  out.hi = r.hi == Interval::kPosInf ? r.hi : floorDiv(r.hi, k);
  return out;
}

// `r - c`, or nullopt when a finite bound would leave int64 (the constraint then keeps its
// constant: a map whose values fit is never refused for a bound that does not).
std::optional<Interval> shiftInterval(Interval r, int64_t c) {
  int64_t lo = r.lo, hi = r.hi;
  if (lo != Interval::kNegInf && (__builtin_sub_overflow(lo, c, &lo) || lo == Interval::kNegInf))
    return std::nullopt;
  if (hi != Interval::kPosInf && (__builtin_sub_overflow(hi, c, &hi) || hi == Interval::kPosInf))
    return std::nullopt;
  return Interval{lo, hi};
}

// One step of `expr in range` -> an equivalent, simpler constraint; nullopt if none applies.
std::optional<Constraint> normalizeStep(const Constraint& c, RangeEvaluator& ranges) {
  LinearForm form = LinearForm::of(c.expr);
  if (form.constant != 0 && !form.terms.empty()) {
    if (std::optional<Interval> shifted = shiftInterval(c.range, form.constant)) {
      form.constant = 0;
      return Constraint{form.build(), *shifted};
    }
  }
  // The steps below read the form without a constant: the shift above moved it into the range
  // unless a bound would not fit, and then they leave the constraint as it is.
  if (form.constant != 0) return std::nullopt;
  if (int64_t g = form.coefficientGcd(); form.terms.size() >= 1 && g != 1 && g != 0) {
    for (LinearTerm& t : form.terms) t.coefficient /= g;
    return Constraint{form.build(), divideInterval(c.range, g)};
  }
  if (c.expr.kind() == ExprKind::FloorDiv && c.range.isBounded()) {
    int64_t k = c.expr.rhs().constantValue();
    const Interval dividend{checkedMul(c.range.lo, k),
                            checkedAdd(checkedMul(c.range.hi, k), k - 1)};
    // A lower bound of exactly INT64_MIN (or an upper one of INT64_MAX) would read as infinite,
    // a weaker constraint: then it stays as written.
    if (!dividend.isBounded()) return std::nullopt;
    return Constraint{c.expr.lhs(), dividend};
  }
  // x*g + y in [a, b] is x in [L, U] when L and U do not depend on y's value.
  if (form.terms.size() >= 2 && c.range.isBounded()) {
    for (size_t skip = 0; skip < form.terms.size(); ++skip) {
      int64_t g = 0;
      for (size_t i = 0; i < form.terms.size(); ++i)
        if (i != skip) g = std::gcd(g, form.terms[i].coefficient);
      if (g <= 1) continue;
      Interval y = ranges.range(form.terms[skip].atom * form.terms[skip].coefficient);
      if (!y.isBounded()) continue;
      int64_t hiAtYLo = floorDiv(checkedSub(c.range.hi, y.lo), g);
      int64_t hiAtYHi = floorDiv(checkedSub(c.range.hi, y.hi), g);
      int64_t loAtYLo = ceilDivSigned(checkedSub(c.range.lo, y.lo), g);
      int64_t loAtYHi = ceilDivSigned(checkedSub(c.range.lo, y.hi), g);
      if (hiAtYLo != hiAtYHi || loAtYLo != loAtYHi) continue;
      LinearForm x;
      for (size_t i = 0; i < form.terms.size(); ++i)
        if (i != skip) x.terms.push_back({form.terms[i].atom, form.terms[i].coefficient / g});
      return Constraint{x.build(), {loAtYLo, hiAtYLo}};
    }
  }
  return std::nullopt;
}

enum class Fate { Keep, Drop, Empty };

// The bounds and the rewriter that simplify constraints, shared by every constraint of every
// round while no variable range changes: a chain's constraints repeat its ops' index
// expressions, and the rewriter's memo then simplifies each shared subexpression once. Both
// read only the variable ranges, so whatever tightens one calls rangesChanged() and they
// start afresh. (Stale ones would stay sound, the ranges only shrink, but could miss a
// simplification the tighter range allows.)
class ConstraintSimplifier {
 public:
  explicit ConstraintSimplifier(const IndexingMap& map) : map_(map) {}

  RangeEvaluator& bounds() {
    if (!bounds_) {
      bounds_.emplace(map_, RangeEvaluator::Use::VariableRangesOnly);
      rewriter_.emplace(*bounds_);
    }
    return *bounds_;
  }
  Expr simplify(Expr e) {
    bounds();
    return rewriter_->simplify(e);
  }
  void rangesChanged() {
    rewriter_.reset();
    bounds_.reset();
  }

 private:
  const IndexingMap& map_;
  std::optional<RangeEvaluator> bounds_;
  std::optional<Rewriter> rewriter_;
};

// What the bounds of a constraint's expression as written decide: Drop when the ranges
// imply it, Empty when they contradict it, Keep when they cannot tell. Most constraints of a
// composed chain restate its ops' operand bounds and are settled here, before any
// rewriting. Bounds are sound for every form of the expression, so what is decided here is
// what the rewritten form would decide, or more.
Fate fateByBounds(const Constraint& c, RangeEvaluator& bounds) {
  Interval written = bounds.range(c.expr);
  if (c.range.contains(written)) return Fate::Drop;
  if (written.intersect(c.range).isEmpty()) return Fate::Empty;
  return Fate::Keep;
}

// Simplifies one constraint in place and says what to do with it.
Fate simplifyConstraint(Constraint& c, IndexingMap& map, ConstraintSimplifier& simplifier) {
  if (Fate fate = fateByBounds(c, simplifier.bounds()); fate != Fate::Keep) return fate;
  c.expr = simplifier.simplify(c.expr);
  for (int round = 0; round < kMaxRounds; ++round) {
    if (c.range.isEmpty()) return Fate::Empty;
    if (c.expr.isConstant())
      return c.range.contains(c.expr.constantValue()) ? Fate::Drop : Fate::Empty;
    auto next = normalizeStep(c, simplifier.bounds());
    if (!next) break;
    c = {simplifier.simplify(next->expr), next->range};
  }
  Interval r = simplifier.bounds().range(c.expr);
  if (c.range.contains(r)) return Fate::Drop;
  if (r.intersect(c.range).isEmpty()) return Fate::Empty;
  if (c.expr.isVariable()) {
    Variable& v = map.variables(c.expr.kind())[c.expr.variableIndex()];
    Interval tightened = v.range.intersect(c.range);
    if (tightened != v.range) {
      v.range = tightened;
      simplifier.rangesChanged();
    }
    return v.range.isEmpty() ? Fate::Empty : Fate::Drop;
  }
  c.range = c.range.intersect(r);
  return Fate::Keep;
}

// Merges `X mod a in [r, r]` facts about the same X; false when they contradict.
bool mergeModConstraints(IndexingMap& map, ConstraintSimplifier& simplifier) {
  std::vector<Constraint> others;
  std::vector<std::pair<Expr, Congruence>> facts;
  for (const Constraint& c : map.constraints) {
    if (c.expr.kind() != ExprKind::Mod || !c.range.isPoint()) {
      others.push_back(c);
      continue;
    }
    Congruence fact = Congruence::of(c.expr.rhs().constantValue(), c.range.lo);
    auto it = std::find_if(facts.begin(), facts.end(),
                           [&](const auto& f) { return f.first == c.expr.lhs(); });
    if (it == facts.end())
      facts.push_back({c.expr.lhs(), fact});
    else
      it->second = it->second.intersect(fact);
  }
  for (auto& [x, fact] : facts) {
    if (fact.isContradiction()) return false;
    if (x.isVariable()) {
      Variable& v = map.variables(x.kind())[x.variableIndex()];
      Interval tightened = fact.tighten(v.range);
      if (tightened != v.range) {
        v.range = tightened;
        simplifier.rangesChanged();
      }
      if (v.range.isEmpty()) return false;
    }
    if (fact.isExact()) {
      others.push_back({x, Interval::point(fact.remainder)});
    } else {
      others.push_back({x.mod(fact.modulus), Interval::point(fact.remainder)});
    }
  }
  map.constraints = std::move(others);
  return true;
}

// Same expression constrained twice: one constraint with the intersection.
void mergeDuplicateConstraints(IndexingMap& map) {
  std::vector<Constraint> merged;
  for (const Constraint& c : map.constraints) {
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&](const Constraint& m) { return m.expr == c.expr; });
    if (it == merged.end())
      merged.push_back(c);
    else
      it->range = it->range.intersect(c.range);
  }
  map.constraints = std::move(merged);
}

std::vector<Interval> variableRanges(const IndexingMap& map) {
  std::vector<Interval> ranges;
  for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
    for (const Variable& v : map.variables(kind)) ranges.push_back(v.range);
  return ranges;
}

bool anyEmptyRange(const IndexingMap& map) {
  for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
    for (const Variable& v : map.variables(kind))
      if (v.range.isEmpty()) return true;
  return false;
}

}  // namespace

void simplifyDomain(IndexingMap& map) {
  if (map.knownEmpty) return;
  if (anyEmptyRange(map)) return map.markKnownEmpty();
  ConstraintSimplifier simplifier(map);
  // What the ranges settle goes first: a domain left without constraints has nothing more to
  // simplify (its ranges are not empty), and skips the rounds' bookkeeping.
  size_t kept = 0;
  for (const Constraint& c : map.constraints) {
    Fate fate = fateByBounds(c, simplifier.bounds());
    if (fate == Fate::Empty) return map.markKnownEmpty();
    if (fate == Fate::Keep) map.constraints[kept++] = c;
  }
  map.constraints.resize(kept);
  if (map.constraints.empty()) return;
  // The same expression constrained twice is simplified once.
  mergeDuplicateConstraints(map);
  for (int round = 0; round < kMaxRounds; ++round) {
    if (anyEmptyRange(map)) return map.markKnownEmpty();
    // A round changes only constraints and ranges: those are what it compares.
    std::vector<Constraint> constraintsBefore = map.constraints;
    std::vector<Interval> rangesBefore = variableRanges(map);
    std::vector<Constraint> kept;
    for (Constraint c : map.constraints) {
      Fate fate = simplifyConstraint(c, map, simplifier);
      if (fate == Fate::Empty) return map.markKnownEmpty();
      if (fate == Fate::Keep) kept.push_back(c);
    }
    map.constraints = std::move(kept);
    mergeDuplicateConstraints(map);
    if (!mergeModConstraints(map, simplifier)) return map.markKnownEmpty();
    if (map.constraints == constraintsBefore && variableRanges(map) == rangesBefore) break;
  }
  if (anyEmptyRange(map)) return map.markKnownEmpty();
}

void detectEmptyDomain(IndexingMap& map) {
  if (map.knownEmpty || map.constraints.empty()) return;
  // Cheap witnesses first: the corners where every variable is at its lower bound, at its
  // upper bound, and the middle of the box (a slice's constraints hold at one end, a window's
  // in the middle). isl only when none of them is in the domain.
  for (int at : {0, 1, 2}) {
    auto pick = [at](const std::vector<Variable>& vars) {
      std::vector<int64_t> out;
      for (const Variable& v : vars)
        out.push_back(at == 0   ? v.range.lo
                      : at == 1 ? v.range.hi
                                : v.range.lo / 2 + v.range.hi / 2);
      return out;
    };
    try {
      if (map.contains(pick(map.dims), pick(map.rangeVars), pick(map.runtimeVars))) return;
    } catch (const OverflowError&) {
    }
  }
  // What intervals cannot see, isl can: an empty non-box domain. The domain alone decides
  // emptiness; the results would only add isl existentials.
  IndexingMap withoutResults = map;
  withoutResults.results.clear();
  if (islIsEmpty(withoutResults).isProven()) map.markKnownEmpty();
}

bool rescaleRangeVariables(IndexingMap& map) {
  bool rescaled = false;
  if (map.knownEmpty) return rescaled;
  for (unsigned s = 0; s < map.rangeVars.size(); ++s) {
    Expr var = Expr::rangeVar(s);
    auto it =
        std::find_if(map.constraints.begin(), map.constraints.end(), [&](const Constraint& c) {
          return c.expr.kind() == ExprKind::Mod && c.expr.lhs() == var && c.range.isPoint();
        });
    if (it == map.constraints.end()) continue;
    int64_t c = it->expr.rhs().constantValue(), r = it->range.lo;
    Interval& range = map.rangeVars[s].range;
    range = {ceilDivSigned(checkedSub(range.lo, r), c), floorDiv(checkedSub(range.hi, r), c)};
    map.constraints.erase(it);
    std::vector<Expr> replacement(map.rangeVars.size());
    replacement[s] = var * c + r;
    for (Expr& e : map.results) e = e.replaceVariables({}, replacement, {});
    for (Constraint& k : map.constraints) k.expr = k.expr.replaceVariables({}, replacement, {});
    rescaled = true;
  }
  return rescaled;
}

void removeUnusedRangeVariables(IndexingMap& map) {
  if (map.knownEmpty || map.rangeVars.empty()) return;
  size_t n = map.rangeVars.size();
  std::vector<bool> used(n, false);
  auto markUses = [&](Expr e) {
    e.walk([&](Expr v) {
      if (v.kind() == ExprKind::RangeVar) used[v.variableIndex()] = true;
    });
  };
  for (Expr r : map.results) markUses(r);
  // A constraint that touches a used variable, a dim or a runtime variable ties all its
  // range variables to the map: keep them.
  auto tiedToMap = [&](Expr e) {
    bool tied = false;
    e.walk([&](Expr v) {
      if (v.isVariable()) tied = tied || v.kind() != ExprKind::RangeVar || used[v.variableIndex()];
    });
    return tied;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Constraint& c : map.constraints) {
      if (!tiedToMap(c.expr)) continue;
      auto before = std::count(used.begin(), used.end(), true);
      markUses(c.expr);
      changed = changed || std::count(used.begin(), used.end(), true) != before;
    }
  }
  if (std::all_of(used.begin(), used.end(), [](bool u) { return u; })) return;

  // The other constraints only mention unused range variables; dropping them is exact
  // when they are satisfiable, and the whole map is empty when they are not.
  IndexingMap loose;
  loose.rangeVars = map.rangeVars;
  std::vector<Constraint> kept;
  for (const Constraint& c : map.constraints)
    (tiedToMap(c.expr) ? kept : loose.constraints).push_back(c);
  if (!loose.constraints.empty()) {
    ProofResult empty = islIsEmpty(loose);
    if (empty.isUnknown()) return;  // isl gave up: keep everything rather than guess
    if (empty.isProven()) return map.markKnownEmpty();
  }
  std::vector<Expr> renumber(n);
  std::vector<Variable> remaining;
  for (unsigned s = 0; s < n; ++s) {
    if (!used[s]) continue;
    renumber[s] = Expr::rangeVar(static_cast<unsigned>(remaining.size()));
    remaining.push_back(map.rangeVars[s]);
  }
  map.rangeVars = std::move(remaining);
  map.constraints = std::move(kept);
  for (Expr& e : map.results) e = e.replaceVariables({}, renumber, {});
  for (Constraint& c : map.constraints) c.expr = c.expr.replaceVariables({}, renumber, {});
}

}  // namespace idxmap
