// Each property is a question about one isl relation built from the op's maps with the index
// values folded in (ops/provenance/fold.h): an emptiness test, then, when the relation is not
// empty, a sample point replayed by evaluation (verify/index_points.h) before it is reported.
#include "verify/index_properties.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/fold.h"
#include "verify/index_conditions.h"
#include "verify/index_evaluation_internal.h"
#include "verify/index_points.h"
#include "verify/indexed_op_internal.h"
#include "verify/runtime_properties_internal.h"
#include "verify/symbolic_sizes_internal.h"

namespace idxmap {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using index_points::fullStartIndex;
using index_points::guarded;
using index_points::IndexedOp;
using index_points::RuntimeKnowledge;
using index_points::StartIndexReader;
using index_provenance::FoldedMap;
using index_provenance::IndexValues;
using isl_bridge::checked;
using isl_bridge::own;

// The folded relation, or nullopt when an entry could not be folded.
std::optional<isl::map> allFolded(const FoldedMap& folded) {
  if (std::find(folded.folded.begin(), folded.folded.end(), false) != folded.folded.end())
    return std::nullopt;
  return folded.relation;
}

// { index point -> full start index }, with the index values folded in.
std::optional<isl::map> fullStartIndices(const IndexedOp& op, const IndexValues& values) {
  IndexingMap map = IndexingMap::identity(op.indexShape);
  std::vector<Expr> results(op.tensorRank, Expr::constant(0));
  for (size_t k = 0; k < op.startIndexMap.size(); ++k) {
    map.runtimeVars.push_back(
        {op.clampTop[k] ? Interval{0, *op.clampTop[k]} : Interval::unbounded(), ""});
    results[op.startIndexMap[k]] = Expr::runtimeVar(static_cast<unsigned>(k));
  }
  map.results = std::move(results);
  return allFolded(index_provenance::foldIndexValues(map, op.indicesMap, op.indexVectorDim,
                                                     op.indicesRank, op.clampTop, values));
}

// A pair (a, b) of index points from a relation { [a] -> [b] }, or nullopt when it is empty.
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> samplePair(
    const isl::map& pairs, size_t rank) {
  if (checked(isl_map_is_empty(pairs.get()))) return std::nullopt;
  std::vector<int64_t> both =
      index_points::coordinates(own(isl_set_sample_point(isl_map_wrap(pairs.copy()))));
  return std::make_pair(std::vector<int64_t>(both.begin(), both.begin() + rank),
                        std::vector<int64_t>(both.begin() + rank, both.end()));
}

ProofResult notConfirmed() {
  return ProofResult::unknown(
      "isl found a counterexample that evaluation does not confirm (a bug)");
}

ProofResult proveSorted(const IndexedOp& op, const IndexValues& values,
                        const StartIndexReader& reader) {
  std::optional<isl::map> starts = fullStartIndices(op, values);
  if (!starts) return ProofResult::unknown("isl could not fold the index values");
  // Pairs of points whose full start indices are out of order: { i1 -> i2 : i1 <lex i2 and
  // start(i1) >lex start(i2) }.
  isl::map laterIsSmaller = own(isl_map_apply_range(
      own(isl_map_apply_range(starts->copy(), index_points::lexGreater(op.tensorRank).release()))
          .release(),
      own(isl_map_reverse(starts->copy())).release()));
  isl::map outOfOrder = own(isl_map_intersect(index_points::earlierToLater(op.indexShape).release(),
                                              laterIsSmaller.release()));
  auto pair = samplePair(outOfOrder, op.indexShape.size());
  if (!pair) return ProofResult::proven("isl");
  auto [first, second] = *pair;
  std::vector<int64_t> firstVector = reader.at(first), secondVector = reader.at(second);
  std::vector<int64_t> a = fullStartIndex(op, firstVector);
  std::vector<int64_t> b = fullStartIndex(op, secondVector);
  if (!(first < second) || !(b < a)) return notConfirmed();
  return ProofResult::refuted(
      "isl", index_points::outOfOrder(op, first, firstVector, second, secondVector));
}

// Gather: no start index is clamped; scatter: no update is skipped. `reads` is the op's map
// folded with the raw index values, so the points it keeps are exactly those whose start
// indices are in range. A point it drops is replayed on the op's own map, whose runtime
// variables range over the start indices that need no clamp (gather) or leave the window
// in the input (scatter, with its constraints).
ProofResult proveInBounds(const IndexedOp& op, const FoldedMap& reads,
                          const StartIndexReader& reader) {
  std::optional<isl::map> kept = allFolded(reads);
  if (!kept) return ProofResult::unknown("isl could not fold the index values");
  isl::set outside = own(isl_set_subtract(index_points::indexSpace(op.indexShape).release(),
                                          own(isl_map_domain(kept->copy())).release()));
  if (checked(isl_set_is_empty(outside.get()))) return ProofResult::proven("isl");
  std::vector<int64_t> point =
      index_points::coordinates(own(isl_set_sample_point(outside.release())));
  std::vector<int64_t> raw = reader.at(point);
  if (op.map.contains(point, {}, raw)) return notConfirmed();
  return ProofResult::refuted("isl", index_points::notInBounds(op, point, raw));
}

ProofResult proveUnique(const IndexedOp& indexed, const FoldedMap& targets,
                        const StartIndexReader& reader) {
  std::optional<isl::map> writes = allFolded(targets);
  if (!writes) return ProofResult::unknown("isl could not fold the index values");
  isl::map sameTarget = own(isl_map_apply_range(writes->copy(), isl_map_reverse(writes->copy())));
  isl::map collisions = own(isl_map_intersect(
      index_points::earlierToLater(indexed.indexShape).release(), sameTarget.release()));
  auto pair = samplePair(collisions, indexed.indexShape.size());
  if (!pair) return ProofResult::proven("isl");
  auto [first, second] = *pair;
  // Replayed with the op's own map: both updates applied, at the same result element.
  const IndexingMap& map = indexed.map;
  auto target = [&](const std::vector<int64_t>& update,
                    const std::vector<int64_t>& starts) -> std::optional<std::vector<int64_t>> {
    if (!map.contains(update, {}, starts)) return std::nullopt;
    std::vector<int64_t> result;
    for (Expr e : map.results) result.push_back(e.evaluate(update, {}, starts));
    return result;
  };
  std::vector<int64_t> firstStarts = reader.at(first), secondStarts = reader.at(second);
  std::optional<std::vector<int64_t>> a = target(first, firstStarts),
                                      b = target(second, secondStarts);
  if (!a || !b || *a != *b) return notConfirmed();
  return ProofResult::refuted(
      "isl", index_points::collision(indexed, first, firstStarts, second, secondStarts, *a));
}

// Whether the index space has no point (a zero-sized result or update dim): then every
// property holds, nothing being read or written, and isl says so before the folded
// relations (which have no points to fold) are built.
bool noIndexPoint(const IndexedOp& op) {
  try {
    return checked(isl_set_is_empty(index_points::indexSpace(op.indexShape).get())) != 0;
  } catch (const Error&) {
    return false;  // the provers meet the same failure and say why
  }
}

IndexConditions conditionsOf(const GatherOp& op, const IndexOpForm& form) {
  return gatherIndexConditions(op, form);
}
IndexConditions conditionsOf(const ScatterOp& op, const IndexOpForm& form) {
  return scatterIndexConditions(op, form);
}

template <class Op>
std::optional<IndexProperties> runtimeCase(const Op& op, const IndexedOp& indexed,
                                           const IndexValues& values, const IndexOpForm& form,
                                           const RuntimeKnowledge& knowledge, bool uniqueAsked) {
  if (values.allKnown()) return std::nullopt;
  try {
    return index_points::runtimeProperties(conditionsOf(op, form), indexed, values, knowledge);
  } catch (const Error& error) {
    ProofResult unknown = ProofResult::unknown(error.what());
    return IndexProperties{uniqueAsked ? std::optional(unknown) : std::nullopt, unknown, unknown};
  }
}

// Known values in too many pieces for isl's pairwise questions.
IndexProperties evaluated(const IndexedOp& op, const IndexValues& values, bool uniqueAsked) {
  try {
    return index_points::evaluateIndexProperties(op, values, uniqueAsked);
  } catch (const Error& error) {
    ProofResult unknown = ProofResult::unknown(error.what());
    return {uniqueAsked ? std::optional(unknown) : std::nullopt, unknown, unknown};
  }
}

}  // namespace

