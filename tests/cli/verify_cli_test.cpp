// `idxmap verify`, run as a user runs it: the issue's example, every violation printed at its
// op, MLIR and HLO, stdin, --json, malformed text.
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace idxmap::cli_test {
namespace {

// `line:col` of the n-th (0-based) occurrence of `token` in `text`, found by search: where a
// diagnostic about the op spelled `token` must point.
std::string positionOf(const std::string& text, const std::string& token, int n = 0) {
  size_t at = text.find(token);
  for (int i = 0; i < n; ++i) at = text.find(token, at + 1);
  if (at == std::string::npos) return "not found";
  size_t lineStart = text.rfind('\n', at);
  lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
  return std::to_string(line) + ":" + std::to_string(at - lineStart + 1);
}

// A valid gather with batching dims (StableHLO's ops_stablehlo.mlir `gather`), a
// dynamic_gather whose slice sizes are a constant, and a scatter-add.
constexpr const char* kValid = R"(func.func @main(%operand: tensor<3x2x4x9xi32>,
                 %start_indices: tensor<1x3x5x2xi32>, %indices: tensor<1x5x2xi32>,
                 %input: tensor<200x100x300xf32>, %scatter_indices: tensor<10x2xi32>,
                 %updates: tensor<10x300xf32>) -> tensor<1x3x5x8xi32> {
  %gathered = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [3], collapsed_slice_dims = [1, 2],
      operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1, 2],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 1, 8>
  } : (tensor<3x2x4x9xi32>, tensor<1x3x5x2xi32>) -> tensor<1x3x5x8xi32>
  %sizes = stablehlo.constant dense<[1, 1, 1, 8]> : tensor<4xi64>
  %dynamic = "stablehlo.dynamic_gather"(%operand, %indices, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1, 2],
      start_index_map = [0, 1], index_vector_dim = 2>
  } : (tensor<3x2x4x9xi32>, tensor<1x5x2xi32>, tensor<4xi64>) -> tensor<1x5x8xi32>
  %scattered = "stablehlo.scatter"(%input, %scatter_indices, %updates) ({
  ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
    %sum = stablehlo.add %lhs, %rhs : tensor<f32>
    "stablehlo.return"(%sum) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>
  } : (tensor<200x100x300xf32>, tensor<10x2xi32>, tensor<10x300xf32>) -> tensor<200x100x300xf32>
  func.return %gathered : tensor<1x3x5x8xi32>
}
)";

TEST(VerifyCli, IssueExample) {
  std::string path = examplePath("bad_gather.mlir");
  CliResult result = runIdxmap({"verify", path});
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  std::vector<std::string> lines = linesOf(result.err);
  ASSERT_EQ(lines.size(), 4u) << result.err;
  EXPECT_EQ(lines[0], path +
                          ":3:8: error: stablehlo.gather (C6): dimension 1 is in both "
                          "collapsed_slice_dims and operand_batching_dims");
  // The op's line and a caret under the op, as a parse error shows them.
  EXPECT_EQ(lines[1], "  %0 = \"stablehlo.gather\"(%operand, %start_indices) {");
  EXPECT_EQ(lines[2], "       ^");
  EXPECT_EQ(lines[3], path + ": 1 op verified, 1 invalid (1 violation)");
}

TEST(VerifyCli, ValidFileExitsZero) {
  std::filesystem::path dir = makeScratchDir();
  writeTextFile(dir / "valid.mlir", kValid);
  CliResult result = runIdxmap({"verify", (dir / "valid.mlir").string()});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, "");
  std::vector<std::string> lines = linesOf(result.err);
  ASSERT_EQ(lines.size(), 6u) << result.err;
  // Each op's in bounds (a rule no attribute claims) as the condition on the argument it reads
  // its index vectors from, one row per vector: a remark, not an error.
  EXPECT_NE(lines[0].find("remark: stablehlo.gather: in bounds holds if and only if every "
                          "element of %start_indices[:, :, :, 0] that the op reads is in [0, 1] "
                          "and every element of %start_indices[:, :, :, 1] that the op reads is "
                          "in [0, 3]"),
            std::string::npos)
      << lines[0];
  EXPECT_EQ(lines[3], (dir / "valid.mlir").string() + ": 3 ops verified, all valid");
  // Nothing is claimed, so nothing unproven is an error; the properties are counted.
  EXPECT_EQ(lines[4].rfind((dir / "valid.mlir").string() + ": index properties of 3 ops: ", 0), 0u)
      << lines[4];
  // The constant feeding the gathers has no model: named, not counted as valid.
  EXPECT_EQ(lines[5],
            (dir / "valid.mlir").string() + ": not checked (no model): stablehlo.constant");
}

