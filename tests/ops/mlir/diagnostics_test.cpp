// The StableHLO MLIR reader on malformed input: located diagnostics, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ops/mlir/module.h"
#include "tests/ops/mlir/test_util.h"

namespace idxmap::mlir_ir {
namespace {

struct BadInput {
  const char* text;
  const char* message;  // a part of the diagnostic
  int line, column;
};

class MlirParserDiagnostics : public ::testing::TestWithParam<BadInput> {};

TEST_P(MlirParserDiagnostics, NameTheLineAndColumn) {
  const BadInput& bad = GetParam();
  ParseError error = diagnosticOf(bad.text);
  EXPECT_NE(error.message().find(bad.message), std::string::npos) << error.what();
  EXPECT_EQ(error.location().file, "bad.mlir");
  EXPECT_EQ(error.location().line, bad.line) << error.what();
  EXPECT_EQ(error.location().column, bad.column) << error.what();
  // The caret line sits under the column.
  std::string what = error.what();
  EXPECT_EQ(what.substr(what.rfind('\n') + 1), std::string(bad.column - 1, ' ') + "^");
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, MlirParserDiagnostics,
    ::testing::Values(
        BadInput{"%0 = \"a.b\"(%x) : (tensor<2xf32) -> ()", "'>'", 1, 31},
        BadInput{"%0 = \"a.b\"() : () -> tensor<8000000000000000000xf32>", "too large", 1, 29},
        BadInput{"%0 = \"a.b\"() : () -> tensor<4000000000000000000x4xf32>", "int64", 1, 49},
        BadInput{"%0 = \"a.b\"() : () -> tensor<2xq7>", "unknown element type", 1, 31},
        BadInput{"%0 = stablehlo.constant dense<[1, 2, 3]> : tensor<2xi64>", "3 elements", 1, 25},
        BadInput{"%0 = stablehlo.constant dense<[[1, 2], [3]]> : tensor<2x2xi64>", "siblings", 1,
                 40},
        BadInput{"%0 = stablehlo.constant dense<[300]> : tensor<1xi8>", "fit in i8", 1, 32},
        BadInput{"%0 = stablehlo.constant dense<[1.5]> : tensor<1xi32>", "float", 1, 32},
        BadInput{"%0 = stablehlo.constant dense<\"0x0102\"> : tensor<3xi32>", "bytes", 1, 25},
        BadInput{"%0 = stablehlo.constant dense<[1]> : tensor<?xi32>", "static", 1, 38},
        BadInput{"%0:99999999 = \"a.b\"() : () -> ()", "result count", 1, 4},
        BadInput{"%0 = \"a.b\"(%x) {\n  k = #stablehlo.gather<offset_dims [1]>\n} : () -> ()",
                 "'='", 2, 37},
        BadInput{"%0 = \"a.b\"(%x) : (tensor<2xf32, #stablehlo.bounds<1, 2>>) -> ()", "rank 1", 1,
                 33},
        BadInput{"func.func @f() {\n  %0 = \"a.b\"() : () -> ()\n", "'}'", 3, 1},
        BadInput{"%0 = \"a.b\"() {s = \"open} : () -> ()", "unterminated string", 1, 19},
        BadInput{"%0 = \"a.b\"(%x) tensor<2xf32>", "':'", 1, 16},
        BadInput{"%0 = stablehlo.constant dense<1>", "without a type", 1, 25},
        BadInput{"#stablehlo.scatter<\n  index_vector_dim = 1,\n  index_vector_dim = 1>",
                 "duplicated `index_vector_dim` entry", 3, 3},
        BadInput{"#stablehlo.gather<offset_dims = [1], slice_sizes = [1]>",
                 "unknown field `slice_sizes`", 1, 38},
        BadInput{"#stablehlo.gather<index_vector_dim = [1]>", "must be an integer", 1, 19},
        BadInput{"#stablehlo.scatter<update_window_dims = 1>", "a list of integers", 1, 20}));

TEST(MlirParser, DeepNestingIsADiagnosticNotACrash) {
  std::string text = "%0 = \"a.b\"() {k = " + std::string(100000, '[') + "} : () -> ()";
  ParseError error = diagnosticOf(text);
  EXPECT_NE(error.message().find("nesting"), std::string::npos) << error.message();
}

}  // namespace
}  // namespace idxmap::mlir_ir
