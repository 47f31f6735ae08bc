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

// One op on the way from an asserted value to the op's indices: v -> scale * v + shift, its
// result in `type` (a convert: scale 1, shift 0).
struct Step {
  int64_t scale = 1, shift = 0;
  const mlir_ir::Type* type = nullptr;
};

// The facts of `from` after one step.
Assumption stepped(const Assumption& from, const Step& step) {
  Assumption to{from.value, {}, from.text};
  // A permutation's range is about the consumer's count of vectors: not used here.
  std::optional<std::pair<int64_t, int64_t>> range = entryRange(from.facts, std::nullopt);
  // The image when every value lands inside the type: then no wrap reorders or merges values.
  std::optional<std::pair<int64_t, int64_t>> image;
  std::optional<std::pair<int64_t, int64_t>> allowed = integerTypeRange(step.type->element_type);
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
      std::optional<std::pair<int64_t, int64_t>> from =
          integerTypeRange(op->operandTypes[0].element_type);
      std::optional<std::pair<int64_t, int64_t>> to = integerTypeRange(result.element_type);
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
