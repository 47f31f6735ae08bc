// `idxmap verify` on programs with `?` dims (spec 002), as shape-polymorphic JAX exports write
// them: each `?` a size parameter, every property decided for all sizes, refuted with the
// smallest sizes that break it (replayed by the static provers), or stated as the condition
// on the sizes, and on the function's arguments where the run-time values decide it apart
// from the sizes. Expected verdicts derived from the ops' definitions in each test's comment.
#include <nlohmann/json.hpp>

#include <regex>

#include "tests/cli/cli_runner.h"
#include "tests/cli/verify_json.h"

namespace idxmap::cli_test {
namespace symbolic_sizes_cli_test {
namespace {

TEST(VerifySymbolicSizesCli, SymbolicBatchSizesAreDecidedForEverySize) {
  const std::string text = R"(func.func @main(%b: tensor<i64>, %x: tensor<?x5xf32>,
    %u: tensor<?x2xf32>) -> tensor<?x5xf32> {
  %idx = stablehlo.constant dense<[[0], [3]]> : tensor<2x1xi64>
  %r = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0],
      inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}
    : (tensor<?x5xf32>, tensor<2x1xi64>, tensor<?x2xf32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(verdicts(result), (std::vector<std::string>{"proven", "unknown", "proven"}));
  nlohmann::json sorted = nlohmann::json::parse(result.out).at(0).at("properties").at("sorted");
  EXPECT_EQ(sorted.at("condition"), "n1 <= 1, where n1 is dim 0 of updates") << result.out;
  CliResult plain = runIdxmap({"verify"}, text);
  EXPECT_NE(plain.err.find("unique_indices could be set: proven"), std::string::npos) << plain.err;

  // Rows 0 and 0: two updates write each element whenever b > 0 (refuted, with the smallest
  // sizes that show it); a bound on the rows changes nothing.
  std::string repeated = text;
  repeated.replace(repeated.find("[[0], [3]]"), 10, "[[0], [0]]");
  CliResult twice = runIdxmap({"verify", "--json"}, repeated);
  EXPECT_EQ(verdicts(twice).at(0), "refuted") << twice.out;
  EXPECT_NE(twice.out.find("at sizes n0 = 1 (dim 0 of result), n1 = 1 (dim 0 of updates): "
                           "updates[0, 0] and updates[0, 1] both write result[0, 0]"),
            std::string::npos)
      << twice.out;

  // Index 7 of 5 columns: never in bounds.
  std::string outside = text;
  outside.replace(outside.find("[[0], [3]]"), 10, "[[0], [7]]");
  EXPECT_EQ(verdicts(runIdxmap({"verify", "--json"}, outside)).at(2), "refuted");
}

// Indices from an argument, `?` rows: any two index values may be out of order or equal (one
// update row reads one index at every window row), so sorted and unique are not proven at any
// size; clamped to [0, 4], every index is inside the 5 columns for every size.
TEST(VerifySymbolicSizesCli, RunTimeIndicesWithSymbolicSizes) {
  auto program = [](const char* indices) {
    return std::string(R"(func.func @main(%x: tensor<?x5xf32>, %idx: tensor<2x1xi32>,
    %u: tensor<?x2xf32>) -> tensor<?x5xf32> {
  %lo = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<4> : tensor<i32>
  %clamped = stablehlo.clamp %lo, %idx, %hi : (tensor<i32>, tensor<2x1xi32>, tensor<i32>) -> tensor<2x1xi32>
  %r = "stablehlo.scatter"(%x, )") +
           indices + R"(, %u) ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0],
      inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}
    : (tensor<?x5xf32>, tensor<2x1xi32>, tensor<?x2xf32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
)";
  };
  CliResult raw = runIdxmap({"verify", "--json"}, program("%idx"));
  EXPECT_EQ(raw.exitCode, 0) << raw.err;
  EXPECT_EQ(verdicts(raw), (std::vector<std::string>{"unknown", "unknown", "unknown"})) << raw.out;
  CliResult clamped = runIdxmap({"verify", "--json"}, program("%clamped"));
  EXPECT_EQ(verdicts(clamped), (std::vector<std::string>{"unknown", "unknown", "proven"}))
      << clamped.out;
}

// A gather from a `?` table: in bounds iff the table has more rows than the largest index, as
// the condition says; the int32 question is left open (any size is allowed).
TEST(VerifySymbolicSizesCli, GatherFromATableOfSymbolicRows) {
  const std::string text = R"(func.func @main(%t: tensor<?x4xf32>) -> tensor<3x4xf32> {
  %idx = stablehlo.constant dense<[[1], [5], [2]]> : tensor<3x1xi64>
  %r = "stablehlo.gather"(%t, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 4>} : (tensor<?x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  nlohmann::json properties = nlohmann::json::parse(result.out).at(0).at("properties");
  EXPECT_EQ(properties.at("in_bounds").at("condition"), "n0 >= 6, where n0 is dim 0 of operand");
  // Clamped to the last row, 5 and 2 stay in order only while the last row is at most 2.
  EXPECT_EQ(properties.at("sorted").at("condition"), "n0 <= 3, where n0 is dim 0 of operand");
  EXPECT_EQ(properties.at("int32_safe").at("verdict"), "unknown");
}

// A shape-polymorphic take as JAX exports it (the `?` size passed as %n): the index tensor's
// rows are `?`, row i's vectors [i, %cols[i, j]] (`cols` defines %cols, or `arguments` takes
// it), gathered from a `?` x 5 operand.
std::string polymorphicTake(const std::string& cols, const std::string& arguments = "") {
  return R"(func.func @main(%n: tensor<i64>, %x: tensor<?x5xf32>)" + arguments +
         R"() -> tensor<?x2xf32> {
  %0 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %3 = stablehlo.concatenate %1, %2, dim = 0 : (tensor<1xi32>, tensor<2xi32>) -> tensor<3xi32>
  %rows = stablehlo.dynamic_iota %3, dim = 0 : (tensor<3xi32>) -> tensor<?x2x1xi64>
  )" + cols +
         R"(
  %idx = stablehlo.concatenate %rows, %cols, dim = 2
    : (tensor<?x2x1xi64>, tensor<?x2x1xi64>) -> tensor<?x2x2xi64>
  %r = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<
      collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>,
      slice_sizes = array<i64: 1, 1>} : (tensor<?x5xf32>, tensor<?x2x2xi64>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
)";
}

// A shape-polymorphic export (JAX passes the `?` size as %n): the index tensor's rows are `?`,
// its vectors [i, j] dynamic_iotas of the shape [n, 2, 1]. In bounds iff the operand has as
// many rows as the indices (nothing in the program ties the two `?`s); sorted iff too, since a
// start index clamped to the last row comes after a larger one ([0, 1] then [1, 0] -> [0, 0]).
TEST(VerifySymbolicSizesCli, IndicesWithSymbolicRowsFromDynamicIotas) {
  const std::string text = polymorphicTake(
      "%cols = stablehlo.dynamic_iota %3, dim = 1 : (tensor<3xi32>) -> tensor<?x2x1xi64>");
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(verdicts(result), (std::vector<std::string>{"none", "unknown", "unknown"}))
      << result.out;
  const nlohmann::json properties = nlohmann::json::parse(result.out).at(0).at("properties");
  for (const char* name : {"sorted", "in_bounds"}) {
    EXPECT_EQ(properties.at(name).at("condition_on"), "sizes") << result.out;
    EXPECT_EQ(properties.at(name).at("condition"),
              "n1 <= n0, where n0 is dim 0 of operand and n1 is dim 0 of start_indices")
        << result.out;
  }
  EXPECT_NE(
      properties.at("in_bounds")
          .at("reason")
          .get<std::string>()
          .find("it fails at sizes n0 = 1 (dim 0 of operand), n1 = 2 (dim 0 of start_indices): "
                "result[1, 0] reads start index [1, 0], clamped to [0, 0]"),
      std::string::npos)
      << result.out;
  // An i32 iota wraps past 2^31 rows: in bounds also needs n1 <= 2^31 (as isl writes it).
  const std::string narrow = std::regex_replace(text, std::regex("x(2|1)xi64>"), "x$1xi32>");
  CliResult wraps = runIdxmap({"verify", "--json"}, narrow);
  EXPECT_EQ(wraps.exitCode, 0) << wraps.err;
  EXPECT_EQ(nlohmann::json::parse(wraps.out).at(0).at("properties").at("in_bounds").at("condition"),
            "(n0 >= 2147483648 and n1 <= 2147483648) or (n0 <= 2147483647 and n1 <= n0), where "
            "n0 is dim 0 of operand and n1 is dim 0 of start_indices")
      << wraps.out;
  // Reversed rows (n1 - 1 - i) read the size itself, which is the index tensor's own: in bounds
  // iff n1 <= n0 still, sorted iff there is one row (row i comes before row i + 1, which is
  // smaller).
  std::string reversed = text;
  reversed.replace(reversed.find("%idx = stablehlo.concatenate %rows"), 34,
                   "%back = stablehlo.reverse %rows, dims = [0] : tensor<?x2x1xi64>\n"
                   "  %idx = stablehlo.concatenate %back");
  CliResult back = runIdxmap({"verify", "--json"}, reversed);
  EXPECT_EQ(back.exitCode, 0) << back.err;
  const nlohmann::json backwards = nlohmann::json::parse(back.out).at(0).at("properties");
  EXPECT_EQ(backwards.at("indices"), "concatenate(reverse(iota), iota)") << back.out;
  EXPECT_EQ(backwards.at("in_bounds").at("condition"),
            "n1 <= n0, where n0 is dim 0 of operand and n1 is dim 0 of start_indices")
      << back.out;
  EXPECT_EQ(backwards.at("sorted").at("condition"),
            "n1 <= 1 and (n0 >= 2 or n0 = 1), where n0 is dim 0 of operand and n1 is dim 0 of "
            "start_indices")
      << back.out;
}

// Every other row of a `?` x 1 index tensor (2 * i), windows of 3 of a `?` operand: in bounds iff
// 2 * (n1 - 1) + 3 <= n0. isl writes "2n1", the coefficient glued to the name: the legend still
// says what n1 is (it once left it out, which only a condition naming n1 with a coefficient shows).
TEST(VerifySymbolicSizesCli, LegendNamesSizesWrittenWithACoefficient) {
  const std::string text =
      R"(func.func @main(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.constant dense<[1]> : tensor<1xi32>
  %shape = stablehlo.concatenate %1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %iota = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi32>) -> tensor<?x1xi64>
  %c2 = stablehlo.constant dense<2> : tensor<i64>
  %two = stablehlo.dynamic_broadcast_in_dim %c2, %shape, dims = []
    : (tensor<i64>, tensor<2xi32>) -> tensor<?x1xi64>
  %idx = stablehlo.multiply %iota, %two : tensor<?x1xi64>
  %r = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<
      offset_dims = [1], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 3>} : (tensor<?xf32>, tensor<?x1xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(
      nlohmann::json::parse(result.out).at(0).at("properties").at("in_bounds").at("condition"),
      "2n1 < n0, where n0 is dim 0 of operand and n1 is dim 0 of start_indices")
      << result.out;
}

