// `idxmap verify`'s index properties as a user meets them: a claim refuted with the elements
// that show it (exit 1), a claim on run-time indices not proven with its exact condition
// (exit 3) and proven under --assume (exit 0), a property that holds unclaimed, the forms whose
// out-of-range indices are undefined, JSON records, and bad --assume text (exit 2).
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/cli/verify_json.h"

namespace idxmap::cli_test {
namespace {

// A 1-d scatter of rows into an 8x2 table with the given indices (a 4x1 tensor) and claims.
std::string rowScatter(const std::string& indices, const std::string& claims) {
  return R"(func.func @main(%table: tensor<8x2xf32>, %updates: tensor<4x2xf32>,
    %rows: tensor<4x1xi32>) -> tensor<8x2xf32> {
  %fixed = stablehlo.constant dense<[[6], [0], [2], [4]]> : tensor<4x1xi32>
  %0 = "stablehlo.scatter"(%table, )" +
         indices + R"(, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    "stablehlo.return"(%new) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>)" +
         claims + R"(
  } : (tensor<8x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  func.return %0 : tensor<8x2xf32>
}
)";
}

TEST(VerifyPropertiesCli, BundledExampleRefutesOneClaimAndLeavesOneOpen) {
  std::string path = examplePath("scatter_claims.mlir");
  CliResult result = runIdxmap({"verify", path});
  EXPECT_EQ(result.exitCode, 1) << result.err;  // refuted outranks not proven
  std::vector<std::string> lines = linesOf(result.err);
  ASSERT_EQ(lines.size(), 8u) << result.err;
  EXPECT_EQ(lines[7], path +
                          ": not checked (no model): stablehlo.constant x2, stablehlo.iota, "
                          "stablehlo.multiply");
  EXPECT_EQ(lines[0], path +
                          ":8:8: error: stablehlo.scatter: unique_indices = true is false: "
                          "updates[0, 1] and updates[2, 1] both write result[3, 1] "
                          "(scatter_indices[0] = [3], scatter_indices[2] = [3])");
  EXPECT_EQ(lines[1].rfind(path + ":16:8: warning: stablehlo.scatter: unique_indices = true is "
                                  "not proven: the values of scatter_indices are known only at "
                                  "run time: %rows",
                           0),
            0u)
      << lines[1];
  // %rows is the index tensor itself: both conditions are on the argument, read by hand (no two
  // equal rows in range collide; out-of-range rows are skipped, in bounds takes [0, 7]); each
  // with values of %rows that break it, replayed by the interpreter.
  EXPECT_EQ(lines[2], path +
                          ":16:8: remark: stablehlo.scatter: unique holds if and only if "
                          "no two elements u and w of %rows, u before w in row-major order, "
                          "satisfy { [u, w = u] : 0 <= u <= 7 }; it fails at %rows = [[0], [0], "
                          "[0], [0]] (every other argument 0): updates[2, 1] and updates[3, 1] "
                          "both write result[0, 1] (scatter_indices[2] = [0], "
                          "scatter_indices[3] = [0])");
  EXPECT_EQ(lines[3], path +
                          ":16:8: remark: stablehlo.scatter: in bounds holds if and only if "
                          "every element of %rows is in [0, 7]; it fails at %rows = [[8], [0], "
                          "[0], [0]] (every other argument 0): updates[0, 0] starts its window "
                          "at [8, 0], outside the result: the update is skipped "
                          "(scatter_indices[0] = [8])");
  EXPECT_EQ(lines[4], path +
                          ":27:8: note: stablehlo.gather: indices_are_sorted could be set: "
                          "proven (isl)");
  EXPECT_EQ(lines[5], path + ": 3 ops verified, all valid");
  EXPECT_EQ(lines[6], path +
                          ": index properties of 3 ops: 6 proven, 2 refuted, 3 unknown "
                          "(claims: 1 refuted, 1 not proven)");
}

