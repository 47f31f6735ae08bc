// Every rewrite rule proven for all values of its constants (issue 33, item 2), not only on
// rule_proof_test's grid: c0..c3 are symbolic integers under the IR's invariants (a divisor or
// modulus is at least 2, a coefficient is not 0) and the rule's side conditions. Integer
// semantics, as rule_proof_test's integer pass (its bit-vector pass stays the second opinion).
// Floor division and remainder by a symbolic divisor are their definitions (a = k * q + r with
// r between 0 and k), gcd(a, b) any common divisor g >= 1 (a rule that holds for every common
// divisor holds for the greatest). The obligations are nonlinear; Z3's nonlinear integer
// arithmetic decides some of them, cvc5's others; the rest are Coq theorems generated from the
// rule table with proofs written in simplifier/proofs/ (rule_coq.h). Every rule is on the list
// below: none stands on the grid alone.
#include <gtest/gtest.h>
#include <z3++.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/bridges/z3_bridge.h"
#include "simplifier/rule.h"
#include "tests/simplifier/rule_coq.h"
#include "tests/simplifier/rule_proof_support.h"
#include "tests/support/scratch.h"

namespace idxmap {
namespace {

class SymbolicTranslator {
 public:
  explicit SymbolicTranslator(z3::context& ctx) : ctx_(ctx), facts_(ctx.bool_val(true)) {
    for (int i = 0; i < 3; ++i) {
      std::string n(1, "xyz"[i]);
      any_.push_back(ctx.int_const(n.c_str()));
      lo_.push_back(ctx.int_const(("lo_" + n).c_str()));
      hi_.push_back(ctx.int_const(("hi_" + n).c_str()));
      facts_ = facts_ && lo_[i] <= any_[i] && any_[i] <= hi_[i];
    }
    for (int i = 0; i < 4; ++i)
      constants_.push_back(ctx.int_const(("c" + std::to_string(i)).c_str()));
  }

  // The IR's invariants on the constants the left side uses, as rule_proof_test's grid has them.
  void constrainConstants(const Pattern& p) {
    if (p.kind == Pattern::Kind::Op && p.args[1].kind == Pattern::Kind::Constant) {
      const z3::expr& c = constants_[p.args[1].index];
      if (p.op == ExprKind::FloorDiv || p.op == ExprKind::CeilDiv || p.op == ExprKind::Mod)
        facts_ = facts_ && c >= 2;
      if (p.op == ExprKind::Mul) facts_ = facts_ && c != 0;
    }
    for (const Pattern& a : p.args) constrainConstants(a);
  }

  const z3::expr& facts() const { return facts_; }

  z3::expr translate(const Pattern& p) {
    switch (p.kind) {
      case Pattern::Kind::Any:
        return any_[p.index];
      case Pattern::Kind::Constant:
        return constants_[p.index];
      case Pattern::Kind::Literal:
        return ctx_.int_val(p.value);
      case Pattern::Kind::Low:
      case Pattern::Kind::High: {
        const Pattern& of = p.args[0];
        bool low = p.kind == Pattern::Kind::Low;
        if (of.kind == Pattern::Kind::Any) return low ? lo_[of.index] : hi_[of.index];
        z3::expr value = translate(of), bound = fresh("bound");
        facts_ = facts_ && (low ? bound <= value : value <= bound);
        return bound;
      }
      case Pattern::Kind::Gcd: {  // one variable for every occurrence of the same gcd
        z3::expr a = translate(p.args[0]), b = translate(p.args[1]);
        auto key = std::make_pair(a.id(), b.id());
        if (auto found = gcds_.find(key); found != gcds_.end()) return found->second;
        z3::expr g = fresh("gcd"), qa = fresh("qa"), qb = fresh("qb");
        facts_ = facts_ && g >= 1 && a == g * qa && b == g * qb;
        gcds_.emplace(key, g);
        return g;
      }
      case Pattern::Kind::Sum: {
        z3::expr sum = translate(p.args[0]);
        for (size_t i = 1; i < p.args.size(); ++i) sum = sum + translate(p.args[i]);
        return sum;
      }
      case Pattern::Kind::Op:
        return op(p);
    }
    throw std::runtime_error("untranslatable pattern");
  }

