// MLIR's tensor.gather and tensor.scatter (spec 001, and the rules MLIR's verifier states for
// them) as plain data: validation, result-type inference, and the lowering to a StableHLO
// gather / scatter that carries their semantics (ops/forms/lowering.h).
//
// The indices hold the coordinates in their last dim (spec 001: "the rightmost dimension
// contains the n-D coordinates"); coordinate k indexes source dim gather_dims[k]. The result
// is the indices' leading dims followed by the source dims, each gathered dim either kept with
// size 1 (rank-preserving) or dropped (rank-reducing); both result types are valid. Unlike
// StableHLO there is no clamping: an out-of-bounds coordinate is undefined behavior, and so is
// a repeated one under `unique`; tensor.scatter requires `unique`.
//
// Types may have dynamic sizes (kDynamic) for validation and inference; lowering and
// evaluation need static ones.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/forms/lowering.h"

namespace idxmap::gather_scatter {

struct TensorGatherOp {
  TensorType source;
  TensorType indices;  // element type `index` or a signless integer
  std::vector<int64_t> gather_dims;
  bool unique = false;
  // The declared result type; absent means the rank-preserving one (MLIR's default).
  std::optional<TensorType> result;
};

struct TensorScatterOp {
  TensorType source;  // the slices to insert: a gather's result type over dest
  TensorType dest;
  TensorType indices;
  std::vector<int64_t> scatter_dims;
  bool unique = false;
  std::optional<TensorType> result;  // must equal dest's type
};

// `tensor<2x?x3xf32>`, as MLIR prints it.
std::string mlirTypeString(const TensorType& type);

// MLIR's GatherOp::inferResultType: the indices' leading dims, then the source dims with the
// gathered ones set to 1 (rankReduced = false) or dropped. Requires valid gather_dims.
TensorType inferTensorGatherResultType(const TensorType& source, const TensorType& indices,
                                       const std::vector<int64_t>& gatherDims, bool rankReduced);

// Every broken rule; labels name the rule ("dims-non-empty", "result-type", "unique", ...) and
// messages quote MLIR's verifier, e.g. `tensor.gather: gather_dims must be non-empty`.
std::vector<Violation> validateTensorGather(const TensorGatherOp& op);
std::vector<Violation> validateTensorScatter(const TensorScatterOp& op);

// Whether the declared (or default) result / source type is the rank-reducing variant.
bool isRankReduced(const TensorGatherOp& op);
bool isRankReduced(const TensorScatterOp& op);

// Lowerings of valid ops with static shapes (idxmap::Error otherwise). Gather: the
// gathered dims are start_index_map, collapsed when rank-reducing, slice size 1 there and full
// elsewhere; index_vector_dim is the indices' last dim. Scatter: the same dims as
// scatter_dims_to_operand_dims / inserted_window_dims, update computation kReplace.
LoweredGather lowerTensorGather(const TensorGatherOp& op);
LoweredScatter lowerTensorScatter(const TensorScatterOp& op);

}  // namespace idxmap::gather_scatter
