// The gather forms that are not StableHLO's (MLIR tensor.gather / tensor.scatter, TCP,
// torch, TF, ONNX) are modeled by lowering to a StableHLO gather or scatter plus what the
// StableHLO op does not say on its own:
//   - the index values each form accepts. StableHLO clamps gather indices and skips
//     out-of-bounds scatter updates; none of these forms do either (MLIR: undefined
//     behavior; torch, TF-CPU, ONNX: an error). The evaluators (ops/eval/lowered_gather.h)
//     report such an index as an IndexValueError instead of clamping it.
//   - ONNX's negative indices, a value transform (v -> v + size) applied before the check.
//   - torch.gather's smaller index tensor, a prefix slice of the operand.
// In every lowering each indexed operand dim has slice size 1, so the clamp range of the
// lowered map's runtime variables, [0, size - slice], is exactly the in-bounds range: the
// map is the form's map, with runtime variables ranged to the values the form defines.
#pragma once

#include <string>
#include <vector>

#include "core/checked.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

struct LoweredGather {
  std::string op_name;  // "tensor.gather", "torch.gather", ... for diagnostics
  GatherOp op;          // over the prepared operand and the (wrapped) indices
  // When non-empty, the operand is first cut to its leading operand_prefix[d] elements along
  // each dim d. Coordinates are unchanged by a prefix slice, so the op's maps are also maps
  // into the original operand.
  std::vector<int64_t> operand_prefix;
  // Entry k of every index vector indexes an operand dim of size index_bounds[k]
  // (start_index_map order); its value must lie in [0, index_bounds[k]).
  std::vector<int64_t> index_bounds;
  bool wrap_negative_indices = false;   // ONNX: v in [-size, -1] reads v + size
  bool require_unique_indices = false;  // tensor.gather's `unique`: index vectors distinct
};

struct LoweredScatter {
  std::string op_name;
  ScatterOp op;  // update computation kReplace, unique_indices set
  std::vector<int64_t> index_bounds;
  bool require_unique_indices = true;
};

// The three shapes of gather the forms share, for operands the caller has validated. Each
// leaves the index values as they are (no wrap, no uniqueness); callers set those fields.
//
// Along one axis, element by element (torch.gather, onnx.GatherElements, tcp.gather):
//   out[i0, ..., i_{r-1}] = operand[i0, ..., indices[i0, ..., i_{r-1}], ..., i_{r-1}]
// with indices of the operand's rank: every other dim is a batching dim, and where the
// indices are shorter than the operand the operand is prefix-sliced to them.
LoweredGather lowerElementsGather(const std::string& opName, const TensorType& operand,
                                  const TensorType& indices, int64_t axis);
// Whole slices along one axis, the first batchDims dims shared (tf.gather, onnx.Gather,
// torch.index_select): out has shape operand[:axis] + indices[batchDims:] + operand[axis+1:].
LoweredGather lowerAxisGather(const std::string& opName, const TensorType& operand,
                              const TensorType& indices, int64_t axis, int64_t batchDims);
// Slices at the coordinates in the indices' last dim (onnx.GatherND, tcp.gather_nd): out has
// shape indices[:-1] + operand[batchDims + m:], m = indices.shape[-1].
LoweredGather lowerNdGather(const std::string& opName, const TensorType& operand,
                            const TensorType& indices, int64_t batchDims);

}  // namespace idxmap::gather_scatter
