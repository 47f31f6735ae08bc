// Message functions for the gather constraints shared with dynamic_gather.
#include "ops/gather_checks.h"

#include <stdexcept>

#include "ops/constraint_checks.h"

namespace idxmap::gather_scatter::gather_checks {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

bool indexVectorDimValid(const GatherOp& op) {
  int64_t ivd = op.dimension_numbers.index_vector_dim;
  return ivd >= 0 && ivd <= op.start_indices.rank();
}

// rank(result): the declared one, else the one C22's formula gives.
int64_t resultRank(const GatherOp& op) {
  if (op.result) return op.result->rank();
  int64_t batchRank = op.start_indices.rank() -
                      (op.dimension_numbers.index_vector_dim < op.start_indices.rank() ? 1 : 0);
  return batchRank + static_cast<int64_t>(op.dimension_numbers.offset_dims.size());
}

}  // namespace

std::optional<std::string> rankAddsUp(const GatherOp& op) {
  const GatherDimensionNumbers& d = op.dimension_numbers;
  auto sum = static_cast<int64_t>(d.offset_dims.size() + d.collapsed_slice_dims.size() +
                                  d.operand_batching_dims.size());
  if (sum == op.operand.rank()) return std::nullopt;
  return "rank(operand) = " + str(op.operand.rank()) +
         " but size(offset_dims) + size(collapsed_slice_dims) + size(operand_batching_dims) = " +
         str(sum);
}

std::optional<std::string> indexVectorDimInRange(const GatherOp& op) {
  if (indexVectorDimValid(op)) return std::nullopt;
  return "index_vector_dim " + str(op.dimension_numbers.index_vector_dim) + " is outside [0, " +
         str(op.start_indices.rank()) + "] (rank(start_indices) is " +
         str(op.start_indices.rank()) + ")";
}

std::optional<std::string> startIndexMapSize(const GatherOp& op) {
  if (!indexVectorDimValid(op)) return std::nullopt;
  int64_t expected = indexVectorSize(op.start_indices, op.dimension_numbers.index_vector_dim);
  auto size = static_cast<int64_t>(op.dimension_numbers.start_index_map.size());
  if (size == expected) return std::nullopt;
  return "size(start_index_map) = " + str(size) + " but the index vector has " + str(expected) +
         " entries";
}

std::optional<std::string> offsetDimsUniqueSorted(const GatherOp& op) {
  const std::vector<int64_t>& dims = op.dimension_numbers.offset_dims;
  if (std::optional<int64_t> twice = firstDuplicate(dims))
    return "dimension " + str(*twice) + " appears twice in offset_dims";
  return sortedMessage(dims, "offset_dims");
}

std::optional<std::string> offsetDimsInRange(const GatherOp& op) {
  return rangeMessage(op.dimension_numbers.offset_dims, "offset_dims", resultRank(op),
                      "rank(result)");
}

std::optional<std::string> collapsedSorted(const GatherOp& op) {
  return sortedMessage(op.dimension_numbers.collapsed_slice_dims, "collapsed_slice_dims");
}

std::optional<std::string> collapsedInRange(const GatherOp& op) {
  return rangeMessage(op.dimension_numbers.collapsed_slice_dims, "collapsed_slice_dims",
                      op.operand.rank(), "rank(operand)");
}

std::optional<std::string> collapsedSizes(const GatherOp& op) {
  return collapsedSizeMessage(op.slice_sizes, op.dimension_numbers.collapsed_slice_dims,
                              "collapsed_slice_dims");
}

std::optional<std::string> startIndexMapInRange(const GatherOp& op) {
  return rangeMessage(op.dimension_numbers.start_index_map, "start_index_map", op.operand.rank(),
                      "rank(operand)");
}

std::optional<std::string> sliceSizesCount(const GatherOp& op) {
  if (static_cast<int64_t>(op.slice_sizes.size()) == op.operand.rank()) return std::nullopt;
  return "size(slice_sizes) = " + str(static_cast<int64_t>(op.slice_sizes.size())) +
         " but rank(operand) = " + str(op.operand.rank());
}

std::optional<std::string> sliceSizesInRange(const GatherOp& op) {
  for (size_t i = 0; i < op.slice_sizes.size() && i < op.operand.shape.size(); ++i)
    if (op.slice_sizes[i] < 0 || op.slice_sizes[i] > op.operand.shape[i])
      return "slice_sizes[" + str(static_cast<int64_t>(i)) + "] = " + str(op.slice_sizes[i]) +
             " is outside [0, " + str(op.operand.shape[i]) + "] (dim(operand, " +
             str(static_cast<int64_t>(i)) + "))";
  return std::nullopt;
}

std::optional<std::string> resultShape(const GatherOp& op) {
  if (!op.result) return std::nullopt;
  // The formula is defined only when the ranks it combines add up: other checks report that.
  if (rankAddsUp(op) || indexVectorDimInRange(op) || sliceSizesCount(op) || offsetDimsInRange(op) ||
      firstDuplicate(op.dimension_numbers.offset_dims))
    return std::nullopt;
  std::vector<int64_t> inferred;
  try {
    inferred = inferGatherResultShape(op.dimension_numbers, op.start_indices.shape, op.slice_sizes);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // collapsed/batching dims out of range: C8/C11 report it
  }
  if (inferred == op.result->shape) return std::nullopt;
  return "result shape " + listText(op.result->shape) + " differs from the inferred shape " +
         listText(inferred);
}

std::optional<std::string> resultElementType(const GatherOp& op) {
  if (!op.result || op.result->element_type == op.operand.element_type) return std::nullopt;
  return "element_type(result) = " + op.result->element_type +
         " but element_type(operand) = " + op.operand.element_type;
}

std::optional<std::string> startIndicesInteger(const GatherOp& op) {
  if (isIntegerType(op.start_indices.element_type)) return std::nullopt;
  return "start_indices have element type " + op.start_indices.element_type +
         ", not an integer type";
}

}  // namespace idxmap::gather_scatter::gather_checks
