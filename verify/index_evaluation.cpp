// One walk over the index space in row-major order: each point's start vector is looked up in
// the index tensor read out of isl once; its target is the op's map evaluated there. Sorted
// compares each point with the one before (lexicographic order is total, so neighbours
// suffice); unique hashes the targets; in bounds asks the map whether the point has an image.
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <boost/container_hash/hash.hpp>
#include <unordered_map>

#include "core/bridges/isl_bridge.h"
#include "core/tensor_type.h"
#include "verify/index_evaluation_internal.h"
#include "verify/index_points.h"

namespace idxmap::index_points {
namespace {

using isl_bridge::checked;
using isl_bridge::own;

// isl handles a relation of this many pieces pairwise quickly enough; past it, evaluation wins.
constexpr int kMaxPiecesForIsl = 16;

int64_t elementCount(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t size : shape) count = checkedMul(count, size);
  return count;
}

// Every element of the index tensor, row-major, from the relation { [t] -> [v] }.
std::vector<int64_t> readTensor(const index_provenance::IndexValues& values) {
  int64_t count = elementCount(values.shape);
  std::vector<int64_t> tensor(static_cast<size_t>(count));
  std::vector<char> seen(static_cast<size_t>(count), 0);
  // A point's coordinates are the tensor index, then the value.
  auto store = [&](const std::vector<int64_t>& coordinates) {
    int64_t position = linearPosition(values.shape, coordinates);
    tensor[static_cast<size_t>(position)] = coordinates.back();
    seen[static_cast<size_t>(position)] = 1;
  };
  if (auto table = isl_bridge::plainPoints(values.known)) {
    for (const std::vector<int64_t>& point : *table) store(point);
  } else {
    auto visit = [](isl_point* raw, void* user) -> isl_stat {
      (*static_cast<decltype(store)*>(user))(index_points::coordinates(isl::manage(raw)));
      return isl_stat_ok;
    };
    isl::set points = own(isl_map_wrap(values.known.copy()));
    checked(isl_set_foreach_point(points.get(), visit, &store));
  }
  for (char known : seen)
    if (!known) throw Error("an index value is not known");
  return tensor;
}

}  // namespace

bool preferEvaluation(const IndexedOp& op, const index_provenance::IndexValues& values) {
  if (!values.allKnown()) return false;
  int pieces = checked(isl_map_n_basic_map(values.known.get()));
  if (pieces <= kMaxPiecesForIsl) return false;
  try {
    return elementCount(values.shape) <= kMaxEvaluatedPoints &&
           elementCount(op.indexShape) <= kMaxEvaluatedPoints;
  } catch (const Error&) {  // a count that overflows is far past the limit
    return false;
  }
}

IndexProperties evaluateIndexProperties(const IndexedOp& op,
                                        const index_provenance::IndexValues& values,
                                        bool uniqueAsked) {
  std::vector<int64_t> tensor = readTensor(values);
  auto vectorAt = [&](const std::vector<int64_t>& point) {
    // The index tensor's index: the point's axes, the entry k on the index vector dim.
    std::vector<int64_t> at;
    for (int64_t axis : op.pointAxes) at.push_back(point[static_cast<size_t>(axis)]);
    bool explicitVector = op.indexVectorDim < op.indicesRank;
    if (explicitVector) at.insert(at.begin() + op.indexVectorDim, 0);
    std::vector<int64_t> vector(op.entries());
    for (size_t k = 0; k < vector.size(); ++k) {
      if (explicitVector) at[static_cast<size_t>(op.indexVectorDim)] = static_cast<int64_t>(k);
      vector[k] = tensor[static_cast<size_t>(linearPosition(op.indicesShape, at))];
    }
    return vector;
  };
  ProofResult proven = ProofResult::proven("evaluation");
  IndexProperties properties{uniqueAsked ? std::optional(proven) : std::nullopt, proven, proven};
  if (elementCount(op.indexShape) == 0) return properties;
  // Target element -> the first point that reaches it.
  std::unordered_map<std::vector<int64_t>, std::vector<int64_t>, boost::hash<std::vector<int64_t>>>
      writers;
  std::vector<int64_t> point(op.indexShape.size(), 0), previous, previousVector, previousStart;
  do {
    std::vector<int64_t> vector = vectorAt(point);
    std::vector<int64_t> start = fullStartIndex(op, vector);
    if (properties.sorted.isProven() && !previous.empty() && start < previousStart)
      properties.sorted = ProofResult::refuted(
          "evaluation", outOfOrder(op, previous, previousVector, point, vector));
    bool image = op.map.contains(point, {}, vector);
    if (!image && properties.inBounds.isProven())
      properties.inBounds = ProofResult::refuted("evaluation", notInBounds(op, point, vector));
    if (image && uniqueAsked && properties.unique->isProven()) {
      std::vector<int64_t> target;
      for (Expr result : op.map.results) target.push_back(result.evaluate(point, {}, vector));
      auto [at, inserted] = writers.try_emplace(target, point);
      if (!inserted)
        properties.unique = ProofResult::refuted(
            "evaluation", collision(op, at->second, vectorAt(at->second), point, vector, target));
    }
    previous = point;
    previousVector = vector;
    previousStart = std::move(start);
  } while (nextIndex(op.indexShape, point));
  return properties;
}

}  // namespace idxmap::index_points
