// A rewrite rule as a Coq theorem (issue 33, item 2), for the rules no SMT solver proves for
// every constant. The statement is generated from the parsed rule table, so the theorem coqc
// checks is the rule the simplifier runs; only the proof (tactics) is written by hand, one file
// per rule in simplifier/proofs/ (`<rule name>.proof`), after the shared lemmas of
// simplifier/proofs/prelude.v.
//
// The statement, over Coq's unbounded integers Z (the IR's constant folding is checked, so it
// never wraps):
//   forall x y ... c0 c1 ..., lo_x <= x <= hi_x -> ... (each variable within its range)
//     -> 2 <= c0 -> c1 <> 0 -> ... (the IR's invariants on the left side's constants: a divisor
//        or modulus at least 2, a coefficient not 0)
//     -> b0 <= x - y -> ... (lo/hi of a sum: a bound of it)
//     -> <side conditions> -> (0 < d1 /\ ... /\ 0 < dn) /\ left = right
// where d1 ... dn are the right side's divisors (True when it has none): the theorem also shows
// that the rule never builds a division by zero or a negative number. floordiv and mod are Z.div
// and Z.modulo (floored, as the IR's), ceildiv -((-a) / b), gcd Z.gcd (the greatest common divisor,
// as the rule computes it), nodiv(x) no hypothesis (it only narrows where the rule applies).
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "simplifier/rule.h"

namespace idxmap::rule_coq {

class Statement {
 public:
  explicit Statement(const Rule& rule) {
    constrainConstants(rule.lhs);
    std::vector<std::string> conditions;
    for (const Condition& c : rule.when)
      if (c.kind == Condition::Kind::Compare)
        conditions.push_back(term(c.lhs) + comparison(c.comparison) + term(c.rhs));
    const std::string lhs = term(rule.lhs);
    inRight_ = true;
    const std::string rhs = term(rule.rhs);
    for (const std::string& c : conditions) hypotheses_.push_back(c);
    std::ostringstream out;
    out << "forall";
    for (const std::string& v : variables_) out << ' ' << v;
    out << " : Z,\n";
    for (const std::string& h : hypotheses_) out << "  " << h << " ->\n";
    std::string divisors;
    for (const std::string& d : rightDivisors_)
      divisors += (divisors.empty() ? "0 < " : " /\\ 0 < ") + d;
    out << "  (" << (divisors.empty() ? "True" : divisors) << ") /\\\n  " << lhs << " = " << rhs;
    text_ = out.str();
  }

  const std::string& text() const { return text_; }

 private:
  static const char* comparison(Comparison c) {
    switch (c) {
      case Comparison::Eq:
        return " = ";
      case Comparison::Ne:
        return " <> ";
      case Comparison::Lt:
        return " < ";
      case Comparison::Le:
        return " <= ";
      case Comparison::Gt:
        return " > ";
      case Comparison::Ge:
        return " >= ";
    }
    return " ? ";
  }

  void constrainConstants(const Pattern& p) {
    if (p.kind == Pattern::Kind::Op && p.args[1].kind == Pattern::Kind::Constant) {
      const std::string c = term(p.args[1]);
      if (p.op == ExprKind::FloorDiv || p.op == ExprKind::CeilDiv || p.op == ExprKind::Mod)
        hypotheses_.push_back("2 <= " + c);
      if (p.op == ExprKind::Mul) hypotheses_.push_back(c + " <> 0");
    }
    for (const Pattern& a : p.args) constrainConstants(a);
  }

  bool declared(const std::string& name) const {
    return std::find(variables_.begin(), variables_.end(), name) != variables_.end();
  }

  void declare(const std::string& name) {
    if (!declared(name)) variables_.push_back(name);
  }

  // x, y or z, declared with its range's bounds and the hypothesis that it lies between them.
  std::string anyVariable(int index) {
    const std::string name(1, "xyz"[index]);
    if (!declared(name)) {
      declare(name);
      declare("lo_" + name);
      declare("hi_" + name);
      hypotheses_.push_back("lo_" + name + " <= " + name + " <= hi_" + name);
    }
    return name;
  }

