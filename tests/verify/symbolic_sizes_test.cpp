// The index provers on ops with `?` dims (verify/symbolic_sizes_internal.h) against brute force
// at every size: random gathers and scatters whose operand, inputs or updates have `?` dims
// (some bounded), with concrete index tensors. Every assignment of sizes 0..kLargest to the
// `?` dims that makes a valid static op is built and enumerated (index_truth.h); a proven
// property must hold at each, a refuted one fail at each that has an index point, and an
// unknown one must state a condition that holds exactly where brute force says the property
// does.
#include <gtest/gtest.h>
#include <isl/set.h>

#include <cstdio>
#include <map>
#include <random>
#include <regex>

#include "core/bridges/isl_bridge.h"
#include "tests/ops/stablehlo/random_ops.h"
#include "tests/support/sampling.h"
#include "tests/verify/index_truth.h"
#include "tests/verify/symbolic_sizes_support.h"
#include "verify/index_properties.h"

namespace idxmap {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using gather_scatter::Tensor;
using namespace gather_scatter::testing;
using namespace index_truth;
using namespace sizes_testing;

TEST(SymbolicSizes, GatherVerdictsHoldAtEverySize) {
  OperationBoundIslBudget budget;
  sampling::Sample sample = sampling::sampleOf("SymbolicSizes gathers", 600, 150);
  std::mt19937 rng(sample.seed);
  SizeVerdicts tally;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    RandomOp random = randomOp(rng);
    GatherOp op = asGatherOp(random);
    Tensor indices = indicesFor(rng, random);
    std::vector<DynamicDim> dims;
    makeDynamic(rng, op.operand, "operand", dims);
    if (dims.empty()) continue;
    SCOPED_TRACE("trial " + std::to_string(trial) + ", operand " + shapeText(op.operand));
    IndexProperties properties = proveGatherIndexProperties(op, valuesOf(indices));
    auto truthAt = [&](const std::vector<int64_t>& sizes,
                       bool Truth::*property) -> std::optional<std::pair<bool, bool>> {
      std::optional<GatherOp> fixed = gatherAtSizes(op, dims, sizes);
      if (!fixed) return std::nullopt;
      return std::pair(gatherTruth(*fixed, indices, random.resultShape).*property,
                       hasPoint(random.resultShape));
    };
    expectMatches(
        properties.sorted, dims, [&](const auto& sizes) { return truthAt(sizes, &Truth::sorted); },
        "sorted", tally);
    expectMatches(
        properties.inBounds, dims,
        [&](const auto& sizes) { return truthAt(sizes, &Truth::inBounds); }, "in bounds", tally);
  }
  tally.expectEachAtLeast(sample.count >= 150 ? 2 : 0);
}

TEST(SymbolicSizes, ScatterVerdictsHoldAtEverySize) {
  OperationBoundIslBudget budget;
  sampling::Sample sample = sampling::sampleOf("SymbolicSizes scatters", 600, 150);
  std::mt19937 rng(sample.seed);
  SizeVerdicts tally;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    RandomOp random = randomOp(rng);
    ScatterOp op = asScatterOp(random, gather_scatter::UpdateComputation::kAdd);
    Tensor indices = indicesFor(rng, random);
    std::vector<DynamicDim> dims;
    // One input or both, one update or both: the op gives them one shape (C1, C3).
    makeDynamic(rng, op.inputs[0], "result", dims);
    if (uniform(rng, 0, 1)) op.inputs[1] = op.inputs[0];
    makeDynamic(rng, op.updates[0], "updates", dims);
    if (uniform(rng, 0, 1)) op.updates[1] = op.updates[0];
    if (dims.empty()) continue;
    op.results.clear();
    const auto& dn = op.dimension_numbers;
    SCOPED_TRACE("trial " + std::to_string(trial) + ", inputs " + shapeText(op.inputs[0]) + " " +
                 shapeText(op.inputs[1]) + ", updates " + shapeText(op.updates[0]) + " " +
                 shapeText(op.updates[1]) + ", indices " + index_points::text(indices.shape) +
                 " = " + index_points::text(indices.ints) + dimensionNumbersText(dn));
    IndexProperties properties = proveScatterIndexProperties(op, valuesOf(indices));
    ASSERT_TRUE(properties.unique);
    auto truthAt = [&](const std::vector<int64_t>& sizes,
                       bool Truth::*property) -> std::optional<std::pair<bool, bool>> {
      std::optional<ScatterOp> fixed = scatterAtSizes(op, dims, sizes);
      if (!fixed) return std::nullopt;
      return std::pair(scatterTruth(*fixed, indices).*property, hasPoint(fixed->updates[0].shape));
    };
    expectMatches(
        *properties.unique, dims, [&](const auto& sizes) { return truthAt(sizes, &Truth::unique); },
        "unique", tally);
    expectMatches(
        properties.sorted, dims, [&](const auto& sizes) { return truthAt(sizes, &Truth::sorted); },
        "sorted", tally);
    expectMatches(
        properties.inBounds, dims,
        [&](const auto& sizes) { return truthAt(sizes, &Truth::inBounds); }, "in bounds", tally);
  }
  tally.expectEachAtLeast(sample.count >= 150 ? 3 : 0);
}

