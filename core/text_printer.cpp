// printExpr / printIndexingMap: XLA syntax that reads back to the identical Expr nodes.
//
// Parentheses follow FORMAT.md's printer rules: around a lower-precedence child
// (`(d0 + 1) * 2`), around a child of the same precedence but another operator
// (`(s0 mod 3) * 4`, `(d0 * 128 + d1) floordiv 192`), and around a sum on the right of `+`
// or `-`. A negation operand of `*`, `floordiv`, `ceildiv` or `mod` is parenthesized too
// (`(-d0) mod 2`): the parser would read it the same way without, but readers would not.
// `x * -1` prints `-x`, `a + b * -k` prints `a - b * k`, `a + -c` prints `a - c`, except
// where k or c is INT64_MIN, whose magnitude has no int64 literal.
#include <charconv>
#include <limits>
#include <string>

#include "core/text.h"

namespace idxmap {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

bool isNegation(Expr e) { return e.kind() == ExprKind::Mul && e.rhs().isConstant(-1); }

// Prints without parentheses as an operand of anything: a variable, a call, a
// non-negative constant.
bool isAtom(Expr e) {
  switch (e.kind()) {
    case ExprKind::Constant:
      return e.constantValue() >= 0;
    case ExprKind::Dim:
    case ExprKind::RangeVar:
    case ExprKind::RuntimeVar:
    case ExprKind::Min:
    case ExprKind::Max:
      return true;
    default:
      return false;
  }
}

const char* productOperatorText(ExprKind kind, PrintStyle style) {
  switch (kind) {
    case ExprKind::Mul:
      return " * ";
    case ExprKind::FloorDiv:
      return style == PrintStyle::kXla ? " / " : " floordiv ";
    case ExprKind::CeilDiv:
      return " ceildiv ";
    default:
      return " mod ";
  }
}

// The printers append to one string: a map prints a few dozen names and numbers, and a
// temporary string for each was a third of printing's time.
void appendInteger(std::string& out, int64_t value) {
  if (value >= 0 && value < 10) {  // most coefficients, divisors and bounds
    out += static_cast<char>('0' + value);
    return;
  }
  char digits[24];
  const char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  for (const char* c = digits; c != end; ++c) out += *c;  // a few bytes: no memcpy call
}

void appendVariableName(std::string& out, const IndexingMap* names, ExprKind kind, unsigned index) {
  if (names) {
    const std::vector<Variable>& vars = names->variables(kind);
    if (index < vars.size() && !vars[index].name.empty()) {
      out += vars[index].name;
      return;
    }
  }
  out += kind == ExprKind::Dim ? "d" : kind == ExprKind::RangeVar ? "s" : "rt";
  appendInteger(out, index);
}

void appendInterval(std::string& out, const Interval& range) {
  out += '[';
  appendInteger(out, range.lo);
  out += ", ";
  appendInteger(out, range.hi);
  out += ']';
}

class ExprPrinter {
 public:
  ExprPrinter(std::string& out, const IndexingMap* names, PrintStyle style)
      : out_(out), names_(names), style_(style) {}

  void print(Expr e) {
    switch (e.kind()) {
      case ExprKind::Constant:
        appendInteger(out_, e.constantValue());
        return;
      case ExprKind::Dim:
      case ExprKind::RangeVar:
      case ExprKind::RuntimeVar:
        appendVariableName(out_, names_, e.kind(), e.variableIndex());
        return;
      case ExprKind::Add:
        return printSum(e);
      case ExprKind::Min:
      case ExprKind::Max:
        return printCall(e);
      default:
        if (isNegation(e)) return printNegation(e.lhs());
        return printProduct(e.lhs(), e.kind(), e.rhs().constantValue());
    }
  }

 private:
  void printParenthesized(Expr e) {
    out_ += '(';
    print(e);
    out_ += ')';
  }

