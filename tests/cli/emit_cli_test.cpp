// `idxmap emit` and `idxmap run --engine kernel`, run as a user runs them: kernels written to a
// file that compiles on its own, headers that cite the proofs, --assume changing the code, and
// exit 2 with a located diagnostic (nothing written) for what kernels do not compute.
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

// A scatter whose update computation is a subtraction: not one kernels compute.
constexpr const char* kSubtractScatter = R"(func.func @main() {
  %t = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = stablehlo.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %u = stablehlo.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %r = "stablehlo.scatter"(%t, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %d = "stablehlo.subtract"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%d) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[-4.0, 2.0, -3.0]> : tensor<3xf32>
  func.return
}
)";

// The same with an op no kernel computes in its region.
constexpr const char* kMysteryScatter = R"(func.func @main() {
  %t = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = stablehlo.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %u = stablehlo.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %r = "stablehlo.scatter"(%t, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %d = "stablehlo.custom_call"(%a, %b) {call_target_name = "mystery"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%d) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<3xf32>
  func.return
}
)";

// The section of `file` for the kernel at `location` (its header comment and function).
std::string kernelSection(const std::string& file, const std::string& location) {
  size_t start = file.find(location + "\n");
  if (start == std::string::npos) return "";
  size_t end = file.find("// idxmap kernel:", start);
  return file.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(EmitCli, WritesAFileThatCompilesOnItsOwnWithProofsInItsHeaders) {
  std::filesystem::path dir = makeScratchDir();
  std::string out = (dir / "gather_kernels.cpp").string();
  std::string input = examplePath("gather.mlir");
  CliResult result = runIdxmap({"emit", input, "-o", out});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "");
  std::string file = readTextFile(out);
  // Constant rows 4, 0, 2, 9 of 5: 9 is clamped, so the clamp stays.
  std::string constantRows = kernelSection(file, input + ":8:11");
  EXPECT_NE(constantRows.find("idxmap_clamp<int64_t>(v0, 0, 4)"), std::string::npos)
      << constantRows;
  // 2 * iota over 8 rows: never clamped, proven, no clamp.
  std::string evenRows = kernelSection(file, input + ":17:11");
  EXPECT_NE(evenRows.find("// proven (isl): start indices never clamped -> no clamp emitted"),
            std::string::npos)
      << evenRows;
  EXPECT_EQ(evenRows.find("idxmap_clamp"), std::string::npos) << evenRows;
  EXPECT_NE(evenRows.find("// validated (isl): the loop nest enumerates the domain exactly"),
            std::string::npos);
  EXPECT_NE(file.find("extern \"C\" int idxmap_stablehlo_gather_17_11("), std::string::npos);
  EXPECT_EQ(file.find("#include \""), std::string::npos);  // self-contained
  if (std::system("command -v c++ > /dev/null 2>&1") != 0) GTEST_SKIP() << "no C++ compiler";
  std::string compile = "c++ -std=c++20 -fopenmp -Wall -Wextra -Werror -c '" + out + "' -o '" +
                        (dir / "k.o").string() + "' 2>&1";
  EXPECT_EQ(std::system(compile.c_str()), 0) << compile;
}

TEST(EmitCli, AssumptionsChangeTheCode) {
  std::string input = examplePath("scatter_claims.mlir");
  std::filesystem::path dir = makeScratchDir();
  CliResult plain = runIdxmap({"emit", input, "-o", (dir / "a.cpp").string()});
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  std::string section = kernelSection(readTextFile(dir / "a.cpp"), input + ":16:8");
  EXPECT_NE(section.find("unique not proven -> updates applied in row-major order"),
            std::string::npos)
      << section;
  EXPECT_NE(section.find("idxmap_first"), std::string::npos);
  CliResult assumed = runIdxmap(
      {"emit", "--assume", "%rows: unique, in [0, 7]", input, "-o", (dir / "b.cpp").string()});
  ASSERT_EQ(assumed.exitCode, 0) << assumed.err;
  section = kernelSection(readTextFile(dir / "b.cpp"), input + ":16:8");
  EXPECT_NE(section.find("proven (isl) assuming %rows: unique"), std::string::npos) << section;
  EXPECT_NE(section.find("parallel plain stores"), std::string::npos);
  EXPECT_EQ(section.find("idxmap_first"), std::string::npos);
  EXPECT_NE(section.find("no update is skipped -> no bounds test"), std::string::npos) << section;
}

