// The value analysis on programs with run-time values (issue 31): random chains of the ops it
// follows (tests/ops/provenance/random_programs.h), checked against the MLIR interpreter on
// every argument value in an assumed range: at every point, the relation with each leaf
// replaced by the element it reads gives exactly the value the interpreter computes.
#include <gtest/gtest.h>
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <optional>
#include <random>

#include "core/bridges/isl_bridge.h"
#include "ops/interp/interpreter.h"
#include "ops/provenance/index_values.h"
#include "tests/ops/provenance/oracle.h"
#include "tests/ops/provenance/random_programs.h"
#include "tests/support/sampling.h"

namespace idxmap::index_provenance {
namespace {

using gather_scatter::Tensor;
using provenance_testing::imageOf;

constexpr int64_t kLo = -4, kHi = 4;  // the argument's assumed range, enumerated

struct Analyzed {
  mlir_ir::Module module;
  IndexValues values;
};

Analyzed analyze(const std::string& text, const std::string& returned) {
  Analyzed out{mlir_ir::parseMlirModule(text, "random.mlir"), {}};
  const mlir_ir::Function& main = *out.module.function("main");
  const std::vector<mlir_ir::Operation>& ops = main.body.blocks.front().operations;
  ValueContext context;
  context.module = &out.module;
  context.assumed = {{"a", {kLo, kHi}}};
  const mlir_ir::Operation& ret = ops.back();
  out.values = indexValues(ops, ret.operands.at(0), main.resultTypes.at(0), context);
  EXPECT_EQ(ret.operands.at(0).toString(), returned);
  return out;
}

// The relation as a function of the point and the leaves, evaluated with each leaf replaced
// by the element of the argument it reads. A leaf that reads nothing at a point stays at kLo:
// the value there must not depend on it. isl refuses a relation that is not a function (an
// inexact one) when it is made one.
class Evaluator {
 public:
  explicit Evaluator(const IndexValues& values) : rank_(values.shape.size()) {
    isl::map moved = values.symbolic.value();
    leaves_ = static_cast<size_t>(isl_map_dim(moved.get(), isl_dim_param));
    for (size_t i = 0; i < leaves_; ++i) {
      isl_id* id = isl_map_get_dim_id(moved.get(), isl_dim_param, static_cast<unsigned>(i));
      const Leaf& leaf = values.leaves.at(std::stoull(std::string(isl_id_get_name(id)).substr(1)));
      isl_id_free(id);
      EXPECT_EQ(leaf.tensor, "%a") << leaf.why;
      reads_.push_back({});
      for (int64_t p = 0; p < values.shape.at(0); ++p) {
        std::vector<std::vector<int64_t>> element = imageOf(leaf.access, {p});
        EXPECT_LE(element.size(), 1u);
        reads_.back().push_back(element.empty() ? -1 : element[0][0]);
      }
    }
    moved =
        isl_bridge::own(isl_map_move_dims(moved.release(), isl_dim_in, static_cast<unsigned>(rank_),
                                          isl_dim_param, 0, static_cast<unsigned>(leaves_)));
    // Made a function once, where isl does so within its question limits (two wraps through
    // narrow types can take it minutes); otherwise evaluated point by point.
    isl_pw_multi_aff* function = nullptr;
    {
      isl_bridge::IslQuestionScope limits;
      function = isl_pw_multi_aff_from_map(moved.copy());
    }
    if (function) {
      function_ = isl_pw_multi_aff_get_pw_aff(function, 0);
      isl_pw_multi_aff_free(function);
    } else {
      isl_ctx_reset_error(moved.ctx().get());
      relation_ = moved;
    }
  }
  ~Evaluator() { isl_pw_aff_free(function_); }
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // nullopt where the relation has no value.
  std::optional<int64_t> at(const Tensor& argument, int64_t p) const {
    std::vector<int64_t> inputs = {p};
    for (size_t i = 0; i < leaves_; ++i) {
      int64_t element = reads_[i][static_cast<size_t>(p)];
      inputs.push_back(element < 0 ? kLo : argument.ints.at(static_cast<size_t>(element)));
    }
    if (!function_) {  // the relation at the point: one value, or none
      isl_map* fixed = relation_->copy();
      for (size_t i = 0; i < inputs.size(); ++i)
        fixed = isl_map_fix_si(fixed, isl_dim_in, static_cast<unsigned>(i),
                               static_cast<int>(inputs[i]));
      isl::set range = isl_bridge::own(isl_map_range(fixed));
      if (isl_set_is_singleton(range.get()) != isl_bool_true) return std::nullopt;
      return isl_bridge::toInt64(isl_bridge::own(isl_set_dim_min_val(range.copy(), 0)));
    }
    isl_point* point = isl_point_zero(isl_space_domain(isl_pw_aff_get_space(function_)));
    for (size_t i = 0; i < inputs.size(); ++i)
      point = isl_point_set_coordinate_val(point, isl_dim_set, static_cast<int>(i),
                                           isl_bridge::toIslVal(inputs[i]).release());
    isl_val* value = isl_pw_aff_eval(isl_pw_aff_copy(function_), point);
    std::optional<int64_t> out;
    if (isl_val_is_int(value)) out = isl_val_get_num_si(value);
    isl_val_free(value);
    return out;
  }