TEST(VerifyPropertiesCli, ClaimsOnRuntimeIndicesNeedAssumptions) {
  std::string text = rowScatter("%rows", ",\n    unique_indices = true");
  CliResult bare = runIdxmap({"verify"}, text);
  EXPECT_EQ(bare.exitCode, 3) << bare.err;
  EXPECT_NE(bare.err.find("warning: stablehlo.scatter: unique_indices = true is not proven"),
            std::string::npos)
      << bare.err;

  CliResult assumed = runIdxmap({"verify", "--assume", "%rows: unique", "-"}, text);
  EXPECT_EQ(assumed.exitCode, 0) << assumed.err;
  EXPECT_EQ(assumed.err.find("warning"), std::string::npos) << assumed.err;

  // A permutation of 0..3 also keeps every update inside the table, and is sorted by nothing.
  CliResult json = runIdxmap({"verify", "--json", "--assume", "%rows: permutation"}, text);
  EXPECT_EQ(json.exitCode, 0) << json.err;
  nlohmann::json properties = nlohmann::json::parse(json.out)[0]["properties"];
  EXPECT_EQ(properties["unique"]["verdict"], "proven");
  EXPECT_EQ(properties["unique"]["certificate"], "isl");
  EXPECT_EQ(properties["unique"]["assumptions"], nlohmann::json::array({"%rows: permutation"}));
  EXPECT_EQ(properties["in_bounds"]["verdict"], "proven");
  EXPECT_EQ(properties["sorted"]["verdict"], "unknown");
  EXPECT_TRUE(properties["sorted"]["condition"].is_string());
  // Rows of 2 in an 8x2 table: every index expression is tiny.
  EXPECT_EQ(properties["int32_safe"]["verdict"], "proven");
  EXPECT_EQ(properties["int32_safe"]["claimed"], nullptr);
  EXPECT_FALSE(properties["int32_safe"]["expressions"].empty());

  // Facts about another value change nothing.
  CliResult other = runIdxmap({"verify", "--assume", "%updates: unique"}, text);
  EXPECT_EQ(other.exitCode, 3) << other.err;
}

TEST(VerifyPropertiesCli, KnownIndicesAreDecidedAndUnclaimedFactsNoted) {
  CliResult text = runIdxmap({"verify"}, rowScatter("%fixed", ""));
  EXPECT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.err.find("note: stablehlo.scatter: unique_indices could be set: proven (isl)"),
            std::string::npos)
      << text.err;
  CliResult result = runIdxmap({"verify", "--json"}, rowScatter("%fixed", ""));
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.err.find("note:"), std::string::npos);  // JSON carries it
  nlohmann::json properties = nlohmann::json::parse(result.out)[0]["properties"];
  EXPECT_EQ(properties["unique"]["claimed"], false);
  EXPECT_EQ(properties["unique"]["verdict"], "proven");
  EXPECT_EQ(properties["in_bounds"]["claimed"], nullptr);  // StableHLO cannot claim it
  EXPECT_EQ(properties["in_bounds"]["verdict"], "proven");
  // [6], [0], [2], [4] are not sorted: the counterexample names the first pair out of order.
  EXPECT_EQ(properties["sorted"]["verdict"], "refuted");
  nlohmann::json elements = properties["sorted"]["counterexample"]["elements"];
  ASSERT_EQ(elements.size(), 2u);
  EXPECT_EQ(elements[0]["tensor"], "updates");
  EXPECT_LT(elements[0]["index"], elements[1]["index"]);

  CliResult claimed =
      runIdxmap({"verify"}, rowScatter("%fixed", ",\n    indices_are_sorted = true"));
  EXPECT_EQ(claimed.exitCode, 1) << claimed.err;
  // Any pair out of order will do; the first update reads [6], larger than every later one.
  EXPECT_NE(claimed.err.find("error: stablehlo.scatter: indices_are_sorted = true is false: "
                             "updates[0, "),
            std::string::npos)
      << claimed.err;
  EXPECT_NE(claimed.err.find("(scatter_indices[0] = [6], scatter_indices["), std::string::npos)
      << claimed.err;
}

// tensor.gather reads out of range: undefined behavior, an error whatever is claimed.
TEST(VerifyPropertiesCli, OutOfRangeIndicesOfTheFormsAreErrors) {
  const std::string text = R"(func.func @f(%source: tensor<4x5xf32>) -> tensor<3x1x5xf32> {
  %idx = stablehlo.constant dense<[[1], [4], [3]]> : tensor<3x1xi32>
  %0 = tensor.gather %source[%idx] gather_dims([0]) unique :
    (tensor<4x5xf32>, tensor<3x1xi32>) -> tensor<3x1x5xf32>
  func.return %0 : tensor<3x1x5xf32>
}
)";
  CliResult result = runIdxmap({"verify"}, text);
  EXPECT_EQ(result.exitCode, 1) << result.err;
  EXPECT_NE(result.err.find("error: tensor.gather: indices must be in range: result[1, 0, 0] "
                            "reads source at [4, 0], out of range (undefined behavior) "
                            "(indices[1] = [4])"),
            std::string::npos)
      << result.err;
  // Its `unique` claim holds: the in-range reads are distinct.
  EXPECT_EQ(result.err.find("`unique`"), std::string::npos) << result.err;
}