TEST(EmitCli, JsonDescribesEveryKernel) {
  CliResult result = runIdxmap({"emit", "--json", examplePath("gather.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json records = nlohmann::json::parse(result.out);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[1]["symbol"], "idxmap_stablehlo_gather_17_11");
  EXPECT_EQ(records[1]["clamps"], false);
  EXPECT_EQ(records[1]["index_type"], "int32_t");
  EXPECT_EQ(records[0]["clamps"], true);
  EXPECT_FALSE(records[1]["validated"].empty());
}

TEST(EmitCli, WhatKernelsDoNotComputeIsALocatedErrorAndNothingIsWritten) {
  std::filesystem::path dir = makeScratchDir();
  std::string out = (dir / "never.cpp").string();
  CliResult result = runIdxmap({"emit", "-", "-o", out}, kMysteryScatter);
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_NE(result.err.find("<stdin>:7:10: error: stablehlo.custom_call in a scatter's update "
                            "computation: kernels do not compute it"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  // The kernel engine says the same at the op.
  CliResult run = runIdxmap({"run", "--engine", "kernel", "-"}, kMysteryScatter);
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find("<stdin>:7:10: error: no kernel: "), std::string::npos) << run.err;
  // A region of another op than the prelude's (a subtract) is the kernel's own function: the
  // kernel engine passes the check the reference engine passes.
  EXPECT_EQ(runIdxmap({"emit", "-", "-o", out}, kSubtractScatter).exitCode, 0);
  for (const char* engine : {"reference", "kernel"}) {
    CliResult subtracted = runIdxmap({"run", "--engine", engine, "-"}, kSubtractScatter);
    EXPECT_EQ(subtracted.exitCode, 0) << engine << ": " << subtracted.err << subtracted.out;
  }
  // An invalid op, HLO text, malformed text.
  CliResult invalid = runIdxmap({"emit", examplePath("bad_gather.mlir")});
  EXPECT_EQ(invalid.exitCode, 2);
  EXPECT_NE(invalid.err.find("stablehlo.gather (C6)"), std::string::npos) << invalid.err;
  EXPECT_EQ(runIdxmap({"emit", "-"}, "func.func @f( {\n").exitCode, 2);
}

TEST(EmitCli, HloModulesBecomeKernels) {
  std::filesystem::path dir = makeScratchDir();
  std::string out = (dir / "softmax.cpp").string();
  CliResult result = runIdxmap({"emit", examplePath("softmax.hlo"), "-o", out});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::string file = readTextFile(out);
  EXPECT_NE(file.find("// idxmap kernel: fusion f at "), std::string::npos);
  EXPECT_NE(file.find("// stage t0 = row_max (reduce) over f32[2,65], reducing d2 in [0, 124]"),
            std::string::npos)
      << file;
  EXPECT_NE(file.find("extern \"C\" int idxmap_fusion_30_8_packed("), std::string::npos);
  CliResult json = runIdxmap({"emit", "--json", examplePath("softmax.hlo"), "-o", out});
  ASSERT_EQ(json.exitCode, 0) << json.err;
  nlohmann::json records = nlohmann::json::parse(json.out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["buffers"].size(), 2u);
  EXPECT_EQ(records[0]["buffers"][1]["written"], true);
  // Small buffers: int32_t arithmetic, as the header says.
  EXPECT_EQ(records[0]["index_type"], "int32_t");
  EXPECT_NE(file.find("-> int32_t index arithmetic"), std::string::npos);
  // Not computed: a located error, nothing written; --assume has no MLIR values to name.
  const char* convolution =
      "HloModule m\nENTRY e {\n  p = f32[4,4,4,2] parameter(0)\n  k = f32[2,2,2,4] parameter(1)\n"
      "  ROOT c = f32[2,3,3,4] convolution(p, k), window={size=2x2}, "
      "dim_labels=b01f_01io->b01f, batch_group_count=2\n}\n";
  std::string never = (dir / "never.cpp").string();
  CliResult bad = runIdxmap({"emit", "-", "-o", never}, convolution);
  EXPECT_EQ(bad.exitCode, 2);
  // The diagnostic, its source line and a caret under the opcode.
  EXPECT_NE(bad.err.find("<stdin>:5:25: error: convolution (c): batch groups are not computed"),
            std::string::npos)
      << bad.err;
  EXPECT_NE(bad.err.find("\n  ROOT c = f32[2,3,3,4] convolution(p, k)"), std::string::npos);
  EXPECT_NE(bad.err.find("\n" + std::string(24, ' ') + "^\n"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(never));
  EXPECT_EQ(runIdxmap({"emit", "--assume", "%x: unique", examplePath("softmax.hlo")}).exitCode, 2);
  if (std::system("command -v c++ > /dev/null 2>&1") != 0) GTEST_SKIP() << "no C++ compiler";
  std::string compile = "c++ -std=c++20 -fopenmp -Wall -Wextra -Werror -c '" + out + "' -o '" +
                        (dir / "k.o").string() + "' 2>&1";
  EXPECT_EQ(std::system(compile.c_str()), 0) << compile;
}

TEST(RunCli, KernelEngineRunsTheSpecExample) {
  for (const char* threads : {"1", "2"}) {
    CliResult result = runIdxmap(
        {"run", "--engine", "kernel", "--threads", threads, examplePath("spec_example.mlir")});
    EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
    EXPECT_EQ(result.out, "3 checks passed\n");
  }
}

}  // namespace
}  // namespace idxmap::cli_test
