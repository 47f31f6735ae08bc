// What surrounds CUDA kernels in an emitted .cu file: the CUDA runtime (or, compiled as host
// C++, our emulation of the part the kernels use), the prelude callable on the device, the
// atomic updates scatter uses where stores may collide, and the sort of deterministic mode.
#include <array>
#include <string>
#include <vector>

#include "codegen/cuda/cuda_kernel.h"
#include "codegen/prelude/element_code.h"
#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {
namespace {

using gather_scatter::UpdateComputation;

constexpr const char* kRuntime = R"(#ifdef __CUDACC__
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cub/device/device_radix_sort.cuh>
#define IDXMAP_LAUNCH(kernel, blocks, threads, stream, ...) \
  kernel<<<(blocks), (threads), 0, (stream)>>>(__VA_ARGS__)
#define IDXMAP_UNROLL _Pragma("unroll")
#define IDXMAP_HOST_DEVICE __host__ __device__
// 16 bytes, 16-byte aligned: one vector load and store (LDG.128 / STG.128).
static __device__ __forceinline__ void idxmap_copy16(void* to, const void* from) {
  *static_cast<uint4*>(to) = *static_cast<const uint4*>(from);
}
#else
// Host emulation (no __CUDACC__): the file compiles as C++20 and runs each launch on the CPU,
// block by block and, in a block, thread by thread (the kernels use no shared memory, no
// barrier and no warp intrinsic, so this order is one a GPU may take). With
// IDXMAP_EMULATION_WORKERS > 1, blocks are spread over that many host threads, which is
// what ThreadSanitizer watches.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#ifndef IDXMAP_EMULATION_WORKERS
#define IDXMAP_EMULATION_WORKERS 1
#endif
#define __global__
#define __device__
#define __host__
#define __restrict__ __restrict
#define __launch_bounds__(threads)
#define IDXMAP_UNROLL
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
static thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
template <class... Parameters, class... Arguments>
static void idxmap_emulate_launch(void (*kernel)(Parameters...), unsigned blocks, unsigned threads,
                                  Arguments... arguments) {
  auto run = [&](unsigned worker, unsigned workers) {
    gridDim.x = blocks;
    blockDim.x = threads;
    for (unsigned b = worker; b < blocks; b += workers) {
      blockIdx.x = b;
      for (unsigned t = 0; t < threads; ++t) {
        threadIdx.x = t;
        kernel(arguments...);
      }
    }
  };
  const unsigned workers = IDXMAP_EMULATION_WORKERS;
  if (workers <= 1) return run(0, 1);
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < workers; ++w) pool.emplace_back(run, w, workers);
  for (std::thread& thread : pool) thread.join();
}
#define IDXMAP_LAUNCH(kernel, blocks, threads, stream, ...) \
  ((void)(stream), idxmap_emulate_launch(kernel, (blocks), (threads), __VA_ARGS__))
using cudaError_t = int;
constexpr cudaError_t cudaSuccess = 0, cudaErrorMemoryAllocation = 2;
using cudaStream_t = void*;
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
static inline cudaError_t cudaMalloc(void** p, size_t bytes) {
  *p = std::malloc(bytes ? bytes : 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
template <class T> static inline cudaError_t cudaMalloc(T** p, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(p), bytes);
}
static inline cudaError_t cudaFree(void* p) { return std::free(p), cudaSuccess; }
static inline cudaError_t cudaMemcpy(void* to, const void* from, size_t bytes, cudaMemcpyKind) {
  if (bytes) std::memcpy(to, from, bytes);
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpyAsync(void* to, const void* from, size_t bytes,
                                          cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(to, from, bytes, kind);
}
static inline cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t) {
  if (bytes) std::memset(p, value, bytes);
  return cudaSuccess;
}
static inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
template <class T> static inline cudaError_t cudaMallocAsync(T** p, size_t bytes, cudaStream_t) {
  return cudaMalloc(p, bytes);
}
static inline cudaError_t cudaFreeAsync(void* p, cudaStream_t) { return cudaFree(p); }
// What a kernel did that a GPU refuses (CUDA's code): returned by the next cudaGetLastError.
static std::atomic<cudaError_t> idxmap_emulated_error{cudaSuccess};
constexpr cudaError_t cudaErrorMisalignedAddress = 716;
static inline cudaError_t cudaGetLastError() { return idxmap_emulated_error.exchange(cudaSuccess); }
static inline cudaError_t cudaPeekAtLastError() { return idxmap_emulated_error.load(); }
static inline const char* cudaGetErrorString(cudaError_t status) {
  return status == cudaSuccess                  ? "no error"
         : status == cudaErrorMisalignedAddress ? "misaligned address"
                                                : "out of memory";
}
// A 16-byte vector access must be 16-byte aligned, as on a GPU (which faults). The copy is four
// word accesses of a type that may alias the elements: plain accesses, which ThreadSanitizer
// watches (a memcpy it would leave to its interceptor).
typedef uint32_t __attribute__((may_alias)) idxmap_word;
static inline void idxmap_copy16(void* to, const void* from) {
  if ((reinterpret_cast<uintptr_t>(to) | reinterpret_cast<uintptr_t>(from)) % 16 != 0) {
    idxmap_emulated_error = cudaErrorMisalignedAddress;
    return;
  }
  const idxmap_word* source = static_cast<const idxmap_word*>(from);
  const idxmap_word a = source[0], b = source[1], c = source[2], d = source[3];
  idxmap_word* target = static_cast<idxmap_word*>(to);
  target[0] = a, target[1] = b, target[2] = c, target[3] = d;
}
// The atomics the kernels call, on std::atomic_ref.
template <class T> static inline T idxmap_emulated_cas(T* p, T expected, T desired) {
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired);
  return expected;
}
template <class T> static inline T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <class T> static inline T atomicExch(T* p, T v) { return std::atomic_ref<T>(*p).exchange(v); }
template <class T> static inline T atomicMin(T* p, T v) {
  T old = std::atomic_ref<T>(*p).load();
  while (v < old && !std::atomic_ref<T>(*p).compare_exchange_weak(old, v)) {}
  return old;
}
template <class T> static inline T atomicMax(T* p, T v) {
  T old = std::atomic_ref<T>(*p).load();
  while (old < v && !std::atomic_ref<T>(*p).compare_exchange_weak(old, v)) {}
  return old;
}
#endif
)";

