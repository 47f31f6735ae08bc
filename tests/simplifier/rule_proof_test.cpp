// Proves every rewrite rule with Z3 (DESIGN.md: "prove every rule with Z3 in the test suite").
//
// Pattern variables x, y, z are universally quantified, unbounded integers; lo(v)/hi(v) are
// free integers L, H with L <= v <= H (the range evaluator's bounds are sound, nothing more);
// the side condition is assumed. Constants c0..c3 range over a grid: with symbolic constants
// the obligations are nonlinear (c0 * x, x mod c0) and Z3 cannot decide them, while each
// grid instance is linear and decided exactly. A rule passes only if every instance whose
// constant-only conditions hold is proven in integer arithmetic, and again in 64-bit
// bit-vector arithmetic: wherever both sides evaluate without overflow, they are equal.
// (Whether an expression can overflow at all is a separate, per-expression proof.)
#include <gtest/gtest.h>
#include <z3++.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "core/bridges/z3_bridge.h"
#include "simplifier/rule.h"
#include "tests/simplifier/rule_proof_support.h"

namespace idxmap {
namespace {

constexpr int64_t kGrid[] = {-4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 8, 9, 12, 16, 24};

struct Instance {
  std::array<int64_t, 4> constants{};
};

bool usesOnlyConstants(const Pattern& p) {
  if (p.kind == Pattern::Kind::Any || p.kind == Pattern::Kind::Low || p.kind == Pattern::Kind::High)
    return false;
  for (const Pattern& a : p.args)
    if (!usesOnlyConstants(a)) return false;
  return true;
}

// The value of a constant-only pattern, folded by the IR's own constructors (so a division
// by zero here is exactly a rule that cannot fire); nullopt when it cannot be built.
std::optional<int64_t> foldConstant(const Pattern& p, const Instance& in) {
  try {
    switch (p.kind) {
      case Pattern::Kind::Constant:
        return in.constants[p.index];
      case Pattern::Kind::Literal:
        return p.value;
      case Pattern::Kind::Gcd: {
        auto a = foldConstant(p.args[0], in), b = foldConstant(p.args[1], in);
        if (!a || !b) return std::nullopt;
        return std::gcd(*a, *b);
      }
      case Pattern::Kind::Sum: {
        Expr sum = Expr::constant(0);
        for (const Pattern& s : p.args) {
          auto v = foldConstant(s, in);
          if (!v) return std::nullopt;
          sum = sum + *v;
        }
        return sum.constantValue();
      }
      case Pattern::Kind::Op: {
        auto a = foldConstant(p.args[0], in), b = foldConstant(p.args[1], in);
        if (!a || !b) return std::nullopt;
        Expr e = Expr::binary(p.op, Expr::constant(*a), Expr::constant(*b));
        return e.constantValue();
      }
      default:
        return std::nullopt;
    }
  } catch (const Error&) {
    return std::nullopt;
  }
}

bool compare(Comparison c, int64_t a, int64_t b) {
  switch (c) {
    case Comparison::Eq:
      return a == b;
    case Comparison::Ne:
      return a != b;
    case Comparison::Lt:
      return a < b;
    case Comparison::Le:
      return a <= b;
    case Comparison::Gt:
      return a > b;
    case Comparison::Ge:
      return a >= b;
  }
  return false;
}

// Which constants the left side uses, and the IR invariants they obey there: a divisor or
// modulus is at least 2 (by 1 folds away), a coefficient is not 0.
struct ConstantUse {
  std::array<bool, 4> used{};
  std::array<bool, 4> divisor{};
  std::array<bool, 4> coefficient{};
};

void collectUses(const Pattern& p, ConstantUse& use) {
  if (p.kind == Pattern::Kind::Constant) use.used[p.index] = true;
  if (p.kind == Pattern::Kind::Op && p.args[1].kind == Pattern::Kind::Constant) {
    bool divides = p.op == ExprKind::FloorDiv || p.op == ExprKind::CeilDiv || p.op == ExprKind::Mod;
    if (divides) use.divisor[p.args[1].index] = true;
    if (p.op == ExprKind::Mul) use.coefficient[p.args[1].index] = true;
  }
  for (const Pattern& a : p.args) collectUses(a, use);
}

std::vector<Instance> instancesOf(const Rule& rule) {
  ConstantUse use;
  collectUses(rule.lhs, use);
  std::vector<Instance> out;
  Instance in;
  std::function<void(int)> fill = [&](int c) {
    if (c == 4) {
      for (const Condition& cond : rule.when) {
        if (cond.kind != Condition::Kind::Compare || !usesOnlyConstants(cond.lhs) ||
            !usesOnlyConstants(cond.rhs))
          continue;
        auto a = foldConstant(cond.lhs, in), b = foldConstant(cond.rhs, in);
        if (!a || !b || !compare(cond.comparison, *a, *b)) return;
      }
      out.push_back(in);
      return;
    }
    if (!use.used[c]) return fill(c + 1);
    for (int64_t v : kGrid) {
      if (use.divisor[c] && v < 2) continue;
      if (use.coefficient[c] && v == 0) continue;
      in.constants[c] = v;
      fill(c + 1);
    }
  };
  fill(0);
  return out;
}

// Translation of patterns to Z3, in integer or bit-vector semantics.
class Translator {
 public:
  Translator(z3::context& ctx, bool bitVector, const Instance& in)
      : ctx_(ctx),
        bv_(bitVector),
        in_(in),
        noOverflow_(ctx.bool_val(true)),
        folds_(ctx.bool_val(true)),
        definitions_(ctx.bool_val(true)),
        rangeFacts_(ctx.bool_val(true)) {
    for (int i = 0; i < 3; ++i) {
      std::string n(1, "xyz"[i]);
      any_.push_back(var(n));
      lo_.push_back(var("lo_" + n));
      hi_.push_back(var("hi_" + n));
    }
  }

