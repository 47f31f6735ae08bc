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
#include "verify/index_points.h"

namespace idxmap {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using index_points::element;
using index_points::StartIndexReader;
using index_points::text;
using index_provenance::FoldedMap;
using index_provenance::IndexValues;
using isl_bridge::checked;
using isl_bridge::own;

// Gather and scatter in one vocabulary: an index space (the result's, the updates') whose
// points read start index vectors and start windows in a tensor (the operand, the input).
struct IndexedOp {
  const char* indexSpaceName = "";  // "result", "updates"
  std::vector<int64_t> indexShape;
  std::vector<int64_t> startIndexMap;  // the tensor axis entry k starts
  size_t tensorRank = 0;
  IndexingMap indicesMap;  // index point -> index tensor point, s0 walking the vector
  int64_t indexVectorDim = 0;
  int64_t indicesRank = 0;
  std::vector<std::optional<int64_t>> clampTop;  // gather: dim - slice size; scatter: none
  bool clamps = false;                           // gather clamps, scatter skips
  IndexingMap map;  // index point -> tensor element, runtime variable k the start index k
};

IndexedOp indexedOp(const GatherOp& op) {
  const gather_scatter::GatherDimensionNumbers& dn = op.dimension_numbers;
  IndexedOp indexed;
  indexed.indexSpaceName = "result";
  indexed.indexShape =
      gather_scatter::inferGatherResultShape(dn, op.start_indices.shape, op.slice_sizes);
  indexed.startIndexMap = dn.start_index_map;
  indexed.tensorRank = op.operand.shape.size();
  indexed.indicesMap = gather_scatter::gatherOutputToStartIndicesMap(op);
  indexed.indexVectorDim = dn.index_vector_dim;
  indexed.indicesRank = op.start_indices.rank();
  for (int64_t d : dn.start_index_map)
    indexed.clampTop.push_back(op.operand.shape[d] - op.slice_sizes[d]);
  indexed.clamps = true;
  indexed.map = gather_scatter::gatherOutputToOperandMap(op);
  return indexed;
}

IndexedOp indexedOp(const ScatterOp& op) {
  const gather_scatter::ScatterDimensionNumbers& dn = op.dimension_numbers;
  IndexedOp indexed;
  indexed.indexSpaceName = "updates";
  indexed.indexShape = op.updates.at(0).shape;
  indexed.startIndexMap = dn.scatter_dims_to_operand_dims;
  indexed.tensorRank = op.inputs.at(0).shape.size();
  indexed.indicesMap = gather_scatter::scatterUpdateToIndicesMap(op);
  indexed.indexVectorDim = dn.index_vector_dim;
  indexed.indicesRank = op.scatter_indices.rank();
  indexed.clampTop.assign(dn.scatter_dims_to_operand_dims.size(), std::nullopt);
  indexed.map = gather_scatter::scatterUpdateToResultMap(op);
  return indexed;
}

// The full start index (spec 000) of a start index vector: entry k on axis startIndexMap[k],
// clamped where the op clamps (unless `clamp` is false), 0 on every other axis.
std::vector<int64_t> fullStartIndex(const IndexedOp& op, const std::vector<int64_t>& vector,
                                    bool clamp = true) {
  std::vector<int64_t> full(op.tensorRank, 0);
  for (size_t k = 0; k < vector.size(); ++k)
    full[op.startIndexMap[k]] =
        clamp && op.clampTop[k] ? std::clamp<int64_t>(vector[k], 0, *op.clampTop[k]) : vector[k];
  return full;
}

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
  std::vector<int64_t> a = fullStartIndex(op, reader.at(first));
  std::vector<int64_t> b = fullStartIndex(op, reader.at(second));
  if (!(first < second) || !(b < a)) return notConfirmed();
  Counterexample example;
  example.elements = {{op.indexSpaceName, first}, {op.indexSpaceName, second}};
  example.explanation = element(op.indexSpaceName, first) + " has full start index " + text(a) +
                        " but the later " + element(op.indexSpaceName, second) + " has " + text(b);
  return ProofResult::refuted("isl", std::move(example));
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
  std::vector<int64_t> unclamped = fullStartIndex(op, raw, false);
  Counterexample example;
  example.elements = {{op.indexSpaceName, point}};
  example.explanation = op.clamps
                            ? element(op.indexSpaceName, point) + " reads start index " +
                                  text(unclamped) + ", clamped to " + text(fullStartIndex(op, raw))
                            : element(op.indexSpaceName, point) + " starts its window at " +
                                  text(unclamped) + ", outside the input: the update is skipped";
  return ProofResult::refuted("isl", std::move(example));
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
  Counterexample example;
  example.elements = {{"updates", first}, {"updates", second}, {"result", *a}};
  example.explanation = element("updates", first) + " and " + element("updates", second) +
                        " both write " + element("result", *a) + " (start indices " +
                        text(firstStarts) + " and " + text(secondStarts) + ")";
  return ProofResult::refuted("isl", std::move(example));
}

ProofResult runtimeOnly(const IndexValues& values) {
  return ProofResult::unknown("the index values are known only at run time (" + values.provenance +
                              ")");
}

// Runs one prover; a limit hit or a value isl cannot give is unknown, with the reason.
template <class Prover>
ProofResult guarded(Prover&& prover) {
  try {
    return prover();
  } catch (const Error& error) {
    return ProofResult::unknown(error.what());
  }
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

}  // namespace

IndexProperties proveGatherIndexProperties(const GatherOp& op, const IndexValues& startIndices) {
  if (!startIndices.allKnown())
    return {std::nullopt, runtimeOnly(startIndices), runtimeOnly(startIndices)};
  IndexedOp indexed = indexedOp(op);
  if (noIndexPoint(indexed))
    return {std::nullopt, ProofResult::proven("isl"), ProofResult::proven("isl")};
  StartIndexReader reader(indexed.indicesMap, indexed.startIndexMap.size(), startIndices);
  IndexProperties properties;
  properties.sorted = guarded([&] { return proveSorted(indexed, startIndices, reader); });
  properties.inBounds = guarded([&] {
    return proveInBounds(indexed, index_provenance::foldGatherIndices(op, startIndices, false),
                         reader);
  });
  return properties;
}

IndexProperties proveScatterIndexProperties(const ScatterOp& op,
                                            const IndexValues& scatterIndices) {
  if (!scatterIndices.allKnown())
    return {runtimeOnly(scatterIndices), runtimeOnly(scatterIndices), runtimeOnly(scatterIndices)};
  IndexedOp indexed = indexedOp(op);
  if (noIndexPoint(indexed))
    return {ProofResult::proven("isl"), ProofResult::proven("isl"), ProofResult::proven("isl")};
  StartIndexReader reader(indexed.indicesMap, indexed.startIndexMap.size(), scatterIndices);
  // Where the updates go: what unique and in bounds both ask about.
  FoldedMap targets = index_provenance::foldScatterIndices(op, scatterIndices);
  IndexProperties properties;
  properties.unique = guarded([&] { return proveUnique(indexed, targets, reader); });
  properties.sorted = guarded([&] { return proveSorted(indexed, scatterIndices, reader); });
  properties.inBounds = guarded([&] { return proveInBounds(indexed, targets, reader); });
  return properties;
}

}  // namespace idxmap
