// Tensors (ops/eval/tensor.h: int64 or double values) as the raw buffers emitted kernels read
// and write: each element in its type's storage (codegen/prelude/prelude.h's storageType),
// row-major.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/eval/tensor.h"

namespace idxmap::codegen {

// Bytes one element of `elementType` takes in a kernel's buffer (prelude.h's storageBytes);
// throws Error for a type kernels do not support.
size_t bufferElementBytes(const std::string& elementType);

// An aligned byte buffer (max_align_t), as a kernel argument.
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t bytes);
  void* data() { return storage_.data(); }
  const void* data() const { return storage_.data(); }
  size_t size() const { return bytes_; }

 private:
  std::vector<std::max_align_t> storage_;
  size_t bytes_ = 0;
};

// The tensor's values in storage form: integers truncated to their width (the Tensor already
// holds them wrapped), floats as their type's bit pattern (exact: the Tensor holds them
// rounded to the type).
Buffer toBuffer(const gather_scatter::Tensor& tensor);
// Back: a Tensor of `elementType` and `shape` holding the buffer's values.
gather_scatter::Tensor fromBuffer(const Buffer& buffer, const std::string& elementType,
                                  const std::vector<int64_t>& shape);

}  // namespace idxmap::codegen