// Ops without a model (stablehlo.add here) are not checked, and not errors: they are named,
// with a count, never counted as valid; terminators are not listed.
TEST(VerifyCli, OpsWithoutAModelAreNamed) {
  CliResult result = runIdxmap({"verify"}, R"(func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %0, %a : tensor<2xf32>
  %2 = stablehlo.abs %1 : tensor<2xf32>
  func.return %2 : tensor<2xf32>
})");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.err,
            "<stdin>: no op to verify (none has a model)\n"
            "<stdin>: not checked (no model): stablehlo.add x2, stablehlo.abs\n");

  // HLO: by instruction name and opcode; the modelled ones are verified.
  CliResult hlo = runIdxmap({"verify"}, R"(HloModule m
ENTRY e {
  p0 = f32[4,2] parameter(0)
  s = f32[4,2] sort(p0), dimensions={1}
  ROOT cp = f32[4,2] collective-permute(s), source_target_pairs={{0,1},{1,0}}
})");
  EXPECT_EQ(hlo.exitCode, 0) << hlo.err;
  EXPECT_EQ(hlo.err,
            "<stdin>: 1 op verified, all valid\n"
            "<stdin>: not checked (no model): s (sort), cp (collective-permute)\n");
}

// Three ops break four constraints between them: every violation is printed, in text order,
// at its op; the valid op in between is not mentioned.
TEST(VerifyCli, EveryViolationIsPrinted) {
  const std::string text =
      R"(func.func @main(%operand: tensor<2x4x9xi32>, %indices: tensor<1x5x2xi32>,
                 %input: tensor<200x100x300xf32>, %scatter_indices: tensor<10x2xi32>,
                 %updates: tensor<10x300xf32>) -> tensor<1x5x8xi32> {
  %0 = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1, 0],
      start_index_map = [0, 1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1, 8>
  } : (tensor<2x4x9xi32>, tensor<1x5x2xi32>) -> tensor<1x5x8xf32>
  %1 = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1],
      start_index_map = [0, 1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1, 8>
  } : (tensor<2x4x9xi32>, tensor<1x5x2xi32>) -> tensor<1x5x8xi32>
  %2 = "stablehlo.scatter"(%input, %scatter_indices, %updates) ({
  ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
    "stablehlo.return"(%rhs) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = -1>
  } : (tensor<200x100x300xf32>, tensor<10x2xi32>, tensor<10x300xf32>) -> tensor<200x100x300xf32>
  func.return %1 : tensor<1x5x8xi32>
}
)";
  std::filesystem::path dir = makeScratchDir();
  std::string path = (dir / "several.mlir").string();
  writeTextFile(path, text);
  CliResult result = runIdxmap({"verify", path});
  EXPECT_EQ(result.exitCode, 2);
  std::vector<std::string> lines = diagnosticLines(result.err);
  ASSERT_EQ(lines.size(), 6u) << result.err;
  std::string gather = path + ":" + positionOf(text, "\"stablehlo.gather\"", 0) + ": error: ";
  std::string scatter = path + ":" + positionOf(text, "\"stablehlo.scatter\"") + ": error: ";
  EXPECT_EQ(lines[0].rfind(gather + "stablehlo.gather (C7): collapsed_slice_dims [1, 0]", 0), 0u)
      << lines[0];
  EXPECT_EQ(lines[1].rfind(gather + "stablehlo.gather (C23): element_type(result) = f32", 0), 0u)
      << lines[1];
  // The valid gather's in bounds, as the condition on its index argument (a remark).
  EXPECT_NE(lines[2].find("remark: stablehlo.gather: in bounds holds if and only if"),
            std::string::npos)
      << lines[2];
  EXPECT_EQ(lines[3].rfind(scatter + "stablehlo.scatter (C22): index_vector_dim -1", 0), 0u)
      << lines[3];
  EXPECT_EQ(lines[4], path + ": 3 ops verified, 2 invalid (3 violations)");
  // Only the valid op has index properties.
  EXPECT_EQ(lines[5].rfind(path + ": index properties of 1 op: ", 0), 0u) << lines[5];
}

