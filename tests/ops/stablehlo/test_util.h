// Shared by the gather/scatter tests: tensors written as nested lists (as the spec writes them)
// and the spec's two examples as ops.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "ops/eval/tensor.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

// Readable test failures: the type, the shape and the values.
inline void PrintTo(const Tensor& tensor, std::ostream* out) {
  *out << tensor.element_type << " [";
  for (int64_t size : tensor.shape) *out << " " << size;
  *out << " ] {";
  for (int64_t v : tensor.ints) *out << " " << v;
  for (double v : tensor.floats) *out << " " << v;
  *out << " }";
}

}  // namespace idxmap::gather_scatter

namespace idxmap::gather_scatter::testing {

inline void flattenInto(const nlohmann::json& value, const std::string& elementType,
                        Tensor& tensor) {
  if (value.is_array()) {
    for (const nlohmann::json& element : value) flattenInto(element, elementType, tensor);
  } else if (isFloatType(elementType)) {
    // Printed values of narrow types are approximations of values of the type.
    tensor.floats.push_back(roundToElementType(elementType, value.get<double>()));
  } else if (value.is_boolean()) {
    tensor.ints.push_back(value.get<bool>() ? 1 : 0);
  } else {
    tensor.ints.push_back(value.get<int64_t>());
  }
}

// A tensor from nested lists; the element count must match the shape.
inline Tensor tensorFrom(const std::string& elementType, const std::vector<int64_t>& shape,
                         const nlohmann::json& nested) {
  Tensor tensor{elementType, shape, {}, {}};
  flattenInto(nested, elementType, tensor);
  size_t count = tensor.isFloat() ? tensor.floats.size() : tensor.ints.size();
  if (static_cast<int64_t>(count) != tensor.elementCount())
    throw std::invalid_argument("nested list has " + std::to_string(count) +
                                " elements for a shape of " +
                                std::to_string(tensor.elementCount()));
  return tensor;
}

inline Tensor tensorFrom(const std::string& elementType, const std::vector<int64_t>& shape,
                         const char* nestedText) {
  return tensorFrom(elementType, shape, nlohmann::json::parse(nestedText));
}

inline std::set<std::string> labelsOf(const std::vector<Violation>& violations) {
  std::set<std::string> labels;
  for (const Violation& v : violations) labels.insert(v.label);
  return labels;
}

inline std::string describe(const std::vector<Violation>& violations) {
  std::string text;
  for (const Violation& v : violations) text += v.message + "\n";
  return text;
}

// The spec's gather example (spec 000, gather / Examples).
inline GatherOp specGatherExample() {
  GatherOp op;
  op.operand = {{2, 3, 4, 2}, "i32"};
  op.start_indices = {{2, 2, 3, 2}, "i64"};
  op.dimension_numbers.offset_dims = {3, 4};
  op.dimension_numbers.collapsed_slice_dims = {1};
  op.dimension_numbers.operand_batching_dims = {0};
  op.dimension_numbers.start_indices_batching_dims = {1};
  op.dimension_numbers.start_index_map = {2, 1};
  op.dimension_numbers.index_vector_dim = 3;
  op.slice_sizes = {1, 1, 2, 2};
  op.result = TensorType{{2, 2, 3, 2, 2}, "i32"};
  return op;
}

// The spec's scatter example (spec 000, scatter / Examples), update computation add.
inline ScatterOp specScatterExample() {
  ScatterOp op;
  op.inputs = {{{2, 3, 4, 2}, "i64"}};
  op.scatter_indices = {{2, 2, 3, 2}, "i64"};
  op.updates = {{{2, 2, 3, 2, 2}, "i64"}};
  op.dimension_numbers.update_window_dims = {3, 4};
  op.dimension_numbers.inserted_window_dims = {1};
  op.dimension_numbers.input_batching_dims = {0};
  op.dimension_numbers.scatter_indices_batching_dims = {1};
  op.dimension_numbers.scatter_dims_to_operand_dims = {2, 1};
  op.dimension_numbers.index_vector_dim = 3;
  op.update_computation = UpdateComputation::kAdd;
  op.computation_argument_types = {"i64", "i64"};
  op.computation_result_types = {"i64"};
  op.results = {{{2, 3, 4, 2}, "i64"}};
  return op;
}

// The operand / input of both spec examples and their (start / scatter) indices.
inline const char* kSpecOperand = R"([
  [[[1, 2], [3, 4], [5, 6], [7, 8]],
   [[9, 10],[11, 12], [13, 14], [15, 16]],
   [[17, 18], [19, 20], [21, 22], [23, 24]]],
  [[[25, 26], [27, 28], [29, 30], [31, 32]],
   [[33, 34], [35, 36], [37, 38], [39, 40]],
   [[41, 42], [43, 44], [45, 46], [47, 48]]]])";
inline const char* kSpecIndices = R"([
  [[[0, 0], [1, 0], [2, 1]],
   [[0, 1], [1, 1], [0, 9]]],
  [[[0, 0], [2, 1], [2, 2]],
   [[1, 2], [0, 1], [1, 0]]]])";

}  // namespace idxmap::gather_scatter::testing