// Rows of a 70000 x 40000 table: offsets into it pass 2^31, and the counterexample says where.
TEST(VerifyPropertiesCli, Int32SafetyIsReportedPerExpression) {
  const std::string text = R"(func.func @f(%table: tensor<70000x40000xf32>,
    %rows: tensor<16x1xi32>) -> tensor<16x40000xf32> {
  %0 = "stablehlo.gather"(%table, %rows) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 40000>
  } : (tensor<70000x40000xf32>, tensor<16x1xi32>) -> tensor<16x40000xf32>
  func.return %0 : tensor<16x40000xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;  // nothing claims int32 indexing
  nlohmann::json int32 = nlohmann::json::parse(result.out)[0]["properties"]["int32_safe"];
  EXPECT_EQ(int32["verdict"], "refuted");
  EXPECT_EQ(int32["counterexample"]["explanation"],
            "result -> operand: offset rt0 * 40000 + d1 reaches 2799999999 at (d0 = 0, d1 = "
            "39999, rt0 = 69999), outside int32");
  bool rowOffsetFits = false;
  for (const nlohmann::json& expression : int32["expressions"])
    if (expression["map"] == "result" && expression["expression"] == "offset d0 * 40000 + d1")
      rowOffsetFits = expression["verdict"] == "proven" && expression["max"] == 639999;
  EXPECT_TRUE(rowOffsetFits) << int32.dump(1);
}

// XLA's HLO scatter: the same claims, its indices named by their instruction.
TEST(VerifyPropertiesCli, HloScatterClaims) {
  const std::string text = R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  table = f32[300,20] parameter(0)
  idx = s32[42,1] parameter(1)
  rows = f32[42,20] parameter(2)
  ROOT s = f32[300,20] scatter(table, idx, rows), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1,
      unique_indices=true, to_apply=add
}
)";
  CliResult bare = runIdxmap({"verify"}, text);
  EXPECT_EQ(bare.exitCode, 3) << bare.err;
  EXPECT_NE(bare.err.find("warning: scatter: unique_indices = true is not proven"),
            std::string::npos)
      << bare.err;
  CliResult assumed = runIdxmap({"verify", "--assume", "%idx: unique"}, text);
  EXPECT_EQ(assumed.exitCode, 0) << assumed.err;
  CliResult json = runIdxmap({"verify", "--json", "--assume", "%idx: in [0, 299]"}, text);
  nlohmann::json records = nlohmann::json::parse(json.out);
  for (const nlohmann::json& record : records)
    if (record["op"] == "scatter") {
      EXPECT_EQ(record["properties"]["in_bounds"]["verdict"], "proven");
      EXPECT_EQ(record["properties"]["unique"]["verdict"], "unknown");
    } else {
      EXPECT_TRUE(record["properties"].is_null()) << record.dump();
    }
}

// The batching-dims decomposition as the first client of --assume: a batched scatter whose
// indices are unique is unique, and so is its old form, concatenate(indices, iota), with the
// same fact about the same argument.
TEST(VerifyPropertiesCli, DecomposedBatchedScatterStaysProvablyUnique) {
  const std::string batched = R"(func.func @batched(%input: tensor<3x8xf32>,
    %idx: tensor<3x4x1xi32>, %updates: tensor<3x4xf32>) -> tensor<3x8xf32> {
  %0 = "stablehlo.scatter"(%input, %idx, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],
      inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2>,
    unique_indices = true
  } : (tensor<3x8xf32>, tensor<3x4x1xi32>, tensor<3x4xf32>) -> tensor<3x8xf32>
  func.return %0 : tensor<3x8xf32>
}
)";
  CliResult original = runIdxmap({"verify", "--assume", "%idx: unique"}, batched);
  EXPECT_EQ(original.exitCode, 0) << original.err;

  CliResult decomposed = runIdxmap({"analyze", "--decompose-batching", "-"}, batched);
  ASSERT_EQ(decomposed.exitCode, 0) << decomposed.err;
  std::string oldForm = decomposed.out;
  // The old form keeps the original's claim.
  ASSERT_NE(oldForm.find("unique_indices = true"), std::string::npos) << oldForm;
  ASSERT_NE(oldForm.find("stablehlo.concatenate %scatter_indices, %iota0"), std::string::npos)
      << oldForm;
  CliResult bare = runIdxmap({"verify"}, oldForm);
  EXPECT_EQ(bare.exitCode, 3) << bare.err;
  CliResult assumed = runIdxmap({"verify", "--assume", "%scatter_indices: unique"}, oldForm);
  EXPECT_EQ(assumed.exitCode, 0) << assumed.err;
}