// The dynamic_gather's slice sizes come from the constant: 8 does not fit the `?` dim whose
// bound is 2 (C12), and spec 002 makes the bounded dim fit 1.
TEST(VerifyCli, DynamicGatherSliceSizesFromAConstantAgainstBounds) {
  auto text = [](int sliceSize) {
    return R"(func.func @main(%operand: tensor<2x4x?xi32, #stablehlo.bounds<?, ?, 2>>,
                 %indices: tensor<1x5x2xi32>) -> tensor<1x5x?xi32> {
  %sizes = stablehlo.constant dense<[1, 1, )" +
           std::to_string(sliceSize) + R"(]> : tensor<3xi64>
  %0 = "stablehlo.dynamic_gather"(%operand, %indices, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1],
      start_index_map = [0, 1], index_vector_dim = 2>
  } : (tensor<2x4x?xi32, #stablehlo.bounds<?, ?, 2>>, tensor<1x5x2xi32>, tensor<3xi64>)
    -> tensor<1x5x?xi32>
  func.return %0 : tensor<1x5x?xi32>
}
)";
  };
  CliResult bad = runIdxmap({"verify", "-"}, text(8));
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(linesOf(bad.err).at(0).rfind("<stdin>:" + positionOf(text(8), "\"stablehlo.dynamic") +
                                             ": error: stablehlo.dynamic_gather (C12): "
                                             "slice_sizes[2] = 8 is outside [0, 2]",
                                         0),
            0u)
      << bad.err;
  CliResult good = runIdxmap({"verify", "-"}, text(1));
  EXPECT_EQ(good.exitCode, 0) << good.err;
}

// Spec 001's and spec 003's ops by their own rules: MLIR's tensor.scatter requires `unique`.
TEST(VerifyCli, TensorAndTcpGathers) {
  const std::string text = R"(%0 = tensor.gather %source[%idx] gather_dims([1, 2]) unique :
  (tensor<4x5x6xf32>, tensor<7x2xindex>) -> tensor<7x4x1x1xf32>
%1 = tensor.scatter %src into %dest[%idx] scatter_dims([1]) :
  (tensor<7x4x1xf32>, tensor<4x5xf32>, tensor<7x1xindex>) -> tensor<4x5xf32>
%2 = tcp.gather %input, %indices { dim = 1 } : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
%3 = tcp.gather_nd %input, %indices : (tensor<5x7x3xf32>, tensor<4x2xi64>) -> tensor<4x3xf32>
)";
  CliResult result = runIdxmap({"verify", "-"}, text);
  EXPECT_EQ(result.exitCode, 2);
  std::vector<std::string> errors;
  for (const std::string& line : linesOf(result.err))
    if (line.find(": error: ") != std::string::npos) errors.push_back(line);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_EQ(errors[0], "<stdin>:" + positionOf(text, "tensor.scatter") +
                           ": error: tensor.scatter: requires 'unique' attribute to be set");
  EXPECT_NE(result.err.find("\n<stdin>: 4 ops verified, 1 invalid (1 violation)\n"),
            std::string::npos)
      << result.err;
  // The valid ops' claims on run-time indices (tensor.gather's `unique`, every form's in-range
  // indices) are not proven: warnings, each with its exact condition.
  EXPECT_NE(result.err.find("<stdin>:" + positionOf(text, "tensor.gather") +
                            ": warning: tensor.gather: `unique` is not proven: "),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("<stdin>:" + positionOf(text, "tcp.gather_nd") +
                            ": remark: tcp.gather_nd: in bounds holds if and only if "),
            std::string::npos)
      << result.err;
}

