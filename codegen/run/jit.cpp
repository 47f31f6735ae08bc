#include "codegen/run/jit.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace idxmap::codegen {
namespace {

namespace fs = std::filesystem;

// FNV-1a: stable across runs and builds, unlike std::hash, so a cache survives upgrades of
// idxmap itself as long as the source, compiler and flags are the same.
uint64_t fnv1a(const std::string& text, uint64_t hash = 0xcbf29ce484222325ULL) {
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

std::string shellQuoted(const std::string& argument) {
  std::string out = "'";
  for (char c : argument) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` through the shell; returns its exit status and its output (both streams).
int runCommand(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw JitError("cannot run `" + command + "`");
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) output.append(chunk, n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// The compiler's --version text (all of it: nvcc's first line names no version), once per
// compiler and process: part of the cache key, so that an upgraded compiler rebuilds.
std::string compilerVersion(const std::string& compiler, const std::string& variable) {
  static std::mutex mutex;
  static std::map<std::string, std::string> versions;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = versions.find(compiler);
  if (found != versions.end()) return found->second;
  std::string output;
  if (runCommand(shellQuoted(compiler) + " --version", output) != 0)
    throw JitError("the compiler `" + compiler + "` cannot be run (set " + variable +
                   "): " + output.substr(0, 400));
  versions.emplace(compiler, output);
  return output;
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

fs::path defaultCacheDirectory() {
  if (const char* dir = std::getenv("IDXMAP_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "idxmap";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "idxmap";
  return fs::temp_directory_path() / "idxmap-cache";
}

LoadedLibrary::LoadedLibrary(void* handle, fs::path path)
    : handle_(handle), path_(std::move(path)) {}

LoadedLibrary::~LoadedLibrary() { dlclose(handle_); }

void* LoadedLibrary::symbol(const std::string& name) const {
  void* address = dlsym(handle_, name.c_str());
  if (!address) throw JitError(path_.string() + " has no symbol `" + name + "`");
  return address;
}

JitOptions cudaJitOptions() {
  JitOptions options;
  options.compiler = "nvcc";
  options.compilerVariable = "IDXMAP_NVCC";
  // --fmad=false: a * b + c rounds twice, as the reference and the C++ kernels
  // (-ffp-contract=off) round it.
  options.flags = {"-std=c++20",   "--expt-relaxed-constexpr", "--fmad=false", "-O3",
                   "-arch=native", "-Xcompiler=-fPIC",         "-shared"};
  options.language = "cu";
  return options;
}

namespace {

// The CUDA driver API's entry points this file uses, loaded by name (CUresult is an int-sized
// enum, 0 for success; CUdevice an int). Null members when the driver is absent.
struct CudaDriver {
  int (*init)(unsigned) = nullptr;
  int (*count)(int*) = nullptr;
  int (*device)(int*, int) = nullptr;
  int (*attribute)(int*, int, int) = nullptr;
  int (*errorName)(int, const char**) = nullptr;
  std::string missing;  // why there is no device to run on; "" when there is one
};

const CudaDriver& cudaDriver() {
  static const CudaDriver driver = [] {
    CudaDriver d;
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!library) {
      d.missing = "no CUDA driver (libcuda.so.1 does not load)";
      return d;
    }
    d.init = reinterpret_cast<int (*)(unsigned)>(dlsym(library, "cuInit"));
    d.count = reinterpret_cast<int (*)(int*)>(dlsym(library, "cuDeviceGetCount"));
    d.device = reinterpret_cast<int (*)(int*, int)>(dlsym(library, "cuDeviceGet"));
    d.attribute = reinterpret_cast<int (*)(int*, int, int)>(dlsym(library, "cuDeviceGetAttribute"));
    d.errorName = reinterpret_cast<int (*)(int, const char**)>(dlsym(library, "cuGetErrorName"));
    if (!d.init || !d.count || !d.device || !d.attribute) {
      d.missing = "libcuda.so.1 lacks the driver API's device calls";
      return d;
    }
    auto failed = [&](const char* call, int status) {
      const char* text = nullptr;
      if (d.errorName) d.errorName(status, &text);
      return std::string(call) + " failed: " + (text ? text : "error " + std::to_string(status));
    };
    int devices = 0;
    if (int status = d.init(0); status != 0) {
      d.missing = failed("cuInit", status);
    } else if (int status = d.count(&devices); status != 0) {
      d.missing = failed("cuDeviceGetCount", status);
    } else if (devices == 0) {
      d.missing = "the CUDA driver reports no device";
    }
    return d;
  }();
  return driver;
}

// "sm_90 sm_80": the compute capability of each device -arch=native compiles for.
std::string gpuArchitectures() {
  const CudaDriver& driver = cudaDriver();
  if (!driver.missing.empty()) return driver.missing;
  constexpr int kMajor = 75, kMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_*
  int devices = 0;
  driver.count(&devices);
  std::string out;
  for (int ordinal = 0; ordinal < devices; ++ordinal) {
    int device = 0, major = 0, minor = 0;
    if (driver.device(&device, ordinal) != 0 || driver.attribute(&major, kMajor, device) != 0 ||
        driver.attribute(&minor, kMinor, device) != 0)
      return "device " + std::to_string(ordinal) + " does not say its compute capability";
    out += (out.empty() ? "sm_" : " sm_") + std::to_string(major) + std::to_string(minor);
  }
  return out;
}

// The processor -march=native compiles for: /proc/cpuinfo's identity and feature lines of its
// first processor (x86: vendor, family, model, flags; Arm: implementer, part, features).
std::string cpuIdentity() {
  static const std::string identity = [] {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, out;
    static const char* const kKeys[] = {"vendor_id",  "cpu family", "model",
                                        "model name", "flags",      "CPU implementer",
                                        "CPU part",   "Features",   "isa"};
    while (std::getline(cpuinfo, line) && !line.empty()) {  // the first processor's block
      const std::string key = line.substr(0, line.find_first_of("\t:"));
      for (const char* wanted : kKeys)
        if (key == wanted) out += line + "\n";
    }
    return out.empty() ? std::string("an unknown processor") : out;
  }();
  return identity;
}

}  // namespace

const std::string& cudaDeviceMissing() { return cudaDriver().missing; }

std::string jitMachine(const JitOptions& options) {
  bool cpu = false, gpu = false;
  for (const std::string& flag : options.flags) {
    if (flag.find("native") == std::string::npos) continue;
    (options.language == "cu" && flag.rfind("-arch", 0) == 0 ? gpu : cpu) = true;
  }
  if (!cpu && !gpu) return "";
  if (const char* named = std::getenv("IDXMAP_JIT_MACHINE"); named && *named) return named;
  return (cpu ? cpuIdentity() : "") + (gpu ? gpuArchitectures() : "");
}

std::string cacheKey(const std::string& compiler, const JitOptions& options,
                     const std::string& source) {
  uint64_t key = fnv1a(compiler + '\0' + compilerVersion(compiler, options.compilerVariable));
  for (const std::string& flag : options.flags) key = fnv1a(flag + '\0', key);
  key = fnv1a(options.language + '\0', key);
  if (const std::string machine = jitMachine(options); !machine.empty())
    key = fnv1a(machine + '\0', key);
  return hex(fnv1a(source, key));
}

std::shared_ptr<LoadedLibrary> compileAndLoad(const std::string& source,
                                              const JitOptions& options) {
  std::string compiler = options.compiler;
  if (const char* cxx = std::getenv(options.compilerVariable.c_str()); cxx && *cxx) compiler = cxx;
  fs::path directory =
      options.cacheDirectory.empty() ? defaultCacheDirectory() : options.cacheDirectory;
  std::error_code error;
  fs::create_directories(directory, error);
  if (error)
    throw JitError("cannot create the kernel cache " + directory.string() + ": " + error.message());

  const std::string key = cacheKey(compiler, options, source);
  fs::path object = directory / (key + ".so");
  fs::path sourcePath = directory / (key + ".cpp");

  // One handle per object in a process: dlopen would share it anyway, and the weak table keeps
  // a second load from racing with the first one's rename.
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<LoadedLibrary>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto existing = loaded[object.string()].lock()) return existing;

  if (!fs::exists(object)) {
    static std::atomic<unsigned> counter{0};
    std::string unique = "." + std::to_string(getpid()) + "." + std::to_string(counter++);
    fs::path temporarySource = sourcePath.string() + unique;
    fs::path temporaryObject = object.string() + ".tmp" + unique;
    {
      std::ofstream out(temporarySource, std::ios::binary);
      out << source;
      if (!out.flush()) throw JitError("cannot write " + temporarySource.string());
    }
    std::string command = shellQuoted(compiler);
    for (const std::string& flag : options.flags) command += " " + shellQuoted(flag);
    command += " -x " + shellQuoted(options.language) + " " +
               shellQuoted(temporarySource.string()) + " -o " +
               shellQuoted(temporaryObject.string());
    std::string output;
    int status = runCommand(command, output);
    if (status != 0) {
      fs::rename(temporarySource, sourcePath, error);
      fs::remove(temporaryObject, error);
      throw JitError(compiler + " failed to compile " + sourcePath.string() + " (exit " +
                     std::to_string(status) + "):\n" + output.substr(0, 4000));
    }
    fs::rename(temporarySource, sourcePath, error);
    fs::rename(temporaryObject, object, error);
    if (error) throw JitError("cannot store " + object.string() + ": " + error.message());
  }
  // RTLD_NODELETE: a kernel that ran threads leaves OpenMP's pool alive; unloading the object
  // (and with it libgomp) under those threads crashes the process at exit.
  void* handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!handle) throw JitError(std::string("cannot load ") + object.string() + ": " + dlerror());
  auto library = std::make_shared<LoadedLibrary>(handle, object);
  loaded[object.string()] = library;
  return library;
}

}  // namespace idxmap::codegen
