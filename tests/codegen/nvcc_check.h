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

#include "tests/support/sampling.h"

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

// `source` compiled for sm_<arch> (`name` names the scratch files).
inline NvccResult nvccCompile(const std::string& source, int arch, const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / ("idxmap_nvcc_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string sm = "sm_" + std::to_string(arch), prefix = (dir / (name + "_" + sm)).string();
  std::ofstream(prefix + ".cu") << source;
  const std::string command = "nvcc -std=c++20 --expt-relaxed-constexpr -O3 -arch=" + sm +
                              " -ptx '" + prefix + ".cu' -o '" + prefix + ".ptx' > '" + prefix +
                              ".log' 2>&1 && ptxas -arch=" + sm + " -v '" + prefix + ".ptx' -o '" +
                              prefix + ".cubin' >> '" + prefix + ".log' 2>&1";
  NvccResult out;
  out.compiled = std::system(command.c_str()) == 0;
  out.log = readWholeFile(prefix + ".log");
  const std::string ptx = readWholeFile(prefix + ".ptx");
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
