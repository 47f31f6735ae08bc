#include "codegen/prelude/element_code.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {
namespace {

using Kind = ElementCode::Kind;

// One line per opcode: its value on floats (f16 / bf16 computed in float, then rounded), on
// integers, on pred; "" where XLA does not define it. $0.. are the operands, $T the operand's
// compute type, $U its unsigned twin ($B: a sub-byte type's width, kNarrowRules).
struct ElementRule {
  const char* onFloat;
  const char* onInt;
  const char* onPred;
  bool predResult = false;  // compare, is-finite: the result is pred whatever the operands
};

const std::map<std::string_view, ElementRule, std::less<>>& rules() {
  static const std::map<std::string_view, ElementRule, std::less<>> table = {
      {"abs", {"std::fabs($0)", "idxmap_int_abs($0)", ""}},
      {"negate", {"-$0", "idxmap_wrap_neg($0)", ""}},
      {"sign", {"idxmap_float_sign($0)", "idxmap_int_sign($0)", ""}},
      {"not", {"", "static_cast<$T>(~$0)", "!$0"}},
      {"ceil", {"std::ceil($0)", "", ""}},
      {"floor", {"std::floor($0)", "", ""}},
      {"round-nearest-even", {"std::nearbyint($0)", "", ""}},
      {"round-nearest-afz", {"std::round($0)", "", ""}},
      {"sqrt", {"std::sqrt($0)", "", ""}},
      {"rsqrt", {"$T(1) / std::sqrt($0)", "", ""}},
      {"cbrt", {"std::cbrt($0)", "", ""}},
      {"exponential", {"std::exp($0)", "", ""}},
      {"exponential-minus-one", {"std::expm1($0)", "", ""}},
      {"log", {"std::log($0)", "", ""}},
      {"log-plus-one", {"std::log1p($0)", "", ""}},
      {"logistic", {"$T(1) / ($T(1) + std::exp(-$0))", "", ""}},
      {"sine", {"std::sin($0)", "", ""}},
      {"cosine", {"std::cos($0)", "", ""}},
      {"tan", {"std::tan($0)", "", ""}},
      {"tanh", {"std::tanh($0)", "", ""}},
      {"sinh", {"std::sinh($0)", "", ""}},
      {"cosh", {"std::cosh($0)", "", ""}},
      {"asin", {"std::asin($0)", "", ""}},
      {"acos", {"std::acos($0)", "", ""}},
      {"asinh", {"std::asinh($0)", "", ""}},
      {"acosh", {"std::acosh($0)", "", ""}},
      {"atanh", {"std::atanh($0)", "", ""}},
      {"erf", {"std::erf($0)", "", ""}},
      {"is-finite", {"std::isfinite($0)", "", "", true}},
      {"popcnt", {"", "static_cast<$T>(std::popcount(static_cast<$U>($0)))", ""}},
      {"count-leading-zeros", {"", "static_cast<$T>(std::countl_zero(static_cast<$U>($0)))", ""}},
      {"add", {"$0 + $1", "idxmap_wrap_add($0, $1)", "$0 || $1"}},
      {"subtract", {"$0 - $1", "idxmap_wrap_sub($0, $1)", ""}},
      {"multiply", {"$0 * $1", "idxmap_wrap_mul($0, $1)", "$0 && $1"}},
      {"divide", {"$0 / $1", "idxmap_int_div($0, $1)", ""}},
      {"remainder", {"std::fmod($0, $1)", "idxmap_int_rem($0, $1)", ""}},
      {"power", {"std::pow($0, $1)", "", ""}},
      {"atan2", {"std::atan2($0, $1)", "", ""}},
      {"maximum", {"idxmap_ieee_max($0, $1)", "idxmap_max($0, $1)", "$0 || $1"}},
      {"minimum", {"idxmap_ieee_min($0, $1)", "idxmap_min($0, $1)", "$0 && $1"}},
      {"and", {"", "static_cast<$T>($0 & $1)", "$0 && $1"}},
      {"or", {"", "static_cast<$T>($0 | $1)", "$0 || $1"}},
      {"xor", {"", "static_cast<$T>($0 ^ $1)", "$0 != $1"}},
      {"shift-left", {"", "idxmap_shl($0, $1)", ""}},
      {"shift-right-logical", {"", "idxmap_shr_logical($0, $1)", ""}},
      {"shift-right-arithmetic", {"", "idxmap_shr_arithmetic($0, $1)", ""}},
      {"compare", {"$0 $D $1", "$0 $D $1", "$0 $D $1", true}},
      // select and clamp read their type from operand 1 (select's operand 0 is the pred).
      {"select", {"$0 ? $1 : $2", "$0 ? $1 : $2", "$0 ? $1 : $2"}},
      {"clamp",
       {"idxmap_ieee_min(idxmap_ieee_max($1, $0), $2)", "idxmap_min(idxmap_max($1, $0), $2)",
        "($1 || $0) && $2"}},
  };
  return table;
}

const std::map<std::string_view, std::string_view, std::less<>> kDirections = {
    {"EQ", "=="}, {"NE", "!="}, {"LT", "<"}, {"LE", "<="}, {"GT", ">"}, {"GE", ">="}};

std::optional<std::string> substitute(std::string_view pattern,
                                      const std::vector<std::string>& operands,
                                      const ElementCode& type, std::string_view direction) {
  // An op of another number of operands than the pattern reads is not this opcode's (a
  // malformed region's `select(a, b)`, an `add` of three): no value, rather than one that
  // drops an operand.
  size_t arity = 0;
  for (size_t i = 0; i + 1 < pattern.size(); ++i)
    if (pattern[i] == '$' && pattern[i + 1] >= '0' && pattern[i + 1] <= '9')
      arity = std::max(arity, static_cast<size_t>(pattern[i + 1] - '0') + 1);
  if (operands.size() != arity) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '$' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    char c = pattern[++i];
    if (c == 'T')
      out += type.compute;
    else if (c == 'U')
      out += "std::make_unsigned_t<" + type.compute + ">";
    else if (c == 'D')
      out += std::string(direction);
    else if (c == 'B')
      out += std::to_string(type.bits);
    else
      out += "(" + operands.at(static_cast<size_t>(c - '0')) + ")";
  }
  return out;
}