// JAX's batched take with shape polymorphism: row i of the index tensor reads row i of the
// operand (a dynamic_iota) and column %cols[i, j] (an argument). In bounds iff there are no more
// index rows than operand rows (else row n0 is clamped, whatever the columns: replayed with the
// columns fixed) and every column read is in [0, 4]: the two apart, one condition each.
TEST(VerifySymbolicSizesCli, SizesAndArgumentsDecideInBoundsApart) {
  const std::string text = polymorphicTake("", ", %cols: tensor<?x2x1xi64>");
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  const nlohmann::json inBounds =
      nlohmann::json::parse(result.out).at(0).at("properties").at("in_bounds");
  EXPECT_EQ(inBounds.at("verdict"), "unknown") << result.out;
  EXPECT_EQ(inBounds.at("condition_on"), "sizes and arguments") << result.out;
  EXPECT_EQ(inBounds.at("condition"),
            "n1 <= n0, where n0 is dim 0 of operand and n1 is dim 0 of start_indices; and every "
            "element of %cols that the op reads is in [0, 4]")
      << result.out;
  EXPECT_NE(inBounds.at("reason").get<std::string>().find(
                "at sizes n0 = 1 (dim 0 of operand), n1 = 2 (dim 0 of start_indices) it fails "
                "whatever the values (with result[1, 0] reads start index [1, 0], clamped to "
                "[0, 0]"),
            std::string::npos)
      << result.out;
  // Sorted takes the sizes and the values together (rows past the operand's clamp onto its
  // last one, so which pairs of columns must be in order depends on n0 and n1): stated on the
  // index vectors with the sizes as parameters, for every size.
  const nlohmann::json sorted =
      nlohmann::json::parse(result.out).at(0).at("properties").at("sorted");
  EXPECT_EQ(sorted.at("verdict"), "unknown") << result.out;
  EXPECT_EQ(sorted.at("condition_on"), "sizes and index vectors") << result.out;
  const std::string condition = sorted.at("condition");
  EXPECT_EQ(condition.rfind("no two points p, q of start_indices (index vector x at p, y at q) "
                            "satisfy [n0, n1] -> { ",
                            0),
            0u)
      << condition;
  EXPECT_NE(condition.find(", where n0 is dim 0 of operand and n1 is dim 0 of start_indices"),
            std::string::npos)
      << condition;
  // With the columns assumed in range, the sizes alone decide it.
  CliResult assumed = runIdxmap({"verify", "--json", "--assume", "%cols: in [0, 4]"}, text);
  const nlohmann::json given =
      nlohmann::json::parse(assumed.out).at(0).at("properties").at("in_bounds");
  EXPECT_EQ(given.at("condition_on"), "sizes") << assumed.out;
  EXPECT_EQ(given.at("condition"),
            "n1 <= n0, where n0 is dim 0 of operand and n1 is dim 0 of start_indices")
      << assumed.out;
  EXPECT_EQ(given.at("assumptions"), nlohmann::json::array({"%cols: in [0, 4]"})) << assumed.out;
}