  std::string term(const Pattern& p) {
    switch (p.kind) {
      case Pattern::Kind::Any:
        return anyVariable(p.index);
      case Pattern::Kind::Constant: {
        const std::string name = "c" + std::to_string(p.index);
        declare(name);
        return name;
      }
      case Pattern::Kind::Literal:
        return p.value < 0 ? "(" + std::to_string(p.value) + ")" : std::to_string(p.value);
      case Pattern::Kind::Low:
      case Pattern::Kind::High: {
        const Pattern& of = p.args[0];
        const bool low = p.kind == Pattern::Kind::Low;
        const std::string value = term(of);
        if (of.kind == Pattern::Kind::Any) return (low ? "lo_" : "hi_") + value;
        const std::string bound = "b" + std::to_string(bounds_++);
        declare(bound);
        hypotheses_.push_back(low ? bound + " <= " + value : value + " <= " + bound);
        return bound;
      }
      case Pattern::Kind::Gcd:
        return "(Z.gcd " + term(p.args[0]) + " " + term(p.args[1]) + ")";
      case Pattern::Kind::Sum: {
        std::string sum = "(" + term(p.args[0]);
        for (size_t i = 1; i < p.args.size(); ++i) sum += " + " + term(p.args[i]);
        return sum + ")";
      }
      case Pattern::Kind::Op:
        return op(p);
    }
    throw std::runtime_error("untranslatable pattern");
  }

  std::string op(const Pattern& p) {
    const std::string a = term(p.args[0]), b = term(p.args[1]);
    const bool division =
        p.op == ExprKind::FloorDiv || p.op == ExprKind::CeilDiv || p.op == ExprKind::Mod;
    if (division && inRight_) rightDivisors_.insert(b);
    switch (p.op) {
      case ExprKind::Add:
        return "(" + a + " + " + b + ")";
      case ExprKind::Mul:
        return "(" + a + " * " + b + ")";
      case ExprKind::FloorDiv:
        return "(" + a + " / " + b + ")";
      case ExprKind::Mod:
        return "(" + a + " mod " + b + ")";
      case ExprKind::CeilDiv:
        return "(- ((- " + a + ") / " + b + "))";
      case ExprKind::Min:
        return "(Z.min " + a + " " + b + ")";
      case ExprKind::Max:
        return "(Z.max " + a + " " + b + ")";
      default:
        throw std::runtime_error("untranslatable operator");
    }
  }

  std::vector<std::string> variables_, hypotheses_;
  std::set<std::string> rightDivisors_;
  bool inRight_ = false;
  int bounds_ = 0;
  std::string text_;
};

// Coq's name for a rule: its name with '-' as '_'.
inline std::string theoremName(const Rule& rule) {
  std::string name = rule.name;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

// The whole file coqc checks: the prelude, the generated theorem, the hand-written proof.
inline std::string theoremFile(const Rule& rule, const std::string& prelude,
                               const std::string& proof) {
  return prelude + "\n(* Generated from the rule table: " + rule.name + " *)\nTheorem " +
         theoremName(rule) + " :\n" + Statement(rule).text() + ".\nProof.\n" + proof + "Qed.\n";
}

// "" when coqc (Debian's `coq`) accepts `file`, else what it said.
inline std::string check(const std::filesystem::path& file) {
  const std::string command =
      "cd " + file.parent_path().string() + " && coqc " + file.filename().string() + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "cannot run coqc";
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pclose(pipe);
  if (status == 0) return "";
  if (output.find("not found") != std::string::npos && output.find("coqc") != std::string::npos)
    return "coqc did not run (scripts/install-deps.sh installs Debian's coq): " + output;
  return output.empty() ? "coqc failed" : output;
}

}  // namespace idxmap::rule_coq
