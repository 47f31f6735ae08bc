// From the MLIR reader's generic operations (ops/mlir/module.h) to the gather/scatter models
// (ops/stablehlo/gather_scatter.h): one function per op, reading the op's operands, types,
// attributes and update computation. What the text lacks for a model to exist at all (an operand, a
// type, a dimension-numbers attribute of the wrong kind) is an ImportError located at the
// op or the attribute; everything the spec constrains (C1...) is left to validation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/checked.h"
#include "core/text.h"
#include "ops/mlir/module.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::stablehlo_import {

// `file:line:col: error: message` without the source line (the op's location is known, not
// the text): what `idxmap verify` prints for an op whose model cannot be built.
class ImportError : public LocatedError {
 public:
  ImportError(SourceLocation location, std::string message)
      : LocatedError(std::move(location), std::move(message)) {}
};

// `tensor<2x?xf32>` -> {{2, kDynamic}, "f32"}, bounds kept. Unranked, opaque and
// non-tensor types are an ImportError naming `what` ("operand 0 of stablehlo.gather").
TensorType importTensorType(const mlir_ir::Type& type, const SourceLocation& location,
                            const std::string& what);

// `stablehlo.gather`: two operands, one result; types from the op's functional type.
gather_scatter::GatherOp importGather(const mlir_ir::Operation& op);

// `stablehlo.dynamic_gather`: three operands. The slice sizes are the values of the third
// operand; pass them when known (a constant), else slice_sizes_known is false and the checks
// that need them are skipped.
gather_scatter::DynamicGatherOp importDynamicGather(
    const mlir_ir::Operation& op, const std::optional<std::vector<int64_t>>& sliceSizes);

// `stablehlo.scatter`: N inputs, the indices and N updates (2N + 1 operands), N results, and
// the update computation: a single-block region whose body is recognized as add, multiply,
// min, max (of the current value and the update, either order) or replace (returns the
// update); anything else is kOther. Its signature is recorded for C23: each `tensor<E>` as E,
// any other type whole (ComputationType::notScalarTensor).
gather_scatter::ScatterOp importScatter(const mlir_ir::Operation& op);

}  // namespace idxmap::stablehlo_import