  z3::expr var(const std::string& name) {
    return bv_ ? ctx_.bv_const(name.c_str(), 64) : ctx_.int_const(name.c_str());
  }
  z3::expr num(int64_t v) { return bv_ ? ctx_.bv_val(v, 64) : ctx_.int_val(v); }
  z3::expr le(const z3::expr& a, const z3::expr& b) { return bv_ ? z3::sle(a, b) : a <= b; }
  z3::expr lt(const z3::expr& a, const z3::expr& b) { return bv_ ? z3::slt(a, b) : a < b; }

  z3::expr bounds() {
    z3::expr all = ctx_.bool_val(true);
    for (int i = 0; i < 3; ++i) all = all && le(lo_[i], any_[i]) && le(any_[i], hi_[i]);
    return all;
  }

  // The overflow conditions of operations on pattern variables since the last call.
  z3::expr takeNoOverflow() {
    z3::expr out = noOverflow_;
    noOverflow_ = ctx_.bool_val(true);
    return out;
  }
  // Operations on constants and lo/hi only are folded when the rule fires, with checked
  // arithmetic: if one overflows, the rule does not fire. So their fitting is assumed.
  const z3::expr& folds() const { return folds_; }
  // Definitions of the quotients and remainders introduced for floordiv and mod.
  const z3::expr& definitions() const { return definitions_; }
  // What lo(...) / hi(...) of expressions assume: each bound holds for the expression's value.
  const z3::expr& rangeFacts() const { return rangeFacts_; }

  z3::expr translate(const Pattern& p) {
    bool outer = !constantPart_;
    if (outer && !usesAnyVariable(p)) constantPart_ = true;
    z3::expr out = translateNode(p);
    if (outer) constantPart_ = false;
    return out;
  }

  static bool usesAnyVariable(const Pattern& p) {
    if (p.kind == Pattern::Kind::Any) return true;
    for (const Pattern& a : p.args)
      if (usesAnyVariable(a)) return true;
    return false;
  }

  z3::expr translateNode(const Pattern& p) {
    if (usesOnlyConstants(p)) {
      auto v = foldConstant(p, in_);
      if (!v) throw std::runtime_error("constant does not fold");
      return num(*v);
    }
    switch (p.kind) {
      case Pattern::Kind::Any:
        return any_[p.index];
      case Pattern::Kind::Low:
      case Pattern::Kind::High: {
        const Pattern& of = p.args[0];
        bool low = p.kind == Pattern::Kind::Low;
        if (of.kind == Pattern::Kind::Any) return low ? lo_[of.index] : hi_[of.index];
        // lo(x - y): a free bound of the expression's value, as the range evaluator's is.
        z3::expr value = translate(of), bound = var("bound" + std::to_string(fresh_++));
        rangeFacts_ = rangeFacts_ && (low ? le(bound, value) : le(value, bound));
        return bound;
      }
      case Pattern::Kind::Sum: {
        z3::expr sum = translate(p.args[0]);
        for (size_t i = 1; i < p.args.size(); ++i) sum = add(sum, translate(p.args[i]));
        return sum;
      }
      case Pattern::Kind::Op:
        return op(p);
      default:
        throw std::runtime_error("untranslatable pattern");
    }
  }

  z3::expr condition(const Condition& c) {
    if (c.kind == Condition::Kind::NoDiv) return ctx_.bool_val(true);  // only narrows use
    return rule_proofs::compared(
        c.comparison, translate(c.lhs), translate(c.rhs),
        [this](const z3::expr& a, const z3::expr& b) { return le(a, b); },
        [this](const z3::expr& a, const z3::expr& b) { return lt(a, b); });
  }

