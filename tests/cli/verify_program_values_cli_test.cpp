// `idxmap verify` on indices that a program computes, written as JAX lowers them: the indices
// of `lax.top_k` (`chlo.top_k`, two named results) scattered into, `jnp.argmax` (a reduce of
// the values with an iota, the index picked by select) gathered from, and a window of
// `jnp.arange` at a run-time offset (`lax.dynamic_slice`). Expected verdicts derived from the
// ops' definitions: top_k's k indices of one row are distinct positions in [0, n - 1]; an
// argmax of n positions with init 0 is in [0, n - 1]; a window of 4 consecutive values of
// 0..9, its start clamped to [0, 6], is unique, sorted and in [0, 9].
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <regex>

#include "core/bridges/isl_bridge.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/verify_json.h"

namespace idxmap::cli_test {
namespace {

TEST(VerifyProgramValuesCli, TopKIndicesAreUniqueAndInBounds) {
  const std::string text = R"(func.func @main(%x: tensor<8xf32>, %t: tensor<8x4xf32>,
    %u: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<8xf32> -> (tensor<2xf32>, tensor<2xi32>)
  %col = stablehlo.reshape %indices : (tensor<2xi32>) -> tensor<2x1xi32>
  %r = "stablehlo.scatter"(%t, %col, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<8x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  // Not sorted: top_k orders its indices by value.
  EXPECT_EQ(verdicts(result), (std::vector<std::string>{"proven", "unknown", "proven"}));
  CliResult plain = runIdxmap({"verify"}, text);
  EXPECT_NE(plain.err.find("unique_indices could be set: proven"), std::string::npos) << plain.err;

  // Rows of a 2-D top_k repeat positions: in bounds still, unique no longer.
  std::string rows = text;
  auto replace = [&](const std::string& from, const std::string& to) {
    for (size_t at = rows.find(from); at != std::string::npos; at = rows.find(from, at + to.size()))
      rows.replace(at, from.size(), to);
  };
  replace("%x: tensor<8xf32>", "%x: tensor<2x8xf32>");
  replace("tensor<8xf32> -> (tensor<2xf32>, tensor<2xi32>)",
          "tensor<2x8xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)");
  replace("(tensor<2xi32>) -> tensor<2x1xi32>", "(tensor<2x2xi32>) -> tensor<4x1xi32>");
  replace("%u: tensor<2x4xf32>", "%u: tensor<4x4xf32>");
  replace("tensor<2x1xi32>, tensor<2x4xf32>", "tensor<4x1xi32>, tensor<4x4xf32>");
  CliResult twoRows = runIdxmap({"verify", "--json"}, rows);
  EXPECT_EQ(verdicts(twoRows), (std::vector<std::string>{"unknown", "unknown", "proven"})) << rows;

  // A row of `?` elements says nothing of the indices' range: any i32, nothing proven.
  std::string dynamic = text;
  dynamic.replace(dynamic.find("%x: tensor<8xf32>"), 17, "%x: tensor<?xf32>");
  dynamic.replace(dynamic.find("tensor<8xf32> -> (tensor<2xf32>"), 31,
                  "tensor<?xf32> -> (tensor<2xf32>");
  CliResult unknownRow = runIdxmap({"verify", "--json"}, dynamic);
  EXPECT_EQ(verdicts(unknownRow), (std::vector<std::string>{"unknown", "unknown", "unknown"}))
      << unknownRow.out << unknownRow.err;
}

// jnp.argmax(x, axis=1) as JAX lowers it (NaN counts as the maximum, ties to the lower index).
std::string argmaxGather(const std::string& indexInit) {
  return R"(func.func @main(%x: tensor<4x5xf32>, %t: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x5xi32>
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c_0 = stablehlo.constant dense<)" +
         indexInit + R"(> : tensor<i32>
  %1:2 = stablehlo.reduce(%x init: %c), (%0 init: %c_0) across dimensions = [1]
    : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %2 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %a, %b : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  %col = stablehlo.reshape %1#1 : (tensor<4xi32>) -> tensor<4x1xi32>
  %g = "stablehlo.gather"(%t, %col) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}
)";
}