// A double as an exact C++ literal (hexadecimal), infinities and NaN by name.
std::string exactDouble(double value) {
  if (std::isnan(value)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(value))
    return value > 0 ? "std::numeric_limits<double>::infinity()"
                     : "-std::numeric_limits<double>::infinity()";
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}

std::string halfName(const ElementCode& type) { return type.hloType == "f16" ? "f16" : "bf16"; }

// A value of a sub-byte type's compute type brought back to the type's width.
std::string narrowed(const ElementCode& type, const std::string& value) {
  return "idxmap_narrow<" + std::to_string(type.bits) + ">(" + value + ")";
}

// A complex type's parts: float (c64) or double (c128).
std::string partType(const ElementCode& type) { return type.hloType == "c64" ? "float" : "double"; }

// The opcodes on complex values (element_code.h), one a line, in substitute()'s patterns with
// the result's type as $T; each operand of one complex type, or of its part type for `complex`.
const std::map<std::string_view, const char*, std::less<>> kComplexRules = {
    {"add", "idxmap_complex_add($0, $1)"},
    {"subtract", "idxmap_complex_sub($0, $1)"},
    {"multiply", "idxmap_complex_mul($0, $1)"},
    {"negate", "idxmap_complex_neg($0)"},
    {"select", "$0 ? $1 : $2"},
    {"complex", "$T{$0, $1}"},
    {"real", "$0.re"},
    {"imag", "$0.im"},
};

std::optional<std::string> complexValue(std::string_view opcode, std::string_view direction,
                                        const std::vector<ElementCode>& operandTypes,
                                        const ElementCode& resultType,
                                        const std::vector<std::string>& operands) {
  if (opcode == "compare" && operands.size() == 2 && operandTypes[0].kind == Kind::kComplex &&
      operandTypes[1].hloType == operandTypes[0].hloType) {
    if (direction != "EQ" && direction != "NE") return std::nullopt;  // complex has no order
    return substitute(
        direction == "NE" ? "!idxmap_complex_eq($0, $1)" : "idxmap_complex_eq($0, $1)", operands,
        resultType, direction);
  }
  auto found = kComplexRules.find(opcode);
  if (found == kComplexRules.end()) return std::nullopt;
  return substitute(found->second, operands, resultType, direction);
}

