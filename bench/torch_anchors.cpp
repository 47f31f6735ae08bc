#include "bench/torch_anchors.h"

#ifdef IDXMAP_HAVE_TORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

namespace idxmap::bench {
namespace {

at::Tensor wrap(const void* data, at::IntArrayRef shape, at::ScalarType type) {
  return at::from_blob(const_cast<void*>(data), shape, at::TensorOptions().dtype(type));
}

}  // namespace

bool torchAvailable() { return true; }
void torchSetThreads(int threads) { at::set_num_threads(threads); }

void torchIndexSelect(const float* table, int64_t rows, int64_t width, const int64_t* idx,
                      int64_t n, float* out) {
  at::Tensor result = wrap(out, {n, width}, at::kFloat);
  at::index_select_out(result, wrap(table, {rows, width}, at::kFloat), 0,
                       wrap(idx, {n}, at::kLong));
}

void torchGather(const float* operand, const int64_t* operandShape, int rank, int64_t dim,
                 const int64_t* idx, const int64_t* idxShape, float* out) {
  at::IntArrayRef shape(operandShape, rank), indexShape(idxShape, rank);
  at::Tensor result = wrap(out, indexShape, at::kFloat);
  at::gather_out(result, wrap(operand, shape, at::kFloat), dim, wrap(idx, indexShape, at::kLong));
}

void torchIndexCopy(float* table, int64_t rows, int64_t width, const int64_t* idx, int64_t n,
                    const float* updates) {
  wrap(table, {rows, width}, at::kFloat)
      .index_copy_(0, wrap(idx, {n}, at::kLong), wrap(updates, {n, width}, at::kFloat));
}

void torchIndexAdd(float* table, int64_t rows, int64_t width, const int64_t* idx, int64_t n,
                   const float* updates) {
  wrap(table, {rows, width}, at::kFloat)
      .index_add_(0, wrap(idx, {n}, at::kLong), wrap(updates, {n, width}, at::kFloat));
}

void torchIndexPutAccumulate(float* table, int64_t rows, int64_t width, const int64_t* idx,
                             int64_t n, const float* updates) {
  c10::List<c10::optional<at::Tensor>> indices;
  indices.push_back(wrap(idx, {n}, at::kLong));
  wrap(table, {rows, width}, at::kFloat)
      .index_put_(indices, wrap(updates, {n, width}, at::kFloat), /*accumulate=*/true);
}

}  // namespace idxmap::bench

#else

#include <stdexcept>

namespace idxmap::bench {

bool torchAvailable() { return false; }
void torchSetThreads(int) {}
[[noreturn]] static void absent() { throw std::logic_error("built without libtorch"); }
void torchIndexSelect(const float*, int64_t, int64_t, const int64_t*, int64_t, float*) { absent(); }
void torchGather(const float*, const int64_t*, int, int64_t, const int64_t*, const int64_t*,
                 float*) {
  absent();
}
void torchIndexCopy(float*, int64_t, int64_t, const int64_t*, int64_t, const float*) { absent(); }
void torchIndexAdd(float*, int64_t, int64_t, const int64_t*, int64_t, const float*) { absent(); }
void torchIndexPutAccumulate(float*, int64_t, int64_t, const int64_t*, int64_t, const float*) {
  absent();
}

}  // namespace idxmap::bench

#endif