 private:
  void track(const z3::expr& fits) {
    if (constantPart_)
      folds_ = folds_ && fits;
    else
      noOverflow_ = noOverflow_ && fits;
  }
  // Whether a + b and a * b fit in int64, by computing them exactly in wider bit-vectors.
  // (Z3 4.8.12's Z3_mk_bvmul_no_overflow is wrong for operands of mixed signs: it reports
  // 5 * -1 as overflowing, which would make such instances pass vacuously.)
  z3::expr fitsIn64(const z3::expr& wide) {
    unsigned extra = wide.get_sort().bv_size() - 64;
    return z3::sext(wide.extract(63, 0), extra) == wide;
  }
  z3::expr addFits(const z3::expr& a, const z3::expr& b) {
    return fitsIn64(z3::sext(a, 1) + z3::sext(b, 1));
  }
  z3::expr mulFits(const z3::expr& a, const z3::expr& b) {
    return fitsIn64(z3::sext(a, 64) * z3::sext(b, 64));
  }
  z3::expr add(const z3::expr& a, const z3::expr& b) {
    if (bv_) track(addFits(a, b));
    return a + b;
  }
  z3::expr mul(const z3::expr& a, const z3::expr& b) {
    if (bv_) track(mulFits(a, b));
    return a * b;
  }
  // floor(a / k) and a mod k for a constant k > 0. In bit-vectors, by their definition
  // a = q*k + r, 0 <= r < k (fresh q, r; the definition cannot overflow since |q| <= |a|):
  // far cheaper for the solver than a 64-bit divider circuit, and just as exact.
  std::pair<z3::expr, z3::expr> divMod(const z3::expr& a, int64_t k) {
    if (!bv_) return {a / ctx_.int_val(k), z3::mod(a, ctx_.int_val(k))};
    std::string id = std::to_string(fresh_++);
    z3::expr q = var("q" + id), r = var("r" + id), kv = num(k);
    definitions_ = definitions_ && mulFits(q, kv) && addFits(q * kv, r) && a == q * kv + r &&
                   z3::sle(num(0), r) && z3::slt(r, kv);
    return {q, r};
  }
  z3::expr floorDiv(const z3::expr& a, int64_t k) { return divMod(a, k).first; }
  z3::expr floorMod(const z3::expr& a, int64_t k) { return divMod(a, k).second; }

  z3::expr op(const Pattern& p) {
    z3::expr a = translate(p.args[0]);
    switch (p.op) {
      case ExprKind::Min: {
        z3::expr b = translate(p.args[1]);
        return z3::ite(le(a, b), a, b);
      }
      case ExprKind::Max: {
        z3::expr b = translate(p.args[1]);
        return z3::ite(le(a, b), b, a);
      }
      case ExprKind::Mul:
        return mul(a, translate(p.args[1]));
      default:
        break;
    }
    // Divisors are constants; the IR normalizes a negative one (Expr::floorDiv etc.).
    auto k = foldConstant(p.args[1], in_);
    if (!k || *k == 0) throw std::runtime_error("divisor does not fold");
    z3::expr neg = mul(a, num(-1));
    // Floored for either sign, as Expr::mod: a mod -k = -((-a) mod k).
    if (p.op == ExprKind::Mod) return *k > 0 ? floorMod(a, *k) : mul(floorMod(neg, -*k), num(-1));
    if (p.op == ExprKind::FloorDiv) return *k > 0 ? floorDiv(a, *k) : floorDiv(neg, -*k);
    // ceil(a / k) = -floor(-a / k); for k < 0, ceil(a / k) = -floor(a / -k).
    z3::expr f = *k > 0 ? floorDiv(neg, *k) : floorDiv(a, -*k);
    return mul(f, num(-1));
  }

