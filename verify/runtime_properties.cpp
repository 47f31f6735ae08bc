#include <isl/map.h>
#include <isl/set.h>

#include "core/bridges/isl_bridge.h"
#include "verify/argument_conditions_internal.h"
#include "verify/index_points.h"
#include "verify/possible_vectors_internal.h"
#include "verify/runtime_properties_internal.h"

namespace idxmap::index_points {
namespace {

using index_provenance::IndexValues;
using isl_bridge::own;

// Whether the facts keep every clamped entry within its clamp range: clamping is then the
// identity on every value they allow, and facts about raw values are facts about clamped ones.
bool clampIsIdentity(const std::vector<IndexFact>& facts, const IndexCondition& condition) {
  int64_t points = 1;
  for (int64_t size : condition.pointShape) points = checkedMul(points, size);
  std::optional<std::pair<int64_t, int64_t>> range = entryRange(facts, points);
  if (!range) return false;
  for (const std::optional<int64_t>& top : condition.clampTop)
    if (top && (range->first < 0 || range->second > *top)) return false;
  return true;
}

// The values an index element type can hold, as a fact: a fact of the op, not an assumption.
std::vector<IndexFact> elementTypeFacts(const std::string& elementType) {
  std::optional<std::pair<int64_t, int64_t>> range = integerTypeRange(elementType);
  if (!range || *range == std::pair(INT64_MIN, INT64_MAX)) return {};  // no bound past int64
  return {{IndexFact::Kind::InRange, range->first, range->second, elementType}};
}

// The known values of a block as a set over the condition's points: { [p, x] : entry
// firstEntry + j of x is the block operand's value at (p, j) }, and its pairwise product.
// nullopt when the values come in too many pieces to meet pairwise.
constexpr int kMaxBlockPieces = 16;

std::optional<isl::set> knownBlock(const VectorBlock& block, const IndexedOp& op,
                                   const IndexCondition& condition) {
  const IndexValues& values = *block.values;
  if (isl_bridge::checked(isl_map_n_basic_map(values.known.get())) > kMaxBlockPieces)
    return std::nullopt;
  size_t m = condition.pointShape.size(), entries = condition.entries;
  auto vectorDim = static_cast<unsigned>(op.indexVectorDim);
  std::string x;
  for (size_t k = 0; k < entries; ++k) x += (k ? ", x" : "x") + std::to_string(k);
  isl::set known = flattened(universe(m, entries));
  for (size_t j = 0; j < block.entries; ++j) {
    // { [p] -> [v] }: the operand's entry j at point p.
    isl::map entry = own(isl_map_fix_si(isl_map_copy(values.known.get()), isl_dim_in, vectorDim,
                                        static_cast<int>(j)));
    entry = own(isl_map_project_out(entry.release(), isl_dim_in, vectorDim, 1));
    std::string place =
        "{ [v] -> [" + x + "] : x" + std::to_string(block.firstEntry + j) + " = v }";
    isl::map placed = own(isl_map_apply_range(
        entry.release(), isl_map_read_from_str(islContext().get(), place.c_str())));
    known = own(isl_set_intersect(known.release(), flattened(placed).release()));
  }
  if (!condition.pairwise) return known;
  return own(isl_set_flat_product(known.copy(), known.copy()));
}

// One property of values the analysis represents: proven when no vector it can read breaks
// the property, else the condition where it can.
ProofResult fromPossible(const IndexCondition& condition, const IndexedOp& op,
                         const IndexValues& values, const PossibleVectors& possible) {
  std::string reason =
      "the values of " + op.names.indices + " are known only at run time: " + values.provenance;
  PossibleVectors sets = condition.clamped()
                             ? clampedVectors(possible, condition.pointShape, condition.clampTop)
                             : possible;
  const isl::set& can = condition.pairwise ? sets.pairwise : sets.single;
  if (condition.restrictedTo(can).alwaysHolds()) {
    ProofResult result = ProofResult::proven("isl");
    result.assumptions = sets.assumptions;
    return result;
  }
  // On the function's arguments where that is exact, else on the index vectors.
  std::optional<ArgumentCondition> onArguments = argumentCondition(sets, condition);
  ProofResult result = ProofResult::conditional(
      std::move(reason),
      onArguments ? onArguments->text : condition.given(can).text(op.names.indices));
  result.conditionOn = onArguments ? "arguments" : "index vectors";
  result.assumptions = sets.assumptions;
  if (onArguments && !onArguments->breaking.empty()) {
    result.witness.emplace();
    result.witness->elements = std::move(onArguments->breaking);
    result.witness->fill = onArguments->keeping;
  }
  return result;
}

// One property of run-time index values: the exact condition, or a proof from the op's
// structure, its element type, the known blocks or the user's facts.
ProofResult fromCondition(const IndexCondition& condition, const IndexedOp& op,
                          const IndexValues& values, const RuntimeKnowledge& knowledge,
                          const std::optional<PossibleVectors>& possible) {
  if (condition.alwaysHolds()) return ProofResult::proven("isl");
  if (possible) return fromPossible(condition, op, values, *possible);
  std::string reason =
      "the values of " + op.names.indices + " are known only at run time: " + values.provenance;
  std::vector<IndexFact> facts = elementTypeFacts(op.indicesElementType);
  std::vector<std::string> texts;
  for (const Assumption& assumption : knowledge.assumptions) {
    facts.insert(facts.end(), assumption.facts.begin(), assumption.facts.end());
    texts.push_back(assumption.text);
  }
  if (condition.clamped() && !clampIsIdentity(facts, condition)) {
    // Facts about raw values say nothing sound about clamped ones (clamping merges distinct
    // values): the condition stands without them.
    return ProofResult::conditional(std::move(reason), condition.text(op.names.indices));
  }
  std::optional<isl::set> assumed;
  auto meet = [&](isl::set more) {
    assumed = assumed ? own(isl_set_intersect(assumed->release(), more.release())) : more;
  };
  if (!facts.empty())
    meet(factsSet(facts, condition.pointShape, condition.entries, condition.pairwise));
  // Blocks are about raw entries: not for a clamped condition (see above).
  for (const VectorBlock& block :
       condition.clamped() ? std::vector<VectorBlock>{} : knowledge.blocks) {
    std::vector<IndexFact> blockFacts;
    for (const Assumption& assumption : block.assumptions) {
      blockFacts.insert(blockFacts.end(), assumption.facts.begin(), assumption.facts.end());
      texts.push_back(assumption.text);
    }
    if (!blockFacts.empty())
      meet(factsSet(blockFacts, condition.pointShape, condition.entries, condition.pairwise,
                    block.firstEntry, block.entries));
    if (block.values)
      if (std::optional<isl::set> known = knownBlock(block, op, condition)) meet(*known);
  }
  if (!assumed)
    return ProofResult::conditional(std::move(reason), condition.text(op.names.indices));
  ProofResult result =
      condition.restrictedTo(*assumed).alwaysHolds()
          ? ProofResult::proven("isl")
          : ProofResult::conditional(std::move(reason),
                                     condition.given(*assumed).text(op.names.indices));
  result.assumptions = std::move(texts);
  return result;
}

}  // namespace

IndexProperties runtimeProperties(const IndexConditions& conditions, const IndexedOp& op,
                                  const IndexValues& values, const RuntimeKnowledge& knowledge) {
  // Values the analysis represents: what they can be, under the facts about their leaves.
  std::optional<PossibleVectors> possible;
  std::optional<std::string> failure;
  if (values.represented()) try {
      possible = isl_bridge::withIslBudget(
          [&] { return possibleVectors(values, op.indexVectorDim, knowledge.assumptions); });
    } catch (const Error& error) {
      failure = error.what();
    }
  auto prove = [&](const IndexCondition& condition) {
    if (failure) return ProofResult::unknown(*failure);
    return guarded([&] { return fromCondition(condition, op, values, knowledge, possible); });
  };
  IndexProperties properties;
  if (conditions.unique) properties.unique = prove(*conditions.unique);
  properties.sorted = prove(conditions.sorted);
  properties.inBounds = prove(conditions.inBounds);
  return properties;
}

}  // namespace idxmap::index_points
