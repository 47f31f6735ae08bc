// The launch entries of the kernels emitted from ops.mlir (bench/CMakeLists.txt): the atomic
// file's, and the --deterministic file's with every idxmap_ name renamed idxmap_det_.
// Symbols name the op's line and column in ops.mlir.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

extern "C" {
int idxmap_stablehlo_gather_5_8_launch(const float*, int64_t, const int32_t*, int64_t, float*,
                                       int64_t, cudaStream_t);
int idxmap_stablehlo_gather_9_8_launch(const float*, int64_t, const int32_t*, int64_t, float*,
                                       int64_t, cudaStream_t);
int idxmap_stablehlo_gather_13_8_launch(const float*, int64_t, const int32_t*, int64_t, float*,
                                        int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_17_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_24_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_32_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_40_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_47_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_55_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_63_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_stablehlo_scatter_71_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                         const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_det_stablehlo_scatter_32_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                             const float*, int64_t, float*, int64_t, cudaStream_t);
int idxmap_det_stablehlo_scatter_55_8_launch(const float*, int64_t, const int32_t*, int64_t,
                                             const float*, int64_t, float*, int64_t, cudaStream_t);
}
