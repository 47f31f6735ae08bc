#include "codegen/validation.h"
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

#include "codegen/isl_expressions_internal.h"
#include "codegen/width_proof.h"
#include "core/bridges/isl_bridge.h"
#include "core/text.h"

namespace idxmap::codegen {
namespace {

using isl_bridge::own;

Interval widthRange(CWidth width) {
  if (width == CWidth::k32)
    return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  return Interval::unbounded();
}

bool isCondition(COp op) {
  return op == COp::kLessEqual || op == COp::kGreaterEqual || op == COp::kLess ||
         op == COp::kEqual || op == COp::kAnd;
}

// The expression as C computes it at `values` (named as the validator's variables), in
// 128 bits so that a replay never overflows itself.
__int128 evaluateC(const CExpr& e, const std::vector<std::string>& names,
                   const std::vector<int64_t>& values) {
  auto arg = [&](size_t i) { return evaluateC(e->operands.at(i), names, values); };
  switch (e->op) {
    case COp::kLiteral:
      return e->value;
    case COp::kVariable:
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == e->name ||
            (names[i].rfind("rt", 0) == 0 && "v" + names[i].substr(2) == e->name))
          return values[i];
      throw Error("unknown variable " + e->name);
    case COp::kAdd:
      return arg(0) + arg(1);
    case COp::kSub:
      return arg(0) - arg(1);
    case COp::kMul:
      return arg(0) * arg(1);
    case COp::kNeg:
      return -arg(0);
    case COp::kDiv:
      return arg(0) / arg(1);
    case COp::kRem:
      return arg(0) % arg(1);
    case COp::kCast:
      return arg(0);
    case COp::kCall: {
      __int128 a = arg(0), b = arg(1);
      if (e->name == "idxmap_min") return a < b ? a : b;
      if (e->name == "idxmap_max") return a < b ? b : a;
      if (e->name == "idxmap_clamp") {
        __int128 hi = arg(2);
        return a < b ? b : (hi < a ? hi : a);
      }
      __int128 q = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
      if (e->name == "idxmap_floordiv") return q;
      if (e->name == "idxmap_floormod") return a - q * b;
      if (e->name == "idxmap_ceildiv")
        return -((-a) / b - (((-a) % b != 0) && ((-a < 0) != (b < 0))));
      throw Error("unknown function " + e->name);
    }
    case COp::kLessEqual:
      return arg(0) <= arg(1);
    case COp::kGreaterEqual:
      return arg(0) >= arg(1);
    case COp::kLess:
      return arg(0) < arg(1);
    case COp::kEqual:
      return arg(0) == arg(1);
    case COp::kAnd:
      return arg(0) && arg(1);
  }
  return 0;
}

// Marks the bit-width proof's certificate among isl's.
constexpr const char* kZ3Certificate = "[z3] ";

// Whether some operation of `e` is evaluated in int32_t (a literal alone is not one).
bool computesInInt32(const CExpr& e) {
  if (e->op != COp::kLiteral && widthOf(e) == CWidth::k32) return true;
  for (const CExpr& operand : e->operands)
    if (computesInInt32(operand)) return true;
  return false;
}

std::string describe(__int128 v) {
  if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max())
    return std::to_string(static_cast<int64_t>(v));
  return v < 0 ? "a value below -2^63" : "a value above 2^63 - 1";
}

}  // namespace

struct KernelValidator::State {
  IndexingMap map;
  std::vector<DeclaredVariable> declared;
  IslExpressions expressions;
  isl::set box, guarded;

  State(const IndexingMap& m, std::vector<DeclaredVariable> d)
      : map(m), declared(std::move(d)), expressions(m.dims.size(), m.runtimeVars.size()) {
    box = expressions.universe();
    size_t position = 0;
    for (const Variable& v : map.dims)
      box = box.intersect(expressions.inRange(position++, v.range));
    for (const Variable& v : map.runtimeVars)
      box = box.intersect(expressions.inRange(position++, v.range));
    guarded = box;
    for (const Constraint& c : map.constraints) {
      isl::set holds = expressions.valueIn(expressions.fromExpr(c.expr), c.range);
      if (usesOnlyDims(c.expr)) box = box.intersect(holds);
      guarded = guarded.intersect(holds);
    }
  }

  // The points of the map's domain where every constraint of `constraints` holds.
  isl::set satisfying(const std::vector<Constraint>& constraints) const {
    isl::set out = guarded;
    for (const Constraint& c : constraints)
      out = out.intersect(expressions.valueIn(expressions.fromExpr(c.expr), c.range));
    return out;
  }

