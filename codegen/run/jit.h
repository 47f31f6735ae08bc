// The JIT runner: emitted C++ compiled by the system compiler into a shared object, cached by
// content hash, and loaded. What the compiler says about a source it rejects becomes a
// JitError carrying its diagnostics.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/checked.h"

namespace idxmap::codegen {

class JitError : public Error {
 public:
  using Error::Error;
};

struct JitOptions {
  // Where compiled objects are kept: defaultCacheDirectory() unless set.
  std::filesystem::path cacheDirectory;
  std::string compiler = "c++";  // the variable `compilerVariable` names overrides when set
  std::string compilerVariable = "IDXMAP_CXX";
  std::vector<std::string> flags = {"-std=c++20", "-O3",   "-march=native", "-ffp-contract=off",
                                    "-fopenmp",   "-fPIC", "-shared"};
  std::string language = "c++";  // what `-x` says the source is ("cu" for nvcc)
};

// CUDA kernels (codegen/cuda/cuda_kernel.h) for the GPU of this machine: nvcc ($IDXMAP_NVCC
// overrides), -arch=native.
JitOptions cudaJitOptions();

// Why this machine cannot run CUDA kernels, or "" when it can: the driver (libcuda.so.1) is
// loaded and asked for a device, as the kernels' launches will be. Asked once a process.
// `idxmap run --engine cuda` asks before nvcc compiles anything (seconds to minutes).
const std::string& cudaDeviceMissing();

// What a compile with `options` is specific to, beyond the compiler and flags: the processor
// when a flag says -march=native (or -mcpu / -mtune), the GPUs' compute capabilities when nvcc's
// says -arch=native; "" when no flag names the build machine. $IDXMAP_JIT_MACHINE replaces it
// (a name for a fleet of identical machines sharing one cache). Part of cacheKey, so a cache
// shared through the home folder never loads a kernel built for another machine.
std::string jitMachine(const JitOptions& options);

// $IDXMAP_CACHE_DIR, else $XDG_CACHE_HOME/idxmap, else $HOME/.cache/idxmap, else
// <temp>/idxmap-cache.
std::filesystem::path defaultCacheDirectory();

// A loaded shared object. Its handle is released when the last LoadedLibrary goes, but the
// code stays mapped for the process (RTLD_NODELETE): OpenMP's threads may outlive a call.
class LoadedLibrary {
 public:
  LoadedLibrary(void* handle, std::filesystem::path path);
  ~LoadedLibrary();
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;
  // The address of an exported symbol; throws JitError naming it when absent.
  void* symbol(const std::string& name) const;
  const std::filesystem::path& path() const { return path_; }

 private:
  void* handle_;
  std::filesystem::path path_;
};

// The name the cache gives what `compiler` (the one options.compiler resolves to; its
// --version text included) makes of `source` with options' flags and language on this machine
// (jitMachine): FNV-1a, stable
// across runs and builds, as 16 hex digits. compileAndLoad names its objects by it; the CUDA
// tests name nvcc's verdicts by it. Throws JitError when the compiler cannot be run.
std::string cacheKey(const std::string& compiler, const JitOptions& options,
                     const std::string& source);

// Compiles `source` (unless an object for the same source, compiler and flags is cached),
// then loads it. Safe to call from several processes at once (objects are written to a
// temporary name and renamed). Throws JitError with the compiler's output on failure.
std::shared_ptr<LoadedLibrary> compileAndLoad(const std::string& source,
                                              const JitOptions& options = {});

}  // namespace idxmap::codegen
