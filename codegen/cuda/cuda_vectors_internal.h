// Contiguous rows moved 16 bytes at a time by CUDA kernels whose stores are plain copies
// (gathers, unique scatters that replace: a replace of a stored element is its bits): what the map
// must show for it. Private to codegen/cuda/; cuda_kernel.cpp validates the alignment and prints
// the kernel.
//
// A thread takes `lanes` consecutive points of the last dim L (16 bytes of elements). Its
// copies are one 16-byte load and store per transfer when
//   - every offset of a transfer is base + L, the base free of L (the map's form): the lanes'
//     elements are consecutive in both buffers;
//   - L's extent is a multiple of `lanes` and it starts at 0: groups fill it (the decoding
//     nest is validated);
//   - nothing a point loads or tests depends on L: the lanes share one index value and one
//     skip decision;
//   - every base is a multiple of `lanes` where it is evaluated (isl, validated as printed) and
//     each buffer's address a multiple of 16 bytes (tested at launch; the scalar kernel
//     otherwise).
#pragma once

#include <optional>
#include <vector>

#include "codegen/kernel/kernel.h"

namespace idxmap::codegen {

struct VectorPlan {
  int64_t lanes = 0;          // elements in 16 bytes
  std::vector<Expr> bases;    // per transfer, its to offset less L, then its from offset's
  std::vector<size_t> moved;  // the buffers the transfers read and write, once each
};

// nullopt when the kernel's map does not have the form above (its alignment is not looked at).
std::optional<VectorPlan> planVectors(const Kernel& kernel);

}  // namespace idxmap::codegen
