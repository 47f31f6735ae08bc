// Random gathers and scatters written as StableHLO MLIR functions, so that kernel tests take
// them through the path a user's file takes (reader, import, proofs, emission), and random
// tensors of every element type kernels store.
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "ops/eval/tensor.h"
#include "tests/ops/stablehlo/random_ops.h"

namespace idxmap::codegen::testing {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using gather_scatter::Tensor;
using gather_scatter::UpdateComputation;
using gather_scatter::testing::uniform;

inline std::string typeText(const std::vector<int64_t>& shape, const std::string& elementType) {
  std::string out = "tensor<";
  for (int64_t size : shape) out += std::to_string(size) + "x";
  return out + elementType + ">";
}

inline std::string listText(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

// `dense<...>`'s nested brackets, values exact (floats with 17 significant digits).
inline std::string denseText(const Tensor& tensor) {
  std::ostringstream out;
  out.precision(17);
  int64_t position = 0;
  auto value = [&] {
    if (tensor.isFloat())
      out << tensor.floats[static_cast<size_t>(position)];
    else if (tensor.element_type == "i1")
      out << (tensor.ints[static_cast<size_t>(position)] ? "true" : "false");
    else
      out << tensor.ints[static_cast<size_t>(position)];
    ++position;
  };
  std::function<void(size_t)> level = [&](size_t axis) {
    if (axis == tensor.shape.size()) return value();
    out << '[';
    for (int64_t i = 0; i < tensor.shape[axis]; ++i) {
      if (i) out << ", ";
      level(axis + 1);
    }
    out << ']';
  };
  level(0);
  return out.str();
}

// Values every element type holds exactly: small integers, and quarters for floats.
inline Tensor randomTensor(std::mt19937& rng, const std::string& elementType,
                           const std::vector<int64_t>& shape) {
  Tensor tensor = gather_scatter::zeros(elementType, shape);
  for (double& v : tensor.floats) v = static_cast<double>(uniform(rng, -40, 40)) / 4;
  bool isUnsigned = elementType.rfind("ui", 0) == 0;
  // Sub-byte integers (i2, i4, ui2, ui4): their whole range; wider ones fit in a byte.
  const bool subByte =
      elementType == "i2" || elementType == "i4" || elementType == "ui2" || elementType == "ui4";
  const int bits = subByte ? elementType.back() - '0' : 8;
  const int64_t high =
      isUnsigned ? std::min(250, (1 << bits) - 1) : std::min(120, (1 << (bits - 1)) - 1);
  for (int64_t& v : tensor.ints)
    v = elementType == "i1" ? uniform(rng, 0, 1)
        : isUnsigned        ? uniform(rng, 0, high)
                            : uniform(rng, subByte ? -high - 1 : -high, high);
  return tensor;
}

// Index values of `indices` that keep every start in range: entry k of each index vector in
// [0, operand[start_index_map[k]] - window[start_index_map[k]]].
inline Tensor inRangeIndices(std::mt19937& rng, const Tensor& like, int64_t indexVectorDim,
                             const std::vector<int64_t>& startIndexMap,
                             const std::vector<int64_t>& operandShape,
                             const std::vector<int64_t>& windowSizes) {
  Tensor out = like;
  std::vector<int64_t> index(like.shape.size(), 0);
  for (size_t position = 0; position < out.ints.size(); ++position) {
    size_t k = indexVectorDim < static_cast<int64_t>(index.size())
                   ? static_cast<size_t>(index[indexVectorDim])
                   : 0;
    int64_t d = startIndexMap.at(k);
    out.ints[position] = uniform(rng, 0, operandShape[d] - windowSizes[d]);
    gather_scatter::nextIndex(like.shape, index);
  }
  return out;
}

// The op's indices computed from the function's `%indices` argument by `prelude` (lines of
// the body), as the batching decomposition concatenates iotas to them: the argument has type
// `argumentType`, the op reads `value`.
struct IndicesRewrite {
  std::string argumentType;
  std::string prelude;
  std::string value;
};

inline std::string gatherFunction(const std::string& name, const GatherOp& op,
                                  const std::optional<Tensor>& knownIndices,
                                  const IndicesRewrite* rewrite = nullptr) {
  const auto& dn = op.dimension_numbers;
  std::string operand = typeText(op.operand.shape, op.operand.element_type);
  std::string indices = typeText(op.start_indices.shape, op.start_indices.element_type);
  std::string result = typeText(op.result->shape, op.operand.element_type);
  std::string out =
      "func.func @" + name + "(%operand: " + operand +
      (knownIndices ? "" : ", %indices: " + (rewrite ? rewrite->argumentType : indices)) + ") -> " +
      result + " {\n";
  if (knownIndices)
    out += "  %indices = stablehlo.constant dense<" + denseText(*knownIndices) + "> : " + indices +
           "\n";
  if (rewrite) out += rewrite->prelude;
  out += "  %r = \"stablehlo.gather\"(%operand, " + (rewrite ? rewrite->value : "%indices") +
         ") {dimension_numbers = "
         "#stablehlo.gather<offset_dims = " +
         listText(dn.offset_dims) +
         ", collapsed_slice_dims = " + listText(dn.collapsed_slice_dims) +
         ", operand_batching_dims = " + listText(dn.operand_batching_dims) +
         ", start_indices_batching_dims = " + listText(dn.start_indices_batching_dims) +
         ", start_index_map = " + listText(dn.start_index_map) +
         ", index_vector_dim = " + std::to_string(dn.index_vector_dim) +
         ">, slice_sizes = array<i64: " +
         listText(op.slice_sizes).substr(1, listText(op.slice_sizes).size() - 2) +
         ">, indices_are_sorted = false} : (" + operand + ", " + indices + ") -> " + result + "\n";
  return out + "  func.return %r : " + result + "\n}\n";
}

inline const char* regionOp(UpdateComputation computation) {
  switch (computation) {
    case UpdateComputation::kAdd:
      return "stablehlo.add";
    case UpdateComputation::kMul:
      return "stablehlo.multiply";
    case UpdateComputation::kMin:
      return "stablehlo.minimum";
    case UpdateComputation::kMax:
      return "stablehlo.maximum";
    default:
      return nullptr;  // replace: returns the update
  }
}

// `region`: the update computation's ops and return, over %a0 .. %a<2n-1> (every input's current
// value, then every update); empty: op.update_computation's.
inline std::string scatterFunction(const std::string& name, const ScatterOp& op,
                                   const std::optional<Tensor>& knownIndices,
                                   const IndicesRewrite* rewrite = nullptr,
                                   const std::string& region = {}) {
  const auto& dn = op.dimension_numbers;
  const size_t n = op.inputs.size();
  std::string indices = typeText(op.scatter_indices.shape, op.scatter_indices.element_type);
  std::string arguments, operands, operandTypes, resultTypes, blockArguments, combined, scalars;
  for (size_t i = 0; i < n; ++i) {
    std::string input = typeText(op.inputs[i].shape, op.inputs[i].element_type);
    arguments += (i ? ", " : "") + std::string("%in") + std::to_string(i) + ": " + input;
    operands += (i ? ", " : "") + std::string("%in") + std::to_string(i);
    operandTypes += (i ? ", " : "") + input;
    resultTypes += (i ? ", " : "") + input;
  }
  if (!knownIndices) arguments += ", %indices: " + (rewrite ? rewrite->argumentType : indices);
  operands += ", " + (rewrite ? rewrite->value : std::string("%indices"));
  operandTypes += ", " + indices;
  for (size_t i = 0; i < n; ++i) {
    arguments += ", %up" + std::to_string(i) + ": " +
                 typeText(op.updates[i].shape, op.updates[i].element_type);
    operands += ", %up" + std::to_string(i);
    operandTypes += ", " + typeText(op.updates[i].shape, op.updates[i].element_type);
  }
  std::string block = "^bb0(";
  for (size_t i = 0; i < 2 * n; ++i)
    block += (i ? ", " : "") + std::string("%a") + std::to_string(i) + ": tensor<" +
             op.inputs[i % n].element_type + ">";
  block += "):\n";
  std::string returned, returnedTypes;
  for (size_t i = 0; i < n && region.empty(); ++i) {
    std::string scalar = "tensor<" + op.inputs[i].element_type + ">";
    std::string value = "%a" + std::to_string(n + i);
    if (const char* f = regionOp(op.update_computation)) {
      block += "    %c" + std::to_string(i) + " = \"" + f + "\"(%a" + std::to_string(i) + ", " +
               value + ") : (" + scalar + ", " + scalar + ") -> " + scalar + "\n";
      value = "%c" + std::to_string(i);
    }
    returned += (i ? ", " : "") + value;
    returnedTypes += (i ? ", " : "") + scalar;
  }
  block += region.empty()
               ? "    \"stablehlo.return\"(" + returned + ") : (" + returnedTypes + ") -> ()\n"
               : region;
  std::string results = n == 1 ? resultTypes : "(" + resultTypes + ")";
  std::string out = "func.func @" + name + "(" + arguments + ") -> " + results + " {\n";
  if (knownIndices)
    out += "  %indices = stablehlo.constant dense<" + denseText(*knownIndices) + "> : " + indices +
           "\n";
  if (rewrite) out += rewrite->prelude;
  out += "  %r" + (n == 1 ? std::string() : ":" + std::to_string(n)) + " = \"stablehlo.scatter\"(" +
         operands + ") ({\n  " + block +
         "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = " +
         listText(dn.update_window_dims) +
         ", inserted_window_dims = " + listText(dn.inserted_window_dims) +
         ", input_batching_dims = " + listText(dn.input_batching_dims) +
         ", scatter_indices_batching_dims = " + listText(dn.scatter_indices_batching_dims) +
         ", scatter_dims_to_operand_dims = " + listText(dn.scatter_dims_to_operand_dims) +
         ", index_vector_dim = " + std::to_string(dn.index_vector_dim) +
         ">, indices_are_sorted = false, unique_indices = false} : (" + operandTypes + ") -> " +
         results + "\n";
  std::string returnValues;
  for (size_t i = 0; i < n; ++i)
    returnValues += (i ? ", " : "") + std::string("%r") + (n == 1 ? "" : "#" + std::to_string(i));
  return out + "  func.return " + returnValues + " : " + resultTypes + "\n}\n";
}

}  // namespace idxmap::codegen::testing