  z3::expr condition(const Condition& c) {
    if (c.kind == Condition::Kind::NoDiv) return ctx_.bool_val(true);  // only narrows use
    return rule_proofs::compared(
        c.comparison, translate(c.lhs), translate(c.rhs),
        [](const z3::expr& a, const z3::expr& b) { return a <= b; },
        [](const z3::expr& a, const z3::expr& b) { return a < b; });
  }

 private:
  z3::expr fresh(const std::string& name) {
    return ctx_.int_const((name + std::to_string(fresh_++)).c_str());
  }

  // floor(a / k) and a - k * floor(a / k) for k != 0, by definition (the IR's floored division
  // for either sign of k: a constant-only pattern may divide by a negative fold).
  std::pair<z3::expr, z3::expr> divMod(const z3::expr& a, const z3::expr& k) {
    z3::expr q = fresh("q"), r = fresh("r");
    facts_ = facts_ && k != 0 && a == k * q + r && z3::implies(k > 0, 0 <= r && r < k) &&
             z3::implies(k < 0, k < r && r <= 0);
    return {q, r};
  }

  z3::expr op(const Pattern& p) {
    z3::expr a = translate(p.args[0]), b = translate(p.args[1]);
    switch (p.op) {
      case ExprKind::Min:
        return z3::ite(a <= b, a, b);
      case ExprKind::Max:
        return z3::ite(a <= b, b, a);
      case ExprKind::Mul:
        return a * b;
      case ExprKind::Add:
        return a + b;
      case ExprKind::Mod:
        return divMod(a, b).second;
      case ExprKind::FloorDiv:
        return divMod(a, b).first;
      case ExprKind::CeilDiv:
        return -divMod(-a, b).first;
      default:
        throw std::runtime_error("untranslatable operator");
    }
  }

