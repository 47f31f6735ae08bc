#include "simplifier/rule_matcher.h"

#include <algorithm>
#include <numeric>

#include "core/expr_context.h"
#include "simplifier/linear_form.h"
#include "simplifier/rule_instantiation.h"

namespace idxmap {
namespace {

// A non-owning reference to a callable (like llvm::function_ref): the matcher's
// continuations live on the stack, so wrapping them must not allocate.
class Continuation {
 public:
  template <typename F>
  Continuation(const F& f)  // NOLINT: implicit, so lambdas pass directly
      : object_(&f), call_([](const void* o) { return (*static_cast<const F*>(o))(); }) {}
  bool operator()() const { return call_(object_); }

 private:
  const void* object_;
  bool (*call_)(const void*);
};

// The rules for one node are tried one after another on the same operand, so the linear
// form of the last sum matched is kept. A sum match nested in another one (a continuation
// matching a second sum) reads it but must not refill it.
struct SumFormCache {
  Expr expr;
  uint64_t generation = 0;  // ExprContext::generation() when `expr` was cached
  LinearForm form;
  int readers = 0;
};

// Matches one rule by backtracking over one set of bindings: each step binds, calls its
// continuation, and unbinds when that fails. (Copying the bindings at every step, and
// building continuations that take them, was most of the cost of a failed match.)
class Matcher {
 public:
  Matcher(const Rule& rule, RangeEvaluator& ranges) : rule_(rule), ranges_(ranges) {}

  Expr apply(Expr e) {
    Expr result;
    match(rule_.lhs, e, [&] {
      try {
        for (const Condition& c : rule_.when)
          if (!c.onConstants && !holds(c, b_, ranges_)) return false;
        result = instantiate(rule_.rhs, b_, ranges_);
        return true;
      } catch (const NotApplicable&) {
        return false;
      } catch (const Error&) {  // overflow, division by zero in a folded constant
        return false;
      }
    });
    return result;
  }

  bool match(const Pattern& p, Expr e, const Continuation& k);
  bool matchSum(const Pattern& p, Expr e, const Continuation& k);

  // Binds the constant pattern `p` (a ci or a literal) to `value`, then continues.
  bool withConstant(const Pattern& p, int64_t value, const Continuation& k) {
    if (p.kind == Pattern::Kind::Literal) return p.value == value && k();
    if (p.kind != Pattern::Kind::Constant) return false;
    unsigned bit = 1u << p.index;
    if (b_.boundConstants & bit) return b_.constants[p.index] == value && k();
    b_.constants[p.index] = value;
    b_.boundConstants |= bit;
    bool ok = constantConditionsHold(bit) && k();
    if (!ok) b_.boundConstants &= ~bit;
    return ok;
  }

  // Binds the expression variable `p` (x, y or z) to `e`, then continues.
  bool withExpr(const Pattern& p, Expr e, const Continuation& k) {
    Expr& slot = b_.exprs[p.index];
    if (!slot.isNull()) return slot == e && k();
    slot = e;
    bool ok = k();
    if (!ok) slot = Expr();
    return ok;
  }

  const Bindings& bindings() const { return b_; }

 private:
  // The conditions on constants alone that binding `bit` completes: a candidate that fails
  // one fails whatever else matches.
  bool constantConditionsHold(unsigned bit) {
    for (const Condition& c : rule_.when) {
      if (!c.onConstants || !(c.constantMask & bit) || (c.constantMask & ~b_.boundConstants) != 0)
        continue;
      try {
        if (!holds(c, b_, ranges_)) return false;
      } catch (const NotApplicable&) {
        return false;
      } catch (const Error&) {
        return false;
      }
    }
    return true;
  }

  const Rule& rule_;
  RangeEvaluator& ranges_;
  Bindings b_;
};

// A summand of a sum pattern that must match terms: `atom * coefficient` or just `atom`.
struct TermPattern {
  const Pattern* atom;
  const Pattern* coefficient;  // null: the coefficient must be 1
};

class SumMatcher {
 public:
  SumMatcher(Matcher& m, const Pattern& sum, const LinearForm& form, const Continuation& k)
      : m_(m), sum_(sum), form_(form), used_(form_.terms.size(), false), k_(k) {}

  bool run() { return mayMatch() && assign(0); }

 private:
  // The summand that matches terms i-th, as `atom * coefficient` or `atom`.
  TermPattern termPattern(size_t i) const {
    const Pattern& s = sum_.args[sum_.termSummands[i]];
    if (s.kind == Pattern::Kind::Op && s.op == ExprKind::Mul) return {&s.args[0], &s.args[1]};
    return {&s, nullptr};
  }

  bool assign(size_t i) {
    if (i == sum_.termSummands.size()) return finish();
    TermPattern t = termPattern(i);
    for (size_t j = 0; j < form_.terms.size(); ++j) {
      if (used_[j]) continue;
      const LinearTerm& term = form_.terms[j];
      auto matchAtom = [&] {
        used_[j] = true;
        bool ok = m_.match(*t.atom, term.atom, [&] { return assign(i + 1); });
        used_[j] = false;
        return ok;
      };
      if (t.coefficient ? m_.withConstant(*t.coefficient, term.coefficient, matchAtom)
                        : term.coefficient == 1 && matchAtom())
        return true;
    }
    return t.coefficient && assignScaled(i, t);
  }