// `(re, im)` as HLO writes a complex element (a lone real: its imaginary part 0); nullopt for
// text that is not one.
std::optional<std::string> complexLiteral(const ElementCode& type, std::string_view text) {
  const ElementCode part = *elementCode(partType(type) == "float" ? "f32" : "f64");
  std::string_view re = text, im = "0";
  if (text.front() == '(') {
    const size_t comma = text.find(',');
    if (text.back() != ')' || comma == std::string_view::npos) return std::nullopt;
    re = text.substr(1, comma - 1);
    im = text.substr(comma + 1, text.size() - comma - 2);
  }
  auto trimmed = [](std::string_view v) {
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    return v;
  };
  std::optional<std::string> r = literalElement(part, trimmed(re)),
                             i = literalElement(part, trimmed(im));
  if (!r || !i) return std::nullopt;
  return type.compute + "{" + *r + ", " + *i + "}";
}

// The opcodes whose integer rule reads the operand's bits as unsigned at the storage's width:
// a sub-byte type's pattern instead ($B: its width).
const std::map<std::string_view, const char*, std::less<>> kNarrowRules = {
    {"shift-right-logical", "idxmap_narrow_shr_logical<$B>($0, $1)"},
    {"popcnt", "idxmap_narrow_popcount<$B>($0)"},
    {"count-leading-zeros", "idxmap_narrow_countl_zero<$B>($0)"},
};

}  // namespace

std::string hloTypeName(const std::string& stablehloType) {
  auto width = [&](size_t from) {  // the digits after a prefix, or empty
    const std::string digits = stablehloType.substr(std::min(from, stablehloType.size()));
    const bool all = !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
    return all ? digits : std::string();
  };
  if (stablehloType == "i1") return "pred";
  if (stablehloType.starts_with("ui") && !width(2).empty()) return "u" + width(2);
  if (stablehloType.starts_with("i") && !width(1).empty()) return "s" + width(1);
  return stablehloType;
}

std::optional<ElementCode> elementCode(const std::string& hloType) {
  static const std::map<std::string, ElementCode, std::less<>> types = {
      {"f32", {"f32", "float", "float", Kind::kFloat}},
      {"f64", {"f64", "double", "double", Kind::kFloat}},
      {"f16", {"f16", "uint16_t", "float", Kind::kHalf}},
      {"bf16", {"bf16", "uint16_t", "float", Kind::kHalf}},
      {"pred", {"pred", "bool", "bool", Kind::kPred}},
      {"c64", {"c64", "idxmap_c64", "idxmap_c64", Kind::kComplex}},
      {"c128", {"c128", "idxmap_c128", "idxmap_c128", Kind::kComplex}},
      {"s2", {"s2", "int8_t", "int8_t", Kind::kInt, 2, true}},
      {"s4", {"s4", "int8_t", "int8_t", Kind::kInt, 4, true}},
      {"s8", {"s8", "int8_t", "int8_t", Kind::kInt, 8, true}},
      {"s16", {"s16", "int16_t", "int16_t", Kind::kInt, 16, true}},
      {"s32", {"s32", "int32_t", "int32_t", Kind::kInt, 32, true}},
      {"s64", {"s64", "int64_t", "int64_t", Kind::kInt, 64, true}},
      {"u2", {"u2", "uint8_t", "uint8_t", Kind::kInt, 2, false}},
      {"u4", {"u4", "uint8_t", "uint8_t", Kind::kInt, 4, false}},
      {"u8", {"u8", "uint8_t", "uint8_t", Kind::kInt, 8, false}},
      {"u16", {"u16", "uint16_t", "uint16_t", Kind::kInt, 16, false}},
      {"u32", {"u32", "uint32_t", "uint32_t", Kind::kInt, 32, false}},
      {"u64", {"u64", "uint64_t", "uint64_t", Kind::kInt, 64, false}},
  };
  auto found = types.find(hloType);
  if (found == types.end()) return std::nullopt;
  return found->second;
}

