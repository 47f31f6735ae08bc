#include "codegen/validation.h"
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <cstring>
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
      CExpr guard = parseCExpr(text, state_->declared);
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

ProofResult KernelValidator::checkLoopNest(const LoopNest& nest) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      // Statement points over the iterators' space (the dims' names): a loop frees its
      // iterator and bounds it; an iterator no loop binds is 0 (it is not in scope).
      IslExpressions iterators(nest.dims, 0);
      std::vector<DeclaredVariable> declared;
      for (const std::string& name : iterators.names()) declared.push_back({name, nest.width});
      isl::set start = iterators.universe();
      for (size_t i = 0; i < nest.dims; ++i) start = start.intersect(iterators.inRange(i, {0, 0}));
      std::vector<isl::set> statements;
      std::function<void(const LoopNode&, isl::set)> walk = [&](const LoopNode& node, isl::set at) {
        auto readBack = [&](const CExpr& e) { return parseCExpr(printCExpr(e), declared); };
        switch (node.kind) {
          case LoopNode::Kind::kFor: {
            size_t i = iterators.position(node.iterator);
            at = own(isl_set_drop_constraints_involving_dims(at.release(), isl_dim_set,
                                                             static_cast<unsigned>(i), 1));
            CExpr lower = readBack(node.lower);
            isl::pw_aff iterator = iterators.fromCExpr(variable(node.iterator, nest.width));
            at = at.intersect(
                own(isl_pw_aff_ge_set(iterator.copy(), iterators.fromCExpr(lower).release())));
            if (node.step != 1) {  // iterator = lower + k * step for some k >= 0
              isl::pw_aff distance =
                  own(isl_pw_aff_sub(iterator.copy(), iterators.fromCExpr(lower).release()));
              isl::pw_aff phase = own(isl_pw_aff_mod_val(
                  distance.release(), isl_bridge::toIslVal(node.step).release()));
              at = at.intersect(iterators.valueIn(phase, {0, 0}));
            }
            at = at.intersect(iterators.fromCondition(readBack(node.condition)));
            for (const LoopNode& child : node.body) walk(child, at);
            return;
          }
          case LoopNode::Kind::kIf: {
            isl::set condition = iterators.fromCondition(readBack(node.condition));
            for (const LoopNode& child : node.body) walk(child, at.intersect(condition));
            isl::set otherwise = own(isl_set_subtract(at.copy(), condition.release()));
            for (const LoopNode& child : node.orElse) walk(child, otherwise);
            return;
          }
          case LoopNode::Kind::kBlock:
            for (const LoopNode& child : node.body) walk(child, at);
            return;
          case LoopNode::Kind::kStatement: {
            // The statement's point is a function of the iterators: apply it.
            isl_map* image = isl_map_from_domain(at.copy());
            for (const CExpr& coordinate : node.point)
              image = isl_map_flat_range_product(
                  image,
                  isl_map_intersect_domain(
                      isl_map_from_pw_aff(iterators.fromCExpr(readBack(coordinate)).release()),
                      at.copy()));
            isl::map owned = own(image);
            if (!isl_bridge::checked(isl_map_is_injective(owned.get())))
              throw Error("a statement of the loop nest runs twice at one point");
            statements.push_back(own(isl_map_range(owned.release())));
            return;
          }
        }
      };
      walk(nest.root, start);
      IndexingMap dimsOnly;
      dimsOnly.dims = state_->map.dims;
      dimsOnly.constraints = nest.dimConstraints;
      isl::set expected = iterators.universe();
      for (size_t i = 0; i < nest.dims; ++i)
        expected = expected.intersect(iterators.inRange(i, dimsOnly.dims[i].range));
      for (const Constraint& c : nest.dimConstraints)
        expected = expected.intersect(iterators.valueIn(iterators.fromExpr(c.expr), c.range));
      isl::set enumerated = own(isl_set_empty(isl_set_get_space(expected.get())));
      for (size_t a = 0; a < statements.size(); ++a) {
        for (size_t b = 0; b < a; ++b)
          if (!statements[a].intersect(statements[b]).is_empty())
            return ProofResult::refuted("isl", "two statements of the loop nest share a point");
        enumerated = enumerated.unite(statements[a]);
      }
      if (!enumerated.is_equal(expected))
        return ProofResult::refuted("isl", "the loop nest does not enumerate the map's domain");
      certificates_.push_back("the loop nest enumerates the domain exactly, each point once");
      return ProofResult::proven("isl");
    });
  } catch (const CExprParseError& error) {
    return ProofResult::refuted("read-back", error.what());
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(std::string("loop nest: ") + error.what());
  }
}

}  // namespace idxmap::codegen
