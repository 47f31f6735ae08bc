#include "codegen/validate/validation.h"
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

#include "codegen/kernel/isl_expressions.h"
#include "codegen/validate/validation_state_internal.h"
#include "codegen/validate/width_proof.h"
#include "core/bridges/isl_bridge.h"
#include "core/text.h"

namespace idxmap::codegen {
namespace {

using isl_bridge::own;

// Marks the bit-width proof's certificate among isl's.
constexpr const char* kZ3Certificate = "[z3] ";

// Whether some operation of `e` is evaluated in int32_t (a literal alone is not one).
bool computesInInt32(const CExpr& e) {
  if (e->op != COp::kLiteral && widthOf(e) == CWidth::k32) return true;
  for (const CExpr& operand : e->operands)
    if (computesInInt32(operand)) return true;
  return false;
}

}  // namespace

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
      if (journal)
        journal->push_back(
            {role, text, meaning, where, bufferElements, state_->map, state_->declared});
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
      const Expr value = Expr::runtimeVar(static_cast<unsigned>(k));  // stands for v<k> here
      const Expr meaning =
          clamped ? Expr::min(Expr::max(value, Expr::constant(range.lo)), Expr::constant(range.hi))
                  : value;
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