  z3::context& ctx_;
  bool bv_;
  const Instance& in_;
  z3::expr noOverflow_, folds_, definitions_, rangeFacts_;
  bool constantPart_ = false;
  int fresh_ = 0;
  std::vector<z3::expr> any_, lo_, hi_;
};

std::string describe(const Rule& rule, const Instance& in) {
  std::string s = rule.name + " with";
  for (int c = 0; c < 4; ++c) s += " c" + std::to_string(c) + "=" + std::to_string(in.constants[c]);
  return s;
}

// "" when proven, else why not.
std::string prove(const Rule& rule, const Instance& in, bool bitVector) {
  // One context a thread, reused: making one costs more than most of these proofs.
  BorrowedZ3Context borrowed;
  z3::context& ctx = borrowed.get();
  z3::solver solver(ctx);
  z3::params params(ctx);
  // Generous: a query that times out fails the test, and CI machines can be slow.
  params.set("timeout", 60000u);
  solver.set(params);
  try {
    Translator t(ctx, bitVector, in);
    z3::expr assumptions = t.bounds();
    for (const Condition& c : rule.when) assumptions = assumptions && t.condition(c);
    z3::expr conditionsFit = t.takeNoOverflow();
    z3::expr lhs = t.translate(rule.lhs);
    z3::expr lhsFits = t.takeNoOverflow();
    z3::expr rhs = t.translate(rule.rhs);
    z3::expr rhsFits = t.takeNoOverflow();
    solver.add(assumptions && conditionsFit && lhsFits && rhsFits && t.folds() && t.definitions() &&
               t.rangeFacts());
    solver.add(lhs != rhs);
  } catch (const std::exception& e) {
    return std::string("cannot translate: ") + e.what();
  }
  return rule_proofs::proofVerdict(solver);
}

TEST(RuleProof, EveryRuleParses) {
  EXPECT_GE(allRules().size(), 15u);
  for (const Rule& r : allRules()) EXPECT_FALSE(r.name.empty());
  // A bare x at the root would apply to every node; what holds of every node (one whose
  // range is a point is that constant) is the rewriter's own step.
  EXPECT_THROW(parseRule({"every-node", "x", "lo(x)", "lo(x) == hi(x)"}), Error);
}

// The prover must be able to say no: a plausible but wrong rule is refuted.
TEST(RuleProof, RefutesAWrongRule) {
  Rule wrong = parseRule({"wrong-drop-mod", "(x * c1 + y) mod c0", "y", "c1 mod c0 == 0"});
  std::vector<Instance> instances = instancesOf(wrong);
  ASSERT_FALSE(instances.empty());
  EXPECT_EQ(prove(wrong, instances[0], false).rfind("refuted", 0), 0u);
  // In bit-vectors too, with a negative constant: the overflow guards must not make the
  // obligation vacuous.
  Rule wrongNegation = parseRule({"wrong-negation", "x * c0", "x", "c0 < 0"});
  Instance minusOne;
  minusOne.constants[0] = -1;
  EXPECT_EQ(prove(wrongNegation, minusOne, true).rfind("refuted", 0), 0u);
  Rule wrongBound = parseRule({"wrong-mod-bound", "x mod c0", "x", "hi(x) <= c0"});
  for (const Instance& in : instancesOf(wrongBound))
    EXPECT_EQ(prove(wrongBound, in, false).rfind("refuted", 0), 0u) << describe(wrongBound, in);
}

class RuleProofTest : public ::testing::TestWithParam<size_t> {};

TEST_P(RuleProofTest, HoldsInIntegerAndBitVectorArithmetic) {
  const Rule& rule = allRules()[GetParam()];
  std::vector<Instance> instances = instancesOf(rule);
  ASSERT_FALSE(instances.empty()) << rule.name << ": no constant assignment satisfies it";
  for (const Instance& in : instances) {
    std::string failure = prove(rule, in, false);
    ASSERT_EQ(failure, "") << describe(rule, in) << " (integers)";
  }
  // Bit-blasting 64-bit multiplication by arbitrary constants makes Z3 4.8 time out, while
  // by powers of two it is shifts: check the power-of-two instances in bit-vectors (the
  // integer proof above covers every instance).
  std::vector<Instance> bitVectorInstances;
  for (const Instance& in : instances)
    if (std::all_of(in.constants.begin(), in.constants.end(), [](int64_t c) {
          int64_t m = c < 0 ? -c : c;
          return (m & (m - 1)) == 0;
        }))
      bitVectorInstances.push_back(in);
  // A rule whose condition excludes powers of two (a coefficient beyond its modulus that the
  // modulus does not divide) is checked on its instance of smallest constants instead.
  if (bitVectorInstances.empty()) {
    auto largest = [](const Instance& in) {
      int64_t m = 0;
      for (int64_t c : in.constants) m = std::max(m, c < 0 ? -c : c);
      return m;
    };
    bitVectorInstances.push_back(*std::min_element(
        instances.begin(), instances.end(),
        [&](const Instance& a, const Instance& b) { return largest(a) < largest(b); }));
  }
  size_t stride = std::max<size_t>(1, bitVectorInstances.size() / 2);
  for (size_t i = 0; i < bitVectorInstances.size(); i += stride) {
    std::string failure = prove(rule, bitVectorInstances[i], true);
    ASSERT_EQ(failure, "") << describe(rule, bitVectorInstances[i]) << " (64-bit bit-vectors)";
  }
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleProofTest, ::testing::Range<size_t>(0, allRules().size()),
                         [](const auto& info) {
                           std::string name = allRules()[info.param].name;
                           for (char& c : name)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace idxmap
