#include "verify/fact_flow.h"

#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <optional>

#include "core/bridges/isl_bridge.h"
#include "core/checked.h"
#include "ops/provenance/index_values.h"

namespace idxmap {
namespace {

using mlir_ir::Operation;

constexpr size_t kMaxSteps = 16;  // ops followed back from the value

// The one value every element of `value` has (a splat constant, a broadcast of one).
std::optional<int64_t> constantOf(const std::vector<Operation>& block, const mlir_ir::Value& value,
                                  const mlir_ir::Type& type) {
  try {
    index_provenance::IndexValues values = index_provenance::indexValues(block, value, type);
    if (!values.allKnown()) return std::nullopt;
    isl::set range = isl_bridge::own(isl_map_range(values.known.copy()));
    if (isl_bridge::checked(isl_set_is_singleton(range.get())) == 0) return std::nullopt;
    return isl_bridge::toInt64(isl_bridge::own(isl_set_dim_min_val(range.release(), 0)));
  } catch (const Error&) {
    return std::nullopt;
  }
}

// [lo, hi] of the integer element type; nullopt for a non-integer or 64-bit one (no bound
// beyond int64 is needed: checked arithmetic refuses what would pass it).
std::optional<std::pair<int64_t, int64_t>> typeRange(const mlir_ir::Type& type) {
  mlir_ir::ElementType element = type.elementType();
  if (!element.isInteger()) return std::nullopt;
  const std::string& name = type.element_type;
  bool isUnsigned = name.rfind("ui", 0) == 0;
  size_t digits = name.find_first_of("0123456789");
  if (digits == std::string::npos) return std::nullopt;
  int bits = std::stoi(name.substr(digits));
  if (bits >= 64 || bits < 1) return std::pair(INT64_MIN, INT64_MAX);
  return isUnsigned ? std::pair(int64_t{0}, (int64_t{1} << bits) - 1)
                    : std::pair(-(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1);
}

// One op on the way from an asserted value to the op's indices: v -> scale * v + shift, its
// result in `type` (a convert: scale 1, shift 0).
struct Step {
  int64_t scale = 1, shift = 0;
  const mlir_ir::Type* type = nullptr;
};

// The facts of `from` after one step.
Assumption stepped(const Assumption& from, const Step& step) {
  Assumption to{from.value, {}, from.text};
  std::optional<std::pair<int64_t, int64_t>> range;
  for (const IndexFact& fact : from.facts)
    if (fact.kind == IndexFact::Kind::InRange)
      range = range ? std::pair(std::max(range->first, fact.lo), std::min(range->second, fact.hi))
                    : std::pair(fact.lo, fact.hi);
  // The image when every value lands inside the type: then no wrap reorders or merges values.
  std::optional<std::pair<int64_t, int64_t>> image;
  std::optional<std::pair<int64_t, int64_t>> allowed = typeRange(*step.type);
  if (range && allowed) try {
      int64_t a = checkedAdd(checkedMul(range->first, step.scale), step.shift);
      int64_t b = checkedAdd(checkedMul(range->second, step.scale), step.shift);
      std::pair<int64_t, int64_t> bounds(std::min(a, b), std::max(a, b));
      if (bounds.first >= allowed->first && bounds.second <= allowed->second) image = bounds;
    } catch (const OverflowError&) {
    }
  for (const IndexFact& fact : from.facts) {
    using Kind = IndexFact::Kind;
    bool unique = fact.kind == Kind::Unique || fact.kind == Kind::Permutation;
    // Adding a constant is a bijection even where it wraps; scaling only where it does not.
    if (unique && (step.scale == 1 || (step.scale != 0 && image)))
      to.facts.push_back({Kind::Unique, 0, 0, "unique"});
    if (fact.kind == Kind::Sorted && step.scale > 0 && image) to.facts.push_back(fact);
  }
  if (image) to.facts.push_back({IndexFact::Kind::InRange, image->first, image->second, "range"});
  return to;
}

// `chain`: the steps from `value` to the op's indices, innermost first.
void collect(const mlir_ir::Value& value, const std::vector<Operation>& block,
             const std::vector<Assumption>& assumptions, std::vector<Step> chain,
             std::vector<Assumption>& out) {
  std::string name = value.toString().substr(1);
  for (const Assumption& assumption : assumptions)
    if (assumption.value == name) {
      Assumption carried = assumption;
      for (const Step& step : chain) carried = stepped(carried, step);
      if (!carried.facts.empty()) out.push_back(std::move(carried));
    }
  const Operation* op = mlir_ir::definingOp(block, value);
  if (!op || chain.size() >= kMaxSteps || op->operandTypes.size() != op->operands.size() ||
      op->resultTypes.empty())
    return;
  const mlir_ir::Type& result = op->resultTypes[0];
  auto inner = [&](Step step) {
    step.type = &result;
    std::vector<Step> longer{step};
    longer.insert(longer.end(), chain.begin(), chain.end());
    return longer;
  };
  try {
    if (op->name == "stablehlo.convert" && op->operands.size() == 1) {
      std::optional<std::pair<int64_t, int64_t>> from = typeRange(op->operandTypes[0]);
      std::optional<std::pair<int64_t, int64_t>> to = typeRange(result);
      if (from && to && to->first <= from->first && from->second <= to->second)  // widening
        collect(op->operands[0], block, assumptions, inner({1, 0}), out);
      return;
    }
    bool add = op->name == "stablehlo.add", subtract = op->name == "stablehlo.subtract";
    bool multiply = op->name == "stablehlo.multiply";
    if ((!add && !subtract && !multiply) || op->operands.size() != 2) return;
    for (size_t i = 0; i < 2; ++i) {
      std::optional<int64_t> c = constantOf(block, op->operands[1 - i], op->operandTypes[1 - i]);
      if (!c) continue;
      Step step = add                  ? Step{1, *c}
                  : subtract && i == 0 ? Step{1, checkedNeg(*c)}
                  : subtract           ? Step{-1, *c}  // c - x
                                       : Step{*c, 0};
      collect(op->operands[i], block, assumptions, inner(step), out);
      return;
    }
  } catch (const OverflowError&) {  // a constant past int64's negation: carries nothing
  }
}

}  // namespace

std::vector<Assumption> factsAbout(const mlir_ir::Value& value,
                                   const std::vector<mlir_ir::Operation>& block,
                                   const std::vector<Assumption>& assumptions) {
  std::vector<Assumption> facts;
  collect(value, block, assumptions, {}, facts);
  return facts;
}

}  // namespace idxmap