 private:
  size_t rank_, leaves_ = 0;
  std::vector<std::vector<int64_t>> reads_;  // leaf -> point -> element of %a (or -1)
  isl_pw_aff* function_ = nullptr;
  std::optional<isl::map> relation_;  // where isl did not make it a function in time
};

TEST(ValueAnalysis, RandomProgramsAgreeWithTheInterpreterOnEveryArgument) {
  sampling::Sample sample = sampling::sampleOf("ValueAnalysis.RandomPrograms", 120, 30);
  std::mt19937 rng(sample.seed);
  int withLeaves = 0, known = 0;
  for (size_t trial = 0; trial < sample.count; ++trial) {
    value_testing::RandomProgram program = value_testing::randomProgram(rng, 1 + trial % 6);
    SCOPED_TRACE(program.text);
    Analyzed analyzed = analyze(program.text, program.returned);
    ASSERT_TRUE(analyzed.values.represented()) << analyzed.values.provenance;
    (analyzed.values.leaves.empty() ? known : withLeaves)++;
    mlir_interpreter::Interpreter interpreter(analyzed.module,
                                              mlir_interpreter::Engine::kReference);
    Evaluator evaluator(analyzed.values);
    Tensor argument{"i32", {3}, {kLo, kLo, kLo}, {}};
    do {
      Tensor result = interpreter.call(*analyzed.module.function("main"), {argument}).at(0);
      for (int64_t p = 0; p < 3; ++p) {
        std::optional<int64_t> value = evaluator.at(argument, p);
        ASSERT_TRUE(value) << "point " << p << ", argument "
                           << ::testing::PrintToString(argument.ints) << "\n"
                           << analyzed.values.provenance;
        ASSERT_EQ(*value, result.ints.at(static_cast<size_t>(p)))
            << "point " << p << ", argument " << ::testing::PrintToString(argument.ints) << "\n"
            << analyzed.values.provenance;
      }
      // The next argument value, odometer-wise over [kLo, kHi]^3.
      size_t d = 0;
      while (d < 3 && argument.ints[d] == kHi) argument.ints[d++] = kLo;
      if (d == 3) break;
      ++argument.ints[d];
    } while (true);
  }
  EXPECT_GT(withLeaves, 0);
}

// JAX's fix-up of an argument assumed in [-10, 9] is in [0, 9] whatever the argument: with no
// leaf left at any point but the argument's own, the relation says so exactly.
TEST(ValueAnalysis, TheNegativeIndexFixUpIsExact) {
  Analyzed analyzed = analyze(R"(func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %zero = stablehlo.constant dense<0> : tensor<3xi32>
  %n = stablehlo.constant dense<10> : tensor<3xi32>
  %negative = stablehlo.compare LT, %a, %zero, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %wrapped = stablehlo.add %a, %n : tensor<3xi32>
  %fixed = "stablehlo.select"(%negative, %wrapped, %a) : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  func.return %fixed : tensor<3xi32>
})",
                              "%fixed");
  ASSERT_TRUE(analyzed.values.represented());
  ASSERT_EQ(analyzed.values.leaves.size(), 1u);
  EXPECT_EQ(analyzed.values.leaves[0].tensor, "%a");
  isl::set range = isl_bridge::own(isl_map_range(analyzed.values.symbolic->copy()));
  const auto parameters = static_cast<unsigned>(isl_set_dim(range.get(), isl_dim_param));
  range = isl_bridge::own(isl_set_project_out(range.release(), isl_dim_param, 0, parameters));
  // kLo..kHi is [-4, 4]: the fixed values are 6..9 and 0..4.
  isl::set expected = isl_bridge::own(
      isl_set_read_from_str(islContext().get(), "{ [v] : 0 <= v <= 4 or 6 <= v <= 9 }"));
  EXPECT_TRUE(isl_set_is_equal(range.get(), expected.get())) << isl_set_to_str(range.get());
}

}  // namespace
}  // namespace idxmap::index_provenance
