// Spec 000, "Compatibility", proven: the old-form gather (scatter) over
// `concatenate(indices, iota...)`, written as MLIR, read back, its iotas folded by index
// provenance, has exactly the batching-dims op's relation (isl equality), on the spec's
// examples and on random valid ops. The proof is not vacuous: against a different op it fails.
#include <gtest/gtest.h>

#include <random>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/eval/decomposed_indices.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/gather_analysis/batching_decomposition.h"
#include "ops/import/stablehlo.h"
#include "ops/mlir/module.h"
#include "ops/provenance/fold.h"
#include "ops/stablehlo/decompose.h"
#include "tests/ops/provenance/oracle.h"
#include "tests/ops/stablehlo/random_ops.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::mlir_batching_decomposition {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using index_provenance::FoldedMap;

const mlir_ir::Operation& onlyOp(const mlir_ir::Module& module, const std::string& name) {
  for (const mlir_ir::Operation& op : module.functions.at(0).body.blocks.at(0).operations)
    if (op.name == name) return op;
  throw std::runtime_error("no " + name);
}

// The printed old form, read back independently of decomposeGather: imported, valid, with
// exactly the iota entries folded.
FoldedMap readBackGather(const std::string& text, GatherOp& imported) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "decomposed.mlir");
  const mlir_ir::Operation& op = onlyOp(module, "stablehlo.gather");
  imported = stablehlo_import::importGather(op);
  EXPECT_TRUE(gather_scatter::validateGather(imported).empty())
      << gather_scatter::testing::describe(gather_scatter::validateGather(imported));
  EXPECT_TRUE(imported.dimension_numbers.operand_batching_dims.empty());
  const auto& scope = module.functions[0].body.blocks[0].operations;
  return index_provenance::foldGatherIndices(
      imported, index_provenance::indexValues(scope, op.operands[1], op.operandTypes[1]));
}

// Returns whether the re-proof through the printed IndexingMap ran.
bool expectGatherProven(const GatherOp& op, const std::string& context) {
  Decomposition d = decomposeGather(op, "decomposed");
  EXPECT_EQ(d.proof.verdict, Verdict::Proven) << context << " " << d.proof.reason << "\n" << d.mlir;
  if (d.mlir.empty()) return false;
  GatherOp imported;
  FoldedMap folded = readBackGather(d.mlir, imported);
  const size_t entries = op.dimension_numbers.start_index_map.size();
  for (size_t k = 0; k < folded.folded.size() && folded.anyFolded(); ++k)
    EXPECT_EQ(folded.folded[k], k >= entries) << context << " entry " << k;
  IndexingMap original = gather_scatter::gatherOutputToOperandMap(op);
  if (original.knownEmpty) {  // no result points: nothing is folded and nothing is read
    if (folded.map) EXPECT_EQ(islIsEmpty(*folded.map).verdict, Verdict::Proven) << context;
    return false;
  }
  if (!folded.map) return false;
  // Re-proved through the IndexingMap the CLI prints.
  EXPECT_EQ(islEqual(*folded.map, original).verdict, Verdict::Proven)
      << context << "\n"
      << printIndexingMap(*folded.map);
  return true;
}

TEST(DecomposeBatchingProof, SpecGatherExample) {
  GatherOp op = gather_scatter::testing::specGatherExample();
  expectGatherProven(op, "spec");
  Decomposition d = decomposeGather(op, "decomposed");
  EXPECT_NE(d.mlir.find("stablehlo.iota dim = 1 : tensor<2x2x3x1xi64>"), std::string::npos)
      << d.mlir;
  EXPECT_NE(d.mlir.find("stablehlo.concatenate %start_indices, %iota0, dim = 3"), std::string::npos)
      << d.mlir;
  // The old form over the concatenated indices computes the spec's documented result.
  GatherOp imported;
  readBackGather(d.mlir, imported);
  gather_scatter::Tensor indices = gather_scatter::testing::tensorFrom(
      "i64", {2, 2, 3, 2}, gather_scatter::testing::kSpecIndices);
  gather_scatter::Tensor operand = gather_scatter::testing::tensorFrom(
      "i32", {2, 3, 4, 2}, gather_scatter::testing::kSpecOperand);
  EXPECT_EQ(gather_scatter::referenceGather(
                imported, operand, gather_scatter::startIndicesWithBatchIotas(op, indices)),
            gather_scatter::testing::tensorFrom("i32", {2, 2, 3, 2, 2}, R"([
      [[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]],
       [[[33, 34], [35, 36]], [[35, 36], [37, 38]], [[41, 42], [43, 44]]]],
      [[[[1, 2], [3, 4]], [[13, 14], [15, 16]], [[21, 22], [23, 24]]],
       [[[43, 44], [45, 46]], [[33, 34], [35, 36]], [[27, 28], [29, 30]]]]])"));
}

