// From MLIR text to the tensor.gather / tensor.scatter / tcp.gather / tcp.gather_nd models:
// spec 001's and spec 003's spellings, the generic form, evaluation of an imported op, and
// located diagnostics when the text lacks what the model needs.
#include <gtest/gtest.h>

#include "ops/eval/lowered_gather.h"
#include "ops/import/forms.h"
#include "ops/mlir/parser.h"
#include "tests/ops/forms/oracles.h"
#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

using namespace testing;
using mlir_ir::Module;
using mlir_ir::parseMlirModule;

constexpr int64_t Q = kDynamic;

TEST(GatherFormsImport, Spec001Spellings) {
  Module module = parseMlirModule(R"(
%out = tensor.gather %input[%indices] :
  tensor<4x4x4xf32>[tensor<1x2x 3xindex>] -> tensor<1x2xf32>
%out2 = tensor.gather %input[%indices] gather_along_dimension(1) :
  tensor<2x3x4xf32>[tensor<5x6x 1xindex>] -> tensor<5x6x2x1x4xf32>
%out3 = tensor.gather %input[%indices] gather_along_dimensions(0, 2) :
  (tensor<2x3x4xf32>, tensor<5x6x 2xindex>) -> tensor<5x6x3xf32>
%out4 = tensor.gather %source[%idx] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<7x2xindex>) -> tensor<7x4x1x1xf32>
%5 = tensor.scatter %src into %dest[%idx] scatter_dims([1]) unique : (tensor<7x4x1xf32>, tensor<4x5xf32>, tensor<7x1xindex>) -> tensor<4x5xf32>
)",
                                  "spec001.mlir");
  const auto& ops = module.operations;
  ASSERT_EQ(ops.size(), 5u);
  const Index expectedDims[] = {{0, 1, 2}, {1}, {0, 2}, {1, 2}};
  for (int i = 0; i < 4; ++i) {
    TensorGatherOp op = importTensorGather(ops[i]);
    EXPECT_EQ(op.gather_dims, expectedDims[i]) << i;
    EXPECT_TRUE(validateTensorGather(op).empty()) << i << describe(validateTensorGather(op));
    EXPECT_EQ(op.unique, i == 3);
    EXPECT_EQ(op.indices.element_type, "index");
  }
  TensorGatherOp first = importTensorGather(ops[0]);
  EXPECT_EQ(first.source.shape, (Index{4, 4, 4}));
  EXPECT_EQ(first.result->shape, (Index{1, 2}));
  TensorScatterOp scatter = importTensorScatter(ops[4]);
  EXPECT_EQ(scatter.scatter_dims, Index{1});
  EXPECT_TRUE(scatter.unique);
  EXPECT_EQ(scatter.dest.shape, (Index{4, 5}));
  EXPECT_EQ(scatter.source.shape, (Index{7, 4, 1}));
  EXPECT_TRUE(validateTensorScatter(scatter).empty()) << describe(validateTensorScatter(scatter));
}

TEST(GatherFormsImport, GenericFormWithDynamicSizes) {
  Module module = parseMlirModule(R"(
%0 = "tensor.gather"(%t, %i) <{gather_dims = array<i64: 1>}> : (tensor<4x4xf32>, tensor<?x1xindex>) -> tensor<?x4x1xf32>
%1 = "tensor.scatter"(%s, %t, %i) <{scatter_dims = array<i64: 1>}> : (tensor<?x4x1xf32>, tensor<4x4xf32>, tensor<?x1xindex>) -> tensor<4x4xf32>
)",
                                  "generic.mlir");
  TensorGatherOp gather = importTensorGather(module.operations.at(0));
  EXPECT_EQ(gather.indices.shape, (Index{Q, 1}));
  EXPECT_TRUE(validateTensorGather(gather).empty()) << describe(validateTensorGather(gather));
  TensorScatterOp scatter = importTensorScatter(module.operations.at(1));
  // Read as written; the verifier then rejects it, since tensor.scatter needs `unique`.
  EXPECT_FALSE(scatter.unique);
  EXPECT_EQ(labelsOf(validateTensorScatter(scatter)), std::set<std::string>{"unique"});
}

