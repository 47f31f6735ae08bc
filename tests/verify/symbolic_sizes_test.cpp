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
#include "verify/index_properties.h"

namespace idxmap {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using gather_scatter::Tensor;
using namespace gather_scatter::testing;
using namespace index_truth;

constexpr int64_t kLargestSize = 5;

// A `?` dim of one of the op's tensors: which tensor (as the provers name it) and where, and
// another dim the op gives the same size (a scatter's updates along an index tensor's dim).
struct DynamicDim {
  std::string tensor;
  size_t dim;
  int64_t largest;  // its bound, or kLargestSize
  std::string tiedTensor = "";
  size_t tiedDim = 0;
  bool is(const std::string& t, size_t d) const {
    return (tensor == t && dim == d) || (tiedTensor == t && tiedDim == d);
  }
};

// Makes each dim of `type` a `?` with probability 1/3, bounded now and then.
void makeDynamic(std::mt19937& rng, TensorType& type, const std::string& tensor,
                 std::vector<DynamicDim>& dims) {
  for (size_t d = 0; d < type.shape.size(); ++d) {
    if (dims.size() >= 3 || uniform(rng, 0, 2) != 0) continue;
    int64_t bound = uniform(rng, 0, 3) == 0 ? uniform(rng, 1, kLargestSize) : kDynamic;
    if (bound != kDynamic || !type.bounds.empty()) type.bounds.resize(type.shape.size(), kDynamic);
    if (bound != kDynamic) type.bounds[d] = bound;
    type.shape[d] = kDynamic;
    dims.push_back({tensor, d, bound == kDynamic ? kLargestSize : bound});
  }
}

// Calls `visit(sizes)` for every assignment of 0..kLargest (or the dim's bound) to `dims`.
template <class Visit>
void forEachSize(const std::vector<DynamicDim>& dims, Visit&& visit) {
  std::vector<int64_t> sizes(dims.size(), 0);
  while (true) {
    visit(sizes);
    size_t d = 0;
    for (; d < dims.size(); ++d) {
      if (++sizes[d] <= dims[d].largest) break;
      sizes[d] = 0;
    }
    if (d == dims.size()) return;
  }
}

// The static copy of `type`, one of the tensors named `tensor`, at `sizes`.
TensorType atSizes(const TensorType& type, const std::string& tensor,
                   const std::vector<DynamicDim>& dims, const std::vector<int64_t>& sizes) {
  TensorType fixed = type;
  for (size_t k = 0; k < dims.size(); ++k)
    for (size_t d = 0; d < type.shape.size(); ++d)
      if (dims[k].is(tensor, d) && type.isDynamic(d)) fixed.shape[d] = sizes[k];
  fixed.bounds.clear();
  return fixed;
}

// Whether a condition the provers stated ("n1 <= n0, where n0 is dim 0 of result and ...")
// holds at `sizes`: the legend says which dim each parameter is.
bool conditionHolds(const std::string& condition, const std::vector<DynamicDim>& dims,
                    const std::vector<int64_t>& sizes) {
  size_t where = condition.find(", where ");
  std::string body = condition.substr(0, where), values;
  std::string legend = where == std::string::npos ? "" : condition.substr(where);
  std::regex entry("(n[0-9]+) is dim ([0-9]+) of ([a-z_]+)");
  std::string params;
  for (std::sregex_iterator it(legend.begin(), legend.end(), entry), end; it != end; ++it) {
    const std::smatch& match = *it;
    size_t dim = std::stoul(match[2]);
    std::optional<int64_t> value;
    for (size_t k = 0; k < dims.size() && !value; ++k)
      if (dims[k].is(match[3], dim)) value = sizes[k];
    EXPECT_TRUE(value) << "the legend names a dim that is not `?`: " << condition;
    params += (params.empty() ? "" : ", ") + match[1].str();
    values += " and " + match[1].str() + " = " + std::to_string(value.value_or(0));
  }
  isl::set at(islContext(), "[" + params + "] -> { : (" + body + ")" + values + " }");
  return !at.is_empty();
}

struct SizeVerdicts {
  int proven = 0, refuted = 0, conditional = 0;
  // Every kind of verdict comes up in a CI-sized sample: at least `floor` of each (a quarter
  // of what 60 seeds gave at the least, so that a fresh sample's spread stays above it).
  void expectEachAtLeast(int floor) const {
    std::printf("[ tally ] proven %d, refuted %d, conditional %d\n", proven, refuted, conditional);
    EXPECT_GE(proven, floor);
    EXPECT_GE(refuted, floor);
    EXPECT_GE(conditional, floor);
  }
};

// `verdict` against `truthAt(sizes)` (nullopt: not a valid op at those sizes; `points`: whether
// the index space has a point there) at every size.
void expectMatches(
    const ProofResult& verdict, const std::vector<DynamicDim>& dims,
    const std::function<std::optional<std::pair<bool, bool>>(const std::vector<int64_t>&)>& truthAt,
    const std::string& what, SizeVerdicts& tally) {
  ASSERT_TRUE(!verdict.isUnknown() || !verdict.condition.empty())
      << what << ": unknown without a condition: " << verdict.reason;
  if (verdict.isRefuted()) {
    ASSERT_TRUE(verdict.counterexample) << what;
    EXPECT_EQ(verdict.counterexample->explanation.rfind("at sizes ", 0), 0u) << what;
  }
  (verdict.isProven() ? tally.proven : verdict.isRefuted() ? tally.refuted : tally.conditional)++;
  forEachSize(dims, [&](const std::vector<int64_t>& sizes) {
    std::optional<std::pair<bool, bool>> truth = truthAt(sizes);
    if (!truth) return;
    auto [holds, hasPoint] = *truth;
    std::string at = what + " at sizes " + index_points::text(sizes);
    if (verdict.isProven()) EXPECT_TRUE(holds) << at;
    if (verdict.isRefuted() && hasPoint) EXPECT_FALSE(holds) << at;
    if (verdict.isUnknown())
      EXPECT_EQ(conditionHolds(verdict.condition, dims, sizes), holds)
          << at << ": condition " << verdict.condition;
  });
}

// "[?, 3]" (a `?` printed as -1 would read as a size).
std::string shapeText(const TensorType& type) {
  std::string out;
  for (int64_t size : type.shape)
    out += (out.empty() ? "" : ", ") + (size == kDynamic ? std::string("?") : std::to_string(size));
  return "[" + out + "]";
}

bool hasPoint(const std::vector<int64_t>& shape) { return !gather_scatter::isEmptyShape(shape); }

TEST(SymbolicSizes, GatherVerdictsHoldAtEverySize) {
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
      GatherOp fixed = op;
      fixed.operand = atSizes(op.operand, "operand", dims, sizes);
      if (!gather_scatter::validateGather(fixed).empty()) return std::nullopt;
      return std::pair(gatherTruth(fixed, indices, random.resultShape).*property,
                       hasPoint(random.resultShape));
    };
    expectMatches(
        properties.sorted, dims, [&](const auto& sizes) { return truthAt(sizes, &Truth::sorted); },
        "sorted", tally);
    expectMatches(
        properties.inBounds, dims,
        [&](const auto& sizes) { return truthAt(sizes, &Truth::inBounds); }, "in bounds", tally);
  }
  if (sample.count >= 150) tally.expectEachAtLeast(2);
}

