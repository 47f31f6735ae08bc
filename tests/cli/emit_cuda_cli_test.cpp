// `idxmap emit --target cuda` and `idxmap run --engine cuda`, as a user runs them: a .cu file
// that compiles as host C++ with every warning on (and with nvcc where it is installed), the
// proofs deciding the stores (plain, atomics, or with --deterministic none), and exit 2 with a
// diagnostic for what the CUDA target does not take.
#include "tests/cli/cli_runner.h"
#include "tests/codegen/nvcc_check.h"

namespace idxmap::cli_test {
namespace emit_cuda_cli_test {

// What the kernels of a .cu file call: the text after the support code (the first kernel's
// header comment on), where the atomic updates are defined but not called.
std::string kernelsOf(const std::string& file) {
  size_t start = file.find("// idxmap kernel:");
  return start == std::string::npos ? "" : file.substr(start);
}

bool installed(const std::string& tool) {
  // nvcc's own test also honours IDXMAP_SKIP_NVCC (scripts/test.sh's sanitizer run).
  if (tool == "nvcc") return codegen::testing::nvccInstalled();
  return std::system(("command -v " + tool + " > /dev/null 2>&1").c_str()) == 0;
}

TEST(EmitCudaCli, WritesACuFileThatCompilesAsHostCxxAndWithNvcc) {
  std::filesystem::path dir = makeScratchDir();
  std::string out = (dir / "gather_kernels.cu").string();
  std::string input = examplePath("gather.mlir");
  CliResult result = runIdxmap({"emit", "--target", "cuda", input, "-o", out});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::string file = readTextFile(out);
  std::string kernels = kernelsOf(file);
  EXPECT_NE(kernels.find("static __global__ void __launch_bounds__(256) "
                         "idxmap_stablehlo_gather_17_11_points("),
            std::string::npos)
      << kernels;
  EXPECT_NE(file.find("extern \"C\" int idxmap_stablehlo_gather_17_11_launch("), std::string::npos);
  EXPECT_NE(file.find("extern \"C\" int idxmap_stablehlo_gather_17_11_packed("), std::string::npos);
  // The same proofs as the C++ target, and the thread's point decoding validated.
  EXPECT_NE(kernels.find("// proven (isl): start indices never clamped -> no clamp emitted"),
            std::string::npos);
  EXPECT_NE(kernels.find("// CUDA: "), std::string::npos);
  EXPECT_NE(kernels.find("// validated (isl): the loop nest enumerates the domain exactly"),
            std::string::npos);
  EXPECT_EQ(file.find("#include \""), std::string::npos);  // self-contained
  if (installed("c++")) {
    std::string compile = "c++ -std=c++20 -Wall -Wextra -Werror -x c++ -c '" + out + "' -o '" +
                          (dir / "host.o").string() + "' 2>&1";
    EXPECT_EQ(std::system(compile.c_str()), 0) << compile;
  }
  if (installed("nvcc")) {
    std::string compile = "nvcc -std=c++20 --expt-relaxed-constexpr -arch=sm_80 -c '" + out +
                          "' -o '" + (dir / "device.o").string() + "' 2>&1";
    EXPECT_EQ(std::system(compile.c_str()), 0) << compile;
  }
}

// examples/scatter_claims.mlir's scatters have no proof of unique indices: atomic updates, or
// with --deterministic a sort (of their rows) and no atomic at all. The gather keeps its plain stores.
TEST(EmitCudaCli, DeterministicModeReplacesAtomicsWithASort) {
  CliResult atomic = runIdxmap({"emit", "--target", "cuda", examplePath("scatter_claims.mlir")});
  ASSERT_EQ(atomic.exitCode, 0) << atomic.err;
  EXPECT_NE(kernelsOf(atomic.out).find("idxmap_atomic_replace_f32(&result["), std::string::npos);
  EXPECT_EQ(kernelsOf(atomic.out).find("idxmap_sort_pairs("), std::string::npos);
  CliResult sorted = runIdxmap(
      {"emit", "--target", "cuda", "--deterministic", examplePath("scatter_claims.mlir")});
  ASSERT_EQ(sorted.exitCode, 0) << sorted.err;
  EXPECT_EQ(kernelsOf(sorted.out).find("idxmap_atomic_"), std::string::npos);
  EXPECT_NE(kernelsOf(sorted.out).find("idxmap_sort_pairs("), std::string::npos);
  // Its scatters pick rows by an index that is a target coordinate: the rows are sorted.
  EXPECT_NE(kernelsOf(sorted.out).find("deterministic: the 4 rows of d0 sorted stably"),
            std::string::npos);
}

TEST(EmitCudaCli, WhatTheTargetDoesNotTakeExitsTwo) {
  CliResult deterministic =
      runIdxmap({"emit", "--deterministic", examplePath("scatter_claims.mlir")});
  EXPECT_EQ(deterministic.exitCode, 2);
  EXPECT_NE(deterministic.err.find("--deterministic: error: only --target cuda"), std::string::npos)
      << deterministic.err;
  CliResult unknown = runIdxmap({"emit", "--target", "metal", examplePath("gather.mlir")});
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.err.find("--target"), std::string::npos) << unknown.err;
}

// An HLO module: each stage of a fusion (softmax: two reductions, then the root) a __global__
// function, launched in order, its temporaries allocated on the stream; the header as the C++
// target's.
TEST(EmitCudaCli, HloFusionsBecomeStagedKernels) {
  std::filesystem::path dir = makeScratchDir();
  std::string out = (dir / "softmax.cu").string();
  CliResult result = runIdxmap({"emit", "--target", "cuda", examplePath("softmax.hlo"), "-o", out});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::string file = readTextFile(out);
  for (const std::string stage :
       {"idxmap_fusion_30_8_t0", "idxmap_fusion_30_8_t1", "idxmap_fusion_30_8_out0"}) {
    EXPECT_NE(file.find("static __global__ void __launch_bounds__(256) " + stage + "("),
              std::string::npos)
        << stage;
    EXPECT_NE(file.find("IDXMAP_LAUNCH(" + stage + ","), std::string::npos) << stage;
  }
  // The reductions' temporaries are regions of the workspace launch_in is given.
  EXPECT_NE(file.find("float* const t0 = reinterpret_cast<float*>(idxmap_space + "),
            std::string::npos);
  EXPECT_NE(file.find("idxmap_fusion_30_8_workspace_bytes(void)"), std::string::npos);
  // The header names each stage's reads, as the C++ target's does.
  EXPECT_NE(file.find("//   out0 -> t1: (d0, d1, d2) -> (d0, d1)"), std::string::npos);
  if (installed("c++")) {
    std::string compile = "c++ -std=c++20 -Wall -Wextra -Werror -x c++ -c '" + out + "' -o '" +
                          (dir / "host.o").string() + "' 2>&1";
    EXPECT_EQ(std::system(compile.c_str()), 0) << compile;
  }
}

// Without a GPU (CI never has one) the run stops at the first kernel with a located error
// naming what failed; on a GPU machine the checks pass.
TEST(RunCudaCli, RunsTheSpecExampleOrSaysWhyNot) {
  CliResult result = runIdxmap({"run", "--engine", "cuda", examplePath("spec_example.mlir")});
  if (result.exitCode == 0) {
    EXPECT_EQ(result.out, "3 checks passed\n");
    return;
  }
  EXPECT_EQ(result.exitCode, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("spec_example.mlir:"), std::string::npos) << result.err;
  const bool named =
      result.err.find("nvcc") != std::string::npos || result.err.find("CUDA") != std::string::npos;
  EXPECT_TRUE(named) << result.err;
}

}  // namespace emit_cuda_cli_test
}  // namespace idxmap::cli_test
