// The rules checked are the ones each framework states for its op (torch's and TF's shape
// checks, the ONNX operator docs); messages say the rule with the values that break it.
#include "ops/forms/framework_gather.h"

#include <algorithm>

namespace idxmap::gather_scatter {
namespace {

[[noreturn]] void fail(const std::string& opName, const std::string& rule) {
  throw Error(opName + ": " + rule);
}

void requireRank(const std::string& opName, const char* what, const TensorType& type,
                 int64_t minRank) {
  if (type.rank() < minRank)
    fail(opName, std::string(what) + " must have rank >= " + std::to_string(minRank) + ", not " +
                     std::to_string(type.rank()));
}

void requireStatic(const std::string& opName, const TensorType& type) {
  if (!type.isStatic()) fail(opName, "lowering needs static shapes");
}

void requireIndexType(const std::string& opName, const TensorType& indices, bool allowI32) {
  if (indices.element_type == "i64" || (allowI32 && indices.element_type == "i32")) return;
  fail(opName, std::string("indices must be ") + (allowI32 ? "int32 or int64" : "int64") +
                   ", not " + indices.element_type);
}

// A possibly negative axis of a rank-`rank` tensor, normalized into [0, rank).
int64_t normalizeAxis(const std::string& opName, const char* name, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    fail(opName, std::string(name) + " = " + std::to_string(axis) + " must be in [" +
                     std::to_string(-rank) + ", " + std::to_string(rank - 1) + "]");
  return axis < 0 ? axis + rank : axis;
}

void requireSameLeadingDims(const std::string& opName, const TensorType& data,
                            const TensorType& indices, int64_t count, const char* dataName) {
  for (int64_t d = 0; d < count; ++d)
    if (data.shape[d] != indices.shape[d])
      fail(opName, std::string(dataName) + ".shape[" + std::to_string(d) +
                       "] = " + std::to_string(data.shape[d]) + " must equal indices.shape[" +
                       std::to_string(d) + "] = " + std::to_string(indices.shape[d]) +
                       " (a batch dim)");
}

// torch.gather / onnx.GatherElements: same rank, index no larger than the input off the axis.
LoweredGather elementsGather(const std::string& opName, const TensorType& input,
                             const TensorType& index, int64_t axis, bool allowI32) {
  requireStatic(opName, input);
  requireStatic(opName, index);
  requireRank(opName, "the input", input, 1);
  requireIndexType(opName, index, allowI32);
  if (index.rank() != input.rank())
    fail(opName, "the index must have the same number of dims as the input (" +
                     std::to_string(index.rank()) + " vs " + std::to_string(input.rank()) + ")");
  axis = normalizeAxis(opName, "the axis", axis, input.rank());
  for (int64_t d = 0; d < input.rank(); ++d)
    if (d != axis && index.shape[d] > input.shape[d])
      fail(opName, "index.size(" + std::to_string(d) + ") = " + std::to_string(index.shape[d]) +
                       " must be <= input.size(" + std::to_string(d) +
                       ") = " + std::to_string(input.shape[d]) + " for every dim but the axis");
  return lowerElementsGather(opName, input, index, axis);
}

// tf.gather / onnx.Gather / torch.index_select.
LoweredGather axisGather(const std::string& opName, const TensorType& params,
                         const TensorType& indices, int64_t axis, int64_t batchDims) {
  requireStatic(opName, params);
  requireStatic(opName, indices);
  requireRank(opName, "params", params, 1);
  requireIndexType(opName, indices, true);
  if (batchDims < -indices.rank() || batchDims > indices.rank())
    fail(opName, "batch_dims = " + std::to_string(batchDims) + " must be in [" +
                     std::to_string(-indices.rank()) + ", " + std::to_string(indices.rank()) + "]");
  if (batchDims < 0) batchDims += indices.rank();
  axis = normalizeAxis(opName, "axis", axis, params.rank());
  if (batchDims > axis)
    fail(opName, "batch_dims (" + std::to_string(batchDims) +
                     ") must be less than or equal to axis (" + std::to_string(axis) + ")");
  requireSameLeadingDims(opName, params, indices, batchDims, "params");
  return lowerAxisGather(opName, params, indices, axis, batchDims);
}

}  // namespace

LoweredGather lowerTorchGather(const TorchGather& form) {
  return elementsGather("torch.gather", form.input, form.index, form.dim, false);
}

LoweredGather lowerTorchIndexSelect(const TorchIndexSelect& form) {
  const std::string name = "torch.index_select";
  if (form.index.rank() != 1)
    fail(name, "the index must be a vector (1-D), not rank " + std::to_string(form.index.rank()));
  return axisGather(name, form.input, form.index, form.dim, 0);
}

LoweredGather lowerTfGather(const TfGather& form) {
  return axisGather("tf.gather", form.params, form.indices, form.axis, form.batch_dims);
}

LoweredGather lowerOnnxGather(const OnnxGather& form) {
  LoweredGather lowered = axisGather("onnx.Gather", form.data, form.indices, form.axis, 0);
  lowered.wrap_negative_indices = true;
  return lowered;
}

LoweredGather lowerOnnxGatherElements(const OnnxGatherElements& form) {
  LoweredGather lowered =
      elementsGather("onnx.GatherElements", form.data, form.indices, form.axis, true);
  lowered.wrap_negative_indices = true;
  return lowered;
}

LoweredGather lowerOnnxGatherNd(const OnnxGatherNd& form) {
  const std::string name = "onnx.GatherND";
  const TensorType& data = form.data;
  const TensorType& indices = form.indices;
  requireStatic(name, data);
  requireStatic(name, indices);
  requireRank(name, "data", data, 1);
  requireRank(name, "indices", indices, 1);
  requireIndexType(name, indices, false);
  const int64_t b = form.batch_dims;
  if (b < 0 || b >= std::min(indices.rank(), data.rank()))
    fail(name, "batch_dims = " + std::to_string(b) + " must be in [0, min(q, r)) = [0, " +
                   std::to_string(std::min(indices.rank(), data.rank())) + ")");
  requireSameLeadingDims(name, data, indices, b, "data");
  const int64_t m = indices.shape.back();
  if (m < 1 || m > data.rank() - b)
    fail(name, "indices_shape[-1] = " + std::to_string(m) +
                   " must be in [1, r - batch_dims] = [1, " + std::to_string(data.rank() - b) +
                   "]");
  LoweredGather lowered = lowerNdGather(name, data, indices, b);
  lowered.wrap_negative_indices = true;
  return lowered;
}

}  // namespace idxmap::gather_scatter