std::string packedBufferType(const ElementCode& type, bool written) {
  return "idxmap_packed<" + std::to_string(type.bits) + ", " + type.compute + ", " +
         (written ? "" : "const ") + "uint8_t>";
}

std::string loadElement(const ElementCode& type, const std::string& stored) {
  if (type.kind == Kind::kHalf) return "idxmap_" + halfName(type) + "_to_f32(" + stored + ")";
  if (type.narrow()) return narrowed(type, "static_cast<" + type.compute + ">(" + stored + ")");
  return stored;
}

std::string storeElement(const ElementCode& type, const std::string& value) {
  if (type.kind == Kind::kHalf) return "idxmap_f32_to_" + halfName(type) + "(" + value + ")";
  return value;
}

std::optional<std::string> literalElement(const ElementCode& type, std::string_view text) {
  std::string s(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  if (type.kind == Kind::kPred) {
    if (s == "true" || s == "1") return "true";
    if (s == "false" || s == "0") return "false";
    return std::nullopt;
  }
  if (type.kind == Kind::kComplex) return complexLiteral(type, s);
  if (type.kind == Kind::kInt) {
    if (type.isSigned) {
      long long v = std::strtoll(s.c_str(), &end, 10);
      if (errno || *end ||
          (type.bits < 64 && (v < -(1LL << (type.bits - 1)) || v >= (1LL << (type.bits - 1)))))
        return std::nullopt;
      // INT64_MIN has no literal of its own: written as a sum.
      if (v == std::numeric_limits<long long>::min())
        return "static_cast<int64_t>(-9223372036854775807LL - 1)";
      return "static_cast<" + type.compute + ">(" + std::to_string(v) + "LL)";
    }
    if (s[0] == '-') return std::nullopt;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno || *end || (type.bits < 64 && v >= (1ULL << type.bits))) return std::nullopt;
    return "static_cast<" + type.compute + ">(" + std::to_string(v) + "ULL)";
  }
  double v = std::strtod(s.c_str(), &end);
  if (*end) return std::nullopt;  // overflow gives an infinity, as XLA's reader does
  if (type.compute == "double") return exactDouble(v);
  if (type.kind == Kind::kFloat) return "static_cast<float>(" + exactDouble(v) + ")";
  return "idxmap_round_" + halfName(type) + "(idxmap_f64_to_f32_odd(" + exactDouble(v) + "))";
}

std::string convertElement(const ElementCode& from, const ElementCode& to,
                           const std::string& value) {
  const std::string v = "(" + value + ")";
  const bool fromFloat = from.kind == Kind::kFloat || from.kind == Kind::kHalf;
  switch (to.kind) {
    case Kind::kComplex: {  // from a real type: its value, no imaginary part
      const std::string part = "static_cast<" + partType(to) + ">";
      if (from.kind == Kind::kComplex)
        return to.compute + "{" + part + "(" + v + ".re), " + part + "(" + v + ".im)}";
      return to.compute + "{" + part + v + ", " + partType(to) + "(0)}";
    }
    case Kind::kPred:
      return fromFloat ? v + " != 0" : v + " != 0";
    case Kind::kInt:
      if (to.narrow() && fromFloat)
        return "idxmap_float_to_narrow<" + to.compute + ", " + std::to_string(to.bits) + ">" + v;
      if (to.narrow()) return narrowed(to, "static_cast<" + to.compute + ">" + v);
      if (fromFloat) return "idxmap_float_to_int<" + to.compute + ">" + v;
      return "static_cast<" + to.compute + ">" + v;
    case Kind::kFloat:
      return "static_cast<" + to.compute + ">" + v;
    case Kind::kHalf: {
      std::string round = "idxmap_round_" + halfName(to);
      if (from.kind == Kind::kHalf || from.compute == "float") return round + v;
      if (from.compute == "double") return round + "(idxmap_f64_to_f32_odd" + v + ")";
      if (from.kind == Kind::kPred) return round + "(static_cast<float>" + v + ")";
      return round + "(idxmap_int_to_f32_odd" + v + ")";
    }
  }
  return value;
}

