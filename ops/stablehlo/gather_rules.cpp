// Message functions for the gather constraints shared with dynamic_gather.
#include "ops/stablehlo/gather_rules.h"

#include <optional>
#include <stdexcept>

#include "ops/stablehlo/constraint_rules.h"

namespace idxmap::gather_scatter::gather_rules {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

bool indexVectorDimValid(const GatherOp& op) {
  int64_t ivd = op.dimension_numbers.index_vector_dim;
  return ivd >= 0 && ivd <= op.start_indices.rank();
}

// The result rank C22's formula implies: the batch dims (start_indices without the index
// vector dim) and one dim per offset dim. C5 bounds offset_dims by it rather than by the
// declared result, as StableHLO does, so that a declared result of the wrong rank is one C22
// violation instead of a cascade.
int64_t impliedResultRank(const GatherOp& op) {
  int64_t batchRank = op.start_indices.rank() -
                      (op.dimension_numbers.index_vector_dim < op.start_indices.rank() ? 1 : 0);
  return batchRank + static_cast<int64_t>(op.dimension_numbers.offset_dims.size());
}

// C22's inferred result, dynamic dims carrying the bounds of the start_indices dims they
// come from. nullopt when the formula is undefined because another constraint is broken.
std::optional<TensorType> inferredResult(const GatherOp& op) {
  if (rankAddsUp(op) || !indexVectorDimValid(op) || sliceSizesCount(op) || offsetDimsInRange(op) ||
      firstDuplicate(op.dimension_numbers.offset_dims))
    return std::nullopt;
  TensorType inferred;
  try {
    inferred.shape =
        inferGatherResultShape(op.dimension_numbers, op.start_indices.shape, op.slice_sizes);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // collapsed/batching dims out of range: C8/C11 report it
  }
  inferred.element_type = op.operand.element_type;
  // Where a result dim comes from start_indices, it keeps that dim's bound.
  if (op.start_indices.bounds.size() == op.start_indices.shape.size()) {
    std::vector<int64_t> batchBounds;
    for (int64_t axis = 0; axis < op.start_indices.rank(); ++axis)
      if (axis != op.dimension_numbers.index_vector_dim)
        batchBounds.push_back(op.start_indices.bounds[axis]);
    inferred.bounds.assign(inferred.shape.size(), kDynamic);
    std::vector<int64_t> batchDims = gatherBatchDims(op.dimension_numbers, inferred.rank());
    for (size_t i = 0; i < batchDims.size() && i < batchBounds.size(); ++i)
      inferred.bounds[batchDims[i]] = batchBounds[i];
  }
  return inferred;
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
  TensorType vector = indexVectorDimType(op.start_indices, op.dimension_numbers.index_vector_dim);
  auto size = static_cast<int64_t>(op.dimension_numbers.start_index_map.size());
  if (admitsSize(vector, 0, size)) return std::nullopt;
  return "size(start_index_map) = " + str(size) + " but the index vector has " +
         dimText(vector, 0) + " entries";
}

std::optional<std::string> offsetDimsUniqueSorted(const GatherOp& op) {
  const std::vector<int64_t>& dims = op.dimension_numbers.offset_dims;
  if (std::optional<int64_t> twice = firstDuplicate(dims))
    return "dimension " + str(*twice) + " appears twice in offset_dims";
  return sortedMessage(dims, "offset_dims");
}

std::optional<std::string> offsetDimsInRange(const GatherOp& op) {
  return rangeMessage(op.dimension_numbers.offset_dims, "offset_dims", impliedResultRank(op),
                      "the result's rank (batch dims + offset dims)");
}

std::optional<std::string> collapsedSorted(const GatherOp& op) {
  return sortedMessage(op.dimension_numbers.collapsed_slice_dims, "collapsed_slice_dims");
}

std::optional<std::string> collapsedInRange(const GatherOp& op) {
  return rangeMessage(op.dimension_numbers.collapsed_slice_dims, "collapsed_slice_dims",
                      op.operand.rank(), "rank(operand)");
}

std::optional<std::string> collapsedSizes(const GatherOp& op) {
  if (sliceSizesCount(op)) return std::nullopt;  // slice_sizes[d] is not operand dim d's: C20
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
  if (sliceSizesCount(op)) return std::nullopt;  // slice_sizes[d] is not operand dim d's: C20
  for (size_t i = 0; i < op.slice_sizes.size() && i < op.operand.shape.size(); ++i) {
    auto axis = static_cast<int64_t>(i);
    // A dynamic operand dim bounds the slice size by its bound, when it has one (spec 002).
    std::optional<int64_t> upper = dimUpperBound(op.operand, axis);
    if (op.slice_sizes[i] < 0 || (upper && op.slice_sizes[i] > *upper))
      return "slice_sizes[" + str(axis) + "] = " + str(op.slice_sizes[i]) + " is outside [0, " +
             (upper ? str(*upper) : std::string("inf")) + "] (dim(operand, " + str(axis) +
             ") = " + dimText(op.operand, axis) + ")";
  }
  return std::nullopt;
}

std::optional<std::string> resultShape(const GatherOp& op) {
  if (!op.result || !indexVectorDimValid(op)) return std::nullopt;
  // The rank needs only offset_dims and start_indices; the sizes need the whole formula.
  if (op.result->rank() != impliedResultRank(op))
    return "rank(result) = " + str(op.result->rank()) + " but the inferred rank is " +
           str(impliedResultRank(op)) + " (batch dims of start_indices + size(offset_dims))";
  std::optional<TensorType> inferred = inferredResult(op);
  if (!inferred) return std::nullopt;
  std::optional<std::string> why = shapeIncompatibility(*op.result, *inferred);
  if (!why) return std::nullopt;
  return "result shape " + shapeText(op.result->shape) +
         " is incompatible with the inferred shape " + shapeText(inferred->shape) + ": " + *why;
}

std::optional<std::string> resultElementType(const GatherOp& op) {
  if (!op.result || op.result->element_type == op.operand.element_type) return std::nullopt;
  return "element_type(result) = " + op.result->element_type +
         " but element_type(operand) = " + op.operand.element_type;
}

std::optional<std::string> operandPerTensor(const GatherOp& op) {
  return perTensorMessage(op.operand, "operand");
}

std::optional<std::string> startIndicesInteger(const GatherOp& op) {
  if (isIntegerType(op.start_indices.element_type)) return std::nullopt;
  return "start_indices have element type " + op.start_indices.element_type +
         ", not an integer type";
}

}  // namespace idxmap::gather_scatter::gather_rules
