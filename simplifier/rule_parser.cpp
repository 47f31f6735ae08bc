// Parser of the rule language (see rule.h). Rules are written by us, not users, so an error
// is a programming error; it still gets a precise message naming the rule.
#include <cctype>
#include <string_view>

#include "simplifier/rule.h"

namespace idxmap {
namespace {

class RuleParser {
 public:
  RuleParser(std::string_view text, const char* ruleName) : text_(text), ruleName_(ruleName) {}

  Pattern parseWholeExpr() {
    Pattern p = parseSum();
    expectEnd();
    return p;
  }

  std::vector<Condition> parseConditions() {
    std::vector<Condition> conditions;
    if (consumeWord("true")) {
      expectEnd();
      return conditions;
    }
    do conditions.push_back(parseCondition());
    while (consume("&&"));
    expectEnd();
    return conditions;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw Error("rule '" + std::string(ruleName_) + "': " + what + " at offset " +
                std::to_string(pos_) + " of \"" + std::string(text_) + "\"");
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool consume(std::string_view token) {
    skipSpace();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  bool consumeWord(std::string_view word) {
    skipSpace();
    size_t end = pos_ + word.size();
    if (text_.substr(pos_, word.size()) != word) return false;
    if (end < text_.size() && std::isalnum(static_cast<unsigned char>(text_[end]))) return false;
    pos_ = end;
    return true;
  }
  void expect(std::string_view token) {
    if (!consume(token)) fail("expected '" + std::string(token) + "'");
  }
  void expectEnd() {
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected text");
  }

  static Pattern op(ExprKind kind, Pattern a, Pattern b) {
    Pattern p;
    p.kind = Pattern::Kind::Op;
    p.op = kind;
    p.args = {std::move(a), std::move(b)};
    return p;
  }
  static Pattern literal(int64_t v) {
    Pattern p;
    p.kind = Pattern::Kind::Literal;
    p.value = v;
    return p;
  }
  static void appendSummand(Pattern& sum, Pattern summand) {
    if (summand.kind == Pattern::Kind::Sum)
      for (Pattern& s : summand.args) sum.args.push_back(std::move(s));
    else
      sum.args.push_back(std::move(summand));
  }

  Pattern parseSum() {
    Pattern first = parseProduct();
    skipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) return first;
    Pattern sum;
    sum.kind = Pattern::Kind::Sum;
    appendSummand(sum, std::move(first));
    while (true) {
      if (consume("+"))
        appendSummand(sum, parseProduct());
      else if (consume("-"))
        sum.args.push_back(op(ExprKind::Mul, parseProduct(), literal(-1)));
      else
        return sum;
    }
  }

  Pattern parseProduct() {
    Pattern p = parseUnary();
    while (true) {
      if (consume("*"))
        p = op(ExprKind::Mul, std::move(p), parseUnary());
      else if (consumeWord("floordiv"))
        p = op(ExprKind::FloorDiv, std::move(p), parseUnary());
      else if (consumeWord("ceildiv"))
        p = op(ExprKind::CeilDiv, std::move(p), parseUnary());
      else if (consumeWord("mod"))
        p = op(ExprKind::Mod, std::move(p), parseUnary());
      else
        return p;
    }
  }

  Pattern parseUnary() {
    if (consume("-")) {
      Pattern inner = parseUnary();
      if (inner.kind == Pattern::Kind::Literal) return literal(-inner.value);
      return op(ExprKind::Mul, std::move(inner), literal(-1));
    }
    return parsePrimary();
  }

  Pattern parseAnyArgument() {
    expect("(");
    Pattern p = parsePrimary();
    if (p.kind != Pattern::Kind::Any) fail("lo/hi/nodiv take x, y or z");
    expect(")");
    return p;
  }

  // lo(...) / hi(...): of x, y, z or a sum of them scaled by constants (`hi(x - y)`).
  Pattern parseBoundArgument() {
    expect("(");
    Pattern p = parseSum();
    if (!onlyVariablesAndConstants(p)) fail("lo/hi take x, y, z and constants only");
    expect(")");
    return p;
  }

  static bool onlyVariablesAndConstants(const Pattern& p) {
    switch (p.kind) {
      case Pattern::Kind::Any:
      case Pattern::Kind::Constant:
      case Pattern::Kind::Literal:
        return true;
      case Pattern::Kind::Sum:
        break;
      case Pattern::Kind::Op:
        if (p.op != ExprKind::Mul) return false;
        break;
      default:
        return false;
    }
    for (const Pattern& a : p.args)
      if (!onlyVariablesAndConstants(a)) return false;
    return true;
  }

  Pattern parsePrimary() {
    skipSpace();
    if (consume("(")) {
      Pattern p = parseSum();
      expect(")");
      return p;
    }
    for (auto [word, kind] : {std::pair{"lo", Pattern::Kind::Low}, {"hi", Pattern::Kind::High}}) {
      if (consumeWord(word)) {
        Pattern p;
        p.kind = kind;
        p.args.push_back(parseBoundArgument());
        return p;
      }
    }
    for (auto [word, kind] :
         {std::pair{"gcd", ExprKind::Add}, {"min", ExprKind::Min}, {"max", ExprKind::Max}}) {
      if (!consumeWord(word)) continue;
      expect("(");
      Pattern a = parseSum();
      expect(",");
      Pattern b = parseSum();
      expect(")");
      if (std::string_view(word) != "gcd") return op(kind, std::move(a), std::move(b));
      Pattern p;
      p.kind = Pattern::Kind::Gcd;
      p.args = {std::move(a), std::move(b)};
      return p;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        v = checkedAdd(checkedMul(v, 10), text_[pos_++] - '0');
      return literal(v);
    }
    if (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == 'x' || c == 'y' || c == 'z') {
        ++pos_;
        Pattern p;
        p.kind = Pattern::Kind::Any;
        p.index = c - 'x';
        return p;
      }
      if (c == 'c' && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' && text_[pos_ + 1] <= '3') {
        Pattern p;
        p.kind = Pattern::Kind::Constant;
        p.index = text_[pos_ + 1] - '0';
        pos_ += 2;
        return p;
      }
    }
    fail("expected an expression");
  }

