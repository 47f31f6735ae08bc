// The public API's failures and edge cases (examples/embed covers the way through): one
// exception type, located with the source line and caret, for every kind of bad input.
#include <gtest/gtest.h>
#include <idxmap/idxmap.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "core/bridges/isl_bridge.h"  // the thread's isl limits, internal

namespace idxmap {
namespace api_test {
namespace {

std::string readExample(const std::string& name) {
  std::ifstream in(std::string(IDXMAP_SOURCE_DIR) + "/examples/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `call`, which must throw an ApiError, and returns it.
template <typename Call>
ApiError errorOf(Call&& call) {
  try {
    call();
  } catch (const ApiError& error) {
    return error;
  }
  ADD_FAILURE() << "no ApiError";
  return ApiError("", "");
}

TEST(Api, MalformedMapIsLocatedWithCaret) {
  ApiError error = errorOf([] { parseMap("(d0) -> (d0 +), domain: d0 in [0, 3]", "m.map"); });
  EXPECT_EQ(error.file(), "m.map");
  EXPECT_EQ(error.line(), 1);
  EXPECT_GT(error.column(), 1);
  EXPECT_NE(std::string(error.what()).find("\n(d0) -> (d0 +)"), std::string::npos) << error.what();
  EXPECT_EQ(std::string(error.what()).back(), '^');
}

TEST(Api, ParseMapWantsExactlyOne) {
  std::string two = "(d0) -> (d0), domain: d0 in [0, 3]\n\n(d0) -> (d0), domain: d0 in [0, 3]";
  EXPECT_EQ(parseEveryMap(two).size(), 2u);
  // Located at the second map, with its line and a caret.
  ApiError another = errorOf([&] { parseMap(two, "two.map"); });
  EXPECT_NE(another.message().find("exactly one map, found another one here"), std::string::npos);
  EXPECT_EQ(another.file(), "two.map");
  EXPECT_EQ(another.line(), 3);
  EXPECT_EQ(std::string(another.what()).back(), '^');
  EXPECT_NE(errorOf([] { parseMap(""); }).message().find("expected a map, found none"),
            std::string::npos);
}

TEST(Api, OverflowingConstantIsAnApiError) {
  ApiError error = errorOf(
      [] { parseMap("(d0) -> (d0 + 99999999999999999999), domain: d0 in [0, 3]", "big.map"); });
  EXPECT_EQ(error.line(), 1);
  EXPECT_NE(std::string(error.what()).find("big.map:1:"), std::string::npos) << error.what();
}

TEST(Api, ComposeOfMismatchedMapsIsAnApiError) {
  IndexingMap oneResult = parseMap("(d0) -> (d0), domain: d0 in [0, 3]");
  IndexingMap twoDims = parseMap("(d0, d1) -> (d0 + d1), domain: d0 in [0, 3], d1 in [0, 3]");
  errorOf([&] { composeMaps(oneResult, twoDims); });
}

TEST(Api, BrokenHloAttributeIsLocatedInTheProgram) {
  std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  p0 = f32[2,3] parameter(0)\n"
      "  ROOT t = f32[3,2] transpose(p0), dimensions={1,1}\n"
      "}\n";
  Program program = readProgram(text, "t.hlo");
  EXPECT_TRUE(program.isHlo());
  ApiError error = errorOf([&] { opMaps(program); });
  EXPECT_EQ(error.file(), "t.hlo");
  EXPECT_EQ(error.line(), 4);
  EXPECT_NE(std::string(error.what()).find("transpose(p0), dimensions={1,1}\n"), std::string::npos)
      << error.what();
}

TEST(Api, BrokenStableHloConstraintNamesItsLabel) {
  Program program = readProgram(readExample("bad_gather.mlir"), "bad_gather.mlir");
  ApiError error = errorOf([&] { proveIndexProperties(program); });
  EXPECT_NE(error.message().find("stablehlo.gather (C"), std::string::npos) << error.what();
  EXPECT_GT(error.line(), 0);
  error = errorOf([&] { emitKernels(program); });
  EXPECT_NE(error.message().find("(C"), std::string::npos) << error.what();
}

TEST(Api, MalformedProgramIsLocated) {
  ApiError error = errorOf([] { readProgram("func.func @f(%a: tensor<2xf32>) {", "f.mlir"); });
  EXPECT_EQ(error.file(), "f.mlir");
  EXPECT_EQ(error.line(), 1);
}

TEST(Api, ProveProgramsEqualNeedsMlirAndTheFunctions) {
  Program hlo = readProgram(readExample("broadcast.hlo"), "broadcast.hlo");
  Program tf = readProgram(readExample("prove_equal/tf_gather.mlir"), "tf_gather.mlir");
  EXPECT_NE(errorOf([&] { proveProgramsEqual(hlo, tf); }).message().find("MLIR, not HLO"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { proveProgramsEqual(tf, tf, "nope"); }).message().find("@nope"),
            std::string::npos);
  EXPECT_TRUE(proveProgramsEqual(tf, tf).isProven());
}

TEST(Api, AssumptionsAreCheckedAndMlirOnly) {
  Program hlo = readProgram(readExample("broadcast.hlo"), "broadcast.hlo");
  errorOf([&] { proveIndexProperties(hlo, {"%arg0: unique"}); });
  Program gathers = readProgram(readExample("gather.mlir"), "gather.mlir");
  errorOf([&] { proveIndexProperties(gathers, {"%arg0 unique"}); });  // no colon
}

TEST(Api, TheCallersIslLimitsSurviveACall) {
  // proveIndexProperties and emitKernels run with the CLI's budgets, then restore the
  // thread's own.
  setIslLimits({123'456, std::chrono::milliseconds(7'890)});
  Program gathers = readProgram(readExample("gather.mlir"), "gather.mlir");
  EXPECT_EQ(proveIndexProperties(gathers).size(), 4u);
  emitKernels(gathers);
  EXPECT_EQ(islLimits().maxOperations, 123'456u);
  EXPECT_EQ(islLimits().timeLimit, std::chrono::milliseconds(7'890));
  setIslLimits({});
}

// runProgram: rows of a 5-row operand at [3, -2, 9] (the gather clamps -2 to 0 and 9 to 4), by
// every engine that needs no GPU; an int64-sized value that fits passes to the i32 parameter,
// one that does not is an error located at the function.
TEST(ApiRun, AGatherOnArraysByEveryEngine) {
  const Program program = readProgram(R"(func.func @main(%x: tensor<5x2xf32>, %i: tensor<3x1xi32>)
    -> tensor<3x2xf32> {
  %r = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 2>} : (tensor<5x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
)",
                                      "take.mlir");
  const Array x{"f64", {5, 2}, {}, {0, 1, 10, 11, 20, 21, 30, 31, 40, 41}};
  for (Engine engine : {Engine::kReference, Engine::kMaps, Engine::kKernel}) {
    std::vector<Array> results =
        runProgram(program, {x, Array{"i64", {3, 1}, {3, -2, 9}, {}}}, engine);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].elementType, "f32");
    EXPECT_EQ(results[0].shape, (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(results[0].floats, (std::vector<double>{30, 31, 0, 1, 40, 41}));
  }
  try {
    runProgram(program, {x, Array{"i64", {3, 1}, {0, int64_t{1} << 40, 1}, {}}});
    FAIL() << "a value past i32 ran";
  } catch (const ApiError& error) {
    EXPECT_EQ(error.line(), 1);
    EXPECT_NE(error.message().find("argument 1 of @main holds 1099511627776, which i32 cannot"),
              std::string::npos)
        << error.message();
  }
  EXPECT_THROW(runProgram(program, {x}), ApiError);  // one argument of two
  EXPECT_THROW(
      runProgram(
          readProgram("HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n", "m.hlo"), {x}),
      ApiError);
}

}  // namespace
}  // namespace api_test
}  // namespace idxmap
