// The index provers on StableHLO's own gather and scatter cases (JAX-generated testdata and
// the interpreter's cases): for every op whose index values are known, each verdict equals
// brute force on those values (spec 000's formulas), and every `unique_indices = true` claim
// is confirmed or refuted. Skips cleanly when the conformance folder is absent.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/ops/stablehlo/conformance_records.h"
#include "tests/ops/stablehlo/test_util.h"
#include "tests/verify/index_truth.h"
#include "verify/index_properties.h"

namespace idxmap {
namespace {

using gather_scatter::Tensor;
using gather_scatter::testing::gatherDims;
using gather_scatter::testing::ints;
using gather_scatter::testing::parseTensorType;
using gather_scatter::testing::scatterDims;
using gather_scatter::testing::tensorFrom;
using index_truth::Truth;
using nlohmann::json;

struct Tally {
  int gathers = 0, scatters = 0;
  int claimsConfirmed = 0, claimsRefuted = 0;
};

void expectDecided(const ProofResult& verdict, bool truth, const std::string& what) {
  ASSERT_FALSE(verdict.isUnknown()) << what << ": " << verdict.reason;
  EXPECT_EQ(verdict.isProven(), truth) << what;
}

void checkGather(const json& record, Tally& tally) {
  std::optional<TensorType> operand = parseTensorType(record.at("operand_type"));
  std::optional<TensorType> indices = parseTensorType(record.at("indices_type"));
  std::optional<TensorType> result = parseTensorType(record.at("result_types").at(0));
  if (!operand || !indices || !result || record.at("indices").is_null()) return;
  gather_scatter::GatherOp op;
  op.operand = *operand;
  op.start_indices = *indices;
  op.dimension_numbers = gatherDims(record.at("attrs"));
  op.slice_sizes = ints(record.at("attrs").at("slice_sizes"));
  Tensor values = tensorFrom(indices->element_type, indices->shape, record.at("indices"));
  Truth truth = index_truth::gatherTruth(op, values, result->shape);
  IndexProperties properties = proveGatherIndexProperties(op, index_truth::valuesOf(values));
  std::string id = record.at("id");
  expectDecided(properties.sorted, truth.sorted, id + " sorted");
  expectDecided(properties.inBounds, truth.inBounds, id + " in bounds");
  ++tally.gathers;
}

void checkScatter(const json& record, Tally& tally) {
  gather_scatter::ScatterOp op;
  for (const json& text : record.at("input_types")) {
    std::optional<TensorType> type = parseTensorType(text);
    if (!type) return;
    op.inputs.push_back(*type);
  }
  for (const json& text : record.at("updates_types")) {
    std::optional<TensorType> type = parseTensorType(text);
    if (!type) return;
    op.updates.push_back(*type);
  }
  std::optional<TensorType> indices = parseTensorType(record.at("indices_type"));
  if (!indices || record.at("indices").is_null()) return;
  op.scatter_indices = *indices;
  op.dimension_numbers = scatterDims(record.at("attrs"));
  op.unique_indices = record.at("attrs").value("unique_indices", false);
  Tensor values = tensorFrom(indices->element_type, indices->shape, record.at("indices"));
  Truth truth = index_truth::scatterTruth(op, values);
  IndexProperties properties = proveScatterIndexProperties(op, index_truth::valuesOf(values));
  std::string id = record.at("id");
  ASSERT_TRUE(properties.unique) << id;
  expectDecided(*properties.unique, truth.unique, id + " unique");
  expectDecided(properties.sorted, truth.sorted, id + " sorted");
  expectDecided(properties.inBounds, truth.inBounds, id + " in bounds");
  if (op.unique_indices)
    (properties.unique->isProven() ? tally.claimsConfirmed : tally.claimsRefuted)++;
  ++tally.scatters;
}

Tally checkFile(const std::string& name) {
  Tally tally;
  std::ifstream in(std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/" + name);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    json record = json::parse(line);
    if (!record.contains("attrs") || record.contains("operand_quantized_type")) continue;
    if (record.at("op") == "gather") checkGather(record, tally);
    if (record.at("op") == "scatter") checkScatter(record, tally);
  }
  return tally;
}

bool present(const std::string& name) {
  return std::ifstream(std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/" + name).good();
}

TEST(ConformanceProperties, VerdictsAgreeWithBruteForceOnKnownIndices) {
  if (!present("testdata_cases.jsonl") || !present("interpret_cases.jsonl"))
    GTEST_SKIP() << "no conformance data";
  Tally testdata = checkFile("testdata_cases.jsonl");
  Tally interpret = checkFile("interpret_cases.jsonl");
  EXPECT_GE(testdata.scatters, 250);
  EXPECT_GE(interpret.gathers + interpret.scatters, 6);
  // JAX's scatter tests claim unique_indices on most ops: each claim is decided.
  EXPECT_GE(testdata.claimsConfirmed + testdata.claimsRefuted, 200);
  std::cout << "unique_indices claims: " << testdata.claimsConfirmed << " confirmed, "
            << testdata.claimsRefuted << " refuted\n";
}

}  // namespace
}  // namespace idxmap