// jnp.take on a shape-polymorphic table as JAX lowers it: the index's negative-value fix-up adds
// the table's `?` row count (get_dimension_size of %x), which is the gather's own operand dim
// n0; then the indices are reversed along their own `?` dim. In bounds iff every index is in
// [-n0, n0 - 1] (where n0 fits an i32, as get_dimension_size gives it): at the smallest sizes,
// stated on %idx. In clip mode (clamp to [0, n0 - 1]) in bounds holds at every size an i32 holds,
// whatever the values, and fails past it (n0 - 1 wraps): a condition on the sizes alone.
TEST(VerifySymbolicSizesCli, JaxTakeReadsTheOperandsOwnSymbolicSize) {
  const std::string head =
      R"(func.func @main(%x: tensor<?x4xf32>, %idx: tensor<?xi32>) -> tensor<?x4xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %m = stablehlo.get_dimension_size %idx, dim = 0 : (tensor<?xi32>) -> tensor<i32>
  %ms = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
)";
  const std::string gather = R"(
  %col = stablehlo.reshape %f : (tensor<?xi32>) -> tensor<?x1xi32>
  %g = "stablehlo.gather"(%x, %col) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 4>} : (tensor<?x4xf32>, tensor<?x1xi32>) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
)";
  const std::string fixUp = head + R"(
  %nb = stablehlo.dynamic_broadcast_in_dim %n, %ms, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
  %zb = stablehlo.dynamic_broadcast_in_dim %zero, %ms, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
  %neg = stablehlo.compare LT, %idx, %zb, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
  %w = stablehlo.add %idx, %nb : tensor<?xi32>
  %s = stablehlo.select %neg, %w, %idx : tensor<?xi1>, tensor<?xi32>
  %f = stablehlo.reverse %s, dims = [0] : tensor<?xi32>)" +
                            gather;
  CliResult taken = runIdxmap({"verify", "--json"}, fixUp);
  EXPECT_EQ(taken.exitCode, 0) << taken.err;
  const nlohmann::json fixed = nlohmann::json::parse(taken.out).at(0).at("properties");
  EXPECT_NE(fixed.at("indices").get<std::string>().find("get_dimension_size(%x, 0)"),
            std::string::npos)
      << taken.out;
  EXPECT_NE(fixed.at("in_bounds")
                .at("reason")
                .get<std::string>()
                .find("at sizes n0 = 1 (dim 0 of operand), n1 = 1 (dim 0 of start_indices), it "
                      "holds iff every element of %idx that the op reads is in [-1, 0]"),
            std::string::npos)
      << taken.out;

  const std::string clip = head + R"(
  %top = stablehlo.subtract %n, %one : tensor<i32>
  %f = stablehlo.clamp %zero, %idx, %top : (tensor<i32>, tensor<?xi32>, tensor<i32>) -> tensor<?xi32>)" +
                           gather;
  CliResult clipped = runIdxmap({"verify", "--json"}, clip);
  EXPECT_EQ(clipped.exitCode, 0) << clipped.err;
  const nlohmann::json inBounds =
      nlohmann::json::parse(clipped.out).at(0).at("properties").at("in_bounds");
  EXPECT_EQ(inBounds.at("condition_on"), "sizes") << clipped.out;
  EXPECT_NE(inBounds.at("reason").get<std::string>().find(
                "it fails at sizes n0 = 2147483649 (dim 0 of operand), n1 = 1 (dim 0 of "
                "start_indices), whatever the run-time values"),
            std::string::npos)
      << clipped.out;
}