// Ops in regions are checked too, and a constant defined around the region is found.
TEST(VerifyCli, OpsInRegionsSeeConstantsOfTheEnclosingBlock) {
  const std::string text =
      R"(func.func @main(%operand: tensor<2x4x9xi32>, %indices: tensor<1x5x2xi32>) -> () {
  %sizes = stablehlo.constant dense<[1, 1, 10]> : tensor<3xi64>
  "test.wrapper"() ({
  ^bb0:
    %0 = "stablehlo.dynamic_gather"(%operand, %indices, %sizes) {
      dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1],
        start_index_map = [0, 1], index_vector_dim = 2>
    } : (tensor<2x4x9xi32>, tensor<1x5x2xi32>, tensor<3xi64>) -> tensor<1x5x10xi32>
    "test.yield"() : () -> ()
  }) : () -> ()
  func.return
}
)";
  CliResult result = runIdxmap({"verify"}, text);
  EXPECT_EQ(result.exitCode, 2);
  std::vector<std::string> lines = diagnosticLines(result.err);
  ASSERT_EQ(lines.size(), 3u) << result.err;
  EXPECT_EQ(lines[2], "<stdin>: not checked (no model): stablehlo.constant, test.wrapper");
  EXPECT_EQ(lines[0], "<stdin>:" + positionOf(text, "\"stablehlo.dynamic_gather\"") +
                          ": error: stablehlo.dynamic_gather (C12): slice_sizes[2] = 10 is outside "
                          "[0, 9] (dim(operand, 2) = 9)");
}

TEST(VerifyCli, HloInstructionsThroughTheirModels) {
  const std::string text = R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  t = f32[3,2] transpose(p0), dimensions={1,1}
  ROOT b = f32[2,4] broadcast(p0), dimensions={0,1}
}
)";
  std::filesystem::path dir = makeScratchDir();
  std::string path = (dir / "module.txt").string();  // HLO by its first word, not its name
  writeTextFile(path, text);
  CliResult result = runIdxmap({"verify", path});
  EXPECT_EQ(result.exitCode, 2);
  std::vector<std::string> lines = diagnosticLines(result.err);
  ASSERT_EQ(lines.size(), 3u) << result.err;
  EXPECT_EQ(lines[0].rfind(path + ":" + positionOf(text, "{1,1}") + ": error: transpose: ", 0), 0u)
      << lines[0];
  EXPECT_NE(lines[0].find("not a permutation"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind(path + ":" + positionOf(text, "b = f32") + ": error: broadcast: ", 0),
            0u)
      << lines[1];
  EXPECT_EQ(lines[2], path + ": 3 ops verified, 2 invalid (2 violations)");

  CliResult valid = runIdxmap({"verify", examplePath("softmax.hlo")});
  EXPECT_EQ(valid.exitCode, 0) << valid.err;
  EXPECT_NE(valid.err.find("all valid"), std::string::npos) << valid.err;
}

