#include "simplifier/rule_matcher.h"

#include <algorithm>
#include <numeric>

#include "simplifier/linear_form.h"

namespace idxmap {
namespace {

// A non-owning reference to a callable (like llvm::function_ref): the matcher's
// continuations live on the stack, so wrapping them must not allocate.
class Continuation {
 public:
  template <typename F>
  Continuation(const F& f)  // NOLINT: implicit, so lambdas pass directly
      : object_(&f),
        call_([](const void* o, Bindings& b) { return (*static_cast<const F*>(o))(b); }) {}
  bool operator()(Bindings& b) const { return call_(object_, b); }

 private:
  const void* object_;
  bool (*call_)(const void*, Bindings&);
};

// Thrown while instantiating when a template cannot be built (an unbounded lo/hi).
struct NotApplicable {};

bool bindConstant(const Pattern& p, int64_t value, Bindings& b) {
  if (p.kind == Pattern::Kind::Literal) return p.value == value;
  if (p.kind != Pattern::Kind::Constant) return false;
  if (b.hasConstant[p.index]) return b.constants[p.index] == value;
  b.hasConstant[p.index] = true;
  b.constants[p.index] = value;
  return true;
}

bool isUnboundAny(const Pattern& p, const Bindings& b) {
  return p.kind == Pattern::Kind::Any && b.exprs[p.index].isNull();
}

bool isUnboundConstant(const Pattern& p, const Bindings& b) {
  return p.kind == Pattern::Kind::Constant && !b.hasConstant[p.index];
}

bool match(const Pattern& p, Expr e, Bindings b, const Continuation& k);
bool constantConditionsHold(const Bindings& b);

// A summand of a sum pattern that must match terms: `atom * coefficient` or just `atom`.
struct TermPattern {
  const Pattern* atom;
  const Pattern* coefficient;  // null: the coefficient must be 1
};

class SumMatcher {
 public:
  SumMatcher(const Pattern& sum, const LinearForm& form, const Continuation& k)
      : form_(form), used_(form_.terms.size(), false), k_(k) {
    // Structured summands first, so that a bare `x * c` sees x already bound. (Two passes
    // rather than std::stable_partition, which allocates a buffer on every match.)
    for (bool bareVariable : {false, true}) {
      for (const Pattern& s : sum.args) {
        if (s.kind == Pattern::Kind::Any) {
          rest_ = &s;
        } else if (s.kind == Pattern::Kind::Constant || s.kind == Pattern::Kind::Literal) {
          constant_ = &s;
        } else {
          bool product = s.kind == Pattern::Kind::Op && s.op == ExprKind::Mul;
          TermPattern term =
              product ? TermPattern{&s.args[0], &s.args[1]} : TermPattern{&s, nullptr};
          if ((term.atom->kind == Pattern::Kind::Any) == bareVariable) terms_.push_back(term);
        }
      }
    }
  }

  bool run(Bindings& b) { return mayMatch() && assign(0, b); }

 private:
  bool assign(size_t i, Bindings& b) {
    if (i == terms_.size()) return finish(b);
    const TermPattern& t = terms_[i];
    for (size_t j = 0; j < form_.terms.size(); ++j) {
      if (used_[j]) continue;
      Bindings next = b;
      const LinearTerm& term = form_.terms[j];
      if (t.coefficient ? !bindConstant(*t.coefficient, term.coefficient, next)
                        : term.coefficient != 1)
        continue;
      used_[j] = true;
      bool ok = match(*t.atom, term.atom, next, [&](Bindings& bb) { return assign(i + 1, bb); });
      used_[j] = false;
      if (ok) return true;
    }
    return t.coefficient && assignScaled(i, t, b);
  }

