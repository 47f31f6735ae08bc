// `idxmap annotate` as a user runs it: proven claims written into StableHLO (attribute
// dictionaries `{...}` and properties `<{...}>`) and HLO text, every other byte kept, the result
// verified with the new claims proven, a second run changing nothing, refuted claims reported
// and kept, invalid input and bad options exit 2 with nothing written. The expected claims are
// derived by hand from the index values written in each program.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

// A scatter of rows into an 8x2 table at the constant rows given ("[[6], [0], [2], [4]]"),
// with extra attributes after the dimension numbers (", unique_indices = true").
std::string constantRowScatter(const std::string& rows, const std::string& attributes) {
  return R"(func.func @main(%table: tensor<8x2xf32>, %updates: tensor<4x2xf32>) -> tensor<8x2xf32> {
  %rows = stablehlo.constant dense<)" +
         rows + R"(> : tensor<4x1xi32>
  %0 = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    "stablehlo.return"(%new) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>)" +
         attributes + R"(
  } : (tensor<8x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  func.return %0 : tensor<8x2xf32>
}
)";
}

// The text without the first occurrence of `inserted` (which must be there).
std::string without(std::string text, const std::string& inserted) {
  size_t at = text.find(inserted);
  EXPECT_NE(at, std::string::npos) << "no '" << inserted << "' in:\n" << text;
  if (at != std::string::npos) text.erase(at, inserted.size());
  return text;
}

TEST(AnnotateCli, WritesProvenClaimsAndNothingElse) {
  // Rows 6, 0, 2, 4: unique, not sorted.
  const std::string input = constantRowScatter("[[6], [0], [2], [4]]", "");
  CliResult result = runIdxmap({"annotate"}, input);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(without(result.out, ", unique_indices = true"), input);
  EXPECT_EQ(result.out.find("indices_are_sorted"), std::string::npos) << result.out;
  EXPECT_NE(result.err.find("note: stablehlo.scatter: wrote unique_indices = true: proven (isl)"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("1 claim written, 0 refuted"), std::string::npos) << result.err;

  // The annotated program verifies with its new claim proven, and a second run keeps it.
  CliResult verified = runIdxmap({"verify", "--json"}, result.out);
  EXPECT_EQ(verified.exitCode, 0) << verified.err;
  EXPECT_NE(verified.out.find(R"("claimed": true)"), std::string::npos) << verified.out;
  CliResult again = runIdxmap({"annotate"}, result.out);
  EXPECT_EQ(again.exitCode, 0) << again.err;
  EXPECT_EQ(again.out, result.out);
  EXPECT_NE(again.err.find("0 claims written"), std::string::npos) << again.err;
}

TEST(AnnotateCli, TurnsAWrittenFalseToTrue) {
  // Rows 0, 2, 4, 6: unique and sorted; the program says it is not sorted.
  const std::string input =
      constantRowScatter("[[0], [2], [4], [6]]", ",\n    indices_are_sorted = false");
  CliResult result = runIdxmap({"annotate"}, input);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::string expected = input;
  expected.replace(expected.find("indices_are_sorted = false"), 26, "indices_are_sorted = true");
  EXPECT_EQ(without(result.out, ", unique_indices = true"), expected);
  EXPECT_EQ(runIdxmap({"annotate"}, result.out).out, result.out);
}

TEST(AnnotateCli, RefutedClaimsAreReportedAndKept) {
  // Rows 1, 1, 2, 3 repeat row 1: unique_indices = true is false; sorted holds and is written.
  const std::string input =
      constantRowScatter("[[1], [1], [2], [3]]", ",\n    unique_indices = true");
  CliResult result = runIdxmap({"annotate"}, input);
  EXPECT_EQ(result.exitCode, 1) << result.err;
  EXPECT_NE(result.err.find("error: stablehlo.scatter: unique_indices = true is false"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(without(result.out, ", indices_are_sorted = true"), input);
}

TEST(AnnotateCli, WritesIntoPropertiesAndHloText) {
  // A gather of rows at an iota (0, 1, 2, 3): sorted, written into its `<{...}>` properties.
  const std::string gather = R"(func.func @main(%t: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %i = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %g = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 2>}> : (tensor<4x2xf32>, tensor<4x1xi32>) -> tensor<4x2xf32>
  func.return %g : tensor<4x2xf32>
}
)";
  CliResult result = runIdxmap({"annotate"}, gather);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(without(result.out, ", indices_are_sorted = true"), gather);
  EXPECT_NE(result.out.find("array<i64: 1, 2>, indices_are_sorted = true}>"), std::string::npos)
      << result.out;

  // HLO: the indices are a parameter; assumed unique, the claim goes after the operands.
  const std::string hlo = R"(HloModule rows

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  table = f32[8,2]{1,0} parameter(0)
  rows = s32[4,1]{1,0} parameter(1)
  updates = f32[4,2]{1,0} parameter(2)
  ROOT r = f32[8,2]{1,0} scatter(table, rows, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
}
)";
  CliResult bare = runIdxmap({"annotate", "-", "--assume", "%rows: in [0, 7]"}, hlo);
  EXPECT_EQ(bare.out, hlo) << bare.err;  // in bounds only: nothing to claim
  CliResult assumed = runIdxmap({"annotate", "-", "--assume", "%rows: unique, in [0, 7]"}, hlo);
  ASSERT_EQ(assumed.exitCode, 0) << assumed.err;
  EXPECT_EQ(without(assumed.out, ", unique_indices=true"), hlo);
  EXPECT_NE(assumed.out.find("scatter(table, rows, updates), unique_indices=true,"),
            std::string::npos)
      << assumed.out;

  // A written `false`, spaced as the reader allows, is turned, not given a second time.
  std::string spaced = hlo;
  spaced.replace(spaced.find(", to_apply=add"), 14, ", unique_indices = false, to_apply=add");
  CliResult turned = runIdxmap({"annotate", "-", "--assume", "%rows: unique, in [0, 7]"}, spaced);
  ASSERT_EQ(turned.exitCode, 0) << turned.err;
  std::string expected = spaced;
  expected.replace(expected.find("unique_indices = false"), 22, "unique_indices = true");
  EXPECT_EQ(turned.out, expected);
  // It parses, and the claim is proven under the same assumption (exit 3 without it).
  EXPECT_EQ(runIdxmap({"verify", "-", "--assume", "%rows: unique, in [0, 7]"}, turned.out).exitCode,
            0);
}

