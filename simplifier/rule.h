// Rewrite rules as data.
//
// A rule is one line: a name, a left-hand pattern, a right-hand template and a side
// condition, written in the expression syntax:
//   {"mod-drop-multiple-term", "(x * c1 + y) mod c0", "y mod c0", "c1 mod c0 == 0"}
// Pattern variables: x, y, z match any expression; c0..c3 match constants. A sum pattern
// matches a canonical sum in any term order; a bare x, y or z among its summands matches
// the rest of the sum (possibly nothing, i.e. 0). `x * c1` may also match a group of terms
// whose coefficients share the factor c1. Templates and conditions may use lo(x) and hi(x)
// (the bounds of what x matched, from the range evaluator; also of sums of x, y, z scaled by
// constants, as hi(x - y)), gcd(a, b), and constant
// arithmetic, which folds when the rule fires. Conditions are comparisons joined by &&;
// nodiv(x) requires that x contain no floordiv or ceildiv.
//
// Every rule is proven for all values of its constants (Z3, cvc5, or Coq with the proof in
// simplifier/proofs/) by tests/simplifier/rule_universal_proof_test.cpp, and with Z3 on a grid
// of constants by rule_proof_test.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/expr.h"

namespace idxmap {

struct RuleSpec {
  const char* name;
  const char* lhs;
  const char* rhs;
  const char* when;
};

// The rule tables, one per kind of expression at the root (rules_*.cpp).
std::span<const RuleSpec> modRules();
std::span<const RuleSpec> floorDivRules();
std::span<const RuleSpec> ceilDivRules();
std::span<const RuleSpec> sumRules();
std::span<const RuleSpec> minMaxRules();

struct Pattern {
  enum class Kind {
    Any,       // x, y, z (index 0..2)
    Constant,  // c0..c3 (index 0..3)
    Literal,   // an integer (value)
    Low,       // lo(x): args[0] is an Any
    High,      // hi(x)
    Gcd,       // gcd(args[0], args[1])
    Sum,       // args are the summands
    Op,        // op applied to args[0], args[1]
  };
  Kind kind = Kind::Literal;
  ExprKind op = ExprKind::Add;
  int index = 0;
  int64_t value = 0;
  std::vector<Pattern> args;
  bool constantOnly = false;  // no x, y, z inside: folds to a number when the rule fires
  // A Sum's summands by role (indices into args), set by the parser: those that match terms,
  // structured ones first so that a bare `x * c` sees x already bound; the constant; the
  // bare x, y or z that matches the rest (-1: none).
  std::vector<int> termSummands;
  int constantSummand = -1;
  int restSummand = -1;
};

enum class Comparison { Eq, Ne, Lt, Le, Gt, Ge };

struct Condition {
  enum class Kind { Compare, NoDiv };
  Kind kind = Kind::Compare;
  Comparison comparison = Comparison::Eq;
  Pattern lhs, rhs;  // for NoDiv: lhs is the Any it names
  // A comparison of constants the left-hand side binds (no x, y, z, lo, hi): the matcher
  // checks it as soon as its last constant is bound, so most candidates fail early.
  bool onConstants = false;
  unsigned constantMask = 0;  // bit i: mentions ci
};

struct Rule {
  std::string name;
  Pattern lhs, rhs;
  std::vector<Condition> when;
  ExprKind root = ExprKind::Add;  // the operator at the left-hand side's root
};

// Parses a spec; throws Error naming the rule on malformed text (a programming error).
Rule parseRule(const RuleSpec& spec);

// Every rule, parsed once.
const std::vector<Rule>& allRules();
// The rules that can apply to an expression of this kind.
const std::vector<const Rule*>& rulesFor(ExprKind kind);

}  // namespace idxmap