// A compare-and-swap loop applying any prelude update computation: what scatter's colliding
// stores use where no native atomic computes it. On the device a CAS works on 2, 4 or 8
// bytes; a 1-byte element is updated inside its aligned 4-byte word (the other bytes are
// compared and written back unchanged; cudaMalloc's allocations are whole 256-byte units, so
// the word never leaves the allocation).
constexpr const char* kAtomicSupport = R"(
#include <type_traits>
template <class T, class F> static inline __device__ void idxmap_atomic_apply(T* p, T v, F f) {
#ifdef __CUDACC__
  if constexpr (sizeof(T) == 1) {
    unsigned int* word = reinterpret_cast<unsigned int*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t{3});
    const unsigned shift = 8u * static_cast<unsigned>(reinterpret_cast<uintptr_t>(p) & 3u);
    unsigned int old = *word, assumed;
    do {
      assumed = old;
      T current;
      const unsigned char byte = static_cast<unsigned char>(assumed >> shift);
      memcpy(&current, &byte, 1);
      const T next = f(current, v);
      unsigned char out;
      memcpy(&out, &next, 1);
      old = atomicCAS(word, assumed, (assumed & ~(0xffu << shift)) | (static_cast<unsigned>(out) << shift));
    } while (old != assumed);
  } else {
    using Bits = std::conditional_t<sizeof(T) == 2, unsigned short,
                 std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>>;
    Bits* bits = reinterpret_cast<Bits*>(p);
    Bits old = *bits, assumed;
    do {
      assumed = old;
      T current;
      memcpy(&current, &assumed, sizeof(T));
      const T next = f(current, v);
      Bits out;
      memcpy(&out, &next, sizeof(T));
      old = atomicCAS(bits, assumed, out);
    } while (old != assumed);
  }
#else
  T old = std::atomic_ref<T>(*p).load();
  while (!std::atomic_ref<T>(*p).compare_exchange_weak(old, f(old, v))) {}
#endif
}
)";