// ---- `?` dims of the index tensor itself, its values a formula of the point
// (symbolic_sizes_support.h).

TEST(SymbolicSizes, GathersWithDynamicIndexDimsHoldAtEverySize) {
  OperationBoundIslBudget budget;
  sampling::Sample sample = sampling::sampleOf("SymbolicSizes gathers, `?` indices", 300, 80);
  std::mt19937 rng(sample.seed);
  SizeVerdicts tally;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    RandomOp random = randomOp(rng);
    GatherOp op = asGatherOp(random);
    std::vector<DynamicDim> dims;
    makeIndexDimsDynamic(rng, op.start_indices, "start_indices",
                         op.dimension_numbers.index_vector_dim, dims);
    if (dims.empty()) continue;
    if (uniform(rng, 0, 1)) makeDynamic(rng, op.operand, "operand", dims);
    op.result.reset();
    const Formula formula = randomFormula(rng, op.start_indices.shape.size());
    SCOPED_TRACE("trial " + std::to_string(trial) + ", operand " + shapeText(op.operand) +
                 ", start_indices " + shapeText(op.start_indices));
    IndexProperties properties =
        proveGatherIndexProperties(op, formulaValues(op.start_indices.shape, formula));
    auto truthAt = [&](const std::vector<int64_t>& sizes,
                       bool Truth::*property) -> std::optional<std::pair<bool, bool>> {
      std::optional<GatherOp> fixed = gatherAtSizes(op, dims, sizes);
      if (!fixed) return std::nullopt;
      const Index result = gather_scatter::inferGatherResultShape(
          fixed->dimension_numbers, fixed->start_indices.shape, fixed->slice_sizes);
      return std::pair(
          gatherTruth(*fixed, formulaTensor(fixed->start_indices.shape, formula), result).*property,
          hasPoint(result));
    };
    expectMatches(
        properties.sorted, dims, [&](const auto& sizes) { return truthAt(sizes, &Truth::sorted); },
        "sorted", tally);
    expectMatches(
        properties.inBounds, dims,
        [&](const auto& sizes) { return truthAt(sizes, &Truth::inBounds); }, "in bounds", tally);
  }
  tally.expectEachAtLeast(sample.count >= 80 ? 1 : 0);
}

TEST(SymbolicSizes, ScattersWithDynamicIndexDimsHoldAtEverySize) {
  OperationBoundIslBudget budget;
  sampling::Sample sample = sampling::sampleOf("SymbolicSizes scatters, `?` indices", 300, 80);
  std::mt19937 rng(sample.seed);
  SizeVerdicts tally;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    RandomOp random = randomOp(rng);
    ScatterOp op = asScatterOp(random, gather_scatter::UpdateComputation::kAdd);
    std::vector<DynamicDim> dims;
    makeIndexDimsDynamic(rng, op, dims);
    if (dims.empty()) continue;
    if (uniform(rng, 0, 1)) {
      makeDynamic(rng, op.inputs[0], "result", dims);
      op.inputs[1] = op.inputs[0];
    }
    op.results.clear();
    const Formula formula = randomFormula(rng, op.scatter_indices.shape.size());
    SCOPED_TRACE("trial " + std::to_string(trial) + ", inputs " + shapeText(op.inputs[0]) +
                 ", updates " + shapeText(op.updates[0]) + ", indices " +
                 shapeText(op.scatter_indices));
    IndexProperties properties =
        proveScatterIndexProperties(op, formulaValues(op.scatter_indices.shape, formula));
    ASSERT_TRUE(properties.unique);
    auto truthAt = [&](const std::vector<int64_t>& sizes,
                       bool Truth::*property) -> std::optional<std::pair<bool, bool>> {
      std::optional<ScatterOp> fixed = scatterAtSizes(op, dims, sizes);
      if (!fixed) return std::nullopt;
      return std::pair(
          scatterTruth(*fixed, formulaTensor(fixed->scatter_indices.shape, formula)).*property,
          hasPoint(fixed->updates[0].shape));
    };
    // (No structured binding: clang 14 cannot capture one in a lambda.)
    for (const auto& named :
         {std::pair(&Truth::unique, "unique"), std::pair(&Truth::sorted, "sorted"),
          std::pair(&Truth::inBounds, "in bounds")}) {
      bool Truth::*property = named.first;
      const ProofResult& verdict = property == &Truth::unique   ? *properties.unique
                                   : property == &Truth::sorted ? properties.sorted
                                                                : properties.inBounds;
      expectMatches(
          verdict, dims, [&](const auto& sizes) { return truthAt(sizes, property); }, named.second,
          tally);
    }
  }
  tally.expectEachAtLeast(sample.count >= 80 ? 4 : 0);
}

}  // namespace
}  // namespace idxmap