TEST(VerifyProgramValuesCli, ArgmaxIndicesAreInBounds) {
  CliResult result = runIdxmap({"verify", "--json"}, argmaxGather("0"));
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(verdicts(result).at(2), "proven");
  // With an init index past the rows the analysis bounds the result by the hull of the init
  // value and the iota, [0, 5]; it does not look at which of the two the body keeps (here
  // always an element), so in bounds is unknown, and the reason says what was assumed.
  CliResult past = runIdxmap({"verify", "--json"}, argmaxGather("5"));
  EXPECT_EQ(verdicts(past).at(2), "unknown") << past.out;
  nlohmann::json records = nlohmann::json::parse(past.out);
  EXPECT_NE(records.at(0)
                .at("properties")
                .at("in_bounds")
                .at("reason")
                .get<std::string>()
                .find("picks its init value or an element of input 1"),
            std::string::npos)
      << past.out;
}

// JAX's negative-index fix-up in front of `x.at[idx].add(v)` (issue 31): %fixed is %idx + 10
// where %idx < 0, else %idx. By hand: a fixed index is in [0, 9] exactly when %idx is in
// [-10, 9]; two elements u before w write one row when fix(u) = fix(w) in [0, 9]: u = w, or
// one of them negative and 10 below the other (-1 and 9 collide). Both conditions are stated
// on %idx, in the text output and in --json with condition_on = "arguments".
TEST(VerifyProgramValuesCli, TheFixUpsConditionsAreOnTheArgument) {
  const std::string text = R"(func.func @main(%x: tensor<10xf32>, %idx: tensor<5xi32>,
    %v: tensor<5xf32>) -> tensor<10xf32> {
  %zero = stablehlo.constant dense<0> : tensor<5xi32>
  %n = stablehlo.constant dense<10> : tensor<5xi32>
  %neg = stablehlo.compare LT, %idx, %zero, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %wrap = stablehlo.add %idx, %n : tensor<5xi32>
  %fixed = stablehlo.select %neg, %wrap, %idx : tensor<5xi1>, tensor<5xi32>
  %col = stablehlo.broadcast_in_dim %fixed, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
  %r = "stablehlo.scatter"(%x, %col, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}
    : (tensor<10xf32>, tensor<5x1xi32>, tensor<5xf32>) -> tensor<10xf32>
  return %r : tensor<10xf32>
}
)";
  CliResult result = runIdxmap({"verify"}, text);
  EXPECT_NE(result.err.find("remark: stablehlo.scatter: in bounds holds if and only if every "
                            "element of %idx is in [-10, 9]"),
            std::string::npos)
      << result.err;
  CliResult json = runIdxmap({"verify", "--json"}, text);
  const nlohmann::json records = nlohmann::json::parse(json.out);
  const nlohmann::json& properties = records.at(0).at("properties");
  EXPECT_EQ(properties.at("in_bounds").at("condition_on"), "arguments");
  const nlohmann::json& unique = properties.at("unique");
  ASSERT_EQ(unique.at("verdict"), "unknown") << json.out;
  EXPECT_EQ(unique.at("condition_on"), "arguments");
  // The collisions, checked on the stated set by isl rather than by its text.
  const std::string condition = unique.at("condition");
  const std::string prefix =
      "no two elements u and w of %idx, u before w in row-major order, satisfy ";
  ASSERT_EQ(condition.rfind(prefix, 0), 0u) << condition;
  isl::set collide(islContext(), condition.substr(prefix.size()));
  for (int u = -12; u <= 12; ++u)
    for (int w = -12; w <= 12; ++w) {
      auto fix = [](int i) { return i < 0 ? i + 10 : i; };
      bool expected = fix(u) == fix(w) && 0 <= fix(u) && fix(u) <= 9;
      isl::set point(islContext(), "{ [" + std::to_string(u) + ", " + std::to_string(w) + "] }");
      EXPECT_EQ(point.is_subset(collide), expected) << u << ", " << w << ": " << condition;
    }
  // Each condition comes with values of %idx that break it (every other argument 0): checked
  // here on the fix-up by hand.
  auto witnessed = [&](const nlohmann::json& property) {
    const nlohmann::json& witness = property.at("witness");
    std::vector<int> idx(5, witness.at("others").get<int>());
    for (const nlohmann::json& element : witness.at("elements")) {
      EXPECT_EQ(element.at("tensor"), "%idx") << witness;
      idx.at(element.at("index").at(0).get<size_t>()) = element.at("value").get<int>();
    }
    std::vector<int> fixed;
    for (int i : idx) fixed.push_back(i < 0 ? i + 10 : i);
    return fixed;
  };
  std::vector<int> outside = witnessed(properties.at("in_bounds"));
  EXPECT_TRUE(std::any_of(outside.begin(), outside.end(), [](int i) { return i < 0 || i > 9; }))
      << properties.at("in_bounds");
  std::vector<int> twice = witnessed(unique);
  bool twiceWritten = false;
  for (size_t a = 0; a < twice.size(); ++a)
    for (size_t b = a + 1; b < twice.size(); ++b)
      twiceWritten = twiceWritten || (twice[a] == twice[b] && twice[a] >= 0 && twice[a] <= 9);
  EXPECT_TRUE(twiceWritten) << unique;
  EXPECT_NE(result.err.find("in [-10, 9]; it fails at %idx = ["), std::string::npos) << result.err;
  // With %idx assumed unique and in [-10, 9], in bounds is proven and unique still is not:
  // -1 and 9 are distinct yet collide, and the condition still says so.
  CliResult assumed =
      runIdxmap({"verify", "--json", "--assume", "%idx: unique, in [-10, 9]"}, text);
  const nlohmann::json assumedRecords = nlohmann::json::parse(assumed.out);
  const nlohmann::json& given = assumedRecords.at(0).at("properties");
  EXPECT_EQ(given.at("in_bounds").at("verdict"), "proven") << assumed.out;
  EXPECT_EQ(given.at("unique").at("verdict"), "unknown") << assumed.out;
  const std::string stillCollide = given.at("unique").at("condition");
  ASSERT_EQ(stillCollide.rfind(prefix, 0), 0u) << stillCollide;
  EXPECT_TRUE(isl::set(islContext(), "{ [-1, 9] }")
                  .is_subset(isl::set(islContext(), stillCollide.substr(prefix.size()))))
      << stillCollide;
  // No witness there: what `unique` asks of the other elements, values isl picks do not know.
  EXPECT_TRUE(given.at("unique").at("witness").is_null()) << assumed.out;
}