TEST(GatherFormsImport, Spec003SpellingsEvaluate) {
  Module module = parseMlirModule(R"(
%x = tcp.gather %input, %indices { dim = 1 } :
        (tensor<3x4xi32>, tensor<3x2xi64>) -> tensor<3x2xi32>
%y = tcp.gather_nd %input, %indices :
        (tensor<5x7x3xf32>, tensor<4x2xi64>) -> tensor<4x3xf32>
%0 = "tcp.gather"(%arg0, %arg1) {dim = 2 : index} : (tensor<1x4x3xf32>, tensor<1x4x2xi64>) -> tensor<1x4x2xf32>
)",
                                  "spec003.mlir");
  const auto& ops = module.operations;
  ASSERT_EQ(ops.size(), 3u);
  TcpGatherOp gather = importTcpGather(ops[0]);
  EXPECT_EQ(gather.dim, 1);
  ASSERT_TRUE(validateTcpGather(gather).empty()) << describe(validateTcpGather(gather));
  Tensor input = numbered("i32", {3, 4});
  Tensor indices = tensorFrom("i64", {3, 2}, "[[0, 1], [2, 0], [2, 3]]");
  EXPECT_EQ(evaluateLoweredGather(lowerTcpGather(gather), input, indices, Engine::kMaps),
            elementsGatherOracle(input, 1, indices));

  TcpGatherNdOp nd = importTcpGatherNd(ops[1]);
  EXPECT_EQ(nd.indices.shape, (Index{4, 2}));
  EXPECT_TRUE(validateTcpGatherNd(nd).empty()) << describe(validateTcpGatherNd(nd));
  TcpGatherOp generic = importTcpGather(ops[2]);
  EXPECT_EQ(generic.dim, 2);
  EXPECT_TRUE(validateTcpGather(generic).empty()) << describe(validateTcpGather(generic));
}

// The diagnostic for `text`'s first op, read by `import`.
template <typename Import>
ParseError importError(const char* text, Import import) {
  Module module = parseMlirModule(text, "bad.mlir");
  try {
    import(module.operations.at(0));
  } catch (const ParseError& error) {
    return error;
  }
  ADD_FAILURE() << "imported without a diagnostic: " << text;
  return ParseError({}, "", "");
}

void expectAt(const ParseError& error, int line, int column, const std::string& messagePart) {
  EXPECT_EQ(error.location().file, "bad.mlir");
  EXPECT_EQ(error.location().line, line) << error.what();
  EXPECT_EQ(error.location().column, column) << error.what();
  EXPECT_NE(error.message().find(messagePart), std::string::npos) << error.what();
}

TEST(GatherFormsImport, MissingPiecesAreLocatedAtTheOp) {
  expectAt(importError("\n%x = tcp.gather %a, %b : (tensor<3x4xf32>, tensor<3x2xi64>) -> "
                       "tensor<3x2xf32>",
                       importTcpGather),
           2, 6, "tcp.gather: needs a `dim` attribute");
  expectAt(importError("%r = tensor.scatter %s into %d[%i] unique : (tensor<2xf32>, "
                       "tensor<4xf32>, tensor<2x1xindex>) -> tensor<4xf32>",
                       importTensorScatter),
           1, 6, "tensor.scatter: needs `scatter_dims`");
  expectAt(importError("%r = tensor.gather %s[%i] gather_dims([0]) : (tensor<*xf32>, "
                       "tensor<2x1xindex>) -> tensor<2xf32>",
                       importTensorGather),
           1, 6, "the source must have a ranked tensor type, not tensor<*xf32>");
  expectAt(importError("  %r = tcp.gather_nd %a, %b, %c : (tensor<3xf32>, tensor<1x1xi64>, "
                       "tensor<1xi64>) -> tensor<1xf32>",
                       importTcpGatherNd),
           1, 8, "expected 2 operands, found 3");
  expectAt(importError("%r = tcp.gather %a, %b {dim = 1} : (tensor<3x4xf32>, tensor<3x2xi64>) "
                       "-> tensor<3x2xf32>",
                       importTensorGather),
           1, 6, "expected a tensor.gather op");
}

TEST(GatherFormsImport, MalformedAttributeIsLocatedAtItsValue) {
  // `gather_dims = "x"`: the value starts at column 46.
  expectAt(
      importError(
          R"(%0 = "tensor.gather"(%s, %i) <{gather_dims = "x"}> : (tensor<4xf32>, tensor<2x1xindex>) -> tensor<2xf32>)",
          importTensorGather),
      1, 46, "`gather_dims` must be a list of integers");
}

}  // namespace
}  // namespace idxmap::gather_scatter