  // A point of `set` as values of the variables; nullopt when it is empty.
  std::optional<std::vector<int64_t>> sample(const isl::set& set) const {
    if (isl_bridge::checked(isl_set_is_empty(set.get()))) return std::nullopt;
    isl::point point = own(isl_set_sample_point(set.copy()));
    std::vector<int64_t> values;
    for (size_t i = 0; i < expressions.names().size(); ++i)
      values.push_back(isl_bridge::toInt64(
          own(isl_point_get_coordinate_val(point.get(), isl_dim_set, static_cast<int>(i)))));
    return values;
  }

  std::string pointText(const std::vector<int64_t>& values) const {
    std::string out = "(";
    for (size_t i = 0; i < values.size(); ++i)
      out += (i ? ", " : "") + expressions.names()[i] + " = " + std::to_string(values[i]);
    return out + ")";
  }

  ProofResult refuted(const std::string& what, const std::vector<int64_t>& values) const {
    Counterexample counterexample;
    counterexample.dims.assign(values.begin(), values.begin() + static_cast<long>(map.dims.size()));
    counterexample.runtimeVars.assign(values.begin() + static_cast<long>(map.dims.size()),
                                      values.end());
    counterexample.explanation = what + " at " + pointText(values);
    return ProofResult::refuted("isl", counterexample);
  }

  // Every node of `e` stays in its width's range on `domain`; call arguments do not narrow.
  std::optional<ProofResult> checkWidths(const std::string& role, const CExpr& e,
                                         const isl::set& domain) const {
    for (const CExpr& operand : e->operands)
      if (auto failure = checkWidths(role, operand, domain)) return failure;
    if (e->op == COp::kCall)
      for (const CExpr& operand : e->operands)
        if (widthOf(operand) == CWidth::k64 && e->width == CWidth::k32)
          return ProofResult::refuted(
              "isl", role + ": `" + printCExpr(e) + "` passes an int64_t to an int32_t function");
    if (isCondition(e->op) || e->op == COp::kLiteral) return std::nullopt;
    CWidth width = widthOf(e);
    isl::pw_aff value = expressions.fromCExpr(e);
    isl::set inside = expressions.valueIn(value, widthRange(width));
    isl::set outside = own(isl_set_subtract(domain.copy(), inside.release()));
    if (auto values = sample(outside)) {
      __int128 actual = evaluateC(e, expressions.names(), *values);
      if (actual >= widthRange(width).lo && actual <= widthRange(width).hi)
        return ProofResult::unknown(role + ": isl found a point where `" + printCExpr(e) +
                                    "` leaves " + typeName(width) + ", evaluation did not confirm");
      return refuted(role + ": `" + printCExpr(e) + "` is " + describe(actual) + ", outside " +
                         typeName(width),
                     *values);
    }
    return std::nullopt;
  }
};

KernelValidator::KernelValidator(const IndexingMap& map, std::vector<DeclaredVariable> declared)
    : state_(isl_bridge::withIslBudget(
          [&] { return std::make_unique<State>(map, std::move(declared)); })) {}

KernelValidator::~KernelValidator() = default;

const IndexingMap& KernelValidator::map() const { return state_->map; }

ProofResult KernelValidator::checkExpression(const std::string& role, const std::string& text,
                                             Expr meaning, Where where,
                                             std::optional<int64_t> bufferElements) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      CExpr code = parseCExpr(text, state_->declared);
      const isl::set& domain = where == Where::kBox ? state_->box : state_->guarded;
      if (auto failure = state_->checkWidths(role, code, domain)) return *failure;
      isl::pw_aff value = state_->expressions.fromCExpr(code);
      if (!meaning.isNull()) {
        isl::pw_aff expected = state_->expressions.fromExpr(meaning);
        isl::set differs =
            own(isl_set_intersect(isl_pw_aff_ne_set(value.copy(), expected.copy()), domain.copy()));
        if (auto values = state_->sample(differs)) {
          const size_t dims = state_->map.dims.size();
          std::vector<int64_t> d(values->begin(), values->begin() + static_cast<long>(dims)),
              rt(values->begin() + static_cast<long>(dims), values->end());
          __int128 actual = evaluateC(code, state_->expressions.names(), *values);
          int64_t wanted = meaning.evaluate(d, {}, rt);
          if (actual == wanted)
            return ProofResult::unknown(role + ": isl and evaluation disagree at " +
                                        state_->pointText(*values));
          return state_->refuted(role + ": `" + text + "` is " + describe(actual) + " where " +
                                     printExpr(meaning, &state_->map) + " is " +
                                     std::to_string(wanted),
                                 *values);
        }
      }
      if (bufferElements) {
        isl::set inside = state_->expressions.valueIn(value, {0, *bufferElements - 1});
        isl::set outside = own(isl_set_subtract(domain.copy(), inside.release()));
        if (auto values = state_->sample(outside))
          return state_->refuted(
              role + ": `" + text + "` is " +
                  describe(evaluateC(code, state_->expressions.names(), *values)) +
                  ", outside a buffer of " + std::to_string(*bufferElements) + " elements",
              *values);
      }
      if (computesInInt32(code)) widthQuestions_.push_back({role, code, where == Where::kGuarded});
      certificates_.push_back(
          role + ": `" + text + "`" + (meaning.isNull() ? "" : " equals the map's expression") +
          (bufferElements ? ", in bounds" : "") + ", no " + typeName(widthOf(code)) + " overflow");
      return ProofResult::proven("isl");
    });
  } catch (const CExprParseError& error) {
    return ProofResult::refuted("read-back", role + ": " + error.what());
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(role + ": " + error.what());
  }
}

