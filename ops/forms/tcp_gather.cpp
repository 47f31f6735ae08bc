// tcp.gather's rules are those of TCP's GatherOp::verify (same rank; indices sized like the
// input except along `dim`, where a dynamic input size matches anything; result shaped like
// the indices), plus spec 003's types and a `dim` that names an input dim. tcp.gather_nd has
// only spec 003's Inputs/Output lines to go by.
#include "ops/forms/tcp_gather.h"

#include <algorithm>

#include "ops/forms/tensor_gather.h"

namespace idxmap::gather_scatter {
namespace {

void checkIndicesType(const std::string& opName, const TensorType& indices,
                      std::vector<Violation>& violations) {
  if (indices.element_type != "i64")
    violations.push_back(
        {"indices-type", "indices",
         opName + ": indices must be a tensor of int64, not " + mlirTypeString(indices)});
}

void checkResult(const std::string& opName, const TensorType& input,
                 const std::optional<TensorType>& result, const std::vector<int64_t>& shape,
                 const std::string& shapeRule, std::vector<Violation>& violations) {
  if (!result) return;
  if (result->shape != shape)
    violations.push_back({"result-shape", "result",
                          opName + ": " + shapeRule + " (expected " +
                              mlirTypeString({shape, input.element_type}) + ", got " +
                              mlirTypeString(*result) + ")"});
  if (result->element_type != input.element_type)
    violations.push_back({"result-element-type", "result",
                          opName + ": the result's element type " + result->element_type +
                              " is not the input's " + input.element_type});
}

void requireLowerable(const std::string& opName, const std::vector<Violation>& violations,
                      const std::vector<TensorType>& types) {
  if (!violations.empty())
    throw Error(opName + ": cannot lower an invalid op: " + violations[0].message);
  for (const TensorType& type : types)
    if (!type.isStatic())
      throw Error(opName + ": lowering needs static shapes, not " + mlirTypeString(type));
}

}  // namespace

TensorType inferTcpGatherResultType(const TcpGatherOp& op) {
  return {op.indices.shape, op.input.element_type};
}

TensorType inferTcpGatherNdResultType(const TcpGatherNdOp& op) {
  TensorType result{op.indices.shape, op.input.element_type};
  if (result.shape.empty()) return result;
  const int64_t coordinates = result.shape.back();
  result.shape.pop_back();
  result.shape.insert(result.shape.end(), op.input.shape.begin() + coordinates,
                      op.input.shape.end());
  return result;
}

std::vector<Violation> validateTcpGather(const TcpGatherOp& op) {
  const std::string name = "tcp.gather";
  std::vector<Violation> violations;
  checkIndicesType(name, op.indices, violations);
  const int64_t rank = op.input.rank();
  if (op.dim < 0 || op.dim >= rank)
    violations.push_back({"dim-in-range", "dim",
                          name + ": dim = " + std::to_string(op.dim) +
                              " is not a dim of the rank-" + std::to_string(rank) + " input"});
  if (op.indices.rank() != rank) {
    violations.push_back({"same-rank", "indices",
                          name +
                              ": requires that the input tensor and indices are the same "
                              "rank (" +
                              std::to_string(rank) + " vs " + std::to_string(op.indices.rank()) +
                              ")"});
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      int64_t inputSize = op.input.shape[d], indicesSize = op.indices.shape[d];
      if (d == op.dim || inputSize == kDynamic || inputSize == indicesSize) continue;
      violations.push_back({"indices-shape", "indices",
                            name + ": indices tensor does not match expected shape: dim " +
                                std::to_string(d) + " of the indices is " +
                                std::to_string(indicesSize) + " but the input's is " +
                                std::to_string(inputSize)});
      break;
    }
  }
  checkResult(name, op.input, op.result, op.indices.shape,
              "expect the shape of the indices to match the output shape", violations);
  return violations;
}

std::vector<Violation> validateTcpGatherNd(const TcpGatherNdOp& op) {
  const std::string name = "tcp.gather_nd";
  std::vector<Violation> violations;
  checkIndicesType(name, op.indices, violations);
  if (op.indices.rank() < 1) {
    violations.push_back({"indices-rank", "indices",
                          name + ": indices must have rank >= 1, their last dim holding the "
                                 "coordinates"});
    return violations;
  }
  const int64_t coordinates = op.indices.shape.back();
  if (coordinates < 1 || coordinates > op.input.rank()) {
    violations.push_back({"coordinates", "indices",
                          name + ": the indices' last dim (" +
                              (coordinates < 0 ? std::string("?") : std::to_string(coordinates)) +
                              ") must be a static size between 1 and the input rank " +
                              std::to_string(op.input.rank())});
    return violations;
  }
  checkResult(name, op.input, op.result, inferTcpGatherNdResultType(op).shape,
              "out must have shape indices_shape[:-1] + input_shape[indices_shape[-1]:], rank "
              "r + q - indices_shape[-1] - 1",
              violations);
  return violations;
}

LoweredGather lowerTcpGather(const TcpGatherOp& op) {
  requireLowerable("tcp.gather", validateTcpGather(op), {op.input, op.indices});
  return lowerElementsGather("tcp.gather", op.input, op.indices, op.dim);
}

LoweredGather lowerTcpGatherNd(const TcpGatherNdOp& op) {
  requireLowerable("tcp.gather_nd", validateTcpGatherNd(op), {op.input, op.indices});
  return lowerNdGather("tcp.gather_nd", op.input, op.indices, 0);
}

}  // namespace idxmap::gather_scatter
