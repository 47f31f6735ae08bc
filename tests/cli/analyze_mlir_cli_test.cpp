// `idxmap analyze FILE.mlir`, run as a user runs it: the maps of examples/gather.mlir checked
// against the reference evaluator (folded constant / iota indices) and against the op's own
// map (runtime indices), --json, --decompose-batching read back and re-proven, and errors.
#include <isl/map.h>

#include <nlohmann/json.hpp>

#include "core/bridges/isl_bridge.h"
#include "ops/import/forms.h"
#include "ops/import/stablehlo.h"
#include "ops/mlir/module.h"
#include "ops/provenance/fold.h"
#include "tests/cli/cli_runner.h"
#include "tests/ops/provenance/oracle.h"

namespace idxmap::cli_test {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::Tensor;

// The text after `label` up to the next line that starts a new section or op.
std::string section(const std::string& out, const std::string& header, const std::string& label) {
  size_t at = out.find(header);
  if (at == std::string::npos) return "";
  at = out.find("\n" + label, at);
  if (at == std::string::npos) return "";
  at += label.size() + 1;
  size_t end = out.size();
  for (const char* next : {"\nresult -> ", "\nupdates -> ", "\n\n"}) {
    size_t found = out.find(next, at);
    if (found != std::string::npos && found < end) end = found;
  }
  return out.substr(at, end - at);
}

const mlir_ir::Function& function(const mlir_ir::Module& module, const std::string& name) {
  const mlir_ir::Function* f = module.function(name);
  if (!f) throw std::runtime_error("no @" + name);
  return *f;
}

const mlir_ir::Operation& opIn(const mlir_ir::Function& f, const std::string& name) {
  for (const mlir_ir::Operation& op : f.body.blocks.at(0).operations)
    if (op.name == name) return op;
  throw std::runtime_error("no " + name);
}

struct Example {
  mlir_ir::Module module =
      mlir_ir::parseMlirModule(readTextFile(examplePath("gather.mlir")), "gather.mlir");
  GatherOp gather(const std::string& name) const {
    return stablehlo_import::importGather(opIn(function(module, name), "stablehlo.gather"));
  }
  // The real index values of the function's gather, evaluated op by op.
  Tensor indices(const std::string& name) const {
    const mlir_ir::Function& f = function(module, name);
    return provenance_testing::evaluateIndices(f.body.blocks[0].operations,
                                               opIn(f, "stablehlo.gather").operands[1]);
  }
};

isl::map readIsl(const std::string& text) {
  return isl::manage(isl_map_read_from_str(islContext().get(), text.c_str()));
}

TEST(AnalyzeMlirCli, ConstantIndicesAreFoldedExactly) {
  CliResult result = runIdxmap({"analyze", examplePath("gather.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.out.find("gather.mlir:8:11: stablehlo.gather in @constant_rows\nindices: "
                            "constant\n"),
            std::string::npos)
      << result.out;
  // Four rows from four pieces: isl's text, evaluated at every point against the reference.
  std::string map = section(result.out, "@constant_rows", "result -> operand: ");
  ASSERT_FALSE(map.empty()) << result.out;
  Example example;
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(
      example.gather("constant_rows"), readIsl(map), example.indices("constant_rows")));
}

TEST(AnalyzeMlirCli, IotaIndicesGiveAnAffineXlaMap) {
  CliResult result = runIdxmap({"analyze", examplePath("gather.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  std::string map = section(result.out, "@even_rows", "result -> operand: ");
  IndexingMap printed = parseIndexingMap(map);
  // Result row d0 is operand row 2 * d0 (the even rows), read off the example's ops.
  EXPECT_TRUE(sameMeaning(printed, parseIndexingMap("(d0, d1) -> (d0 * 2, d1), domain: "
                                                    "d0 in [0, 3], d1 in [0, 2]")))
      << map;
  Example example;
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(
      example.gather("even_rows"), toIslMap(printed), example.indices("even_rows")));
}

TEST(AnalyzeMlirCli, ArgumentIndicesStayRuntimeVariables) {
  CliResult result = runIdxmap({"analyze", examplePath("gather.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  Example example;
  GatherOp gather = example.gather("batching_gather");
  IndexingMap operandMap =
      parseIndexingMap(section(result.out, "@batching_gather", "result -> operand: "));
  EXPECT_EQ(operandMap.runtimeVars.size(), 2u);
  EXPECT_TRUE(sameMeaning(operandMap, gather_scatter::gatherOutputToOperandMap(gather)));
  IndexingMap indicesMap =
      parseIndexingMap(section(result.out, "@batching_gather", "result -> start_indices: "));
  EXPECT_TRUE(sameMeaning(indicesMap, gather_scatter::gatherOutputToStartIndicesMap(gather)));
  EXPECT_NE(section(result.out, "@batching_scatter", "updates -> result: ").find("rt1"),
            std::string::npos)
      << result.out;
}

TEST(AnalyzeMlirCli, JsonAndIslFormat) {
  CliResult result =
      runIdxmap({"analyze", "--json", "--format", "isl", examplePath("gather.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json records = nlohmann::json::parse(result.out);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0]["op"], "stablehlo.gather");
  EXPECT_EQ(records[0]["function"], "constant_rows");
  EXPECT_EQ(records[3]["op"], "stablehlo.scatter");
  EXPECT_EQ(records[3]["maps"][0]["from"], "updates");
  EXPECT_EQ(records[3]["maps"][1]["to"], "scatter_indices");
  EXPECT_EQ(records[1]["maps"][0]["folded"], true);
  EXPECT_EQ(records[2]["maps"][0]["folded"], false);
  Example example;
  for (const auto& record : records)
    for (const auto& map : record["maps"]) EXPECT_EQ(map["format"], "isl");
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(
      example.gather("even_rows"), readIsl(records[1]["maps"][0]["map"].get<std::string>()),
      example.indices("even_rows")));
}

// Each printed function reads back, imports as a valid old-form op, and its iotas fold into
// the original op's map (re-proven here with isl).
TEST(AnalyzeMlirCli, DecomposeBatchingReadsBackAndIsProven) {
  CliResult result = runIdxmap({"analyze", "--decompose-batching", examplePath("gather.mlir")});
  ASSERT_EQ(result.exitCode, 0) << result.err << result.out;
  Example example;
  std::vector<std::string> functions = {"batching_gather", "batching_scatter"};
  for (const std::string& name : functions) {
    size_t begin = result.out.find("func.func @" + name);
    size_t verdict = result.out.find("// proven equal to the original (isl)", begin);
    ASSERT_NE(begin, std::string::npos) << result.out;
    ASSERT_NE(verdict, std::string::npos) << result.out;
    mlir_ir::Module module =
        mlir_ir::parseMlirModule(result.out.substr(begin, verdict - begin), "decomposed.mlir");
    const mlir_ir::Function& f = module.functions.at(0);
    const auto& scope = f.body.blocks.at(0).operations;
    if (name == "batching_gather") {
      const mlir_ir::Operation& op = opIn(f, "stablehlo.gather");
      GatherOp old = stablehlo_import::importGather(op);
      EXPECT_TRUE(gather_scatter::validateGather(old).empty());
      EXPECT_TRUE(old.dimension_numbers.operand_batching_dims.empty());
      index_provenance::FoldedMap folded = index_provenance::foldGatherIndices(
          old, index_provenance::indexValues(scope, op.operands[1], op.operandTypes[1]));
      ASSERT_TRUE(folded.map);
      EXPECT_EQ(islEqual(*folded.map, gather_scatter::gatherOutputToOperandMap(
                                          example.gather("batching_gather")))
                    .verdict,
                Verdict::Proven);
    } else {
      const mlir_ir::Operation& op = opIn(f, "stablehlo.scatter");
      gather_scatter::ScatterOp old = stablehlo_import::importScatter(op);
      EXPECT_TRUE(gather_scatter::validateScatter(old).empty());
      index_provenance::FoldedMap folded = index_provenance::foldScatterIndices(
          old, index_provenance::indexValues(scope, op.operands[1], op.operandTypes[1]));
      ASSERT_TRUE(folded.map);
      gather_scatter::ScatterOp original = stablehlo_import::importScatter(
          opIn(function(example.module, name), "stablehlo.scatter"));
      EXPECT_EQ(islEqual(*folded.map, gather_scatter::scatterUpdateToResultMap(original)).verdict,
                Verdict::Proven);
    }
  }
}

TEST(AnalyzeMlirCli, InvalidOpsAreExit2WithTheConstraintLabel) {
  CliResult result = runIdxmap(
      {"analyze", "-"},
      R"(func.func @bad(%operand: tensor<2x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  %0 = "stablehlo.gather"(%operand, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
})");
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("<stdin>:2:8: error: stablehlo.gather (C"), std::string::npos)
      << result.err;

  CliResult malformed =
      runIdxmap({"analyze", "-"}, "func.func @f() {\n  %0 = stablehlo.iota dim = : \n}");
  EXPECT_EQ(malformed.exitCode, 2);
  EXPECT_NE(malformed.err.find("<stdin>:2:"), std::string::npos) << malformed.err;

  std::filesystem::path dir = makeScratchDir();
  writeTextFile(dir / "g.hlo", "HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n");
  CliResult hlo = runIdxmap({"analyze", "--decompose-batching", (dir / "g.hlo").string()});
  EXPECT_EQ(hlo.exitCode, 2);
  EXPECT_NE(hlo.err.find("MLIR input only"), std::string::npos) << hlo.err;
}

// tensor.gather (spec 001) and tcp.gather (spec 003) through their StableHLO lowering, with
// constant indices folded: checked against the reference evaluator on the lowered op.
TEST(AnalyzeMlirCli, TensorAndTcpGathersFoldTheirConstantIndices) {
  const std::string text =
      R"(func.func @forms(%source: tensor<4x5xf32>, %input: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %idx = stablehlo.constant dense<[[1], [3], [0]]> : tensor<3x1xindex>
  %0 = tensor.gather %source[%idx] gather_dims([0]) : (tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<3x1x5xf32>
  %i = stablehlo.constant dense<[[0, 3], [2, 2], [1, 0]]> : tensor<3x2xi64>
  %2 = tcp.gather %input, %i { dim = 1 } : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  func.return %2 : tensor<3x2xf32>
})";
  CliResult result = runIdxmap({"analyze", "-"}, text);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "forms.mlir");
  const mlir_ir::Function& f = function(module, "forms");
  const auto& scope = f.body.blocks[0].operations;
  gather_scatter::LoweredGather tensorGather = gather_scatter::lowerTensorGather(
      gather_scatter::importTensorGather(opIn(f, "tensor.gather")));
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(
      tensorGather.op, readIsl(section(result.out, "tensor.gather", "result -> operand: ")),
      provenance_testing::evaluateIndices(scope, opIn(f, "tensor.gather").operands[1])));
  gather_scatter::LoweredGather tcpGather =
      gather_scatter::lowerTcpGather(gather_scatter::importTcpGather(opIn(f, "tcp.gather")));
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(
      tcpGather.op, readIsl(section(result.out, "tcp.gather", "result -> operand: ")),
      provenance_testing::evaluateIndices(scope, opIn(f, "tcp.gather").operands[1])));
}

// Gather clamps its start indices: iota + 5 into a 6-row operand always starts at row 5.
// Sizes in the billions cost nothing: the values are affine, never enumerated.
TEST(AnalyzeMlirCli, TensorScatterFoldsItsConstantIndices) {
  const std::string text =
      R"(func.func @ts(%src: tensor<3x4x1xf32>, %dest: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %idx = stablehlo.constant dense<[[4], [0], [2]]> : tensor<3x1xindex>
  %0 = tensor.scatter %src into %dest[%idx] scatter_dims([1]) unique : (tensor<3x4x1xf32>, tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
})";
  CliResult result = runIdxmap({"analyze", "-"}, text);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "ts.mlir");
  const mlir_ir::Function& f = function(module, "ts");
  const mlir_ir::Operation& op = opIn(f, "tensor.scatter");
  gather_scatter::LoweredScatter lowered =
      gather_scatter::lowerTensorScatter(gather_scatter::importTensorScatter(op));
  EXPECT_TRUE(provenance_testing::foldedScatterMatchesReference(
      lowered.op, readIsl(section(result.out, "tensor.scatter", "updates -> result: ")),
      provenance_testing::evaluateIndices(f.body.blocks[0].operations, op.operands[2])));
}

