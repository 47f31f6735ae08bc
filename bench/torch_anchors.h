// libtorch's CPU kernels as the anchors of kernel_bench, behind plain pointers so that only
// torch_anchors.cpp includes ATen (a heavy header). Built with IDXMAP_HAVE_TORCH when CMake
// finds Debian's libtorch-dev; otherwise torchAvailable() is false and the bench says so.
#pragma once

#include <cstdint>

namespace idxmap::bench {

bool torchAvailable();
void torchSetThreads(int threads);
// out[n, :] = table[idx[n], :]                       (index_select)
void torchIndexSelect(const float* table, int64_t rows, int64_t width, const int64_t* idx,
                      int64_t n, float* out);
// out[b, j, :] = operand[b, idx[b, j, :], :] along dim `dim` (gather; idx has out's shape)
void torchGather(const float* operand, const int64_t* operandShape, int rank, int64_t dim,
                 const int64_t* idx, const int64_t* idxShape, float* out);
// table[idx[n], :] = updates[n, :]                    (index_copy_, in place)
void torchIndexCopy(float* table, int64_t rows, int64_t width, const int64_t* idx, int64_t n,
                    const float* updates);
// table[idx[n], :] += updates[n, :]                   (index_add_, in place)
void torchIndexAdd(float* table, int64_t rows, int64_t width, const int64_t* idx, int64_t n,
                   const float* updates);
// table[idx[n], :] += updates[n, :]                   (index_put_ with accumulate=true)
void torchIndexPutAccumulate(float* table, int64_t rows, int64_t width, const int64_t* idx,
                             int64_t n, const float* updates);

}  // namespace idxmap::bench
