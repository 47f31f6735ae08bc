// What the tests of the provers on ops with `?` dims share (symbolic_sizes_test.cpp,
// symbolic_sizes_values_test.cpp): the `?` dims of a random op and every assignment of sizes
// to them, the op's tensors at those sizes, the sizes' conditions the provers state checked at
// a size, and index tensors whose values are a formula of the point.
#pragma once

#include <gtest/gtest.h>
#include <isl/map.h>
#include <isl/set.h>

#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "core/verdict.h"
#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"
#include "tests/ops/stablehlo/random_ops.h"
#include "verify/index_points.h"

namespace idxmap::sizes_testing {

using gather_scatter::Tensor;
using gather_scatter::testing::uniform;
using Index = std::vector<int64_t>;

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
inline void makeDynamic(std::mt19937& rng, TensorType& type, const std::string& tensor,
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
inline void forEachSize(const std::vector<DynamicDim>& dims, Visit&& visit) {
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
inline TensorType atSizes(const TensorType& type, const std::string& tensor,
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
inline bool conditionHolds(const std::string& condition, const std::vector<DynamicDim>& dims,
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
  // A parameter the body names without a legend entry would read as an isl syntax error.
  std::regex named("(^|[^A-Za-z_])(n[0-9]+)\\b");
  for (std::sregex_iterator it(body.begin(), body.end(), named), end; it != end; ++it)
    if (!std::regex_search(params, std::regex("\\b" + (*it)[2].str() + "\\b"))) {
      ADD_FAILURE() << "the legend does not say what " << (*it)[2] << " is: " << condition;
      return false;
    }
  isl::set at(islContext(), "[" + params + "] -> { : (" + body + ")" + values + " }");
  return !at.is_empty();
}

// isl ran out of its budget (operations or time) on the question: an honest unknown, which a
// large constant index table with `?` dims can reach (each pair of its points is a piece; one
// of 144 elements took 4.8 s here, and past the time limit under load or a sanitizer).
inline bool outOfIslBudget(const ProofResult& verdict) {
  return verdict.isUnknown() && verdict.condition.empty() &&
         (verdict.reason.find("maximal number of operations exceeded") != std::string::npos ||
          verdict.reason.find("time limit exceeded") != std::string::npos);
}

// isl's budget for these tests: its operation count (the same on every machine) and a time
// limit so long that only a machine many times slower than a CI runner reaches it. Under the
// default 5 s, whether a question past 2 s at idle ran out depended on the machine's load (CI's
// seed 1001576109: 2 out of budget idle, 3 beside another process, over the bound).
class OperationBoundIslBudget {
 public:
  OperationBoundIslBudget() : saved_(islLimits()) {
    setIslLimits({saved_.maxOperations, std::chrono::milliseconds(60'000)});
  }
  ~OperationBoundIslBudget() { setIslLimits(saved_); }
  OperationBoundIslBudget(const OperationBoundIslBudget&) = delete;
  OperationBoundIslBudget& operator=(const OperationBoundIslBudget&) = delete;

 private:
  IslLimits saved_;
};

// At most one in 20 verdicts, and two in a small sample (CI's 24 cases, the sanitizer run's 8:
// a sample of 24 drew two questions past the operation budget).
inline void expectFewOutOfBudget(int outOfBudget, int decided) {
  EXPECT_LE(outOfBudget, 2 + decided / 20) << "isl ran out of its budget on too many questions";
}

struct SizeVerdicts {
  int proven = 0, refuted = 0, conditional = 0, outOfBudget = 0;
  // Every kind of verdict comes up in a CI-sized sample: at least `floor` of each (a quarter
  // of what 60 seeds gave at the least, so that a fresh sample's spread stays above it; 0 in
  // smaller samples). Few out of budget in any sample.
  void expectEachAtLeast(int floor) const {
    std::printf("[ tally ] proven %d, refuted %d, conditional %d, isl out of budget %d\n", proven,
                refuted, conditional, outOfBudget);
    EXPECT_GE(proven, floor);
    EXPECT_GE(refuted, floor);
    EXPECT_GE(conditional, floor);
    expectFewOutOfBudget(outOfBudget, proven + refuted + conditional);
  }
};

// `verdict` against `truthAt(sizes)` (nullopt: not a valid op at those sizes; `points`: whether
// the index space has a point there) at every size.
inline void expectMatches(
    const ProofResult& verdict, const std::vector<DynamicDim>& dims,
    const std::function<std::optional<std::pair<bool, bool>>(const std::vector<int64_t>&)>& truthAt,
    const std::string& what, SizeVerdicts& tally) {
  if (outOfIslBudget(verdict)) {
    ++tally.outOfBudget;
    return;
  }
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
inline std::string shapeText(const TensorType& type) {
  std::string out;
  for (int64_t size : type.shape)
    out += (out.empty() ? "" : ", ") + (size == kDynamic ? std::string("?") : std::to_string(size));
  return "[" + out + "]";
}

inline bool hasPoint(const std::vector<int64_t>& shape) {
  return !gather_scatter::isEmptyShape(shape);
}

// Makes up to two dims of an index tensor `?` (never its vector dim), each with probability
// 1/2; the tests try sizes up to 3 for them.
inline void makeIndexDimsDynamic(std::mt19937& rng, TensorType& indices, const std::string& name,
                                 int64_t vectorDim, std::vector<DynamicDim>& dims) {
  for (size_t d = 0; d < indices.shape.size(); ++d)
    if (static_cast<int64_t>(d) != vectorDim && dims.size() < 2 && uniform(rng, 0, 1)) {
      indices.shape[d] = kDynamic;
      dims.push_back({name, d, 3});
    }
}

// The same for a scatter's indices, with the updates' scatter dim of each made `?` too and
// tied to it: C4 gives them one size.
inline void makeIndexDimsDynamic(std::mt19937& rng, gather_scatter::ScatterOp& op,
                                 std::vector<DynamicDim>& dims) {
  const auto& dn = op.dimension_numbers;
  const std::vector<int64_t> updateScatterDims = gather_scatter::scatterUpdateScatterDims(
      dn, static_cast<int64_t>(op.updates[0].shape.size()));
  const size_t before = dims.size();
  makeIndexDimsDynamic(rng, op.scatter_indices, "scatter_indices", dn.index_vector_dim, dims);
  for (size_t k = before; k < dims.size(); ++k) {
    DynamicDim& dim = dims[k];
    const size_t position = dim.dim - (static_cast<int64_t>(dim.dim) > dn.index_vector_dim);
    dim.tiedTensor = "updates";
    dim.tiedDim = static_cast<size_t>(updateScatterDims.at(position));
    for (TensorType& update : op.updates) update.shape[dim.tiedDim] = kDynamic;
  }
}

// ", window dims [1], inserted [0], ..., vector dim 1": a scatter's dimension numbers, for a
// test's trace.
inline std::string dimensionNumbersText(const gather_scatter::ScatterDimensionNumbers& dn) {
  return ", window dims " + index_points::text(dn.update_window_dims) + ", inserted " +
         index_points::text(dn.inserted_window_dims) + ", batching " +
         index_points::text(dn.input_batching_dims) + " / " +
         index_points::text(dn.scatter_indices_batching_dims) + ", to operand " +
         index_points::text(dn.scatter_dims_to_operand_dims) + ", vector dim " +
         std::to_string(dn.index_vector_dim);
}

// The op at `sizes` (each `?` dim of its tensors, as `dims` names them, fixed); nullopt where
// it is not a valid op there.
inline std::optional<gather_scatter::GatherOp> gatherAtSizes(const gather_scatter::GatherOp& op,
                                                             const std::vector<DynamicDim>& dims,
                                                             const std::vector<int64_t>& sizes) {
  gather_scatter::GatherOp fixed = op;
  fixed.operand = atSizes(op.operand, "operand", dims, sizes);
  fixed.start_indices = atSizes(op.start_indices, "start_indices", dims, sizes);
  if (!gather_scatter::validateGather(fixed).empty()) return std::nullopt;
  return fixed;
}
inline std::optional<gather_scatter::ScatterOp> scatterAtSizes(const gather_scatter::ScatterOp& op,
                                                               const std::vector<DynamicDim>& dims,
                                                               const std::vector<int64_t>& sizes) {
  gather_scatter::ScatterOp fixed = op;
  for (TensorType& input : fixed.inputs) input = atSizes(input, "result", dims, sizes);
  for (TensorType& update : fixed.updates) update = atSizes(update, "updates", dims, sizes);
  fixed.scatter_indices = atSizes(op.scatter_indices, "scatter_indices", dims, sizes);
  if (!gather_scatter::validateScatter(fixed).empty()) return std::nullopt;
  return fixed;
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

inline Formula randomFormula(std::mt19937& rng, size_t rank) {
  Formula f;
  for (size_t d = 0; d < rank; ++d) f.coefficients.push_back(uniform(rng, -2, 2));
  f.offset = uniform(rng, -1, 4);
  const int64_t moduli[] = {0, 0, 3, 4};
  f.modulus = moduli[uniform(rng, 0, 3)];
  return f;
}

// The values as the value analysis gives them for a tensor with `?` dims: over points bounded
// below only along those dims.
inline index_provenance::IndexValues formulaValues(const std::vector<int64_t>& shape,
                                                   const Formula& f) {
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

inline Tensor formulaTensor(const std::vector<int64_t>& shape, const Formula& f) {
  Tensor tensor = zeros("i64", shape);
  if (gather_scatter::isEmptyShape(shape)) return tensor;
  Index point(shape.size(), 0);
  do {
    tensor.ints[static_cast<size_t>(gather_scatter::linearPosition(shape, point))] = f.at(point);
  } while (gather_scatter::nextIndex(shape, point));
  return tensor;
}

}  // namespace idxmap::sizes_testing