// Indices reverse(iota(m)) ++ [7, 9], m the `?` length of %idx (a dynamic_iota of its
// get_dimension_size), scattered into a `?` x 2 table: the index tensor's size is m + 2, which
// the program's shapes say and the provers use. Sorted iff the reversed iota has at most one
// element (n1 <= 3); in bounds iff 9 fits and the iota does (n0 >= 10 and n1 <= n0 + 2, where
// sizes fit an i32).
TEST(VerifySymbolicSizesCli, AConcatenationsSizeIsItsParts) {
  const std::string text =
      R"(func.func @main(%x: tensor<?x2xf32>, %idx: tensor<?xi32>, %u: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %m = stablehlo.get_dimension_size %idx, dim = 0 : (tensor<?xi32>) -> tensor<i32>
  %shape = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %back = stablehlo.reverse %iota, dims = [0] : tensor<?xi32>
  %tail = stablehlo.constant dense<[7, 9]> : tensor<2xi32>
  %all = stablehlo.concatenate %back, %tail, dim = 0 : (tensor<?xi32>, tensor<2xi32>) -> tensor<?xi32>
  %col = stablehlo.reshape %all : (tensor<?xi32>) -> tensor<?x1xi32>
  %r = "stablehlo.scatter"(%x, %col, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
      : (tensor<?x2xf32>, tensor<?x1xi32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  const nlohmann::json properties = nlohmann::json::parse(result.out).at(0).at("properties");
  EXPECT_EQ(properties.at("sorted").at("condition"),
            "n1 <= 3, where n1 is dim 0 of scatter_indices")
      << result.out;
  EXPECT_EQ(properties.at("in_bounds").at("condition"),
            "n0 >= 10 and ((n0 >= 2147483648 and n1 <= 2147483650) or (n0 <= 2147483647 and n1 <= "
            "2 + n0)), where n0 is dim 0 of result and n1 is dim 0 of scatter_indices")
      << result.out;
}

}  // namespace
}  // namespace symbolic_sizes_cli_test
}  // namespace idxmap::cli_test