IndexProperties proveGatherIndexProperties(const GatherOp& op, const IndexValues& startIndices,
                                           const IndexOpForm& form,
                                           const std::vector<Assumption>& assumptions,
                                           const std::vector<VectorBlock>& blocks) {
  if (symbolic_sizes::hasDynamicDims(op))
    return symbolic_sizes::proveForAllSizes(op, startIndices, form, assumptions, blocks);
  IndexedOp indexed = index_points::indexedOp(op, form);
  if (auto runtime =
          runtimeCase(op, indexed, startIndices, form, {assumptions, blocks}, form.uniqueAsked))
    return *runtime;
  if (index_points::preferEvaluation(indexed, startIndices))
    return evaluated(indexed, startIndices, form.uniqueAsked);
  ProofResult none = ProofResult::proven("isl");
  if (noIndexPoint(indexed))
    return {form.uniqueAsked ? std::optional(none) : std::nullopt, none, none};
  StartIndexReader reader(indexed.indicesMap, indexed.entries(), startIndices);
  IndexProperties properties;
  properties.sorted = guarded([&] { return proveSorted(indexed, startIndices, reader); });
  // Raw values: the points kept are those that read in range.
  FoldedMap reads = index_provenance::foldGatherIndices(op, startIndices, false);
  if (form.uniqueAsked)
    properties.unique = guarded([&] { return proveUnique(indexed, reads, reader); });
  properties.inBounds = guarded([&] { return proveInBounds(indexed, reads, reader); });
  return properties;
}

IndexProperties proveScatterIndexProperties(const ScatterOp& op, const IndexValues& scatterIndices,
                                            const IndexOpForm& form,
                                            const std::vector<Assumption>& assumptions,
                                            const std::vector<VectorBlock>& blocks) {
  if (symbolic_sizes::hasDynamicDims(op))
    return symbolic_sizes::proveForAllSizes(op, scatterIndices, form, assumptions, blocks);
  IndexedOp indexed = index_points::indexedOp(op, form);
  if (auto runtime = runtimeCase(op, indexed, scatterIndices, form, {assumptions, blocks}, true))
    return *runtime;
  if (index_points::preferEvaluation(indexed, scatterIndices))
    return evaluated(indexed, scatterIndices, true);
  ProofResult none = ProofResult::proven("isl");
  if (noIndexPoint(indexed)) return {none, none, none};
  StartIndexReader reader(indexed.indicesMap, indexed.entries(), scatterIndices);
  // Where the updates go: what unique and in bounds both ask about.
  FoldedMap targets = index_provenance::foldScatterIndices(op, scatterIndices);
  IndexProperties properties;
  properties.unique = guarded([&] { return proveUnique(indexed, targets, reader); });
  properties.sorted = guarded([&] { return proveSorted(indexed, scatterIndices, reader); });
  properties.inBounds = guarded([&] { return proveInBounds(indexed, targets, reader); });
  return properties;
}

}  // namespace idxmap