// A native atomic for (computation, element type) where CUDA has one; every other pair is the
// CAS loop. Integer add wraps (two's complement: an unsigned add of the same bits), as the
// prelude's idxmap_wrap_add does; f16 and bf16 add round once, as the prelude's float
// computation then rounding does (float's 24 bits exceed twice their 11 and 8). Float
// minimum and maximum stay CAS loops: IEEE's NaN and -0 < +0 rules (the prelude's) are not
// what the integer-order trick computes when a NaN is stored.
struct NativeAtomic {
  UpdateComputation computation;
  const char* elementType;
  const char* call;  // over p (the element) and v (the update)
  bool deviceOnly;   // a device type (__half): emulated by the CAS loop
};
constexpr std::array<NativeAtomic, 21> kNativeAtomics{{
    {UpdateComputation::kAdd, "i32", "atomicAdd(p, v)", false},
    {UpdateComputation::kAdd, "ui32", "atomicAdd(p, v)", false},
    {UpdateComputation::kAdd, "i64",
     "atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v))",
     false},
    {UpdateComputation::kAdd, "ui64",
     "atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v))",
     false},
    {UpdateComputation::kAdd, "f32", "atomicAdd(p, v)", false},
    {UpdateComputation::kAdd, "f64", "atomicAdd(p, v)", false},
    {UpdateComputation::kAdd, "f16", "atomicAdd(reinterpret_cast<__half*>(p), __ushort_as_half(v))",
     true},
    {UpdateComputation::kAdd, "bf16",
     "atomicAdd(reinterpret_cast<__nv_bfloat16*>(p), __ushort_as_bfloat16(v))", true},
    {UpdateComputation::kMin, "i32", "atomicMin(p, v)", false},
    {UpdateComputation::kMin, "ui32", "atomicMin(p, v)", false},
    {UpdateComputation::kMin, "i64",
     "atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v))", false},
    {UpdateComputation::kMin, "ui64",
     "atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v))",
     false},
    {UpdateComputation::kMax, "i32", "atomicMax(p, v)", false},
    {UpdateComputation::kMax, "ui32", "atomicMax(p, v)", false},
    {UpdateComputation::kMax, "i64",
     "atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v))", false},
    {UpdateComputation::kMax, "ui64",
     "atomicMax(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v))",
     false},
    {UpdateComputation::kReplace, "f32", "atomicExch(p, v)", false},
    {UpdateComputation::kReplace, "i32", "atomicExch(p, v)", false},
    {UpdateComputation::kReplace, "ui32", "atomicExch(p, v)", false},
    {UpdateComputation::kReplace, "i64",
     "atomicExch(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v))",
     false},
    {UpdateComputation::kReplace, "ui64",
     "atomicExch(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v))",
     false},
}};

constexpr std::array<const char*, 17> kElementTypes{"f32",  "f64", "f16", "bf16", "i1",   "i8",
                                                    "i16",  "i32", "i64", "ui8",  "ui16", "ui32",
                                                    "ui64", "i2",  "i4",  "ui2",  "ui4"};

std::string atomicFunctions() {
  std::string out =
      "\n// Scatter's update computations as atomic updates of one element: a native atomic "
      "where\n// CUDA has one, else idxmap_atomic_apply's compare-and-swap loop.\n";
  for (const char* type : kElementTypes)
    for (UpdateComputation computation :
         {UpdateComputation::kAdd, UpdateComputation::kMul, UpdateComputation::kMin,
          UpdateComputation::kMax, UpdateComputation::kReplace}) {
      const std::string combine = *combineFunction(computation, type);
      const std::string storage = *storageType(type);
      std::string casLoop = "idxmap_atomic_apply(p, v, " + combine + ")";
      std::string body = casLoop;
      for (const NativeAtomic& native : kNativeAtomics)
        if (native.computation == computation && std::string(native.elementType) == type)
          body = native.deviceOnly ? "\n#ifdef __CUDACC__\n  " + std::string(native.call) +
                                         ";\n#else\n  " + casLoop + ";\n#endif\n"
                                   : native.call;
      if (body.front() != '\n') body = "\n  " + body + ";\n";
      out += "static inline __device__ void " + atomicFunction(combine) + "(" + storage + "* p, " +
             storage + " v) {" + body + "}\n";
    }
  return out;
}

// Deterministic mode's stable sort of (target, point) pairs: CUB's radix sort on the device
// (stable), std::stable_sort in the emulation.
constexpr const char* kSortSupport = R"(
#include <cstdlib>
#ifndef __CUDACC__
#include <algorithm>
#include <numeric>
#endif
// The scratch bytes idxmap_sort_pairs needs for n pairs (CUB's own count; none in the emulation).
template <class K, class P>
static size_t idxmap_sort_scratch_bytes(int64_t n, int key_bits) {
#ifdef __CUDACC__
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const K*>(nullptr),
                                  static_cast<K*>(nullptr), static_cast<const P*>(nullptr),
                                  static_cast<P*>(nullptr), n, 0, key_bits);
  return bytes;
#else
  (void)n;
  (void)key_bits;
  return 0;
#endif
}