ProofResult KernelValidator::checkRuntimeValue(size_t k, const std::string& text, bool clamped,
                                               const std::string& why, const std::string& raw) {
  const std::string rt = "rt" + std::to_string(k), v = "v" + std::to_string(k);
  const std::string name = raw.empty() ? v : raw;
  const std::string role = rt + " from " + name;
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      // Read back with the loaded value named as the validator names rt<k>'s: v<k>.
      std::function<CExpr(const CExpr&)> rename = [&](const CExpr& e) {
        if (e->op == COp::kVariable) return variable(v, e->width);
        CExprNode node = *e;
        for (CExpr& operand : node.operands) operand = rename(operand);
        return std::make_shared<const CExprNode>(std::move(node));
      };
      CExpr code = rename(parseCExpr(text, {{name, CWidth::k64}}));
      const Interval range = state_->map.runtimeVars.at(k).range;
      const IslExpressions& expressions = state_->expressions;
      // v<k> is rt<k>'s position in the validator's space (IslExpressions::position).
      isl::set domain = expressions.universe().intersect(
          expressions.inRange(expressions.position(rt), clamped ? widthRange(CWidth::k64) : range));
      if (auto failure = state_->checkWidths(role, code, domain)) return *failure;
      const Expr raw = Expr::runtimeVar(static_cast<unsigned>(k));
      const Expr meaning =
          clamped ? Expr::min(Expr::max(raw, Expr::constant(range.lo)), Expr::constant(range.hi))
                  : raw;
      isl::set differs =
          own(isl_set_intersect(isl_pw_aff_ne_set(expressions.fromCExpr(code).release(),
                                                  expressions.fromExpr(meaning).release()),
                                domain.copy()));
      if (auto values = state_->sample(differs)) {
        const size_t at = expressions.position(rt);
        __int128 actual = evaluateC(code, expressions.names(), *values);
        int64_t loaded = (*values)[at];
        int64_t wanted = clamped ? std::clamp(loaded, range.lo, range.hi) : loaded;
        if (actual == wanted)
          return ProofResult::unknown(role + ": isl and evaluation disagree at " + name + " = " +
                                      std::to_string(loaded));
        return state_->refuted(role + ": `" + text + "` is " + describe(actual) +
                                   " where the op's " + rt + " is " + std::to_string(wanted),
                               *values);
      }
      certificates_.push_back(role + ": `" + text + "` is the loaded value" +
                              (clamped ? " clamped into [" + std::to_string(range.lo) + ", " +
                                             std::to_string(range.hi) + "], as the op clamps it"
                                       : " wherever it lies in [" + std::to_string(range.lo) +
                                             ", " + std::to_string(range.hi) + "] (" + why + ")"));
      return ProofResult::proven("isl");
    });
  } catch (const CExprParseError& error) {
    return ProofResult::refuted("read-back", role + ": " + error.what());
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(role + ": " + error.what());
  } catch (const Error& error) {
    return ProofResult::unknown(role + ": " + error.what());
  }
}

std::string certificateComment(const std::string& certificate) {
  if (certificate.rfind(kZ3Certificate, 0) == 0)
    return "// validated (Z3, bit-vectors): " + certificate.substr(std::strlen(kZ3Certificate)) +
           "\n";
  return "// validated (isl): " + certificate + "\n";
}

ProofResult KernelValidator::checkBitWidths() {
  if (widthQuestions_.empty()) return ProofResult::proven("isl");
  ProofResult bitwise = proveNoOverflowWithZ3(widthQuestions_, state_->map);
  const std::string count = std::to_string(widthQuestions_.size());
  widthQuestions_.clear();
  if (bitwise.isRefuted())  // isl proved every node in range: one of the two is wrong
    return ProofResult::unknown("isl and Z3 disagree on int32_t arithmetic: " + bitwise.reason);
  certificates_.push_back(
      std::string(kZ3Certificate) +
      (bitwise.isProven() ? "no int32_t operation of the " + count + " expressions above overflows"
                          : "undecided for the " + count + " int32_t expressions above (" +
                                bitwise.reason + "); isl's proof stands"));
  return ProofResult::proven("isl");
}