TEST(VerifyProgramValuesCli, AWindowOfAnArangeAtARunTimeOffset) {
  const std::string text = R"(func.func @main(%t: tensor<10x2xf32>, %i: tensor<i32>)
    -> tensor<4x2xf32> {
  %arange = stablehlo.iota dim = 0 : tensor<10xi32>
  %window = stablehlo.dynamic_slice %arange, %i, sizes = [4] : (tensor<10xi32>, tensor<i32>) -> tensor<4xi32>
  %col = stablehlo.reshape %window : (tensor<4xi32>) -> tensor<4x1xi32>
  %g = "stablehlo.gather"(%t, %col) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 2>} : (tensor<10x2xf32>, tensor<4x1xi32>) -> tensor<4x2xf32>
  return %g : tensor<4x2xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(verdicts(result).at(1), "proven") << result.out;  // sorted
  EXPECT_EQ(verdicts(result).at(2), "proven") << result.out;  // in bounds
}

// A gather's index vectors from rows of an argument (x[i, j] on a 5x7 operand: a row of %idx
// per vector): in bounds on the argument, one clause per column with its own range. When the
// columns' slices would also name elements only another entry reads (entry 0 reads %x[1..3, 0],
// entry 1 %x[0, 0..2]: "%x[:, 0]" would take in %x[0, 0], which only entry 1 reads, and ask
// it to be in [0, 4]), the condition stays on the index vectors.
TEST(VerifyProgramValuesCli, InBoundsOnTheColumnsOfAnArgumentsRows) {
  auto gather = [](const std::string& indices) {
    return R"(func.func @main(%x: tensor<4x4xi64>, %idx: tensor<3x2xi64>,
                 %operand: tensor<5x7xf32>) -> tensor<3xf32> {
)" + indices +
           R"(
  %r = "stablehlo.gather"(%operand, %v) {dimension_numbers = #stablehlo.gather<
      collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 1>} : (tensor<5x7xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
)";
  };
  auto inBounds = [](const CliResult& result) {
    return nlohmann::json::parse(result.out).at(0).at("properties").at("in_bounds");
  };
  CliResult rows =
      runIdxmap({"verify", "--json"}, gather("  %v = stablehlo.convert %idx : tensor<3x2xi64>"));
  EXPECT_EQ(rows.exitCode, 0) << rows.err;
  EXPECT_EQ(inBounds(rows).at("condition_on"), "arguments") << rows.out;
  EXPECT_EQ(inBounds(rows).at("condition"),
            "every element of %idx[:, 0] that the op reads is in [0, 4] and every element of "
            "%idx[:, 1] that the op reads is in [0, 6]")
      << rows.out;
  // Its witness, a row of %idx outside [0, 4] x [0, 6] (the other elements kept in both).
  const nlohmann::json witness = inBounds(rows).at("witness");
  std::vector<std::vector<int64_t>> idx(3, std::vector<int64_t>(2, witness.at("others")));
  for (const nlohmann::json& element : witness.at("elements"))
    idx.at(element.at("index").at(0)).at(element.at("index").at(1)) = element.at("value");
  EXPECT_TRUE(std::any_of(idx.begin(), idx.end(), [](const auto& row) {
    return row[0] < 0 || row[0] > 4 || row[1] < 0 || row[1] > 6;
  })) << witness;
  CliResult crossed = runIdxmap({"verify", "--json"}, gather(R"(
  %down = stablehlo.slice %x [1:4, 0:1] : (tensor<4x4xi64>) -> tensor<3x1xi64>
  %row = stablehlo.slice %x [0:1, 0:3] : (tensor<4x4xi64>) -> tensor<1x3xi64>
  %across = stablehlo.transpose %row, dims = [1, 0] : (tensor<1x3xi64>) -> tensor<3x1xi64>
  %v = stablehlo.concatenate %down, %across, dim = 1
    : (tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x2xi64>)"));
  EXPECT_EQ(crossed.exitCode, 0) << crossed.err;
  EXPECT_EQ(inBounds(crossed).at("condition_on"), "index vectors") << crossed.out;
}

// `x.at[rows, cols].add(v)` as JAX lowers it: each index vector [%rows[i], %cols[i]], from two
// arguments. In bounds iff every row is in [0, 5] and every column in [0, 4] (by hand, from the
// 6x5 operand); the witness, values of both arguments, must put some pair outside.
TEST(VerifyProgramValuesCli, InBoundsOnTwoArgumentsWithAWitness) {
  const std::string text = R"(func.func @main(%x: tensor<6x5xf32>, %rows: tensor<4xi32>,
    %cols: tensor<4xi32>, %v: tensor<4xf32>) -> tensor<6x5xf32> {
  %r = stablehlo.broadcast_in_dim %rows, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
  %c = stablehlo.broadcast_in_dim %cols, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
  %idx = stablehlo.concatenate %r, %c, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %s = "stablehlo.scatter"(%x, %idx, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1],
      scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}
    : (tensor<6x5xf32>, tensor<4x2xi32>, tensor<4xf32>) -> tensor<6x5xf32>
  return %s : tensor<6x5xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  const nlohmann::json inBounds =
      nlohmann::json::parse(result.out).at(0).at("properties").at("in_bounds");
  EXPECT_EQ(inBounds.at("condition"),
            "every element of %cols that the op reads is in [0, 4] and every element of %rows "
            "that the op reads is in [0, 5]")
      << result.out;
  const nlohmann::json& witness = inBounds.at("witness");
  ASSERT_FALSE(witness.is_null()) << result.out;
  std::map<std::string, std::vector<int64_t>> values = {
      {"%rows", std::vector<int64_t>(4, witness.at("others"))},
      {"%cols", std::vector<int64_t>(4, witness.at("others"))}};
  for (const nlohmann::json& element : witness.at("elements"))
    values.at(element.at("tensor")).at(element.at("index").at(0)) = element.at("value");
  bool outside = false;
  for (size_t i = 0; i < 4; ++i) {
    const int64_t row = values["%rows"][i], col = values["%cols"][i];
    outside = outside || row < 0 || row > 5 || col < 0 || col > 4;
  }
  EXPECT_TRUE(outside) << witness;
}