TEST(SymbolicSizes, ScatterVerdictsHoldAtEverySize) {
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
                 " = " + index_points::text(indices.ints) + ", window dims " +
                 index_points::text(dn.update_window_dims) + ", inserted " +
                 index_points::text(dn.inserted_window_dims) + ", batching " +
                 index_points::text(dn.input_batching_dims) + " / " +
                 index_points::text(dn.scatter_indices_batching_dims) + ", to operand " +
                 index_points::text(dn.scatter_dims_to_operand_dims) + ", vector dim " +
                 std::to_string(dn.index_vector_dim));
    IndexProperties properties = proveScatterIndexProperties(op, valuesOf(indices));
    ASSERT_TRUE(properties.unique);
    auto truthAt = [&](const std::vector<int64_t>& sizes,
                       bool Truth::*property) -> std::optional<std::pair<bool, bool>> {
      ScatterOp fixed = op;
      for (TensorType& input : fixed.inputs) input = atSizes(input, "result", dims, sizes);
      for (TensorType& update : fixed.updates) update = atSizes(update, "updates", dims, sizes);
      if (!gather_scatter::validateScatter(fixed).empty()) return std::nullopt;
      return std::pair(scatterTruth(fixed, indices).*property, hasPoint(fixed.updates[0].shape));
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
  if (sample.count >= 150) tally.expectEachAtLeast(3);
}

// ---- `?` dims of the index tensor itself. Its values are a formula of the point (the vector
// dim's coordinate included), as iotas and arithmetic of them give whatever the sizes:
// (sum_d c_d * p_d + b) mod m, or without the mod.
struct Formula {
  std::vector<int64_t> coefficients;
  int64_t offset = 0, modulus = 0;  // 0: no mod
  int64_t at(const Index& point) const {
    int64_t value = offset;
    for (size_t d = 0; d < point.size(); ++d) value += coefficients[d] * point[d];
    return modulus ? ((value % modulus) + modulus) % modulus : value;  // isl's mod
  }
};

Formula randomFormula(std::mt19937& rng, size_t rank) {
  Formula f;
  for (size_t d = 0; d < rank; ++d) f.coefficients.push_back(uniform(rng, -2, 2));
  f.offset = uniform(rng, -1, 4);
  const int64_t moduli[] = {0, 0, 3, 4};
  f.modulus = moduli[uniform(rng, 0, 3)];
  return f;
}

