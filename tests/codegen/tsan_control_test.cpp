// The proof-driven store, tested both ways under ThreadSanitizer: a scatter kernel emitted with
// parallel plain stores because its indices were asserted unique is race-free on unique
// indices, and TSan reports a race when the same kernel is fed duplicates (the negative
// control: the stores really run in parallel, and only the proof made them safe); ordered
// scatters, whose threads split a dim or an index's values, are race-free on duplicates. Kernels
// are compiled with clang, TSan and LLVM's OpenMP, whose Archer tool tells TSan about OpenMP's
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
#include "tests/support/scratch.h"
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

bool tsanAvailable() {
  return std::system("command -v clang++ > /dev/null 2>&1") == 0 && fs::exists(kArcher);
}

// A program (emitted kernels and a driver) built with TSan and run with two OpenMP threads.
class TsanProgram {
 public:
  TsanProgram(const std::string& name, const std::string& source, const std::string& flags = "")
      : dir_(scratch::directory("idxmap_tsan_" + name)) {
    std::ofstream(dir_ / "kernel.cpp") << source;
    std::string compile =
        "clang++ -std=c++20 -O1 -g -fsanitize=thread -fopenmp "
        "-DIDXMAP_PARALLEL_GRAIN=1 " +
        flags + " '" + (dir_ / "kernel.cpp").string() + "' -o '" + binary() + "' > '" +
        (dir_ / "compile.txt").string() + "' 2>&1";
    compiled_ = std::system(compile.c_str()) == 0;
  }
  bool compiled() const { return compiled_; }
  std::string compileLog() const { return readText(dir_ / "compile.txt"); }
  // The exit status (66: TSan reported) and the output of a run with argument `mode`.
  std::pair<int, std::string> run(const std::string& mode) const {
    std::string log = (dir_ / (mode + ".txt")).string();
    std::string command = "OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES=" + std::string(kArcher) +
                          " TSAN_OPTIONS='exitcode=66 ignore_noninstrumented_modules=1' '" +
                          binary() + "' " + mode + " > '" + log + "' 2>&1";
    int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readText(log)};
  }

 private:
  std::string binary() const { return (dir_ / "kernel").string(); }
  fs::path dir_;
  bool compiled_ = false;
};

TEST(ThreadSanitizer, UniqueStoresRaceOnlyWhenTheProofIsBroken) {
  if (!tsanAvailable()) GTEST_SKIP() << "needs clang++ and LLVM's OpenMP with Archer (libomp-dev)";
  mlir_ir::Module module = mlir_ir::parseMlirModule(kScatter, "tsan.mlir");
  EmittedModule emitted = emitMlirModule(module, parseAssumptions({"%rows: unique, in [0, 1023]"}));
  ASSERT_EQ(emitted.kernels.size(), 1u);
  const Kernel& kernel = emitted.kernels[0].kernel;
  ASSERT_EQ(kernel.strategy, Strategy::kIndependent)
      << "the unique proof should allow plain stores";
  std::string driver = kDriver;
  driver.replace(driver.find("SYMBOL"), 6, kernel.symbol);
  TsanProgram program("unique", emitted.source() + driver);
  ASSERT_TRUE(program.compiled()) << program.compileLog();
  auto [uniqueStatus, uniqueLog] = program.run("unique");
  EXPECT_EQ(uniqueStatus, 0) << uniqueLog;
  EXPECT_EQ(uniqueLog.find("data race"), std::string::npos) << uniqueLog;
  auto [duplicateStatus, duplicateLog] = program.run("duplicates");
  EXPECT_EQ(duplicateStatus, 66) << duplicateLog;
  EXPECT_NE(duplicateLog.find("WARNING: ThreadSanitizer: data race"), std::string::npos)
      << duplicateLog;
  EXPECT_NE(duplicateLog.find(kernel.symbol), std::string::npos) << "the race is in the kernel";
}

// Without the unique fact the same scatter is ordered, its threads owning ranges of the row
// index's values; a scatter whose target is (row, d1, d2) has its threads split d1's loop.
// Fed duplicates, both are race-free: the split alone keeps colliding updates in one thread.
constexpr const char* kSplitScatter = R"(
func.func @split(%table: tensor<64x8x16xf32>, %rows: tensor<256x1xi32>, %updates: tensor<256x8x16xf32>) -> tensor<64x8x16xf32> {
  %r = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x8x16xf32>, tensor<256x1xi32>, tensor<256x8x16xf32>) -> tensor<64x8x16xf32>
  func.return %r : tensor<64x8x16xf32>
}
)";

constexpr const char* kSplitDriver = R"(
#include <vector>
int main() {
  std::vector<float> table(1024 * 64, 1.0f), updates(512 * 64, 2.0f);
  std::vector<int32_t> rows(512);
  for (int i = 0; i < 512; ++i) rows[i] = (i * 7) % 64;  // every row several times
  void* byValue[] = {table.data(), rows.data(), updates.data(), table.data()};
  const int64_t byValueElements[] = {1024 * 64, 512, 512 * 64, 1024 * 64};
  void* byDim[] = {table.data(), rows.data(), updates.data(), table.data()};
  const int64_t byDimElements[] = {64 * 8 * 16, 256, 256 * 8 * 16, 64 * 8 * 16};
  return BY_VALUE_packed(byValue, byValueElements) | BY_DIM_packed(byDim, byDimElements);
}
)";