// A witness of an argument past 16 elements names its elements rather than printing it whole:
// a gather of 20 rows %idx of a 30-row table is in bounds iff every element is in [0, 29].
TEST(VerifyProgramValuesCli, AWitnessOfALargeArgumentNamesItsElements) {
  const std::string text = R"(func.func @main(%t: tensor<30x2xf32>, %idx: tensor<20x1xi32>)
    -> tensor<20x2xf32> {
  %g = "stablehlo.gather"(%t, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 2>} : (tensor<30x2xf32>, tensor<20x1xi32>) -> tensor<20x2xf32>
  return %g : tensor<20x2xf32>
}
)";
  CliResult result = runIdxmap({"verify", "--json"}, text);
  ASSERT_EQ(result.exitCode, 0) << result.err;
  const nlohmann::json inBounds =
      nlohmann::json::parse(result.out).at(0).at("properties").at("in_bounds");
  EXPECT_EQ(inBounds.at("condition"), "every element of %idx is in [0, 29]") << result.out;
  const nlohmann::json& witness = inBounds.at("witness");
  ASSERT_EQ(witness.at("elements").size(), 1u) << result.out;
  const nlohmann::json& element = witness.at("elements").at(0);
  const int64_t value = element.at("value");
  EXPECT_TRUE(value < 0 || value > 29) << witness;
  EXPECT_EQ(witness.at("others"), 0) << witness;  // 0 keeps it: only the listed element breaks
  ASSERT_EQ(element.at("index").size(), 2u) << witness;
  const std::string named = "%idx[" + element.at("index").at(0).dump() +
                            ", 0] = " + std::to_string(value) +
                            " and every other element of %idx 0 (every other argument 0): ";
  EXPECT_EQ(witness.at("explanation").get<std::string>().rfind(named, 0), 0u) << witness;
  // A table of 8M rows: the condition stands, and no witness (a replay would build it all).
  std::string large = std::regex_replace(text, std::regex("30x2xf32"), "8000000x2xf32");
  CliResult big = runIdxmap({"verify", "--json"}, large);
  ASSERT_EQ(big.exitCode, 0) << big.err;
  const nlohmann::json bigInBounds =
      nlohmann::json::parse(big.out).at(0).at("properties").at("in_bounds");
  EXPECT_EQ(bigInBounds.at("condition"), "every element of %idx is in [0, 7999999]") << big.out;
  EXPECT_TRUE(bigInBounds.at("witness").is_null()) << big.out;
}

