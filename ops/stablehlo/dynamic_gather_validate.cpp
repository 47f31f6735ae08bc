// stablehlo.dynamic_gather's constraints C1-C14: gather's without batching dims, labels
// renumbered, checked on the slice-size values the op carries, or without them when they are
// not known.
#include "ops/stablehlo/constraint_rules.h"
#include "ops/stablehlo/gather_rules.h"

namespace idxmap::gather_scatter {
namespace {

using DynamicGatherCheck = ConstraintRule<DynamicGatherOp>;
using Message = std::optional<std::string>;
using GatherMessage = Message (*)(const GatherOp&);

// The op seen as a gather. Unknown slice sizes become `?` sizes, one per operand dim: C13
// then infers `?` offset dims, as StableHLO does, and the size-count check (C11) reads the
// slice_sizes type instead.
GatherOp checkedAsGather(const DynamicGatherOp& op) {
  GatherOp gather = asGather(op);
  if (!op.slice_sizes_known) gather.slice_sizes.assign(op.operand.shape.size(), kDynamic);
  return gather;
}

// A gather message function applied to the dynamic_gather seen as a gather.
std::function<Message(const DynamicGatherOp&)> viaGather(GatherMessage message) {
  return [message](const DynamicGatherOp& op) { return message(checkedAsGather(op)); };
}

// The same, for a check that reads the slice-size values: skipped when they are unknown.
std::function<Message(const DynamicGatherOp&)> viaGatherWithSizes(GatherMessage message) {
  return [message](const DynamicGatherOp& op) -> Message {
    if (!op.slice_sizes_known) return std::nullopt;
    return message(asGather(op));
  };
}

Message dynamicSliceSizesCount(const DynamicGatherOp& op) {
  int64_t rank = op.operand.rank();
  if (op.slice_sizes_type.rank() == 1 && !admitsSize(op.slice_sizes_type, 0, rank))
    return "size(slice_sizes) = " + dimText(op.slice_sizes_type, 0) +
           " but rank(operand) = " + std::to_string(rank);
  if (op.slice_sizes_known && static_cast<int64_t>(op.slice_sizes.size()) != rank)
    return "slice_sizes has " + std::to_string(op.slice_sizes.size()) +
           " values but rank(operand) = " + std::to_string(rank);
  return std::nullopt;
}

const std::vector<DynamicGatherCheck>& dynamicGatherChecks() {
  using namespace gather_rules;
  static const std::vector<DynamicGatherCheck> table = {
      {"I1", "operand", viaGather(operandPerTensor)},
      {"I2", "start_indices", viaGather(startIndicesInteger)},
      {"I3", "slice_sizes",
       [](const DynamicGatherOp& op) -> Message {
         if (op.slice_sizes_type.rank() == 1 && isIntegerType(op.slice_sizes_type.element_type))
           return std::nullopt;
         return std::string("slice_sizes must be a 1-dimensional tensor of integer type");
       }},
      {"C1", "offset_dims",
       [](const DynamicGatherOp& op) -> Message {
         const GatherDimensionNumbers& d = op.dimension_numbers;
         auto sum = static_cast<int64_t>(d.offset_dims.size() + d.collapsed_slice_dims.size());
         bool batching = !d.operand_batching_dims.empty() || !d.start_indices_batching_dims.empty();
         if (sum == op.operand.rank() && !batching) return std::nullopt;
         return "rank(operand) = " + std::to_string(op.operand.rank()) +
                " but size(offset_dims) + size(collapsed_slice_dims) = " + std::to_string(sum) +
                (batching ? " (dynamic_gather has no batching dims)" : "");
       }},
      {"C2", "index_vector_dim", viaGather(indexVectorDimInRange)},
      {"C3", "start_index_map", viaGather(startIndexMapSize)},
      {"C4", "offset_dims", viaGather(offsetDimsUniqueSorted)},
      {"C5", "offset_dims", viaGather(offsetDimsInRange)},
      {"C6", "collapsed_slice_dims",
       [](const DynamicGatherOp& op) -> Message {
         const auto& dims = op.dimension_numbers.collapsed_slice_dims;
         if (std::optional<int64_t> twice = firstDuplicate(dims))
           return "dimension " + std::to_string(*twice) + " appears twice in collapsed_slice_dims";
         return sortedMessage(dims, "collapsed_slice_dims");
       }},
      {"C7", "collapsed_slice_dims", viaGather(collapsedInRange)},
      {"C8", "slice_sizes", viaGatherWithSizes(collapsedSizes)},
      {"C9", "start_index_map",
       [](const DynamicGatherOp& op) -> Message {
         if (std::optional<int64_t> twice = firstDuplicate(op.dimension_numbers.start_index_map))
           return "dimension " + std::to_string(*twice) + " appears twice in start_index_map";
         return std::nullopt;
       }},
      {"C10", "start_index_map", viaGather(startIndexMapInRange)},
      {"C11", "slice_sizes", dynamicSliceSizesCount},
      {"C12", "slice_sizes", viaGatherWithSizes(sliceSizesInRange)},
      {"C13", "result", viaGather(resultShape)},
      {"C14", "result", viaGather(resultElementType)},
  };
  return table;
}

}  // namespace

std::vector<Violation> validateDynamicGather(const DynamicGatherOp& op) {
  return runRules("stablehlo.dynamic_gather", dynamicGatherChecks(), op);
}

}  // namespace idxmap::gather_scatter
