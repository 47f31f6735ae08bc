// Spec 000's "Compatibility" decomposition written as MLIR, for any gather or scatter with
// batching dims: the old-form op (ops/stablehlo/decompose.h) reading the start indices with an
// iota concatenated for each batching dim along the index vector axis (an implicit vector is
// first reshaped to an explicit size-1 axis). A wrong decomposition is the same with one iota
// counting along another axis. The text goes through random_mlir.h's function printers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/stablehlo/decompose.h"
#include "tests/codegen/random_mlir.h"

namespace idxmap::testing {

using codegen::testing::IndicesRewrite;
using codegen::testing::listText;
using codegen::testing::typeText;

// The lines that turn `%indices` (of `shape`) into the decomposed op's indices. With
// `wrongIota`, the first batching dim's iota counts along another axis of size > 1 when there
// is one (nullopt when there is none, or the batching axis itself has size 1).
inline std::optional<IndicesRewrite> decomposedIndices(const std::vector<int64_t>& shape,
                                                       const std::string& elementType,
                                                       int64_t indexVectorDim,
                                                       const std::vector<int64_t>& batchingDims,
                                                       bool wrongIota = false) {
  const auto rank = static_cast<int64_t>(shape.size());
  const bool implicit = indexVectorDim == rank;
  std::vector<int64_t> vectorShape = shape;
  if (implicit) vectorShape.push_back(1);
  const int64_t vectorAxis = implicit ? rank : indexVectorDim;
  std::vector<int64_t> iotaShape = vectorShape;
  iotaShape[vectorAxis] = 1;
  std::vector<int64_t> axes = batchingDims;
  if (wrongIota) {
    if (axes.empty() || iotaShape[axes[0]] <= 1) return std::nullopt;
    int64_t other = -1;
    for (int64_t a = 0; a < static_cast<int64_t>(iotaShape.size()); ++a)
      if (a != axes[0] && a != vectorAxis && iotaShape[a] > 1) other = a;
    if (other < 0) return std::nullopt;
    axes[0] = other;
  }
  std::vector<int64_t> grown = vectorShape;
  grown[vectorAxis] += static_cast<int64_t>(axes.size());
  IndicesRewrite rewrite{typeText(shape, elementType), "", "%grown"};
  std::string vector = "%indices", vectorType = typeText(vectorShape, elementType);
  if (implicit) {
    rewrite.prelude += "  %vector = \"stablehlo.reshape\"(%indices) : (" +
                       typeText(shape, elementType) + ") -> " + vectorType + "\n";
    vector = "%vector";
  }
  std::string operands = vector, types = vectorType;
  const std::string iotaType = typeText(iotaShape, elementType);
  for (size_t i = 0; i < axes.size(); ++i) {
    std::string name = "%iota" + std::to_string(i);
    rewrite.prelude += "  " + name +
                       " = \"stablehlo.iota\"() {iota_dimension = " + std::to_string(axes[i]) +
                       " : i64} : () -> " + iotaType + "\n";
    operands += ", " + name;
    types += ", " + iotaType;
  }
  rewrite.prelude += "  %grown = \"stablehlo.concatenate\"(" + operands +
                     ") {dimension = " + std::to_string(vectorAxis) + " : i64} : (" + types +
                     ") -> " + typeText(grown, elementType) + "\n";
  return rewrite;
}

// The batched gather and its decomposition as functions @name of (%operand, %indices).
inline std::optional<std::string> decomposedGatherFunction(const std::string& name,
                                                           const gather_scatter::GatherOp& op,
                                                           bool wrongIota = false) {
  const auto& dn = op.dimension_numbers;
  std::optional<IndicesRewrite> rewrite =
      decomposedIndices(op.start_indices.shape, op.start_indices.element_type, dn.index_vector_dim,
                        dn.start_indices_batching_dims, wrongIota);
  if (!rewrite) return std::nullopt;
  return codegen::testing::gatherFunction(name, gather_scatter::decomposeBatchingDims(op),
                                          std::nullopt, &*rewrite);
}

inline std::optional<std::string> decomposedScatterFunction(const std::string& name,
                                                            const gather_scatter::ScatterOp& op,
                                                            bool wrongIota = false) {
  const auto& dn = op.dimension_numbers;
  std::optional<IndicesRewrite> rewrite =
      decomposedIndices(op.scatter_indices.shape, op.scatter_indices.element_type,
                        dn.index_vector_dim, dn.scatter_indices_batching_dims, wrongIota);
  if (!rewrite) return std::nullopt;
  return codegen::testing::scatterFunction(name, gather_scatter::decomposeBatchingDims(op),
                                           std::nullopt, &*rewrite);
}

}  // namespace idxmap::testing
