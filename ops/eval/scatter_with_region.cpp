// Each engine says where every update goes (reference_evaluator.h, map_evaluator.h); the
// caller's combine is applied there, in row-major order of the updates.
#include "ops/eval/scatter_with_region.h"

#include <stdexcept>

#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"

namespace idxmap::gather_scatter {
namespace {

// results[i][resultPosition] = combine(current values, update values)[i] for one update.
void applyRegion(std::vector<Tensor>& results, int64_t resultPosition,
                 const std::vector<Tensor>& updates, int64_t updatePosition,
                 const RegionCombine& combine) {
  std::vector<Tensor> currents, values;
  for (size_t i = 0; i < results.size(); ++i) {
    currents.push_back(scalarAt(results[i], resultPosition));
    values.push_back(scalarAt(updates[i], updatePosition));
  }
  std::vector<Tensor> combined = combine(currents, values);
  if (combined.size() != results.size())
    throw std::invalid_argument("the update computation returned " +
                                std::to_string(combined.size()) + " values for " +
                                std::to_string(results.size()) + " inputs");
  for (size_t i = 0; i < results.size(); ++i) {
    const Tensor& value = combined[i];
    if (value.element_type != results[i].element_type || !value.shape.empty())
      throw std::invalid_argument("the update computation returned a " + value.element_type +
                                  " value of rank " + std::to_string(value.shape.size()) +
                                  " for a 0-d " + results[i].element_type + " result");
    if (value.isFloat())
      results[i].floats[resultPosition] = value.floats.at(0);
    else
      results[i].ints[resultPosition] = value.ints.at(0);
  }
}

}  // namespace

std::vector<Tensor> referenceScatterWithRegion(const ScatterOp& op,
                                               const std::vector<Tensor>& inputs,
                                               const Tensor& scatterIndices,
                                               const std::vector<Tensor>& updates,
                                               const RegionCombine& combine) {
  std::vector<Tensor> results = inputs;
  forEachReferenceScatterTarget(op, scatterIndices, updates.at(0).shape, inputs.at(0).shape,
                                [&](int64_t updatePosition, int64_t resultPosition) {
                                  applyRegion(results, resultPosition, updates, updatePosition,
                                              combine);
                                });
  return results;
}

std::vector<Tensor> mapScatterWithRegion(const ScatterOp& op, const std::vector<Tensor>& inputs,
                                         const Tensor& scatterIndices,
                                         const std::vector<Tensor>& updates,
                                         const RegionCombine& combine) {
  std::vector<Tensor> results = inputs;
  forEachMapScatterTarget(op, scatterIndices, updates.at(0).shape, inputs.at(0).shape,
                          [&](int64_t updatePosition, int64_t resultPosition) {
                            applyRegion(results, resultPosition, updates, updatePosition, combine);
                          });
  return results;
}

}  // namespace idxmap::gather_scatter