namespace {

// Bytes of a type's storage; 0 for pred (a bool's bits are not HLO's one bit).
int storageWidth(const ElementCode& type) {
  static const std::map<std::string, int, std::less<>> widths = {
      {"int8_t", 1},   {"uint8_t", 1}, {"int16_t", 2}, {"uint16_t", 2}, {"int32_t", 4},
      {"uint32_t", 4}, {"float", 4},   {"int64_t", 8}, {"uint64_t", 8}, {"double", 8}};
  auto found = widths.find(type.storage);
  return type.kind == Kind::kPred || found == widths.end() ? 0 : found->second;
}

}  // namespace

std::optional<std::string> elementwiseValue(std::string_view opcode, std::string_view direction,
                                            const std::vector<ElementCode>& operandTypes,
                                            const ElementCode& resultType,
                                            const std::vector<std::string>& operands) {
  if (opcode == "convert" && operands.size() == 1) {
    // XLA converts complex values to complex types only.
    if (operandTypes.at(0).kind == Kind::kComplex && resultType.kind != Kind::kComplex)
      return std::nullopt;
    return convertElement(operandTypes.at(0), resultType, operands[0]);
  }
  if (!operandTypes.empty() &&
      (resultType.kind == Kind::kComplex ||
       std::any_of(operandTypes.begin(), operandTypes.end(),
                   [](const ElementCode& t) { return t.kind == Kind::kComplex; })))
    return complexValue(opcode, direction, operandTypes, resultType, operands);
  // The operand's stored bits read as the result's storage: types of one width only (another
  // width changes the shape, which no elementwise value does).
  if (opcode == "bitcast-convert" && operands.size() == 1) {
    const int width = storageWidth(operandTypes.at(0));
    if (width == 0 || width != storageWidth(resultType)) return std::nullopt;
    // A sub-byte type's bits are fewer than its storage's: only its own width reads them.
    if ((operandTypes[0].narrow() || resultType.narrow()) &&
        operandTypes[0].bits != resultType.bits)
      return std::nullopt;
    return loadElement(resultType, "std::bit_cast<" + resultType.storage + ">(" +
                                       storeElement(operandTypes[0], operands[0]) + ")");
  }
  auto found = rules().find(opcode);
  if (found == rules().end() || operandTypes.empty()) return std::nullopt;
  const ElementRule& rule = found->second;
  const ElementCode& type = (opcode == "select" || opcode == "clamp") && operandTypes.size() > 1
                                ? operandTypes[1]
                                : operandTypes[0];
  std::string_view symbol;
  if (opcode == "compare") {
    auto d = kDirections.find(direction);
    if (d == kDirections.end()) return std::nullopt;
    symbol = d->second;
  }
  const char* pattern = type.kind == Kind::kPred  ? rule.onPred
                        : type.kind == Kind::kInt ? rule.onInt
                                                  : rule.onFloat;
  if (auto narrowRule = kNarrowRules.find(opcode);
      type.narrow() && narrowRule != kNarrowRules.end())
    pattern = narrowRule->second;
  if (!*pattern) return std::nullopt;
  std::optional<std::string> substituted = substitute(pattern, operands, type, symbol);
  if (!substituted) return std::nullopt;
  std::string value = *substituted;
  // A sub-byte result wraps at its width; select, clamp, maximum and minimum pick an operand.
  const bool picks =
      opcode == "select" || opcode == "clamp" || opcode == "maximum" || opcode == "minimum";
  if (resultType.narrow() && !rule.predResult && !picks) value = narrowed(resultType, value);
  // A float operation on f16 / bf16 rounds its float result to the type; select and clamp
  // pick an operand's value, which is already one.
  if (type.kind == Kind::kHalf && !rule.predResult && opcode != "select" && opcode != "clamp")
    value = "idxmap_round_" + halfName(type) + "(" + value + ")";
  return value;
}

}  // namespace idxmap::codegen
