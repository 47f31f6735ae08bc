#include "ops/forms/lowering.h"

#include <algorithm>
#include <stdexcept>

namespace idxmap::gather_scatter {
namespace {

using Index = std::vector<int64_t>;

// Slice size 1 along an indexed or batching dim, 0 when the dim is empty (StableHLO's C21
// bounds a slice size by its dim; an empty dim leaves no element to read anyway).
int64_t unitSlice(int64_t dimSize) { return std::min<int64_t>(1, dimSize); }

Index range(int64_t from, int64_t to) {
  Index values;
  for (int64_t v = from; v < to; ++v) values.push_back(v);
  return values;
}

}  // namespace

LoweredGather lowerElementsGather(const std::string& opName, const TensorType& operand,
                                  const TensorType& indices, int64_t axis) {
  const int64_t rank = operand.rank();
  LoweredGather lowered;
  lowered.op_name = opName;
  GatherOp& g = lowered.op;
  Index prefix = indices.shape;
  prefix[axis] = operand.shape[axis];
  if (prefix != operand.shape) lowered.operand_prefix = prefix;
  g.operand = {prefix, operand.element_type};
  g.start_indices = indices;
  GatherDimensionNumbers& dn = g.dimension_numbers;
  dn.index_vector_dim = rank;  // one index per element: the vector is implicit
  dn.start_index_map = {axis};
  dn.collapsed_slice_dims = {axis};
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) dn.operand_batching_dims.push_back(d);
  dn.start_indices_batching_dims = dn.operand_batching_dims;
  for (int64_t size : prefix) g.slice_sizes.push_back(unitSlice(size));
  g.result = TensorType{indices.shape, operand.element_type};
  lowered.index_bounds = {operand.shape[axis]};
  return lowered;
}

LoweredGather lowerAxisGather(const std::string& opName, const TensorType& operand,
                              const TensorType& indices, int64_t axis, int64_t batchDims) {
  const int64_t rank = operand.rank(), indicesRank = indices.rank();
  LoweredGather lowered;
  lowered.op_name = opName;
  GatherOp& g = lowered.op;
  g.operand = operand;
  g.start_indices = indices;
  GatherDimensionNumbers& dn = g.dimension_numbers;
  dn.index_vector_dim = indicesRank;
  dn.start_index_map = {axis};
  dn.collapsed_slice_dims = {axis};
  dn.operand_batching_dims = range(0, batchDims);
  dn.start_indices_batching_dims = range(0, batchDims);
  g.slice_sizes = operand.shape;
  g.slice_sizes[axis] = unitSlice(operand.shape[axis]);
  for (int64_t d = 0; d < batchDims; ++d) g.slice_sizes[d] = unitSlice(operand.shape[d]);
  // The operand dims between the batch dims and the axis stay in place; those after the axis
  // follow the indices' own dims.
  dn.offset_dims = range(batchDims, axis);
  for (int64_t d : range(axis + indicesRank - batchDims, rank - 1 + indicesRank - batchDims))
    dn.offset_dims.push_back(d);
  TensorType result{Index(operand.shape.begin(), operand.shape.begin() + axis),
                    operand.element_type};
  result.shape.insert(result.shape.end(), indices.shape.begin() + batchDims, indices.shape.end());
  result.shape.insert(result.shape.end(), operand.shape.begin() + axis + 1, operand.shape.end());
  g.result = result;
  lowered.index_bounds = {operand.shape[axis]};
  return lowered;
}

LoweredGather lowerNdGather(const std::string& opName, const TensorType& operand,
                            const TensorType& indices, int64_t batchDims) {
  const int64_t rank = operand.rank(), indicesRank = indices.rank();
  const int64_t coordinates = indices.shape.back();
  LoweredGather lowered;
  lowered.op_name = opName;
  GatherOp& g = lowered.op;
  g.operand = operand;
  g.start_indices = indices;
  GatherDimensionNumbers& dn = g.dimension_numbers;
  dn.index_vector_dim = indicesRank - 1;
  dn.start_index_map = range(batchDims, batchDims + coordinates);
  dn.collapsed_slice_dims = dn.start_index_map;
  dn.operand_batching_dims = range(0, batchDims);
  dn.start_indices_batching_dims = range(0, batchDims);
  g.slice_sizes = operand.shape;
  for (int64_t d = 0; d < batchDims + coordinates; ++d)
    g.slice_sizes[d] = unitSlice(operand.shape[d]);
  const int64_t tailRank = rank - batchDims - coordinates;
  dn.offset_dims = range(indicesRank - 1, indicesRank - 1 + tailRank);
  TensorType result{Index(indices.shape.begin(), indices.shape.end() - 1), operand.element_type};
  result.shape.insert(result.shape.end(), operand.shape.begin() + batchDims + coordinates,
                      operand.shape.end());
  g.result = result;
  for (int64_t d : dn.start_index_map) lowered.index_bounds.push_back(operand.shape[d]);
  return lowered;
}

}  // namespace idxmap::gather_scatter