  Condition parseCondition() {
    Condition c;
    if (consumeWord("nodiv")) {
      c.kind = Condition::Kind::NoDiv;
      c.lhs = parseAnyArgument();
      return c;
    }
    c.lhs = parseSum();
    static constexpr std::pair<std::string_view, Comparison> kComparisons[] = {
        {"==", Comparison::Eq}, {"!=", Comparison::Ne}, {"<=", Comparison::Le},
        {">=", Comparison::Ge}, {"<", Comparison::Lt},  {">", Comparison::Gt}};
    for (auto [token, comparison] : kComparisons) {
      if (consume(token)) {
        c.comparison = comparison;
        c.rhs = parseSum();
        return c;
      }
    }
    fail("expected a comparison");
  }

  std::string_view text_;
  const char* ruleName_;
  size_t pos_ = 0;
};

// Marks the sub-patterns that fold to a number; returns whether `p` does.
bool markConstantOnly(Pattern& p) {
  bool constantOnly = p.kind != Pattern::Kind::Any;
  for (Pattern& a : p.args) constantOnly = markConstantOnly(a) && constantOnly;
  if (p.kind == Pattern::Kind::Low || p.kind == Pattern::Kind::High) constantOnly = true;
  p.constantOnly = constantOnly;
  return constantOnly;
}

// Sorts a Sum's summands by the role they play in matching (Pattern::termSummands).
void markSummandRoles(Pattern& p) {
  for (Pattern& a : p.args) markSummandRoles(a);
  if (p.kind != Pattern::Kind::Sum) return;
  for (bool bareVariable : {false, true}) {
    for (int i = 0; i < static_cast<int>(p.args.size()); ++i) {
      const Pattern& s = p.args[i];
      if (s.kind == Pattern::Kind::Any) {
        p.restSummand = i;
      } else if (s.kind == Pattern::Kind::Constant || s.kind == Pattern::Kind::Literal) {
        p.constantSummand = i;
      } else {
        bool product = s.kind == Pattern::Kind::Op && s.op == ExprKind::Mul;
        const Pattern& atom = product ? s.args[0] : s;
        if ((atom.kind == Pattern::Kind::Any) == bareVariable) p.termSummands.push_back(i);
      }
    }
  }
}

// The constants `p` mentions (bit i for ci), and whether it mentions anything else that is
// only known at match time (x, y, z, lo, hi).
unsigned constantsOf(const Pattern& p, bool& onlyConstants) {
  unsigned mask = p.kind == Pattern::Kind::Constant ? 1u << p.index : 0u;
  if (p.kind == Pattern::Kind::Any || p.kind == Pattern::Kind::Low || p.kind == Pattern::Kind::High)
    onlyConstants = false;
  for (const Pattern& a : p.args) mask |= constantsOf(a, onlyConstants);
  return mask;
}

}  // namespace

Rule parseRule(const RuleSpec& spec) {
  Rule rule;
  rule.name = spec.name;
  rule.lhs = RuleParser(spec.lhs, spec.name).parseWholeExpr();
  rule.rhs = RuleParser(spec.rhs, spec.name).parseWholeExpr();
  rule.when = RuleParser(spec.when, spec.name).parseConditions();
  markConstantOnly(rule.lhs);
  markConstantOnly(rule.rhs);
  markSummandRoles(rule.lhs);
  bool lhsOnlyConstants = true;
  unsigned bound = constantsOf(rule.lhs, lhsOnlyConstants);
  for (Condition& c : rule.when) {
    markConstantOnly(c.lhs);
    markConstantOnly(c.rhs);
    if (c.kind != Condition::Kind::Compare) continue;
    bool onlyConstants = true;
    c.constantMask = constantsOf(c.lhs, onlyConstants) | constantsOf(c.rhs, onlyConstants);
    c.onConstants = onlyConstants && c.constantMask != 0 && (c.constantMask & ~bound) == 0;
  }
  switch (rule.lhs.kind) {
    case Pattern::Kind::Sum:
      rule.root = ExprKind::Add;
      break;
    case Pattern::Kind::Op:
      rule.root = rule.lhs.op;
      break;
    default:
      // A bare x would apply to every node: what holds of every node (one with a single
      // value is that value) is the rewriter's own step, not a rule.
      throw Error("rule '" + rule.name + "': the left-hand side must have an operator at its root");
  }
  return rule;
}

}  // namespace idxmap