TEST(ThreadSanitizer, OrderedScattersAreRaceFreeOnDuplicates) {
  if (!tsanAvailable()) GTEST_SKIP() << "needs clang++ and LLVM's OpenMP with Archer (libomp-dev)";
  mlir_ir::Module module =
      mlir_ir::parseMlirModule(std::string(kScatter) + kSplitScatter, "tsan_ordered.mlir");
  EmittedModule emitted = emitMlirModule(module);
  ASSERT_EQ(emitted.kernels.size(), 2u);
  const Kernel &byValue = emitted.kernels[0].kernel, &byDim = emitted.kernels[1].kernel;
  ASSERT_EQ(byValue.strategy, Strategy::kOrdered);
  ASSERT_EQ(byValue.splitBy, Kernel::SplitBy::kRuntimeVar);
  ASSERT_EQ(byDim.strategy, Strategy::kOrdered);
  ASSERT_EQ(byDim.splitBy, Kernel::SplitBy::kDim);
  std::string driver = kSplitDriver;
  driver.replace(driver.find("BY_VALUE"), 8, byValue.symbol);
  driver.replace(driver.find("BY_DIM"), 6, byDim.symbol);
  TsanProgram program("ordered", emitted.source() + driver);
  ASSERT_TRUE(program.compiled()) << program.compileLog();
  auto [status, log] = program.run("");
  EXPECT_EQ(status, 0) << log;
  EXPECT_EQ(log.find("data race"), std::string::npos) << log;
  // The negative control: threads splitting d0 instead, which no target coordinate is.
  Kernel wrong = byDim;
  wrong.splitIndex = 0;
  std::string wrongDriver = kSplitDriver;
  wrongDriver.replace(wrongDriver.find("BY_VALUE"), 8, byValue.symbol);
  wrongDriver.replace(wrongDriver.find("BY_DIM"), 6, byDim.symbol);
  TsanProgram broken("ordered_wrong_split",
                     cppFile({emitted.kernels[0].printed, printCppKernel(wrong)}) + wrongDriver);
  ASSERT_TRUE(broken.compiled()) << broken.compileLog();
  auto [brokenStatus, brokenLog] = broken.run("");
  EXPECT_EQ(brokenStatus, 66) << brokenLog;
  EXPECT_NE(brokenLog.find("WARNING: ThreadSanitizer: data race"), std::string::npos) << brokenLog;
}

// The CUDA target's emulation (blocks spread over two host threads): the unique scatter's
// plain stores are race-free on unique rows and race on duplicates placed in blocks of
// different threads; without the fact, the same scatter's atomic updates are race-free on them.
// Both forms of the plain kernel are watched: 16-byte vectors (a thread 4 elements, so 16 rows
// of 64 fill a block of 256 threads: duplicates are rows i and i + 16 of every 32), and a
// thread a point where the buffers are one element off 16 bytes (4 rows fill a block).
constexpr const char* kCudaDriver = R"(
#include <string>
#include <vector>
int main(int argc, char** argv) {
  const bool duplicates = argc > 2 && std::string(argv[1]) == "duplicates";
  const bool points = argc > 2 && std::string(argv[2]) == "points";
  const int blockRows = points ? 4 : 16, off = points ? 1 : 0;
  std::vector<float> table(1024 * 64 + 1, 1.0f), updates(512 * 64 + 1, 2.0f);
  std::vector<int32_t> rows(512);
  for (int i = 0; i < 512; ++i)
    rows[i] = duplicates ? i / (2 * blockRows) * (2 * blockRows) + i % blockRows : 2 * i;
  // The launch entry itself (the emulation's device memory is the host's): the host entry
  // would copy the buffers to aligned ones.
  float* in_place = table.data() + off;
  return SYMBOL_launch(in_place, 1024 * 64, rows.data(), 512, updates.data() + off, 512 * 64,
                       in_place, 1024 * 64, nullptr);
}
)";

TEST(ThreadSanitizer, CudaUniqueStoresRaceOnlyWhenTheProofIsBroken) {
  if (!tsanAvailable()) GTEST_SKIP() << "needs clang++ and LLVM's OpenMP with Archer (libomp-dev)";
  mlir_ir::Module module = mlir_ir::parseMlirModule(kScatter, "tsan_cuda.mlir");
  const EmitTarget cuda{EmitTarget::Kind::kCuda, {}};
  for (bool unique : {true, false}) {
    EmittedModule emitted = emitMlirModule(
        module,
        unique ? parseAssumptions({"%rows: unique, in [0, 1023]"}) : std::vector<Assumption>{},
        cuda);
    ASSERT_EQ(emitted.kernels.size(), 1u);
    const Kernel& kernel = emitted.kernels[0].kernel;
    ASSERT_EQ(kernel.strategy, unique ? Strategy::kIndependent : Strategy::kOrdered);
    std::string driver = kCudaDriver;
    driver.replace(driver.find("SYMBOL"), 6, kernel.symbol);
    TsanProgram program(unique ? "cuda_unique" : "cuda_atomic", emitted.source() + driver,
                        "-DIDXMAP_EMULATION_WORKERS=2");
    ASSERT_TRUE(program.compiled()) << program.compileLog();
    for (const std::string form : {"vectors", "points"}) {
      SCOPED_TRACE(form);
      auto [uniqueStatus, uniqueLog] = program.run("unique " + form);
      EXPECT_EQ(uniqueStatus, 0) << uniqueLog;
      auto [duplicateStatus, duplicateLog] = program.run("duplicates " + form);
      if (!unique) {
        EXPECT_EQ(duplicateStatus, 0) << duplicateLog;  // atomics: no race
        continue;
      }
      EXPECT_EQ(duplicateStatus, 66) << duplicateLog;
      EXPECT_NE(duplicateLog.find("WARNING: ThreadSanitizer: data race"), std::string::npos)
          << duplicateLog;
      EXPECT_NE(duplicateLog.find(kernel.symbol + "_" + form), std::string::npos)
          << "the race is in the kernel\n"
          << duplicateLog;
    }
  }
}

}  // namespace
}  // namespace idxmap::codegen