TEST(VerifyCli, MalformedTextIsAParseDiagnostic) {
  CliResult mlir = runIdxmap({"verify"}, "func.func @f(%a: tensor<2xf32> -> tensor<2xf32> {\n");
  EXPECT_EQ(mlir.exitCode, 2);
  EXPECT_EQ(mlir.out, "");
  EXPECT_EQ(mlir.err.rfind("<stdin>:1:32: error: ", 0), 0u) << mlir.err;
  EXPECT_NE(mlir.err.find("\n                               ^"), std::string::npos) << mlir.err;

  // StableHLO's attribute_gather test: a field written twice is the reader's error, there.
  const std::string duplicated = R"(%0 = "stablehlo.gather"(%a, %b) {
  dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], offset_dims = [1],
    collapsed_slice_dims = [0]>, slice_sizes = array<i64: 1, 2>
} : (tensor<3x2xf32>, tensor<4x1xi32>) -> tensor<4x2xf32>
)";
  CliResult twice = runIdxmap({"verify", "-"}, duplicated);
  EXPECT_EQ(twice.exitCode, 2);
  EXPECT_EQ(twice.err.rfind("<stdin>:" + positionOf(duplicated, "collapsed_slice_dims", 1) +
                                ": error: duplicated `collapsed_slice_dims` entry",
                            0),
            0u)
      << twice.err;

  CliResult hlo = runIdxmap({"verify"}, "HloModule m\nENTRY e {\n  p0 = f32[2 parameter(0)\n}\n");
  EXPECT_EQ(hlo.exitCode, 2);
  EXPECT_EQ(hlo.err.rfind("<stdin>:3:", 0), 0u) << hlo.err;

  CliResult missing = runIdxmap({"verify", "/nonexistent/x.mlir"});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(missing.err.rfind("/nonexistent/x.mlir: error: cannot read", 0), 0u) << missing.err;
}

// The same findings as the text form, as records; the attribute's own location comes along.
TEST(VerifyCli, JsonRecords) {
  std::string text = readTextFile(examplePath("bad_gather.mlir"));
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 2);
  nlohmann::json ops = nlohmann::json::parse(result.out);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0]["op"], "stablehlo.gather");
  EXPECT_EQ(ops[0]["location"], (nlohmann::json{{"file", "<stdin>"}, {"line", 3}, {"column", 8}}));
  EXPECT_TRUE(ops[0]["properties"].is_null());  // an invalid op has none
  nlohmann::json records = ops[0]["constraints"];
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["file"], "<stdin>");
  EXPECT_EQ(records[0]["line"], 3);
  EXPECT_EQ(records[0]["column"], 8);
  EXPECT_EQ(records[0]["op"], "stablehlo.gather");
  EXPECT_EQ(records[0]["label"], "C6");
  EXPECT_EQ(records[0]["message"],
            "stablehlo.gather (C6): dimension 1 is in both collapsed_slice_dims and "
            "operand_batching_dims");
  EXPECT_EQ(records[0]["attribute"]["name"], "collapsed_slice_dims");
  std::string at = positionOf(text, "[1, 2]");
  EXPECT_EQ(std::to_string(records[0]["attribute"]["line"].get<int>()) + ":" +
                std::to_string(records[0]["attribute"]["column"].get<int>()),
            at);

  // One record per op, valid ones too, with no constraint broken and their properties.
  CliResult valid = runIdxmap({"verify", "--json", "-"}, kValid);
  EXPECT_EQ(valid.exitCode, 0) << valid.err;
  nlohmann::json validOps = nlohmann::json::parse(valid.out);
  ASSERT_EQ(validOps.size(), 3u);
  for (const nlohmann::json& op : validOps) {
    EXPECT_EQ(op["constraints"], nlohmann::json::array());
    EXPECT_EQ(op["properties"]["sorted"]["verdict"], "unknown");
    EXPECT_EQ(op["properties"]["sorted"]["claimed"], false);
    EXPECT_TRUE(op["properties"]["sorted"]["condition"].is_string());
  }
  EXPECT_EQ(validOps[2]["op"], "stablehlo.scatter");
  EXPECT_EQ(validOps[2]["properties"]["unique"]["claimed"], false);
  EXPECT_TRUE(validOps[0]["properties"]["unique"].is_null());  // gather claims no uniqueness
}

TEST(VerifyCli, HelpNamesTheCheckedOps) {
  CliResult result = runIdxmap({"verify", "--help"});
  EXPECT_EQ(result.exitCode, 0);
  for (const char* op : {"stablehlo.gather", "stablehlo.dynamic_gather", "stablehlo.scatter",
                         "transpose", "idxmap verify examples/bad_gather.mlir"})
    EXPECT_NE(result.out.find(op), std::string::npos) << op;
}

}  // namespace
}  // namespace idxmap::cli_test