// Sorts n (key, point) pairs by key, keeping the order of equal keys; the sorted pairs land in
// keys_out / points_out, `scratch` (idxmap_sort_scratch_bytes of them) is CUB's. Allocates
// nothing. Returns a CUDA error code.
template <class K, class P>
static cudaError_t idxmap_sort_pairs(const K* keys_in, K* keys_out, const P* points_in, P* points_out,
                                     int64_t n, int key_bits, void* scratch, size_t scratch_bytes,
                                     cudaStream_t stream) {
#ifdef __CUDACC__
  return cub::DeviceRadixSort::SortPairs(scratch, scratch_bytes, keys_in, keys_out, points_in,
                                         points_out, n, 0, key_bits, stream);
#else
  (void)key_bits;
  (void)scratch;
  (void)scratch_bytes;
  (void)stream;
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return keys_in[a] < keys_in[b]; });
  for (int64_t i = 0; i < n; ++i) {
    keys_out[i] = keys_in[order[i]];
    points_out[i] = points_in[order[i]];
  }
  return cudaSuccess;
#endif
}

// The host entries' device copies: one allocation per distinct host buffer (an in-place
// scatter passes its input as its result), each filled from the host. Returns 0, or 3 on a
// CUDA error.
static int idxmap_to_device(void* const* host, const size_t* bytes, int n, void** device) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i && !device[i]; ++j)
      if (host[j] == host[i] && bytes[j] == bytes[i]) device[i] = device[j];
    if (device[i]) continue;
    if (cudaMalloc(&device[i], bytes[i] ? bytes[i] : 1) != cudaSuccess) return 3;
    if (bytes[i] && cudaMemcpy(device[i], host[i], bytes[i], cudaMemcpyHostToDevice) != cudaSuccess)
      return 3;
  }
  return 0;
}
// After the launch: the written buffers copied back when it succeeded, every allocation freed.
static int idxmap_from_device(void* const* host, const size_t* bytes, const bool* written, int n,
                              void** device, int status) {
  for (int i = 0; i < n && status == 0; ++i)
    if (written[i] && bytes[i] &&
        cudaMemcpy(host[i], device[i], bytes[i], cudaMemcpyDeviceToHost) != cudaSuccess)
      status = 3;
  for (int i = 0; i < n; ++i) {
    bool shared = false;
    for (int j = 0; j < i; ++j) shared |= device[j] == device[i];
    if (device[i] && !shared) cudaFree(device[i]);
  }
  return status;
}

// What the last CUDA call that failed said, for an entry that returned 3.
extern "C" const char* idxmap_cuda_status() { return cudaGetErrorString(cudaPeekAtLastError()); }

// The blocks of a launch over n points, 256 threads each: one point a thread up to
// IDXMAP_CUDA_BLOCKS_PER_SM blocks a multiprocessor (the environment variable overrides; 0:
// no limit), then grid-stride loops, which keep more loads in flight per thread and let an
// atomic kernel's thread merge updates of one element; never past 2^24 threads. The emulation
// counts IDXMAP_EMULATION_SMS multiprocessors (many by default: a thread a point).
#ifndef IDXMAP_CUDA_BLOCKS_PER_SM
#define IDXMAP_CUDA_BLOCKS_PER_SM 8
#endif
#ifndef IDXMAP_EMULATION_SMS
#define IDXMAP_EMULATION_SMS (1 << 16)
#endif
static int64_t idxmap_block_limit() {
  int64_t perSm = IDXMAP_CUDA_BLOCKS_PER_SM;
  if (const char* text = std::getenv("IDXMAP_CUDA_BLOCKS_PER_SM")) perSm = std::atoll(text);
#ifdef __CUDACC__
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
    sms = 1;
#else
  const int64_t sms = IDXMAP_EMULATION_SMS;
#endif
  return perSm <= 0 ? 65536 : std::min<int64_t>(65536, std::max<int64_t>(1, sms * perSm));
}
static inline unsigned idxmap_blocks(int64_t n) {
  static const int64_t limit = idxmap_block_limit();
  const int64_t blocks = (n + 255) / 256;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > limit ? limit : blocks));
}
)";

}  // namespace

std::string atomicFunction(const std::string& combine) {
  return "idxmap_atomic" + combine.substr(std::string("idxmap").size());
}

std::string cudaFile(const std::vector<PrintedKernel>& kernels) {
  std::string out =
      "// Generated by idxmap emit --target cuda: compile with nvcc (-std=c++20 "
      "--expt-relaxed-constexpr),\n// or as host C++20 (the CUDA part it uses is emulated, for "
      "tests on machines without a GPU).\n"
      "#ifdef __CUDACC__\n#pragma nv_diag_suppress 177  // a prelude helper this file does not "
      "call\n#endif\n";
  out += kRuntime;
  out += kernelPrelude(true);
  out += elementHelpers(true);
  out += kAtomicSupport;
  out += atomicFunctions();
  out += kSortSupport;
  for (const PrintedKernel& kernel : kernels) out += "\n" + kernel.text;
  return out;
}

}  // namespace idxmap::codegen
