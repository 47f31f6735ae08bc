// StableHLO gather, dynamic_gather and scatter (spec 000, with batching dims) as plain data:
// attributes, validation against every labeled constraint of the spec, result-shape
// inference and indexing maps. Independent of any text form: a reader fills these structs.
//
// Field names follow the spec's attribute names so diagnostics and readers use one vocabulary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "core/tensor_type.h"

namespace idxmap::gather_scatter {

// Tensor types are core's (core/tensor_type.h): shapes with kDynamic for `?` and bounds for
// bounded dims. The evaluators need static shapes.

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
};

struct GatherOp {
  TensorType operand;
  TensorType start_indices;
  GatherDimensionNumbers dimension_numbers;
  std::vector<int64_t> slice_sizes;
  bool indices_are_sorted = false;
  std::optional<TensorType> result;  // the declared result type, checked by C5, C22, C23
};

// dynamic_gather: gather without batching dims whose slice sizes are an operand tensor. The
// values of that tensor are needed for shape checks; they are given here.
struct DynamicGatherOp {
  TensorType operand;
  TensorType start_indices;
  TensorType slice_sizes_type;               // the type of the slice_sizes operand
  GatherDimensionNumbers dimension_numbers;  // batching dims must stay empty
  std::vector<int64_t> slice_sizes;
  // False when the values are not known (the operand is not a constant): the checks that need
  // them are skipped and C13 infers `?` for the offset dims, as StableHLO does.
  bool slice_sizes_known = true;
  bool indices_are_sorted = false;
  std::optional<TensorType> result;
};

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
};

// The update computation, as far as its semantics are modeled: a recognized binary op on
// (current result, update), or kOther when the region is anything else.
enum class UpdateComputation { kAdd, kMul, kMin, kMax, kReplace, kOther };

// A type in the update computation's signature. C23 wants every one to be `tensor<E>`, a 0-d
// tensor; the element type E is what the constructor from a string means. Any other type
// (`f32`, `tuple<...>`, `tensor<2xf32>`) is made with notScalarTensor and keeps its text, so
// that it can never pass for an element type.
struct ComputationType {
  std::string element_type;  // E of `tensor<E>`; empty when the type is something else
  std::string other;         // the type as MLIR writes it when it is not a 0-d tensor

  ComputationType(std::string elementType) : element_type(std::move(elementType)) {}
  ComputationType(const char* elementType) : element_type(elementType) {}
  static ComputationType notScalarTensor(std::string text);
  bool isScalarTensor() const { return other.empty(); }
  std::string toString() const;  // `tensor<f32>`, or the other type's text
  bool operator==(const ComputationType& o) const {
    return element_type == o.element_type && other == o.other;
  }
  bool operator!=(const ComputationType& o) const { return !(*this == o); }
};

struct ScatterOp {
  std::vector<TensorType> inputs;
  TensorType scatter_indices;
  std::vector<TensorType> updates;
  ScatterDimensionNumbers dimension_numbers;
  bool indices_are_sorted = false;
  bool unique_indices = false;
  UpdateComputation update_computation = UpdateComputation::kAdd;
  // The types of the update computation's block arguments (2N) and returned values (N),
  // checked by C23 and C25; both empty means "not known" and skips those checks.
  std::vector<ComputationType> computation_argument_types;
  std::vector<ComputationType> computation_result_types;
  std::vector<TensorType> results;  // declared result types; empty skips C24, C25
};

// One broken constraint: the spec's label ("C6"; "I1"... for an input's type), the attribute
// or operand it concerns (a dimension-numbers field such as "collapsed_slice_dims", an op
// attribute such as "slice_sizes", an operand, "result(s)" or "update_computation"), and a
// message in the form `stablehlo.gather (C6): ...`.
//
// Sizes are compared as spec 002 compares types: a dynamic dim (`?`) is compatible with any
// size its bound allows, so only a size no run time could give is a violation.
struct Violation {
  std::string label;
  std::string attribute;
  std::string message;
};

// Every violated constraint, in label order. Checks whose inputs are broken by an earlier
// constraint (an index out of range, say) skip themselves rather than read out of bounds.
std::vector<Violation> validateGather(const GatherOp& op);
std::vector<Violation> validateDynamicGather(const DynamicGatherOp& op);
std::vector<Violation> validateScatter(const ScatterOp& op);

// The result axes that are not offset dims (the spec's batch_dims), in order.
std::vector<int64_t> gatherBatchDims(const GatherDimensionNumbers& dims, int64_t resultRank);
// The update axes that are not window dims (the spec's update_scatter_dims), in order.
std::vector<int64_t> scatterUpdateScatterDims(const ScatterDimensionNumbers& dims,
                                              int64_t updateRank);

// C22's formula: the result shape of a gather. Requires C1-C3 and C20 to hold (the ranks the
// formula combines must add up); throws std::invalid_argument otherwise. A kDynamic in
// the start indices' shape or among the slice sizes (a dynamic_gather's unknown ones) gives a
// kDynamic in the result.
std::vector<int64_t> inferGatherResultShape(const GatherDimensionNumbers& dims,
                                            const std::vector<int64_t>& startIndicesShape,
                                            const std::vector<int64_t>& sliceSizes);

// Whether every operand (and update) of the op has a static shape: what its maps need.
bool hasStaticShapes(const GatherOp& op);
bool hasStaticShapes(const ScatterOp& op);

// A GatherOp carrying a dynamic_gather's attributes and slice-size values.
GatherOp asGather(const DynamicGatherOp& op);

// Maps of a valid op (validate first; behavior on invalid attributes is unspecified).
//
// Gather, result index -> operand index. Runtime variable rt_k is start index k (the entry
// start_index_map[k]) AFTER clamping, so its range is [0, dim(operand) - slice_size].
IndexingMap gatherOutputToOperandMap(const GatherOp& op);
// Gather, result index -> start_indices index. When index_vector_dim < rank(start_indices),
// range variable s0 walks the index vector: s0 = k reads start index k.
IndexingMap gatherOutputToStartIndicesMap(const GatherOp& op);
// Scatter, updates index -> result (= inputs) index. Runtime variable rt_k is the raw start
// index k (scatter does not clamp). A constraint keeps every result coordinate inside the
// input, so an update index with an out-of-bounds target has no image: it is skipped,
// exactly as the spec says.
IndexingMap scatterUpdateToResultMap(const ScatterOp& op);
// Scatter, updates index -> scatter_indices index; s0 walks the index vector as for gather.
IndexingMap scatterUpdateToIndicesMap(const ScatterOp& op);

}  // namespace idxmap::gather_scatter
