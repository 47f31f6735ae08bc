// The validators take attributes as a reader found them: arbitrary integers, lists of any
// length, odd element types. They must report, never crash or read out of bounds (the
// sanitizer builds run this too), and a check broken by another check's inputs stays quiet.
#include <gtest/gtest.h>

#include <random>

#include "tests/ops/stablehlo/test_util.h"

namespace idxmap::gather_scatter {
namespace {

int64_t small(std::mt19937& rng) { return std::uniform_int_distribution<int64_t>(-2, 6)(rng); }

std::vector<int64_t> smallList(std::mt19937& rng) {
  std::vector<int64_t> list(std::uniform_int_distribution<int>(0, 5)(rng));
  for (int64_t& v : list) v = small(rng);
  return list;
}

TensorType smallType(std::mt19937& rng) {
  static const char* types[] = {"i64",          "i32",          "ui8",      "i1", "f32", "bf16",
                                "i99999999999", "complex<f32>", "complex<", "",   "x"};
  TensorType type;
  type.shape = smallList(rng);
  type.element_type = types[std::uniform_int_distribution<int>(0, 10)(rng)];
  return type;
}

TEST(GatherScatterRobustness, ValidatorsReportGarbageWithoutCrashing) {
  std::mt19937 rng(99);
  int reported = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    GatherOp gather;
    gather.operand = smallType(rng);
    gather.start_indices = smallType(rng);
    gather.dimension_numbers = {smallList(rng), smallList(rng), smallList(rng),
                                smallList(rng), smallList(rng), small(rng)};
    gather.slice_sizes = smallList(rng);
    if (trial % 2) gather.result = smallType(rng);
    reported += !validateGather(gather).empty();

    DynamicGatherOp dynamic;
    dynamic.operand = gather.operand;
    dynamic.start_indices = gather.start_indices;
    dynamic.slice_sizes_type = smallType(rng);
    dynamic.dimension_numbers = gather.dimension_numbers;
    dynamic.slice_sizes = gather.slice_sizes;
    dynamic.result = gather.result;
    reported += !validateDynamicGather(dynamic).empty();

    ScatterOp scatter;
    for (int i = std::uniform_int_distribution<int>(0, 2)(rng); i > 0; --i)
      scatter.inputs.push_back(smallType(rng));
    for (int i = std::uniform_int_distribution<int>(0, 2)(rng); i > 0; --i)
      scatter.updates.push_back(smallType(rng));
    for (int i = std::uniform_int_distribution<int>(0, 2)(rng); i > 0; --i)
      scatter.results.push_back(smallType(rng));
    for (int i = std::uniform_int_distribution<int>(0, 4)(rng); i > 0; --i)
      scatter.computation_argument_types.push_back(smallType(rng).element_type);
    for (int i = std::uniform_int_distribution<int>(0, 2)(rng); i > 0; --i)
      scatter.computation_result_types.push_back(smallType(rng).element_type);
    scatter.scatter_indices = smallType(rng);
    scatter.dimension_numbers = {smallList(rng), smallList(rng), smallList(rng),
                                 smallList(rng), smallList(rng), small(rng)};
    reported += !validateScatter(scatter).empty();
  }
  // Nearly every random attribute set breaks something; all were checked without a crash.
  EXPECT_GT(reported, 59000);
}

}  // namespace
}  // namespace idxmap::gather_scatter
