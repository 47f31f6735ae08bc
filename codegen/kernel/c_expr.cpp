#include "codegen/kernel/c_expr.h"

#include <cctype>
#include <limits>
#include <optional>

namespace idxmap::codegen {
namespace {

bool fitsInt32(int64_t value) {
  return value >= std::numeric_limits<int32_t>::min() &&
         value <= std::numeric_limits<int32_t>::max();
}

CExpr make(CExprNode node) { return std::make_shared<const CExprNode>(std::move(node)); }

// C's precedence, higher binds tighter.
int precedence(COp op) {
  switch (op) {
    case COp::kAnd:
      return 1;
    case COp::kEqual:
      return 2;
    case COp::kLessEqual:
    case COp::kGreaterEqual:
    case COp::kLess:
      return 3;
    case COp::kAdd:
    case COp::kSub:
      return 4;
    case COp::kMul:
    case COp::kDiv:
    case COp::kRem:
      return 5;
    case COp::kNeg:
      return 6;
    default:
      return 7;  // literals, variables, calls, casts
  }
}

const char* spelling(COp op) {
  switch (op) {
    case COp::kAdd:
      return " + ";
    case COp::kSub:
      return " - ";
    case COp::kMul:
      return " * ";
    case COp::kDiv:
      return " / ";
    case COp::kRem:
      return " % ";
    case COp::kLessEqual:
      return " <= ";
    case COp::kGreaterEqual:
      return " >= ";
    case COp::kLess:
      return " < ";
    case COp::kEqual:
      return " == ";
    case COp::kAnd:
      return " && ";
    default:
      return "";
  }
}

std::string printLiteral(int64_t value) {
  // C has no negative literals: `-2147483648` is the negation of a long, so the two minimum
  // values are written as expressions of their own width.
  if (value == std::numeric_limits<int32_t>::min()) return "(-2147483647 - 1)";
  if (value == std::numeric_limits<int64_t>::min()) return "(-9223372036854775807LL - 1)";
  std::string digits = std::to_string(value);
  return fitsInt32(value) ? digits : digits + "LL";
}

void print(const CExpr& expr, std::string& out) {
  auto child = [&](const CExpr& operand, int minimum) {
    bool parens = precedence(operand->op) < minimum ||
                  (operand->op == COp::kLiteral && operand->value < 0 && minimum > 4);
    if (parens) out += '(';
    print(operand, out);
    if (parens) out += ')';
  };
  switch (expr->op) {
    case COp::kLiteral:
      out += printLiteral(expr->value);
      return;
    case COp::kVariable:
      out += expr->name;
      return;
    case COp::kNeg:
      out += '-';
      child(expr->operands[0], precedence(COp::kNeg) + 1);
      return;
    case COp::kCall:
      out += expr->name + '<' + typeName(expr->width) + ">(";
      for (size_t i = 0; i < expr->operands.size(); ++i) {
        if (i) out += ", ";
        print(expr->operands[i], out);
      }
      out += ')';
      return;
    case COp::kCast:
      out += std::string("static_cast<") + typeName(expr->width) + ">(";
      print(expr->operands[0], out);
      out += ')';
      return;
    default: {  // left-associative binary operators
      int level = precedence(expr->op);
      child(expr->operands[0], level);
      out += spelling(expr->op);
      child(expr->operands[1], level + 1);
    }
  }
}

// Recursive descent over the printed subset, one function per precedence level.
class Parser {
 public:
  Parser(std::string_view text, const std::vector<DeclaredVariable>& declared)
      : text_(text), declared_(declared) {}

  CExpr parseAll() {
    CExpr expr = parseLevel(1);
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected text");
    return expr;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw CExprParseError("cannot read back `" + std::string(text_) + "` at column " +
                          std::to_string(pos_ + 1) + ": " + what);
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view token) {
    skipSpace();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token) {
    if (!accept(token)) fail("expected `" + std::string(token) + "`");
  }

  // The operator at this level, if the next token is one.
  std::optional<COp> binaryAt(int level) {
    static const std::pair<std::string_view, COp> kOperators[] = {
        {"&&", COp::kAnd}, {"==", COp::kEqual}, {"<=", COp::kLessEqual}, {">=", COp::kGreaterEqual},
        {"<", COp::kLess}, {"+", COp::kAdd},    {"-", COp::kSub},        {"*", COp::kMul},
        {"/", COp::kDiv},  {"%", COp::kRem}};
    skipSpace();
    for (const auto& [token, op] : kOperators) {
      if (text_.substr(pos_, token.size()) != token) continue;
      if (precedence(op) != level) return std::nullopt;
      pos_ += token.size();
      return op;
    }
    return std::nullopt;
  }