  // The left operand of a sum never needs parentheses: sums are left-associative and
  // bind loosest.
  void printSum(Expr e) {
    print(e.lhs());
    Expr rhs = e.rhs();
    if (rhs.isConstant() && rhs.constantValue() < 0 && rhs.constantValue() != kInt64Min) {
      out_ += " - ";
      appendInteger(out_, -rhs.constantValue());
      return;
    }
    if (rhs.kind() == ExprKind::Mul && rhs.rhs().constantValue() < 0 &&
        rhs.rhs().constantValue() != kInt64Min) {
      out_ += " - ";
      int64_t magnitude = -rhs.rhs().constantValue();
      if (magnitude == 1) return printOperandOfSubtraction(rhs.lhs());
      return printProduct(rhs.lhs(), ExprKind::Mul, magnitude);
    }
    out_ += " + ";
    if (rhs.kind() == ExprKind::Add) return printParenthesized(rhs);
    print(rhs);
  }

  void printOperandOfSubtraction(Expr e) {
    if (e.kind() == ExprKind::Add) return printParenthesized(e);
    print(e);
  }

  void printNegation(Expr operand) {
    out_ += '-';
    if (isAtom(operand)) return print(operand);
    printParenthesized(operand);
  }

  void printProduct(Expr lhs, ExprKind kind, int64_t rhs) {
    bool sameOperator = lhs.kind() == kind && !isNegation(lhs);
    if (isAtom(lhs) || sameOperator)
      print(lhs);
    else
      printParenthesized(lhs);
    out_ += productOperatorText(kind, style_);
    appendInteger(out_, rhs);
  }

  void printCall(Expr e) {
    out_ += e.kind() == ExprKind::Min ? "min(" : "max(";
    print(e.lhs());
    out_ += ", ";
    print(e.rhs());
    out_ += ')';
  }

  std::string& out_;
  const IndexingMap* names_;
  PrintStyle style_;
};

void appendVariableList(std::string& out, const IndexingMap& map, ExprKind kind, char open,
                        char close) {
  out += open;
  for (unsigned i = 0; i < map.variables(kind).size(); ++i) {
    if (i) out += ", ";
    appendVariableName(out, &map, kind, i);
  }
  out += close;
}

}  // namespace

std::string printExpr(Expr e, const IndexingMap* names, PrintStyle style) {
  std::string out;
  ExprPrinter(out, names, style).print(e);
  return out;
}

// KNOWN EMPTY prints the header and the whole domain, then `KNOWN EMPTY` as the last domain
// entry. XLA prints only `KNOWN EMPTY`, which loses the arity and the runtime variables'
// ranges (markKnownEmpty keeps both); this form reads back to the same map. PrintStyle::kXla
// prints XLA's two words.
std::string printIndexingMap(const IndexingMap& map, PrintStyle style) {
  if (map.knownEmpty && style == PrintStyle::kXla) return "KNOWN EMPTY";
  std::string out;
  appendVariableList(out, map, ExprKind::Dim, '(', ')');
  if (!map.rangeVars.empty()) appendVariableList(out, map, ExprKind::RangeVar, '[', ']');
  if (!map.runtimeVars.empty()) appendVariableList(out, map, ExprKind::RuntimeVar, '{', '}');
  out += " -> (";
  for (size_t i = 0; i < map.results.size(); ++i) {
    if (i) out += ", ";
    ExprPrinter(out, &map, style).print(map.results[i]);
  }
  out += ')';
  bool hasVariables = !map.dims.empty() || !map.rangeVars.empty() || !map.runtimeVars.empty();
  if (!hasVariables && map.constraints.empty() && !map.knownEmpty) return out;

  out += ",\ndomain:";
  const char* separator = "\n";
  auto nextEntry = [&] {
    out += separator;
    separator = ",\n";
  };
  for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
    for (unsigned i = 0; i < map.variables(kind).size(); ++i) {
      nextEntry();
      appendVariableName(out, &map, kind, i);
      out += " in ";
      appendInterval(out, map.variables(kind)[i].range);
    }
  for (const Constraint& c : map.constraints) {
    nextEntry();
    ExprPrinter(out, &map, style).print(c.expr);
    out += " in ";
    appendInterval(out, c.range);
  }
  if (map.knownEmpty) {
    nextEntry();
    out += "KNOWN EMPTY";
  }
  return out;
}

}  // namespace idxmap
