// CExpr: an index expression as emitted C++ computes it. Unlike core's Expr (exact integers,
// floor semantics) a CExpr has C's: each node has a width (int32_t or int64_t, by C's usual
// arithmetic conversions), `/` and `%` truncate toward zero, and floor division is a call to
// the prelude's idxmap_floordiv<T>. The emitter builds CExprs, prints them into the kernel,
// and validation parses the printed text back (parseCExpr) and proves it equal to the map's
// Expr: what is checked is the code as written, not the emitter's intentions.
//
// Invariants: a call's template width is at least each argument's width (no narrowing);
// kMul, kDiv and kRem have a literal right operand, positive for kDiv and kRem.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/checked.h"

namespace idxmap::codegen {

enum class CWidth : uint8_t { k32, k64 };
const char* typeName(CWidth width);  // "int32_t", "int64_t"

enum class COp : uint8_t {
  kLiteral,   // an integer literal: int when it fits in 32 bits, else with an LL suffix
  kVariable,  // d0, rt1, ...: declared with a width
  kAdd,
  kSub,
  kMul,  // rhs a literal
  kNeg,
  kDiv,   // C '/' (truncating); rhs a positive literal
  kRem,   // C '%' (truncating); rhs a positive literal
  kCall,  // idxmap_floordiv / floormod / ceildiv / min / max <width>(args)
  kCast,  // (int64_t)(arg) or (int32_t)(arg)
  // Conditions (guards): comparisons give C's int, && short-circuits.
  kLessEqual,
  kGreaterEqual,
  kLess,
  kEqual,
  kAnd,
};

struct CExprNode;
using CExpr = std::shared_ptr<const CExprNode>;

struct CExprNode {
  COp op;
  int64_t value = 0;           // kLiteral
  std::string name;            // kVariable: its name; kCall: the function
  CWidth width = CWidth::k64;  // kVariable: declared; kCall and kCast: the template/cast type
  std::vector<CExpr> operands;
};

// Builders. Each computes nothing: they build the node as written.
CExpr literal(int64_t value);
CExpr variable(std::string name, CWidth width);
CExpr binary(COp op, CExpr lhs, CExpr rhs);
CExpr negate(CExpr operand);
CExpr call(std::string function, CWidth width, std::vector<CExpr> arguments);
CExpr cast(CWidth width, CExpr operand);

// `expr` with every use of variable `name` replaced by `by` (the rest of the tree shared).
CExpr replaceVariable(const CExpr& expr, const std::string& name, const CExpr& by);

// The width C evaluates the node in: literals by their value, variables as declared, binary
// arithmetic the wider operand's, calls and casts their type; comparisons are int (32).
CWidth widthOf(const CExpr& expr);

// C text with the parentheses C's precedence needs, e.g. `d0 * 4 + rt0 % 3`.
std::string printCExpr(const CExpr& expr);

class CExprParseError : public Error {
 public:
  using Error::Error;
};

// Reads printed text back. `declared` gives the variables in scope and their widths; an
// unknown name, a construct outside the printed subset or trailing text throws
// CExprParseError.
struct DeclaredVariable {
  std::string name;
  CWidth width;
};
CExpr parseCExpr(std::string_view text, const std::vector<DeclaredVariable>& declared);

}  // namespace idxmap::codegen