  z3::context& ctx_;
  z3::expr facts_;
  std::vector<z3::expr> any_, lo_, hi_, constants_;
  std::map<std::pair<unsigned, unsigned>, z3::expr> gcds_;
  int fresh_ = 0;
};

// How an obligation states the rule. Definition: left != right, each division by its
// definition. Bounds, for a rule whose left side is x floordiv c (or ceildiv) with c a constant
// (at least 2): the right side r is not the quotient's bounds, c * r <= x < c * r + c (c * r - c
// < x <= c * r): the quotient is the one integer between them, so the right side that meets
// them is the left side. Both solvers reach further without the left side's own division.
enum class Encoding { Definition, Bounds };

bool dividesByConstant(const Pattern& p) {
  return p.kind == Pattern::Kind::Op && (p.op == ExprKind::FloorDiv || p.op == ExprKind::CeilDiv) &&
         p.args[1].kind == Pattern::Kind::Constant;
}

// The obligation for `rule` (unsatisfiable when the rule holds), added to `solver`. False when
// the rule cannot be translated (`why` says so).
bool obligation(const Rule& rule, z3::context& ctx, z3::solver& solver, std::string& why,
                Encoding encoding = Encoding::Definition) {
  try {
    SymbolicTranslator t(ctx);
    t.constrainConstants(rule.lhs);
    z3::expr conditions = ctx.bool_val(true);
    for (const Condition& c : rule.when) conditions = conditions && t.condition(c);
    if (encoding == Encoding::Bounds) {
      if (!dividesByConstant(rule.lhs)) {
        why = "not a division by a constant";
        return false;
      }
      z3::expr x = t.translate(rule.lhs.args[0]), c = t.translate(rule.lhs.args[1]);
      z3::expr r = t.translate(rule.rhs);
      z3::expr bounds = rule.lhs.op == ExprKind::FloorDiv ? (c * r <= x && x < c * r + c)
                                                          : (c * r - c < x && x <= c * r);
      solver.add(t.facts() && conditions && !bounds);
      return true;
    }
    z3::expr lhs = t.translate(rule.lhs), rhs = t.translate(rule.rhs);
    solver.add(t.facts() && conditions && lhs != rhs);
    return true;
  } catch (const std::exception& e) {
    why = std::string("cannot translate: ") + e.what();
    return false;
  }
}

// "" when Z3 proves the rule for all constants, else why not.
std::string proveWithZ3(const Rule& rule, unsigned timeoutMs) {
  z3::context ctx;
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", timeoutMs);
  solver.set(params);
  std::string why;
  if (!obligation(rule, ctx, solver, why)) return why;
  return rule_proofs::proofVerdict(solver);
}

// cvc5 decides some obligations Z3 does not (its incremental linearization with tangent
// planes). Debian's `cvc5` binary on the SMT-LIB text Z3 prints, under a resource limit
// rather than a time limit, so the verdict does not depend on the machine's load: the rules
// below take at most a quarter of it.
constexpr int kCvc5ResourceLimit = 4'000'000;

std::string proveWithCvc5(const Rule& rule, Encoding encoding = Encoding::Definition) {
  z3::context ctx;
  z3::solver solver(ctx);
  std::string why;
  if (!obligation(rule, ctx, solver, why, encoding)) return why;
  const std::filesystem::path file =
      std::filesystem::path(::testing::TempDir()) / ("idxmap_rule_" + rule.name + ".smt2");
  {
    std::ofstream out(file);
    out << "(set-logic ALL)\n" << solver.to_smt2();
  }
  const std::string command =
      "cvc5 --lang smt2 --nl-ext-tplanes --rlimit=" + std::to_string(kCvc5ResourceLimit) + " " +
      file.string() + " 2>&1";
  std::string output;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
    const int status = pclose(pipe);
    if (status != 0 && output.find("unsat") == std::string::npos)
      return "cvc5 did not run (scripts/install-deps.sh installs Debian's cvc5): " + output;
  }
  std::filesystem::remove(file);
  std::string last = output.substr(0, output.find_last_not_of('\n') + 1);
  last = last.substr(last.find_last_of('\n') + 1);
  if (last == "unsat") return "";
  return (last == "sat" ? "refuted by cvc5" : "unknown to cvc5: ") + output;
}

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// "" when coqc checks the rule's generated theorem with its proof in simplifier/proofs/.
std::string proveWithCoq(const Rule& rule) {
  const std::filesystem::path proofs =
      std::filesystem::path(IDXMAP_SOURCE_DIR) / "simplifier" / "proofs";
  const std::filesystem::path script = proofs / (rule.name + ".proof");
  if (!std::filesystem::exists(script)) return "no proof script " + script.string();
  const std::filesystem::path file =
      scratch::Directories::instance().make("idxmap_coq") / (rule_coq::theoremName(rule) + ".v");
  std::ofstream(file) << rule_coq::theoremFile(rule, contents(proofs / "prelude.v"),
                                               contents(script));
  const std::string why = rule_coq::check(file);
  if (why.empty()) return "";
  return "coqc rejects " + file.string() + " (IDXMAP_KEEP_SCRATCH=1 keeps it):\n" + why;
}

enum class Solver { Z3, Cvc5, Coq };

struct Proof {
  const char* rule;
  Solver solver;
  Encoding encoding;
};

// Every rule, proven for all constants, by which solver and how stated. Coq takes the rules
// whose divisor's multiples neither SMT solver reasons about (a common factor, a small
// remainder dropped, a division of a mod, the mod rules): the SMT-LIB obligation with an
// existential quotient is out of their reach, a rewrite with the standard library's lemmas on
// Z.div and Z.modulo is not.
const Proof kProvenForAllConstants[] = {
    {"div-of-div", Solver::Z3, Encoding::Definition},
    {"div-fold-inner-div", Solver::Z3, Encoding::Definition},
    {"min-decided-by-ranges", Solver::Z3, Encoding::Definition},
    {"max-decided-by-ranges", Solver::Z3, Encoding::Definition},
    {"min-decided-by-difference", Solver::Z3, Encoding::Definition},
    {"max-decided-by-difference", Solver::Z3, Encoding::Definition},
    {"min-of-offsets", Solver::Z3, Encoding::Definition},
    {"max-of-offsets", Solver::Z3, Encoding::Definition},
    {"mod-drop-multiple-term", Solver::Cvc5, Encoding::Definition},
    {"mod-of-mod", Solver::Cvc5, Encoding::Definition},
    {"mod-split-by-gcd", Solver::Cvc5, Encoding::Definition},
    {"sum-recombine-mod-div", Solver::Cvc5, Encoding::Definition},
    {"sum-sub-div-is-mod", Solver::Cvc5, Encoding::Definition},
    {"sum-sub-mod-is-div", Solver::Cvc5, Encoding::Definition},
    {"div-pull-constant", Solver::Cvc5, Encoding::Bounds},
    {"div-pull-multiple-term", Solver::Cvc5, Encoding::Bounds},
    {"ceildiv-pull-constant", Solver::Cvc5, Encoding::Bounds},
    {"ceildiv-pull-multiple-term", Solver::Cvc5, Encoding::Bounds},
    {"div-common-factor", Solver::Coq, Encoding::Definition},
    {"div-drop-small-remainder", Solver::Coq, Encoding::Definition},
    {"div-of-mod", Solver::Coq, Encoding::Definition},
    {"mod-common-factor", Solver::Coq, Encoding::Definition},
    {"mod-reduce-coefficient", Solver::Coq, Encoding::Definition},
    {"mod-reduce-constant", Solver::Coq, Encoding::Definition},
    {"mod-within-one-period", Solver::Coq, Encoding::Definition},
    {"sum-merge-mod-digits", Solver::Coq, Encoding::Definition},
};

std::string prove(const Rule& rule, const Proof& proof) {
  switch (proof.solver) {
    case Solver::Z3:
      return proveWithZ3(rule, 60000);
    case Solver::Cvc5:
      return proveWithCvc5(rule, proof.encoding);
    case Solver::Coq:
      return proveWithCoq(rule);
  }
  return "no solver";
}

TEST(RuleUniversalProof, EveryRuleProvenForAllConstants) {
  size_t proven = 0;
  for (const Rule& rule : allRules()) {
    const Proof* found = nullptr;
    for (const Proof& proof : kProvenForAllConstants)
      if (rule.name == proof.rule) found = &proof;
    if (!found) {
      ADD_FAILURE() << rule.name << " has no proof for all constants (grid-only)";
      continue;
    }
    EXPECT_EQ(prove(rule, *found), "") << rule.name;
    ++proven;
  }
  EXPECT_EQ(proven, std::size(kProvenForAllConstants)) << "a rule of the list is gone or renamed";
}

// The prover can say no: a wrong rule is refuted for some constant, not only on the grid.
TEST(RuleUniversalProof, RefutesAWrongRule) {
  Rule wrong = parseRule({"wrong-drop-mod", "(x * c1 + y) mod c0", "y", "c1 mod c0 == 0"});
  EXPECT_EQ(proveWithZ3(wrong, 60000).rfind("refuted", 0), 0u);
  EXPECT_EQ(proveWithCvc5(wrong).rfind("refuted", 0), 0u);
  // Stated by the quotient's bounds too: dropping a remainder that is not small is refuted.
  Rule wrongDiv = parseRule({"wrong-drop-remainder", "(x * c1 + y) floordiv c0",
                             "x * (c1 floordiv c0)", "c1 mod c0 == 0"});
  EXPECT_EQ(proveWithCvc5(wrongDiv, Encoding::Bounds).rfind("refuted", 0), 0u);
  // coqc checks the theorem generated from the rule, not a copy kept beside its proof: the
  // proof of mod-reduce-constant does not prove the rule with one added to its right side.
  Rule wrongConstant = parseRule(
      {"mod-reduce-constant", "(y + c1) mod c0", "(y + c1 mod c0 + 1) mod c0", "c1 mod c0 != c1"});
  EXPECT_EQ(proveWithCoq(wrongConstant).rfind("coqc rejects", 0), 0u);
  Rule wrongMin = parseRule({"wrong-min", "min(x, y)", "x", "lo(x) <= hi(y)"});
  EXPECT_EQ(proveWithZ3(wrongMin, 60000).rfind("refuted", 0), 0u);
  EXPECT_EQ(proveWithCvc5(wrongMin).rfind("refuted", 0), 0u);
}

}  // namespace
}  // namespace idxmap