  // `x * c` against several terms at once: either x is bound (find its terms scaled by one
  // factor) or both are free (group the terms sharing a factor).
  bool assignScaled(size_t i, const TermPattern& t, Bindings& b) {
    if (t.atom->kind != Pattern::Kind::Any) return false;
    if (!isUnboundAny(*t.atom, b)) return assignBoundScaled(i, t, b);
    if (!isUnboundConstant(*t.coefficient, b)) return false;
    boost::container::small_vector<int64_t, 16> factors;
    for (size_t j = 0; j < form_.terms.size(); ++j) {
      if (used_[j]) continue;
      int64_t coefficient = form_.terms[j].coefficient;
      factors.push_back(coefficient < 0 ? -coefficient : coefficient);
      for (int c = 0; c < 4; ++c)
        if (b.hasConstant[c] && b.constants[c] > 0)
          factors.push_back(std::gcd(coefficient, b.constants[c]));
    }
    std::sort(factors.begin(), factors.end());
    factors.erase(std::unique(factors.begin(), factors.end()), factors.end());
    for (int64_t g : factors) {
      if (g <= 1) continue;
      LinearForm group;
      boost::container::small_vector<size_t, 8> members;
      for (size_t j = 0; j < form_.terms.size(); ++j) {
        if (used_[j] || form_.terms[j].coefficient % g != 0) continue;
        members.push_back(j);
        group.terms.push_back({form_.terms[j].atom, form_.terms[j].coefficient / g});
      }
      // A lone term scaled by exactly its coefficient was already tried as a single term.
      if (members.empty() || (members.size() == 1 && group.terms[0].coefficient == 1)) continue;
      Bindings next = b;
      next.exprs[t.atom->index] = group.build();
      next.hasConstant[t.coefficient->index] = true;
      next.constants[t.coefficient->index] = g;
      for (size_t j : members) used_[j] = true;
      bool ok = assign(i + 1, next);
      for (size_t j : members) used_[j] = false;
      if (ok) return true;
    }
    return false;
  }

  bool assignBoundScaled(size_t i, const TermPattern& t, Bindings& b) {
    LinearForm bound = LinearForm::of(b.exprs[t.atom->index]);
    if (bound.terms.empty() || bound.constant != 0) return false;
    boost::container::small_vector<size_t, 8> members;
    int64_t factor = 0;
    for (const LinearTerm& want : bound.terms) {
      auto it = std::find_if(form_.terms.begin(), form_.terms.end(),
                             [&](const LinearTerm& have) { return have.atom == want.atom; });
      size_t j = it - form_.terms.begin();
      if (it == form_.terms.end() || used_[j] || it->coefficient % want.coefficient != 0)
        return false;
      int64_t f = it->coefficient / want.coefficient;
      if (factor != 0 && f != factor) return false;
      factor = f;
      members.push_back(j);
    }
    Bindings next = b;
    if (!bindConstant(*t.coefficient, factor, next)) return false;
    for (size_t j : members) used_[j] = true;
    bool ok = assign(i + 1, next);
    for (size_t j : members) used_[j] = false;
    return ok;
  }

  // A cheap necessary condition: every structured summand (`(x mod c0) * c1`) needs a term
  // whose atom has its operator, and the operator of its first operand where that is one
  // too. Most sums fail it, and skip the term-by-term search.
  bool mayMatch() const {
    for (const TermPattern& t : terms_) {
      const Pattern& atom = *t.atom;
      if (atom.kind != Pattern::Kind::Op) continue;
      bool found = false;
      for (const LinearTerm& term : form_.terms) {
        if (term.atom.kind() != atom.op) continue;
        const Pattern& inner = atom.args[0];
        bool commutative = atom.op == ExprKind::Min || atom.op == ExprKind::Max;
        if (!commutative && inner.kind == Pattern::Kind::Op && term.atom.lhs().kind() != inner.op)
          continue;
        found = true;
        break;
      }
      if (!found) return false;
    }
    return true;
  }