// Facts travel through arithmetic with constants: 2 * %rows + 1 is unique, sorted and inside
// the table when %rows is unique, sorted and in [0, 3]; negated, it is no longer sorted; and
// without a range, `sorted` does not survive an add that could wrap.
TEST(VerifyPropertiesCli, FactsFollowArithmeticWithConstants) {
  auto scatterOf = [](const std::string& scale) {
    return R"(func.func @main(%table: tensor<8x2xf32>, %updates: tensor<4x2xf32>,
    %rows: tensor<4x1xi32>) -> tensor<8x2xf32> {
  %k = stablehlo.constant dense<)" +
           scale + R"(> : tensor<4x1xi32>
  %one = stablehlo.constant dense<1> : tensor<4x1xi32>
  %scaled = stablehlo.multiply %rows, %k : tensor<4x1xi32>
  %idx = stablehlo.add %scaled, %one : tensor<4x1xi32>
  %0 = "stablehlo.scatter"(%table, %idx, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    "stablehlo.return"(%new) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    unique_indices = true, indices_are_sorted = true
  } : (tensor<8x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  func.return %0 : tensor<8x2xf32>
}
)";
  };
  std::vector<std::string> all = {"proven", "proven", "proven"};
  CliResult doubled = runIdxmap(
      {"verify", "--json", "--assume", "%rows: unique, sorted, in [0, 3]"}, scatterOf("2"));
  EXPECT_EQ(doubled.exitCode, 0) << doubled.err;
  EXPECT_EQ(verdicts(doubled), all);
  CliResult negated = runIdxmap(
      {"verify", "--json", "--assume", "%rows: unique, sorted, in [-3, 0]"}, scatterOf("-2"));
  EXPECT_EQ(verdicts(negated), (std::vector<std::string>{"proven", "unknown", "proven"}));
  CliResult unbounded =
      runIdxmap({"verify", "--json", "--assume", "%rows: unique, sorted"}, scatterOf("1"));
  EXPECT_EQ(verdicts(unbounded), (std::vector<std::string>{"proven", "unknown", "unknown"}));
}

// Absurd sizes are a diagnostic (exit 2) before any prover runs; sizes that fit int64 but
// nothing real are proven about symbolically, without a walk over their points.
TEST(VerifyPropertiesCli, AbsurdSizesAreDiagnosticsOrSymbolic) {
  auto scatterOf = [](const std::string& rows) {
    return R"(func.func @main(%table: tensor<)" + rows + R"(x2xf32>, %updates: tensor<)" + rows +
           R"(x2xf32>, %idx: tensor<)" + rows + R"(x1xi32>) -> tensor<)" + rows + R"(x2xf32> {
  %0 = "stablehlo.scatter"(%table, %idx, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    "stablehlo.return"(%new) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    unique_indices = true
  } : (tensor<)" +
           rows + R"(x2xf32>, tensor<)" + rows + R"(x1xi32>, tensor<)" + rows +
           R"(x2xf32>) -> tensor<)" + rows + R"(x2xf32>
  func.return %0 : tensor<)" +
           rows + R"(x2xf32>
}
)";
  };
  CliResult absurd = runIdxmap({"verify"}, scatterOf("4611686018427387904"));  // 2^62 x 2
  EXPECT_EQ(absurd.exitCode, 2) << absurd.err;
  EXPECT_NE(absurd.err.find("more elements than fit in int64"), std::string::npos) << absurd.err;
  CliResult huge = runIdxmap({"verify", "--json", "--assume", "%idx: unique"},
                             scatterOf("1152921504606846976"));  // 2^60 rows
  EXPECT_EQ(huge.exitCode, 0) << huge.err;
  nlohmann::json properties = nlohmann::json::parse(huge.out)[0]["properties"];
  EXPECT_EQ(properties["unique"]["verdict"], "proven");
  EXPECT_EQ(properties["int32_safe"]["verdict"], "refuted");  // 2^61 elements to address
}

TEST(VerifyPropertiesCli, BadAssumptionsAreUsageErrors) {
  CliResult result = runIdxmap({"verify", "--assume", "%rows: unique", "--assume",
                                "%rows: in [5, 2]", examplePath("scatter_claims.mlir")});
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.err,
            "--assume:2:15: error: empty range: the upper bound is below the lower bound\n"
            "%rows: in [5, 2]\n"
            "              ^\n");
}

}  // namespace
}  // namespace idxmap::cli_test