TEST(AnnotateCli, InPlaceOutputFilesAndErrors) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("idxmap_annotate_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string input = constantRowScatter("[[6], [0], [2], [4]]", "");
  fs::path file = dir / "rows.mlir";
  std::ofstream(file) << input;
  auto read = [](const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
  CliResult toFile = runIdxmap({"annotate", file.string(), "-o", (dir / "out.mlir").string()});
  EXPECT_EQ(toFile.exitCode, 0) << toFile.err;
  EXPECT_TRUE(toFile.out.empty());
  EXPECT_EQ(without(read(dir / "out.mlir"), ", unique_indices = true"), input);
  EXPECT_EQ(read(file), input);  // -o leaves the input alone
  CliResult inPlace = runIdxmap({"annotate", "--in-place", file.string()});
  EXPECT_EQ(inPlace.exitCode, 0) << inPlace.err;
  EXPECT_EQ(read(file), read(dir / "out.mlir"));

  CliResult stdinInPlace = runIdxmap({"annotate", "--in-place"}, input);
  EXPECT_EQ(stdinInPlace.exitCode, 2);
  EXPECT_NE(stdinInPlace.err.find("--in-place rewrites the named input file"), std::string::npos)
      << stdinInPlace.err;

  // An invalid op (an index mapped to operand dim 2 of a rank-2 operand): exit 2, nothing
  // written.
  std::string invalid = input;
  invalid.replace(invalid.find("scatter_dims_to_operand_dims = [0]"), 34,
                  "scatter_dims_to_operand_dims = [2]");
  CliResult bad = runIdxmap({"annotate"}, invalid);
  EXPECT_EQ(bad.exitCode, 2) << bad.err;
  EXPECT_TRUE(bad.out.empty()) << bad.out;
  EXPECT_NE(bad.err.find("error: stablehlo.scatter (C"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("nothing written"), std::string::npos) << bad.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace idxmap::cli_test