// `x.at[a + 2, a]` into an 8x8 table: in bounds iff a + 2 and a are in [0, 7], every element of
// %a in [0, 5] (by hand); under `%a: in [-4, 4]`, in [0, 4], and the verdict lists the fact it
// relied on, although the op reads no whole vector of %a (each vector pairs two of its reads).
TEST(VerifyProgramValuesCli, AnAssumedRangeIsListedWhereItBoundsTheValues) {
  const std::string text = R"(func.func @main(%a: tensor<3xi32>, %x: tensor<8x8xf32>,
    %u: tensor<3xf32>) -> tensor<8x8xf32> {
  %two = stablehlo.constant dense<2> : tensor<3xi32>
  %b = stablehlo.add %a, %two : tensor<3xi32>
  %col = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
  %acol = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
  %pairs = stablehlo.concatenate %col, %acol, dim = 1
    : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
  %r = "stablehlo.scatter"(%x, %pairs, %u) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    "stablehlo.return"(%q) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],
      inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}
    : (tensor<8x8xf32>, tensor<3x2xi32>, tensor<3xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
)";
  auto inBounds = [&](const std::vector<std::string>& arguments) {
    CliResult result = runIdxmap(arguments, text);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    return nlohmann::json::parse(result.out).at(0).at("properties").at("in_bounds");
  };
  const nlohmann::json free = inBounds({"verify", "--json"});
  EXPECT_EQ(free.at("condition"), "every element of %a is in [0, 5]") << free;
  EXPECT_EQ(free.at("assumptions"), nlohmann::json::array()) << free;
  const nlohmann::json assumed = inBounds({"verify", "--json", "--assume", "%a: in [-4, 4]"});
  EXPECT_EQ(assumed.at("condition"), "every element of %a is in [0, 4]") << assumed;
  EXPECT_EQ(assumed.at("assumptions"), nlohmann::json::array({"%a: in [-4, 4]"})) << assumed;
}

}  // namespace
}  // namespace idxmap::cli_test