// The values as the value analysis gives them for a tensor with `?` dims: over points bounded
// below only along those dims.
index_provenance::IndexValues formulaValues(const std::vector<int64_t>& shape, const Formula& f) {
  std::string point, constraints, sum = std::to_string(f.offset);
  for (size_t d = 0; d < shape.size(); ++d) {
    const std::string p = "p" + std::to_string(d);
    point += (d ? ", " : "") + p;
    constraints += "0 <= " + p + (shape[d] == kDynamic ? "" : " < " + std::to_string(shape[d]));
    constraints += " and ";
    sum += " + " + std::to_string(f.coefficients[d]) + " * " + p;
  }
  const std::string value = f.modulus ? "(" + sum + ") mod " + std::to_string(f.modulus) : sum;
  isl::map known(islContext(), "{ [" + point + "] -> [v] : " + constraints + "v = " + value + " }");
  return {shape, known, "a formula of the point", true};
}

Tensor formulaTensor(const std::vector<int64_t>& shape, const Formula& f) {
  Tensor tensor = zeros("i64", shape);
  if (gather_scatter::isEmptyShape(shape)) return tensor;
  Index point(shape.size(), 0);
  do {
    tensor.ints[static_cast<size_t>(gather_scatter::linearPosition(shape, point))] = f.at(point);
  } while (gather_scatter::nextIndex(shape, point));
  return tensor;
}

TEST(SymbolicSizes, GathersWithDynamicIndexDimsHoldAtEverySize) {
  sampling::Sample sample = sampling::sampleOf("SymbolicSizes gathers, `?` indices", 300, 80);
  std::mt19937 rng(sample.seed);
  SizeVerdicts tally;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    RandomOp random = randomOp(rng);
    GatherOp op = asGatherOp(random);
    std::vector<DynamicDim> dims;
    const int64_t vectorDim = op.dimension_numbers.index_vector_dim;
    for (size_t d = 0; d < op.start_indices.shape.size(); ++d)
      if (static_cast<int64_t>(d) != vectorDim && dims.size() < 2 && uniform(rng, 0, 1)) {
        op.start_indices.shape[d] = kDynamic;
        dims.push_back({"start_indices", d, 3});
      }
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
      GatherOp fixed = op;
      fixed.operand = atSizes(op.operand, "operand", dims, sizes);
      fixed.start_indices = atSizes(op.start_indices, "start_indices", dims, sizes);
      if (!gather_scatter::validateGather(fixed).empty()) return std::nullopt;
      const Index result = gather_scatter::inferGatherResultShape(
          fixed.dimension_numbers, fixed.start_indices.shape, fixed.slice_sizes);
      return std::pair(
          gatherTruth(fixed, formulaTensor(fixed.start_indices.shape, formula), result).*property,
          hasPoint(result));
    };
    expectMatches(
        properties.sorted, dims, [&](const auto& sizes) { return truthAt(sizes, &Truth::sorted); },
        "sorted", tally);
    expectMatches(
        properties.inBounds, dims,
        [&](const auto& sizes) { return truthAt(sizes, &Truth::inBounds); }, "in bounds", tally);
  }
  if (sample.count >= 80) tally.expectEachAtLeast(1);
}

TEST(SymbolicSizes, ScattersWithDynamicIndexDimsHoldAtEverySize) {
  sampling::Sample sample = sampling::sampleOf("SymbolicSizes scatters, `?` indices", 300, 80);
  std::mt19937 rng(sample.seed);
  SizeVerdicts tally;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    RandomOp random = randomOp(rng);
    ScatterOp op = asScatterOp(random, gather_scatter::UpdateComputation::kAdd);
    const auto& dn = op.dimension_numbers;
    const std::vector<int64_t> updateScatterDims = gather_scatter::scatterUpdateScatterDims(
        dn, static_cast<int64_t>(op.updates[0].shape.size()));
    std::vector<DynamicDim> dims;
    for (size_t d = 0, j = 0; d < op.scatter_indices.shape.size(); ++d) {
      if (static_cast<int64_t>(d) == dn.index_vector_dim) continue;
      const auto updateDim = static_cast<size_t>(updateScatterDims.at(j++));
      if (dims.size() >= 2 || !uniform(rng, 0, 1)) continue;
      op.scatter_indices.shape[d] = kDynamic;  // the updates' dim is the same size (C4)
      for (TensorType& update : op.updates) update.shape[updateDim] = kDynamic;
      dims.push_back({"scatter_indices", d, 3, "updates", updateDim});
    }
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
      ScatterOp fixed = op;
      for (TensorType& input : fixed.inputs) input = atSizes(input, "result", dims, sizes);
      for (TensorType& update : fixed.updates) update = atSizes(update, "updates", dims, sizes);
      fixed.scatter_indices = atSizes(op.scatter_indices, "scatter_indices", dims, sizes);
      if (!gather_scatter::validateScatter(fixed).empty()) return std::nullopt;
      return std::pair(
          scatterTruth(fixed, formulaTensor(fixed.scatter_indices.shape, formula)).*property,
          hasPoint(fixed.updates[0].shape));
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
  if (sample.count >= 80) tally.expectEachAtLeast(4);
}

}  // namespace
}  // namespace idxmap