TEST(AnalyzeMlirCli, ClampedAndHugeIndicesStayAffine) {
  auto program = [](const std::string& rows, const std::string& count) {
    return "func.func @h(%operand: tensor<" + rows + "x3xf32>) -> tensor<" + count +
           "x3xf32> {\n  %i = stablehlo.iota dim = 0 : tensor<" + count +
           "x1xi64>\n  %c = stablehlo.constant dense<5> : tensor<" + count +
           "x1xi64>\n  %s = stablehlo.add %i, %c : tensor<" + count +
           "x1xi64>\n  %rows = \"stablehlo.gather\"(%operand, %s) {dimension_numbers = "
           "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = "
           "[0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<" +
           rows + "x3xf32>, tensor<" + count + "x1xi64>) -> tensor<" + count +
           "x3xf32>\n  func.return %rows : tensor<" + count + "x3xf32>\n}\n";
  };
  CliResult clamped = runIdxmap({"analyze", "-"}, program("6", "4"));
  ASSERT_EQ(clamped.exitCode, 0) << clamped.err;
  IndexingMap map = parseIndexingMap(section(clamped.out, "@h", "result -> operand: "));
  EXPECT_TRUE(sameMeaning(
      map, parseIndexingMap("(d0, d1) -> (5, d1), domain: d0 in [0, 3], d1 in [0, 2]")));
  mlir_ir::Module module = mlir_ir::parseMlirModule(program("6", "4"), "h.mlir");
  const mlir_ir::Function& f = function(module, "h");
  EXPECT_TRUE(provenance_testing::foldedGatherMatchesReference(
      stablehlo_import::importGather(opIn(f, "stablehlo.gather")), toIslMap(map),
      provenance_testing::evaluateIndices(f.body.blocks[0].operations,
                                          opIn(f, "stablehlo.gather").operands[1])));

  CliResult huge = runIdxmap({"analyze", "-"}, program("4000000000", "3000000000"));
  ASSERT_EQ(huge.exitCode, 0) << huge.err;
  EXPECT_TRUE(sameMeaning(parseIndexingMap(section(huge.out, "@h", "result -> operand: ")),
                          parseIndexingMap("(d0, d1) -> (d0 + 5, d1), domain: "
                                           "d0 in [0, 2999999999], d1 in [0, 2]")))
      << huge.out;
}

