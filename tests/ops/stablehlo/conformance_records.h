// Reading the conformance records (../shared/conformance/stablehlo/*.jsonl): tensor types and
// dimension numbers as the records write them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter::testing {

// "tensor<2x3xi64>" -> {{2, 3}, "i64"}; nullopt for dynamic, quantized or unparsable types.
inline std::optional<TensorType> parseTensorType(const std::string& text) {
  const std::string prefix = "tensor<";
  if (text.rfind(prefix, 0) != 0 || text.back() != '>') return std::nullopt;
  std::string body = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  if (body.find_first_of("?!<") != std::string::npos) return std::nullopt;
  TensorType type;
  size_t start = 0;
  for (size_t x = body.find('x'); x != std::string::npos; x = body.find('x', start)) {
    std::string size = body.substr(start, x - start);
    if (size.empty() || size.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    type.shape.push_back(std::stoll(size));
    start = x + 1;
  }
  type.element_type = body.substr(start);
  return type;
}

inline std::vector<int64_t> ints(const nlohmann::json& list) {
  return list.get<std::vector<int64_t>>();
}

inline GatherDimensionNumbers gatherDims(const nlohmann::json& attrs) {
  GatherDimensionNumbers dn;
  dn.offset_dims = ints(attrs.at("offset_dims"));
  dn.collapsed_slice_dims = ints(attrs.at("collapsed_slice_dims"));
  dn.operand_batching_dims = ints(attrs.at("operand_batching_dims"));
  dn.start_indices_batching_dims = ints(attrs.at("start_indices_batching_dims"));
  dn.start_index_map = ints(attrs.at("start_index_map"));
  dn.index_vector_dim = attrs.at("index_vector_dim").get<int64_t>();
  return dn;
}

inline ScatterDimensionNumbers scatterDims(const nlohmann::json& attrs) {
  ScatterDimensionNumbers dn;
  dn.update_window_dims = ints(attrs.at("update_window_dims"));
  dn.inserted_window_dims = ints(attrs.at("inserted_window_dims"));
  dn.input_batching_dims = ints(attrs.at("input_batching_dims"));
  dn.scatter_indices_batching_dims = ints(attrs.at("scatter_indices_batching_dims"));
  dn.scatter_dims_to_operand_dims = ints(attrs.at("scatter_dims_to_operand_dims"));
  dn.index_vector_dim = attrs.at("index_vector_dim").get<int64_t>();
  return dn;
}

}  // namespace idxmap::gather_scatter::testing