  bool finish(Bindings& b) {
    Bindings next = b;
    int64_t constant = form_.constant;
    if (constant_) {
      if (!bindConstant(*constant_, constant, next)) return false;
      constant = 0;
    }
    // Most candidates fail a condition on constants alone: reject them before building
    // the rest of the sum.
    if (!constantConditionsHold(next)) return false;
    LinearForm rest;
    rest.constant = constant;
    for (size_t j = 0; j < form_.terms.size(); ++j)
      if (!used_[j]) rest.terms.push_back(form_.terms[j]);
    if (!rest_) return rest.terms.empty() && rest.constant == 0 && k_(next);
    return match(*rest_, rest.build(), next, k_);
  }

  LinearForm form_;
  boost::container::small_vector<bool, 8> used_;
  const Continuation& k_;
  boost::container::small_vector<TermPattern, 4> terms_;
  const Pattern* constant_ = nullptr;
  const Pattern* rest_ = nullptr;
};

bool match(const Pattern& p, Expr e, Bindings b, const Continuation& k) {
  switch (p.kind) {
    case Pattern::Kind::Any: {
      Expr& slot = b.exprs[p.index];
      if (!slot.isNull()) return slot == e && k(b);
      slot = e;
      return k(b);
    }
    case Pattern::Kind::Constant:
    case Pattern::Kind::Literal:
      return e.isConstant() && bindConstant(p, e.constantValue(), b) && k(b);
    case Pattern::Kind::Sum: {
      // The rules for one node are tried one after another on the same operand: keep its
      // linear form.
      thread_local Expr lastExpr;
      thread_local LinearForm lastForm;
      if (!(lastExpr == e)) {
        try {
          lastForm = LinearForm::of(e);
        } catch (const OverflowError&) {
          return false;
        }
        lastExpr = e;
      }
      return SumMatcher(p, lastForm, k).run(b);
    }
    case Pattern::Kind::Op: {
      if (e.kind() != p.op) return false;
      auto inOrder = [&](Expr first, Expr second) {
        // Constant operands sit on the right: matching them first binds c* early.
        return match(p.args[1], second, b,
                     [&](Bindings& bb) { return match(p.args[0], first, bb, k); });
      };
      bool commutative = p.op == ExprKind::Min || p.op == ExprKind::Max;
      return inOrder(e.lhs(), e.rhs()) || (commutative && inOrder(e.rhs(), e.lhs()));
    }
    default:
      return false;  // lo/hi/gcd appear only in templates and conditions
  }
}

// The number a constant-only pattern folds to, with the IR's semantics (floor division,
// normalized negative divisors) and checked arithmetic.
int64_t fold(const Pattern& p, const Bindings& b, RangeEvaluator& ranges) {
  switch (p.kind) {
    case Pattern::Kind::Constant:
      return b.constants[p.index];
    case Pattern::Kind::Literal:
      return p.value;
    case Pattern::Kind::Low:
    case Pattern::Kind::High: {
      Interval r = ranges.range(b.exprs[p.args[0].index]);
      if (r.isEmpty() || !r.isBounded()) throw NotApplicable{};
      return p.kind == Pattern::Kind::Low ? r.lo : r.hi;
    }
    case Pattern::Kind::Gcd:
      return std::gcd(fold(p.args[0], b, ranges), fold(p.args[1], b, ranges));
    case Pattern::Kind::Sum: {
      int64_t sum = 0;
      for (const Pattern& s : p.args) sum = checkedAdd(sum, fold(s, b, ranges));
      return sum;
    }
    case Pattern::Kind::Op: {
      int64_t x = fold(p.args[0], b, ranges), y = fold(p.args[1], b, ranges);
      // Division by a negative constant, as the Expr constructors normalize it.
      auto positive = [&](int64_t& a, int64_t& d) {
        if (d == 0) throw NotApplicable{};
        if (d < 0) a = checkedNeg(a), d = checkedNeg(d);
      };
      switch (p.op) {
        case ExprKind::Add:
          return checkedAdd(x, y);
        case ExprKind::Mul:
          return checkedMul(x, y);
        case ExprKind::FloorDiv:
          positive(x, y);
          return floorDiv(x, y);
        case ExprKind::CeilDiv:
          positive(x, y);
          return ceilDiv(x, y);
        case ExprKind::Mod:
          if (y == 0) throw NotApplicable{};
          return floorMod(x, y < 0 ? checkedNeg(y) : y);
        case ExprKind::Min:
          return std::min(x, y);
        case ExprKind::Max:
          return std::max(x, y);
        default:
          throw NotApplicable{};
      }
    }
    default:
      throw NotApplicable{};
  }
}

Expr instantiate(const Pattern& p, const Bindings& b, RangeEvaluator& ranges) {
  if (p.constantOnly) return Expr::constant(fold(p, b, ranges));
  switch (p.kind) {
    case Pattern::Kind::Any:
      return b.exprs[p.index];
    case Pattern::Kind::Sum: {
      Expr sum = Expr::constant(0);
      for (const Pattern& s : p.args) sum = sum + instantiate(s, b, ranges);
      return sum;
    }
    case Pattern::Kind::Op:
      return Expr::binary(p.op, instantiate(p.args[0], b, ranges),
                          instantiate(p.args[1], b, ranges));
    default:
      throw NotApplicable{};
  }
}

bool hasDivision(Expr e) {
  if (e.kind() == ExprKind::FloorDiv || e.kind() == ExprKind::CeilDiv) return true;
  return e.isBinary() && (hasDivision(e.lhs()) || hasDivision(e.rhs()));
}

bool holds(const Condition& c, const Bindings& b, RangeEvaluator& ranges) {
  if (c.kind == Condition::Kind::NoDiv) return !hasDivision(b.exprs[c.lhs.index]);
  if (!c.lhs.constantOnly || !c.rhs.constantOnly) throw NotApplicable{};
  int64_t x = fold(c.lhs, b, ranges), y = fold(c.rhs, b, ranges);
  switch (c.comparison) {
    case Comparison::Eq:
      return x == y;
    case Comparison::Ne:
      return x != y;
    case Comparison::Lt:
      return x < y;
    case Comparison::Le:
      return x <= y;
    case Comparison::Gt:
      return x > y;
    case Comparison::Ge:
      return x >= y;
  }
  return false;
}

bool usesOnly(const Pattern& p, const Bindings& b) {
  if (p.kind == Pattern::Kind::Constant) return b.hasConstant[p.index];
  if (p.kind == Pattern::Kind::Literal) return true;
  if (p.kind != Pattern::Kind::Op && p.kind != Pattern::Kind::Sum && p.kind != Pattern::Kind::Gcd)
    return false;
  for (const Pattern& a : p.args)
    if (!usesOnly(a, b)) return false;
  return true;
}

// The conditions that mention only bound constants; the others wait for the full match.
bool constantConditionsHold(const Bindings& b) {
  if (!b.rule) return true;
  for (const Condition& c : b.rule->when) {
    if (c.kind != Condition::Kind::Compare || !usesOnly(c.lhs, b) || !usesOnly(c.rhs, b)) continue;
    try {
      // usesOnly() excludes lo/hi, so no range is ever asked of this evaluator.
      static const IndexingMap kNoMap;
      thread_local RangeEvaluator noRanges(kNoMap, RangeEvaluator::Use::VariableRangesOnly);
      if (!holds(c, b, noRanges)) return false;
    } catch (const NotApplicable&) {
      return false;
    } catch (const Error&) {
      return false;
    }
  }
  return true;
}

}  // namespace

Expr applyRule(const Rule& rule, Expr e, RangeEvaluator& ranges) {
  Expr result;
  Bindings start;
  start.rule = &rule;
  match(rule.lhs, e, start, [&](Bindings& b) {
    try {
      for (const Condition& c : rule.when)
        if (!holds(c, b, ranges)) return false;
      result = instantiate(rule.rhs, b, ranges);
      return true;
    } catch (const NotApplicable&) {
      return false;
    } catch (const Error&) {  // overflow, division by zero in a folded constant
      return false;
    }
  });
  return result;
}

}  // namespace idxmap
