// The framework gathers, each as the framework documents it, lowered to a StableHLO gather
// (ops/forms/lowering.h):
//   torch.gather(input, dim, index)    out[i][j][k] = input[index[i][j][k]][j][k]  (dim = 0)
//   torch.index_select(input, dim, index)  whole slices at a 1-D index along dim
//   tf.gather(params, indices, axis, batch_dims)
//       out[b.., p.., i.., t..] = params[b.., p.., indices[b.., i..], t..]
//   onnx.Gather(data, indices, axis)          tf.gather with batch_dims = 0
//   onnx.GatherElements(data, indices, axis)  torch.gather
//   onnx.GatherND(data, indices, batch_dims)
//       out[b.., i.., t..] = data[b.., indices[b.., i.., :], t..]
// Negative axes count from the end, as every framework allows. ONNX also allows negative
// index VALUES (-1 is the last element): the lowering sets wrap_negative_indices, an explicit
// value transform on the indices (wrapNegativeIndices) done before the bounds check, so the
// lowered op and its map see the wrapped values. An index out of bounds (after the wrap) is an
// error in torch, TF (CPU) and ONNX; the evaluators report it rather than clamp.
#pragma once

#include "ops/forms/lowering.h"

namespace idxmap::gather_scatter {

struct TorchGather {
  TensorType input;
  int64_t dim = 0;
  TensorType index;  // i64, the input's rank, index.size(d) <= input.size(d) for d != dim
};

struct TorchIndexSelect {
  TensorType input;
  int64_t dim = 0;
  TensorType index;  // 1-D, i32 or i64
};

struct TfGather {
  TensorType params;
  TensorType indices;  // i32 or i64
  int64_t axis = 0;
  int64_t batch_dims = 0;
};

struct OnnxGather {
  TensorType data;
  TensorType indices;  // i32 or i64, values in [-s, s - 1]
  int64_t axis = 0;
};

struct OnnxGatherElements {
  TensorType data;
  TensorType indices;
  int64_t axis = 0;
};

struct OnnxGatherNd {
  TensorType data;
  TensorType indices;  // the last dim holds the coordinates
  int64_t batch_dims = 0;
};

// Each throws idxmap::Error naming the framework's broken rule (ranks, axis range, index
// shape, index type, batch dims) when the form is invalid.
LoweredGather lowerTorchGather(const TorchGather& form);
LoweredGather lowerTorchIndexSelect(const TorchIndexSelect& form);
LoweredGather lowerTfGather(const TfGather& form);
LoweredGather lowerOnnxGather(const OnnxGather& form);
LoweredGather lowerOnnxGatherElements(const OnnxGatherElements& form);
LoweredGather lowerOnnxGatherNd(const OnnxGatherNd& form);

}  // namespace idxmap::gather_scatter