TEST(AnalyzeMlirCli, DynamicShapesGiveANoteNotAnError) {
  CliResult result =
      runIdxmap({"analyze", "-"},
                R"(func.func @d(%operand: tensor<?x3xf32>, %i: tensor<4x1xi64>) -> tensor<4x3xf32> {
  %rows = "stablehlo.gather"(%operand, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<?x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  func.return %rows : tensor<4x3xf32>
})");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.out.find("no maps: the op has dynamic shapes"), std::string::npos) << result.out;
}

// A scatter whose update computation idxmap cannot write back (a subtraction) has no
// decomposition to prove: the verdict says why and the exit status is 3.
TEST(AnalyzeMlirCli, DecomposeBatchingWithoutAProofIsExit3) {
  CliResult result = runIdxmap(
      {"analyze", "--decompose-batching", "-"},
      R"(func.func @s(%input: tensor<2x3x4x2xi64>, %scatter_indices: tensor<2x2x3x2xi64>, %update: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  %result = "stablehlo.scatter"(%input, %scatter_indices, %update) ({
  ^bb0(%current: tensor<i64>, %new: tensor<i64>):
    %d = stablehlo.subtract %current, %new : tensor<i64>
    stablehlo.return %d : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, indices_are_sorted = false, unique_indices = false} : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  func.return %result : tensor<2x3x4x2xi64>
})");
  EXPECT_EQ(result.exitCode, 3) << result.err;
  EXPECT_NE(result.out.find("// equality unknown: the update computation"), std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("// proven equal"), std::string::npos) << result.out;
}

TEST(AnalyzeMlirCli, HelpShowsTheMlirExamples) {
  CliResult result = runIdxmap({"analyze", "--help"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_NE(result.out.find("idxmap analyze --decompose-batching examples/gather.mlir"),
            std::string::npos)
      << result.out;
}

}  // namespace
}  // namespace idxmap::cli_test
