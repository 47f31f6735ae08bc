// A Kernel (codegen/kernel/kernel.h) printed as CUDA: the second target of the same maps, proofs
// and validation as cpp_kernel.h. Points reach threads one each (a grid-stride loop past 2^24
// threads), the point's dims decoded from its row-major number; that decoding is validated
// as a loop nest is (isl: it enumerates the map's box, each point once). How stores are
// made is decided by the kernel's strategy, which rests on proofs:
//   kIndependent (unique proven, every gather)   plain stores;
//   kSegmented (sorted proven)                    a thread per tile of 8 rows of d0 and element
//       of the window (when the map shows the window never collides with itself): it applies
//       the runs of equal index vectors that start in its tile, in row-major order, holding an
//       element in a register until its run ends, one store per run; deterministic;
//   kOrdered                                      native atomics (CAS loops only where CUDA has
//       none), or with `deterministic`: the targets sorted stably, then a thread per target
//       applies its updates in row-major order: bit for bit the reference's result.
//
// Entry points, per kernel (extern "C"):
//   SYMBOL_workspace_bytes()  the device memory a launch needs (0: none): the deterministic
//       sort's keys, points and CUB's scratch, a checked kernel's bad-index flag;
//   SYMBOL_launch_in(device buffers..., void* workspace, cudaStream_t)  launches on the stream
//       in the caller's workspace: no allocation, no synchronization, so a CUDA graph can
//       capture it; returns 0, 1 when a size is not the emitted one, 3 on a CUDA error (a
//       checked kernel's flag is the workspace's first int, set when an index was out of range);
//       SYMBOL_launch_in_packed(void* const*, const int64_t*, void* workspace, cudaStream_t)
//       the same for runtimes;
//   SYMBOL_launch(device buffers..., cudaStream_t)  launch_in with a workspace allocated and
//       freed in stream order; returns as launch_in does, and 2 when a checked kernel met an
//       index out of range (it synchronizes to know);
//   SYMBOL(host buffers...)  copies to the device, launches, waits and copies back;
//   SYMBOL_packed(void* const*, const int64_t*)  the same, for runtimes (codegen/run/).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/cpp/cpp_kernel.h"
#include "codegen/kernel/kernel.h"

namespace idxmap::codegen {

struct CudaOptions {
  bool deterministic = false;  // no atomics: colliding updates sorted, then applied in order
};

// Throws ValidationError when a check fails, Error for a kernel outside what the CUDA printer
// supports (a loop domain that is not a box, an element type without storage).
PrintedKernel printCudaKernel(const Kernel& kernel, const CudaOptions& options = {});
// The same with `edit` applied to the IR of each statement, of a thread's last flushes and of
// each kernel's grid-stride loop between building and validating it: the mutation test's seam
// (tests/codegen/validate/ir_mutation_test.cpp).
PrintedKernel printCudaKernel(const Kernel& kernel, const CudaOptions& options,
                              const std::function<void(ir::Node&)>& edit);

// One self-contained .cu file: the runtime (emulated without nvcc), the device prelude, the
// atomic updates, then every kernel.
std::string cudaFile(const std::vector<PrintedKernel>& kernels);

// The atomic update the file defines for a prelude combine function: idxmap_add_f32 ->
// idxmap_atomic_add_f32.
std::string atomicFunction(const std::string& combine);

}  // namespace idxmap::codegen
