// Values that ops choose among (chlo.top_k's indices, argmax / argmin / max reduces): the value
// analysis makes each such result a leaf with a range (and distinct elements for top_k's
// indices of a 1-D operand). Checked against the interpreter on every argument in [-4, 4]^3 of
// random programs that end in such ops: at every point the interpreter's value is among the
// values the relation allows there, every leaf in its range; where the result is one distinct
// leaf read at distinct elements, the interpreter's elements are pairwise distinct.
#include <gtest/gtest.h>
#include <isl/map.h>
#include <isl/set.h>

#include <map>
#include <random>
#include <set>

#include "core/bridges/isl_bridge.h"
#include "ops/interp/interpreter.h"
#include "ops/provenance/index_values.h"
#include "tests/ops/provenance/random_programs.h"
#include "tests/support/sampling.h"

namespace idxmap::index_provenance {
namespace {

using gather_scatter::Tensor;
using isl_bridge::checked;
using isl_bridge::own;

constexpr int64_t kChoiceLo = -4, kChoiceHi = 4;  // the argument's range, enumerated

// The values the relation gives each point, over every leaf value; asked point by point and
// remembered (a program computes few distinct values).
class Allowed {
 public:
  explicit Allowed(const isl::map& symbolic) : symbolic_(symbolic) {}

  bool operator()(int64_t p, int64_t value) {
    auto [at, fresh] = answers_.try_emplace({p, value}, false);
    if (fresh) at->second = compute(p, value);
    return at->second;
  }

 private:
  bool compute(int64_t p, int64_t value) const {
    isl_ctx* ctx = symbolic_.ctx().get();
    isl::set point = own(isl_set_read_from_str(ctx, ("{ [" + std::to_string(p) + "] }").c_str()));
    isl::set values =
        own(isl_map_range(isl_map_intersect_domain(symbolic_.copy(), point.release())));
    // Counted first: the arguments of one call are evaluated in no set order.
    const unsigned parameters =
        static_cast<unsigned>(checked(isl_set_dim(values.get(), isl_dim_param)));
    values = own(isl_set_project_out(values.release(), isl_dim_param, 0, parameters));
    isl::set one = own(isl_set_read_from_str(ctx, ("{ [" + std::to_string(value) + "] }").c_str()));
    return checked(isl_set_is_subset(one.get(), values.get()));
  }

  isl::map symbolic_;
  std::map<std::pair<int64_t, int64_t>, bool> answers_;
};

// Whether the values are one distinct leaf read at pairwise different elements.
bool claimsDistinct(const IndexValues& values) {
  if (values.leaves.size() != 1 || !values.leaves[0].distinct) return false;
  isl::map same = own(isl_map_read_from_str(values.symbolic->ctx().get(),
                                            "[l0] -> { [p] -> [v] : v = l0 and 0 <= p <= 2 }"));
  isl::map access = values.leaves[0].access;
  return checked(isl_map_is_injective(access.get())) &&
         checked(isl_map_is_subset(values.symbolic->get(), same.get()));
}

TEST(ChoiceValues, EveryValueTheInterpreterComputesIsAllowed) {
  sampling::Sample sample = sampling::sampleOf("ChoiceValues.RandomPrograms", 120, 30);
  std::mt19937 rng(sample.seed);
  int distinctClaims = 0, choiceLeaves = 0;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    value_testing::RandomProgram program =
        value_testing::randomProgram(rng, 1 + static_cast<int>(trial % 4), /*choices=*/true);
    SCOPED_TRACE(program.text);
    mlir_ir::Module module = mlir_ir::parseMlirModule(program.text, "random.mlir");
    const mlir_ir::Function& main = *module.function("main");
    const std::vector<mlir_ir::Operation>& ops = main.body.blocks.front().operations;
    ValueContext context;
    context.module = &module;
    context.assumed = {{"a", {kChoiceLo, kChoiceHi}}};
    IndexValues values =
        indexValues(ops, ops.back().operands.at(0), main.resultTypes.at(0), context);
    ASSERT_TRUE(values.represented()) << values.provenance;
    for (const Leaf& leaf : values.leaves) choiceLeaves += leaf.tensor != "%a";
    const bool distinct = claimsDistinct(values);
    distinctClaims += distinct;

    Allowed allowed(*values.symbolic);
    mlir_interpreter::Interpreter interpreter(module, mlir_interpreter::Engine::kReference);
    Tensor argument{"i32", {3}, {kChoiceLo, kChoiceLo, kChoiceLo}, {}};
    do {
      Tensor result = interpreter.call(main, {argument}).at(0);
      for (int64_t p = 0; p < 3; ++p)
        ASSERT_TRUE(allowed(p, result.ints.at(static_cast<size_t>(p))))
            << "point " << p << " is " << result.ints.at(static_cast<size_t>(p)) << ", argument "
            << ::testing::PrintToString(argument.ints) << "\n"
            << values.provenance;
      if (distinct)
        ASSERT_EQ(std::set<int64_t>(result.ints.begin(), result.ints.end()).size(), 3u)
            << "distinct claimed, argument " << ::testing::PrintToString(argument.ints);
      size_t d = 0;  // the next argument, odometer-wise over [kChoiceLo, kChoiceHi]^3
      while (d < 3 && argument.ints[d] == kChoiceHi) argument.ints[d++] = kChoiceLo;
      if (d == 3) break;
      ++argument.ints[d];
    } while (true);
  }
  EXPECT_GT(choiceLeaves, 0);
  if (sample.count >= 30) EXPECT_GT(distinctClaims, 0);  // top_k of all 3: about 1 in 4
}

}  // namespace
}  // namespace idxmap::index_provenance