  // Continues with the terms `members` used up by one summand.
  template <typename Members>
  bool assignUsing(const Members& members, size_t i) {
    for (size_t j : members) used_[j] = true;
    bool ok = assign(i);
    for (size_t j : members) used_[j] = false;
    return ok;
  }

  // `x * c` against several terms at once: either x is bound (find its terms scaled by one
  // factor) or both are free (group the terms sharing a factor).
  bool assignScaled(size_t i, TermPattern t) {
    if (t.atom->kind != Pattern::Kind::Any) return false;
    const Bindings& b = m_.bindings();
    if (!b.exprs[t.atom->index].isNull()) return assignBoundScaled(i, t);
    if (t.coefficient->kind != Pattern::Kind::Constant ||
        (b.boundConstants & (1u << t.coefficient->index)))
      return false;
    boost::container::small_vector<int64_t, 16> factors;
    for (size_t j = 0; j < form_.terms.size(); ++j) {
      if (used_[j]) continue;
      int64_t coefficient = form_.terms[j].coefficient;
      factors.push_back(coefficient < 0 ? -coefficient : coefficient);
      for (int c = 0; c < 4; ++c)
        if ((b.boundConstants & (1u << c)) && b.constants[c] > 0)
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
      if (m_.withConstant(*t.coefficient, g, [&] {
            return m_.withExpr(*t.atom, group.build(), [&] { return assignUsing(members, i + 1); });
          }))
        return true;
    }
    return false;
  }

  bool assignBoundScaled(size_t i, TermPattern t) {
    LinearForm bound = LinearForm::of(m_.bindings().exprs[t.atom->index]);
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
    return m_.withConstant(*t.coefficient, factor, [&] { return assignUsing(members, i + 1); });
  }

  // A cheap necessary condition: every structured summand (`(x mod c0) * c1`) needs a term
  // whose atom has its operator, and the operator of its first operand where that is one
  // too. Most sums fail it, and skip the term-by-term search.
  bool mayMatch() const {
    for (size_t i = 0; i < sum_.termSummands.size(); ++i) {
      const Pattern& atom = *termPattern(i).atom;
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

  bool finish() {
    if (sum_.constantSummand >= 0)
      return m_.withConstant(sum_.args[sum_.constantSummand], form_.constant,
                             [&] { return matchRest(0); });
    return matchRest(form_.constant);
  }

  // The terms no summand used, and `constant`, are what the bare x, y or z matches.
  bool matchRest(int64_t constant) {
    LinearForm rest;
    rest.constant = constant;
    for (size_t j = 0; j < form_.terms.size(); ++j)
      if (!used_[j]) rest.terms.push_back(form_.terms[j]);
    if (sum_.restSummand < 0) return rest.terms.empty() && rest.constant == 0 && k_();
    return m_.match(sum_.args[sum_.restSummand], rest.build(), k_);
  }

  Matcher& m_;
  const Pattern& sum_;
  const LinearForm& form_;
  boost::container::small_vector<bool, 8> used_;
  const Continuation& k_;
};

// Out of line: match() stays small, and cheap to enter, for the patterns that are not sums.
bool Matcher::matchSum(const Pattern& p, Expr e, const Continuation& k) {
  thread_local SumFormCache cache;
  // A destroyed context's node address may come back as another expression: drop the entry.
  if (cache.readers == 0 && cache.generation != ExprContext::generation()) cache.expr = Expr();
  if (cache.expr == e) {
    ++cache.readers;
  } else if (cache.readers == 0) {
    try {
      cache.form = LinearForm::of(e);
    } catch (const OverflowError&) {
      cache.expr = Expr();
      return false;
    }
    cache.expr = e;
    cache.generation = ExprContext::generation();
    ++cache.readers;
  } else {
    LinearForm form;
    try {
      form = LinearForm::of(e);
    } catch (const OverflowError&) {
      return false;
    }
    return SumMatcher(*this, p, form, k).run();
  }
  struct Release {
    int& readers;
    ~Release() { --readers; }
  } release{cache.readers};
  return SumMatcher(*this, p, cache.form, k).run();
}

bool Matcher::match(const Pattern& p, Expr e, const Continuation& k) {
  switch (p.kind) {
    case Pattern::Kind::Any:
      return withExpr(p, e, k);
    case Pattern::Kind::Constant:
    case Pattern::Kind::Literal:
      return e.isConstant() && withConstant(p, e.constantValue(), k);
    case Pattern::Kind::Sum:
      return matchSum(p, e, k);
    case Pattern::Kind::Op: {
      if (e.kind() != p.op) return false;
      auto inOrder = [&](Expr first, Expr second) {
        // Constant operands sit on the right: matching them first binds c* early.
        return match(p.args[1], second, [&] { return match(p.args[0], first, k); });
      };
      bool commutative = p.op == ExprKind::Min || p.op == ExprKind::Max;
      return inOrder(e.lhs(), e.rhs()) || (commutative && inOrder(e.rhs(), e.lhs()));
    }
    default:
      return false;  // lo/hi/gcd appear only in templates and conditions
  }
}

}  // namespace

Expr applyRule(const Rule& rule, Expr e, RangeEvaluator& ranges) {
  return Matcher(rule, ranges).apply(e);
}

}  // namespace idxmap