ProofResult KernelValidator::checkGuard(const std::string& text) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      // Before the guard only the raw loaded values exist: rt<k> is declared after it.
      std::vector<DeclaredVariable> before;
      for (const DeclaredVariable& v : state_->declared)
        if (v.name.rfind("rt", 0) != 0) before.push_back(v);
      CExpr guard = parseCExpr(text, before);
      std::vector<CExpr> conjuncts;
      for (CExpr e = guard;; e = e->operands[0]) {
        if (e->op != COp::kAnd) {
          conjuncts.insert(conjuncts.begin(), e);
          break;
        }
        conjuncts.insert(conjuncts.begin(), e->operands[1]);
      }
      // The range checks compare a raw value with literals: nothing can overflow there, and
      // they must be exactly the runtime variables' ranges for what follows to be bounded.
      const IndexingMap& map = state_->map;
      const size_t checks = 2 * map.runtimeVars.size();
      if (conjuncts.size() < checks)
        return ProofResult::refuted("read-back", "guard `" + text + "` lacks range checks");
      for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
        const CExpr &low = conjuncts[2 * k], &high = conjuncts[2 * k + 1];
        std::string name = "v" + std::to_string(k);
        auto is = [&](const CExpr& c, COp op, int64_t bound) {
          if (c->op != op || c->operands[0]->op != COp::kVariable || c->operands[0]->name != name)
            return false;
          const CExpr& rhs = c->operands[1];
          if (rhs->op == COp::kLiteral) return rhs->value == bound;
          return rhs->op == COp::kNeg && rhs->operands[0]->op == COp::kLiteral &&
                 rhs->operands[0]->value == -bound;
        };
        if (!is(low, COp::kGreaterEqual, map.runtimeVars[k].range.lo) ||
            !is(high, COp::kLessEqual, map.runtimeVars[k].range.hi))
          return ProofResult::refuted(
              "read-back", "guard `" + text + "` does not begin with " + name + "'s range check");
      }
      isl::set holds = state_->box;
      for (size_t c = checks; c < conjuncts.size(); ++c) {
        if (auto failure = state_->checkWidths("guard", conjuncts[c], holds)) return *failure;
        holds = holds.intersect(state_->expressions.fromCondition(conjuncts[c]));
      }
      if (!holds.is_equal(state_->guarded)) {
        isl::set wrong = own(isl_set_union(isl_set_subtract(holds.copy(), state_->guarded.copy()),
                                           isl_set_subtract(state_->guarded.copy(), holds.copy())));
        if (auto values = state_->sample(wrong))
          return state_->refuted("guard `" + text + "` disagrees with the map's domain", *values);
      }
      certificates_.push_back("guard `" + text + "` holds exactly on the map's domain");
      return ProofResult::proven("isl");
    });
  } catch (const CExprParseError& error) {
    return ProofResult::refuted("read-back", error.what());
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(std::string("guard: ") + error.what());
  }
}

ProofResult KernelValidator::checkCondition(const std::string& role, const std::string& text,
                                            const std::vector<Constraint>& meaning) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      CExpr condition = parseCExpr(text, state_->declared);
      const isl::set& domain = state_->guarded;
      if (auto failure = state_->checkWidths(role, condition, domain)) return *failure;
      isl::set holds = domain.intersect(state_->expressions.fromCondition(condition));
      isl::set expected = state_->satisfying(meaning);
      if (!holds.is_equal(expected)) {
        isl::set wrong = own(isl_set_union(isl_set_subtract(holds.copy(), expected.copy()),
                                           isl_set_subtract(expected.copy(), holds.copy())));
        if (auto values = state_->sample(wrong))
          return state_->refuted(role + ": `" + text + "` disagrees with the map's constraints",
                                 *values);
      }
      certificates_.push_back(role + ": `" + text + "` holds exactly where the map says");
      return ProofResult::proven("isl");
    });
  } catch (const CExprParseError& error) {
    return ProofResult::refuted("read-back", role + ": " + error.what());
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(role + ": " + error.what());
  }
}

ProofResult KernelValidator::checkCovered(
    const std::string& role, const std::vector<std::vector<Constraint>>& alternatives) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      isl::set uncovered = state_->guarded;
      for (const std::vector<Constraint>& alternative : alternatives)
        uncovered =
            own(isl_set_subtract(uncovered.release(), state_->satisfying(alternative).release()));
      if (auto values = state_->sample(uncovered))
        return state_->refuted(role + ": no branch holds", *values);
      certificates_.push_back(role + ": the branches cover the domain");
      return ProofResult::proven("isl");
    });
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(role + ": " + error.what());
  }
}

}  // namespace idxmap::codegen