  CExpr parseLevel(int level) {
    if (level == precedence(COp::kNeg)) return parseUnary();
    CExpr lhs = parseLevel(level + 1);
    while (std::optional<COp> op = binaryAt(level)) lhs = binary(*op, lhs, parseLevel(level + 1));
    return lhs;
  }

  CExpr parseUnary() {
    if (accept("-")) return negate(parseUnary());
    return parsePrimary();
  }

  CWidth parseTypeArgument() {
    expect("<");
    CWidth width = accept("int32_t")   ? CWidth::k32
                   : accept("int64_t") ? CWidth::k64
                                       : [&]() -> CWidth { fail("expected int32_t or int64_t"); }();
    expect(">");
    return width;
  }

  CExpr parsePrimary() {
    skipSpace();
    if (accept("(")) {
      CExpr inner = parseLevel(1);
      expect(")");
      return inner;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      uint64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        unsigned digit = static_cast<unsigned>(text_[pos_++] - '0');
        if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) fail("literal too large");
        value = value * 10 + digit;
      }
      bool longLong = accept("LL");
      // C gives an unsuffixed literal past int the type long: 64 bits here.
      if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail("literal does not fit in int64_t");
      CExprNode node{COp::kLiteral, static_cast<int64_t>(value), "", CWidth::k32, {}};
      node.width = longLong || !fitsInt32(node.value) ? CWidth::k64 : CWidth::k32;
      return make(std::move(node));
    }
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    std::string name(text_.substr(start, pos_ - start));
    if (name.empty()) fail("expected an expression");
    if (name == "static_cast") {
      CWidth width = parseTypeArgument();
      expect("(");
      CExpr operand = parseLevel(1);
      expect(")");
      return cast(width, operand);
    }
    for (const DeclaredVariable& v : declared_)  // a thread's share bounds are idxmap_ names
      if (v.name == name) return variable(name, v.width);
    if (name.rfind("idxmap_", 0) == 0) {
      CWidth width = parseTypeArgument();
      expect("(");
      std::vector<CExpr> arguments{parseLevel(1)};
      while (accept(",")) arguments.push_back(parseLevel(1));
      expect(")");
      return call(name, width, std::move(arguments));
    }
    fail("`" + name + "` is not declared");
  }

  std::string_view text_;
  const std::vector<DeclaredVariable>& declared_;
  size_t pos_ = 0;
};

}  // namespace

const char* typeName(CWidth width) { return width == CWidth::k32 ? "int32_t" : "int64_t"; }

CExpr literal(int64_t value) {
  return make({COp::kLiteral, value, "", fitsInt32(value) ? CWidth::k32 : CWidth::k64, {}});
}
CExpr variable(std::string name, CWidth width) {
  return make({COp::kVariable, 0, std::move(name), width, {}});
}
CExpr binary(COp op, CExpr lhs, CExpr rhs) { return make({op, 0, "", CWidth::k64, {lhs, rhs}}); }
CExpr negate(CExpr operand) { return make({COp::kNeg, 0, "", CWidth::k64, {operand}}); }
CExpr call(std::string function, CWidth width, std::vector<CExpr> arguments) {
  return make({COp::kCall, 0, std::move(function), width, std::move(arguments)});
}
CExpr cast(CWidth width, CExpr operand) { return make({COp::kCast, 0, "", width, {operand}}); }

CExpr replaceVariable(const CExpr& expr, const std::string& name, const CExpr& by) {
  if (expr->op == COp::kVariable) return expr->name == name ? by : expr;
  CExprNode copy = *expr;
  bool changed = false;
  for (CExpr& operand : copy.operands) {
    CExpr replaced = replaceVariable(operand, name, by);
    changed = changed || replaced != operand;
    operand = std::move(replaced);
  }
  return changed ? make(std::move(copy)) : expr;
}

CWidth widthOf(const CExpr& expr) {
  switch (expr->op) {
    case COp::kLiteral:
    case COp::kVariable:
    case COp::kCall:
    case COp::kCast:
      return expr->width;
    case COp::kNeg:
      return widthOf(expr->operands[0]);
    case COp::kLessEqual:
    case COp::kGreaterEqual:
    case COp::kLess:
    case COp::kEqual:
    case COp::kAnd:
      return CWidth::k32;
    default:
      return widthOf(expr->operands[0]) == CWidth::k64 || widthOf(expr->operands[1]) == CWidth::k64
                 ? CWidth::k64
                 : CWidth::k32;
  }
}

std::string printCExpr(const CExpr& expr) {
  std::string out;
  print(expr, out);
  return out;
}

CExpr parseCExpr(std::string_view text, const std::vector<DeclaredVariable>& declared) {
  return Parser(text, declared).parseAll();
}

}  // namespace idxmap::codegen
