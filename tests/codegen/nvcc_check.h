// What the CUDA tests ask of nvcc where it is installed (CI may not have it: callers skip): a
// .cu file compiled to PTX for one architecture and assembled by ptxas -v, the checks every
// emitted kernel must pass there (no register spills, no local memory), and which
// architectures a run compiles for.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/run/jit.h"
#include "tests/support/sampling.h"
#include "tests/support/scratch.h"

namespace idxmap::codegen::testing {

// IDXMAP_SKIP_NVCC=1 says no: scripts/test.sh sets it for the sanitizer build's run, since
// nvcc's output does not depend on how the tests were built and the first run checked it.
inline bool nvccInstalled() {
  if (const char* skip = std::getenv("IDXMAP_SKIP_NVCC"); skip && *skip && *skip != '0')
    return false;
  return std::system("command -v nvcc > /dev/null 2>&1") == 0;
}

// The architectures a CUDA test compiles for: sm_80 and sm_90 in full runs
// (IDXMAP_TEST_FULL); otherwise one of them, drawn with the run's sample seed and printed, so
// that CI runs alternate between them at half the nvcc time.
inline const std::vector<int>& nvccArchitectures() {
  static const std::vector<int> architectures = [] {
    if (sampling::fullTestCounts()) return std::vector<int>{80, 90};
    const uint32_t seed = sampling::sampleSeed();
    const int arch = seed % 2 == 0 ? 80 : 90;
    std::printf(
        "[ sample ] nvcc: sm_%d of sm_80 and sm_90, seed %u (IDXMAP_TEST_SEED=%u replays it)\n",
        arch, seed, seed);
    std::fflush(stdout);
    return std::vector<int>{arch};
  }();
  return architectures;
}

struct NvccResult {
  bool compiled = false;
  std::string log;                             // nvcc's and ptxas -v's output
  std::map<std::string, std::string> entries;  // each kernel's PTX, by entry name
};

inline std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// `source` compiled for sm_<arch> (`name` names the scratch files). What nvcc and ptxas make of
// it depends only on the source, the flags and nvcc's version, so a success is kept in the
// JIT's cache folder (codegen::defaultCacheDirectory()/nvcc) under a hash of those: a second
// run, or the same kernel in another test, reads it instead of compiling again (CI's warm runs).
inline NvccResult nvccCompile(const std::string& source, int arch, const std::string& name) {
  namespace fs = std::filesystem;
  static const fs::path dir = scratch::directory("idxmap_nvcc");
  const std::string sm = "sm_" + std::to_string(arch), prefix = (dir / (name + "_" + sm)).string();
  const std::string flags = "-std=c++20 --expt-relaxed-constexpr -O3 -arch=" + sm;
  JitOptions keyed;  // what the verdict depends on, named as the JIT names its objects
  keyed.flags = {flags, "-ptx, then ptxas -v"};
  keyed.language = "cu";
  keyed.compilerVariable = "PATH";  // nvcc is found on it (nvccInstalled)
  const fs::path cached = defaultCacheDirectory() / "nvcc" / cacheKey("nvcc", keyed, source);
  NvccResult out;
  if (fs::exists(cached / "ptx")) {
    out.compiled = true;
    out.log = readWholeFile(cached / "log");
  } else {
    std::ofstream(prefix + ".cu") << source;
    const std::string command = "nvcc " + flags + " -ptx '" + prefix + ".cu' -o '" + prefix +
                                ".ptx' > '" + prefix + ".log' 2>&1 && ptxas -arch=" + sm + " -v '" +
                                prefix + ".ptx' -o '" + prefix + ".cubin' >> '" + prefix +
                                ".log' 2>&1";
    out.compiled = std::system(command.c_str()) == 0;
    out.log = readWholeFile(prefix + ".log");
    // Only a success is kept (a failure may be the machine's, and is retried). Written aside
    // and renamed: a concurrent run sees the whole entry or none.
    std::error_code error;
    const fs::path partial = cached.string() + "." + std::to_string(getpid());
    if (out.compiled && fs::create_directories(partial, error)) {
      std::ofstream(partial / "log") << out.log;
      fs::copy_file(prefix + ".ptx", partial / "ptx", error);
      if (!error) fs::rename(partial, cached, error);
      if (error) fs::remove_all(partial, error);
    }
  }
  const std::string ptx =
      readWholeFile(fs::exists(cached / "ptx") ? cached / "ptx" : fs::path(prefix + ".ptx"));
  std::regex entry(R"(\.entry\s+(\w+)\()");
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry); it != std::sregex_iterator();
       ++it) {
    size_t begin = static_cast<size_t>(it->position());
    size_t end = ptx.find(".entry", begin + 6);
    out.entries[(*it)[1]] =
        ptx.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  }
  return out;
}

// It compiled, ptxas reports no spill for any function, and no kernel uses local memory.
inline void expectCompiledWithoutSpillsOrLocalMemory(const NvccResult& result,
                                                     const std::string& what) {
  ASSERT_TRUE(result.compiled) << what << ":\n" << result.log.substr(0, 4000);
  std::regex spills(R"((\d+) bytes spill stores, (\d+) bytes spill loads)");
  int functions = 0;
  for (auto it = std::sregex_iterator(result.log.begin(), result.log.end(), spills);
       it != std::sregex_iterator(); ++it, ++functions)
    EXPECT_TRUE((*it)[1] == "0" && (*it)[2] == "0") << what << ": " << it->str();
  EXPECT_GT(functions, 0) << what << ": ptxas reported nothing\n" << result.log;
  for (const auto& [name, body] : result.entries) {
    EXPECT_EQ(body.find("ld.local"), std::string::npos) << what << ": " << name;
    EXPECT_EQ(body.find("st.local"), std::string::npos) << what << ": " << name;
  }
}

}  // namespace idxmap::codegen::testing
