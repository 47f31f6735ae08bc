#include <algorithm>

#include "verify/index_points.h"
#include "verify/indexed_op_internal.h"

namespace idxmap::index_points {

IndexedOp indexedOp(const gather_scatter::GatherOp& op, const IndexOpForm& form) {
  const gather_scatter::GatherDimensionNumbers& dn = op.dimension_numbers;
  IndexedOp indexed;
  indexed.names = form.names.value_or(IndexOpForm::Names{"result", "operand", "start_indices"});
  indexed.indexShape =
      gather_scatter::inferGatherResultShape(dn, op.start_indices.shape, op.slice_sizes);
  indexed.startIndexMap = dn.start_index_map;
  indexed.tensorRank = op.operand.shape.size();
  indexed.indicesMap = gather_scatter::gatherOutputToStartIndicesMap(op);
  indexed.indexVectorDim = dn.index_vector_dim;
  indexed.indicesRank = op.start_indices.rank();
  indexed.indicesShape = op.start_indices.shape;
  indexed.indicesElementType = op.start_indices.element_type;
  indexed.pointAxes =
      gather_scatter::gatherBatchDims(dn, static_cast<int64_t>(indexed.indexShape.size()));
  for (int64_t d : dn.start_index_map)
    indexed.clampTop.push_back(!form.outOfRangeIsUndefined
                                   ? std::optional(op.operand.shape[d] - op.slice_sizes[d])
                                   : std::nullopt);
  indexed.outOfRange = form.outOfRangeIsUndefined ? OutOfRange::Undefined : OutOfRange::Clamped;
  indexed.map = gather_scatter::gatherOutputToOperandMap(op);
  return indexed;
}

IndexedOp indexedOp(const gather_scatter::ScatterOp& op, const IndexOpForm& form) {
  const gather_scatter::ScatterDimensionNumbers& dn = op.dimension_numbers;
  IndexedOp indexed;
  indexed.names = form.names.value_or(IndexOpForm::Names{"updates", "result", "scatter_indices"});
  indexed.indexShape = op.updates.at(0).shape;
  indexed.startIndexMap = dn.scatter_dims_to_operand_dims;
  indexed.tensorRank = op.inputs.at(0).shape.size();
  indexed.indicesMap = gather_scatter::scatterUpdateToIndicesMap(op);
  indexed.indexVectorDim = dn.index_vector_dim;
  indexed.indicesRank = op.scatter_indices.rank();
  indexed.indicesShape = op.scatter_indices.shape;
  indexed.indicesElementType = op.scatter_indices.element_type;
  indexed.pointAxes =
      gather_scatter::scatterUpdateScatterDims(dn, static_cast<int64_t>(indexed.indexShape.size()));
  indexed.clampTop.assign(dn.scatter_dims_to_operand_dims.size(), std::nullopt);
  indexed.outOfRange = form.outOfRangeIsUndefined ? OutOfRange::Undefined : OutOfRange::Skipped;
  indexed.map = gather_scatter::scatterUpdateToResultMap(op);
  return indexed;
}

std::vector<int64_t> fullStartIndex(const IndexedOp& op, const std::vector<int64_t>& vector,
                                    bool clamp) {
  std::vector<int64_t> full(op.tensorRank, 0);
  for (size_t k = 0; k < vector.size(); ++k)
    full[op.startIndexMap[k]] =
        clamp && op.clampTop[k] ? std::clamp<int64_t>(vector[k], 0, *op.clampTop[k]) : vector[k];
  return full;
}

namespace {

// `scatter_indices[2] = [3]`: the index vector an index point reads, where it is written.
std::string readsVector(const IndexedOp& op, const std::vector<int64_t>& point,
                        const std::vector<int64_t>& vector) {
  std::vector<int64_t> at;
  for (int64_t axis : op.pointAxes) at.push_back(point[axis]);
  return element(op.names.indices, at) + " = " + text(vector);
}

}  // namespace

Counterexample outOfOrder(const IndexedOp& op, const std::vector<int64_t>& first,
                          const std::vector<int64_t>& firstVector,
                          const std::vector<int64_t>& second,
                          const std::vector<int64_t>& secondVector) {
  const std::string& space = op.names.indexSpace;
  Counterexample example;
  example.elements = {{space, first}, {space, second}};
  example.explanation = element(space, first) + " has full start index " +
                        text(fullStartIndex(op, firstVector)) + " but the later " +
                        element(space, second) + " has " + text(fullStartIndex(op, secondVector)) +
                        " (" + readsVector(op, first, firstVector) + ", " +
                        readsVector(op, second, secondVector) + ")";
  return example;
}

Counterexample notInBounds(const IndexedOp& op, const std::vector<int64_t>& point,
                           const std::vector<int64_t>& vector) {
  std::vector<int64_t> unclamped = fullStartIndex(op, vector, false);
  const std::string at = element(op.names.indexSpace, point);
  Counterexample example;
  example.elements = {{op.names.indexSpace, point}};
  switch (op.outOfRange) {
    case OutOfRange::Clamped:
      example.explanation = at + " reads start index " + text(unclamped) + ", clamped to " +
                            text(fullStartIndex(op, vector));
      break;
    case OutOfRange::Skipped:
      example.explanation = at + " starts its window at " + text(unclamped) + ", outside the " +
                            op.names.target + ": the update is skipped";
      break;
    case OutOfRange::Undefined:
      example.explanation = at + " reads " + op.names.target + " at " + text(unclamped) +
                            ", out of range (undefined behavior)";
      break;
  }
  example.explanation += " (" + readsVector(op, point, vector) + ")";
  return example;
}

Counterexample collision(const IndexedOp& op, const std::vector<int64_t>& first,
                         const std::vector<int64_t>& firstVector,
                         const std::vector<int64_t>& second,
                         const std::vector<int64_t>& secondVector,
                         const std::vector<int64_t>& target) {
  const IndexOpForm::Names& names = op.names;
  Counterexample example;
  example.elements = {
      {names.indexSpace, first}, {names.indexSpace, second}, {names.target, target}};
  example.explanation = element(names.indexSpace, first) + " and " +
                        element(names.indexSpace, second) +
                        (op.outOfRange == OutOfRange::Skipped ? " both write " : " both read ") +
                        element(names.target, target) + " (" + readsVector(op, first, firstVector) +
                        ", " + readsVector(op, second, secondVector) + ")";
  return example;
}

}  // namespace idxmap::index_points