// index_vector_dim = rank: the indices get their vector axis through a reshape.
TEST(DecomposeBatchingProof, ImplicitIndexVector) {
  GatherOp op;
  op.operand = {{3, 5}, "f32"};
  op.start_indices = {{3}, "i32"};
  op.dimension_numbers.collapsed_slice_dims = {1};
  op.dimension_numbers.operand_batching_dims = {0};
  op.dimension_numbers.start_indices_batching_dims = {0};
  op.dimension_numbers.start_index_map = {1};
  op.dimension_numbers.index_vector_dim = 1;
  op.slice_sizes = {1, 1};
  op.result = TensorType{{3}, "f32"};
  ASSERT_TRUE(gather_scatter::validateGather(op).empty());
  Decomposition d = decomposeGather(op, "implicit");
  EXPECT_NE(d.mlir.find("stablehlo.reshape %start_indices : (tensor<3xi32>) -> tensor<3x1xi32>"),
            std::string::npos)
      << d.mlir;
  expectGatherProven(op, "implicit");
}

TEST(DecomposeBatchingProof, RandomGathers) {
  std::mt19937 rng(31);
  int proven = 0, reproven = 0;
  for (int trial = 0; proven < 40 && trial < 400; ++trial) {
    GatherOp op = gather_scatter::testing::asGatherOp(gather_scatter::testing::randomOp(rng));
    if (op.dimension_numbers.operand_batching_dims.empty()) continue;
    reproven += expectGatherProven(op, "trial " + std::to_string(trial));
    ++proven;
  }
  EXPECT_EQ(proven, 40);
  EXPECT_GT(reproven, 30);  // all but the ops with an empty result
}

TEST(DecomposeBatchingProof, SpecScatterExampleAndRandomScatters) {
  Decomposition spec = decomposeScatter(gather_scatter::testing::specScatterExample(), "spec");
  EXPECT_EQ(spec.proof.verdict, Verdict::Proven) << spec.proof.reason << "\n" << spec.mlir;
  EXPECT_NE(spec.mlir.find("stablehlo.add %lhs0, %rhs0"), std::string::npos) << spec.mlir;
  std::mt19937 rng(32);
  const gather_scatter::UpdateComputation computations[] = {
      gather_scatter::UpdateComputation::kAdd, gather_scatter::UpdateComputation::kMax,
      gather_scatter::UpdateComputation::kReplace};
  int proven = 0;
  for (int trial = 0; proven < 30 && trial < 400; ++trial) {
    ScatterOp op = gather_scatter::testing::asScatterOp(gather_scatter::testing::randomOp(rng),
                                                        computations[trial % 3]);
    if (op.dimension_numbers.input_batching_dims.empty()) continue;
    Decomposition d = decomposeScatter(op, "decomposed");
    EXPECT_EQ(d.proof.verdict, Verdict::Proven) << trial << " " << d.proof.reason << "\n" << d.mlir;
    // Read back on our own: the printed scatter is valid and in the old form.
    mlir_ir::Module module = mlir_ir::parseMlirModule(d.mlir, "decomposed.mlir");
    ScatterOp imported = stablehlo_import::importScatter(onlyOp(module, "stablehlo.scatter"));
    EXPECT_TRUE(gather_scatter::validateScatter(imported).empty()) << d.mlir;
    EXPECT_TRUE(imported.dimension_numbers.input_batching_dims.empty());
    EXPECT_EQ(imported.update_computation, op.update_computation) << d.mlir;
    ++proven;
  }
  EXPECT_EQ(proven, 30);
}

// The proof can fail: the spec example's old form against a gather whose index vector
// entries are swapped is not equal.
TEST(DecomposeBatchingProof, ADifferentOpIsNotEqual) {
  GatherOp op = gather_scatter::testing::specGatherExample();
  GatherOp imported;
  FoldedMap folded = readBackGather(decomposeGather(op, "d").mlir, imported);
  ASSERT_TRUE(folded.map);
  GatherOp other = op;
  other.dimension_numbers.start_index_map = {1, 2};
  other.operand = {{2, 4, 4, 2}, "i32"};  // keeps the clamp ranges of the swapped entries apart
  EXPECT_EQ(islEqual(*folded.map, gather_scatter::gatherOutputToOperandMap(other)).verdict,
            Verdict::Refuted);
  Decomposition plain = decomposeGather(gather_scatter::decomposeBatchingDims(op),
                                        "no_batching");  // nothing to decompose
  EXPECT_EQ(plain.proof.verdict, Verdict::Unknown);
  EXPECT_NE(plain.proof.reason.find("no batching dims"), std::string::npos);
}

}  // namespace
}  // namespace idxmap::mlir_batching_decomposition
