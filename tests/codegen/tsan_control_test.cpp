// The proof-driven store, tested both ways under ThreadSanitizer: a scatter kernel emitted with
// parallel plain stores because its indices were asserted unique is race-free on unique
// indices, and TSan reports a race when the same kernel is fed duplicates (the negative
// control: the stores really run in parallel, and only the proof made them safe). The kernel
// is compiled with clang, TSan and LLVM's OpenMP, whose Archer tool tells TSan about OpenMP's
// synchronization (and TSan ignores libomp's own uninstrumented internals, as Archer asks);
// skipped where clang or Archer is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sys/wait.h>
#include <unistd.h>
#include <sstream>
#include "codegen/emit.h"

#include "verify/assumptions.h"

namespace idxmap::codegen {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

constexpr const char* kArcher = "/usr/lib/llvm-14/lib/libarcher.so";

constexpr const char* kScatter = R"(
func.func @main(%table: tensor<1024x64xf32>, %rows: tensor<512x1xi32>, %updates: tensor<512x64xf32>) -> tensor<1024x64xf32> {
  %r = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<1024x64xf32>, tensor<512x1xi32>, tensor<512x64xf32>) -> tensor<1024x64xf32>
  func.return %r : tensor<1024x64xf32>
}
)";

// Rows 0, 2, 4, ... (unique), or each of rows 0..255 twice, at i and i + 256: with two
// threads splitting the loop statically, one write of each pair falls to each thread.
constexpr const char* kDriver = R"(
#include <string>
#include <vector>
int main(int argc, char** argv) {
  bool duplicates = argc > 1 && std::string(argv[1]) == "duplicates";
  std::vector<float> table(1024 * 64, 1.0f), updates(512 * 64, 2.0f);
  std::vector<int32_t> rows(512);
  for (int i = 0; i < 512; ++i) rows[i] = duplicates ? i % 256 : 2 * i;
  void* buffers[] = {table.data(), rows.data(), updates.data(), table.data()};
  const int64_t elements[] = {1024 * 64, 512, 512 * 64, 1024 * 64};
  return SYMBOL_packed(buffers, elements);
}
)";

TEST(ThreadSanitizer, UniqueStoresRaceOnlyWhenTheProofIsBroken) {
  if (std::system("command -v clang++ > /dev/null 2>&1") != 0 || !fs::exists(kArcher))
    GTEST_SKIP() << "needs clang++ and LLVM's OpenMP with Archer (libomp-dev)";
  mlir_ir::Module module = mlir_ir::parseMlirModule(kScatter, "tsan.mlir");
  EmittedModule emitted = emitMlirModule(module, parseAssumptions({"%rows: unique, in [0, 1023]"}));
  ASSERT_EQ(emitted.kernels.size(), 1u);
  const Kernel& kernel = emitted.kernels[0].kernel;
  ASSERT_EQ(kernel.strategy, Strategy::kIndependent)
      << "the unique proof should allow plain stores";
  std::string driver = kDriver;
  driver.replace(driver.find("SYMBOL"), 6, kernel.symbol);
  fs::path dir = fs::path(::testing::TempDir()) / ("idxmap_tsan_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "kernel.cpp") << emitted.source() + driver;
  std::string binary = (dir / "kernel").string();
  std::string compile = "clang++ -std=c++20 -O1 -g -fsanitize=thread -fopenmp '" +
                        (dir / "kernel.cpp").string() + "' -o '" + binary + "' > '" +
                        (dir / "compile.txt").string() + "' 2>&1";
  ASSERT_EQ(std::system(compile.c_str()), 0) << readText(dir / "compile.txt");
  auto run = [&](const std::string& mode) {
    std::string log = (dir / (mode + ".txt")).string();
    std::string command = "OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES=" + std::string(kArcher) +
                          " TSAN_OPTIONS='exitcode=66 ignore_noninstrumented_modules=1' '" +
                          binary + "' " + mode + " > '" + log + "' 2>&1";
    int status = std::system(command.c_str());
    return std::make_pair(WIFEXITED(status) ? WEXITSTATUS(status) : -1, readText(log));
  };
  auto [uniqueStatus, uniqueLog] = run("unique");
  EXPECT_EQ(uniqueStatus, 0) << uniqueLog;
  EXPECT_EQ(uniqueLog.find("data race"), std::string::npos) << uniqueLog;
  auto [duplicateStatus, duplicateLog] = run("duplicates");
  EXPECT_EQ(duplicateStatus, 66) << duplicateLog;
  EXPECT_NE(duplicateLog.find("WARNING: ThreadSanitizer: data race"), std::string::npos)
      << duplicateLog;
  EXPECT_NE(duplicateLog.find(kernel.symbol), std::string::npos) << "the race is in the kernel";
}

}  // namespace
}  // namespace idxmap::codegen
