// Spec 002 (P1): bounded types are compatible with the sizes they allow at run time.
#include "ops/hlo/shape_compat.h"

#include <gtest/gtest.h>

namespace idxmap::hlo {
namespace {

Shape shape(std::vector<int64_t> dims, std::vector<bool> dynamic) {
  Shape s;
  s.element_type = "f32";
  for (size_t d = 0; d < dims.size(); ++d) s.appendDim(dims[d], dynamic[d]);
  return s;
}

TEST(ShapeCompat, BoundedDimensionAgainstStaticAndBounded) {
  Shape bounded3 = shape({3, 5}, {true, false});  // tensor<?x5xf32, bounds = [3, ?]>
  EXPECT_TRUE(compatible(bounded3, shape({2, 5}, {false, false})));
  EXPECT_TRUE(compatible(bounded3, shape({3, 5}, {false, false})));
  EXPECT_FALSE(compatible(bounded3, shape({7, 5}, {false, false})));
  EXPECT_TRUE(compatible(bounded3, shape({2, 5}, {true, false})));
  EXPECT_TRUE(compatible(bounded3, shape({4, 5}, {true, false})));
  EXPECT_TRUE(compatible(bounded3, shape({-1, 5}, {true, false})));  // `?`
  EXPECT_FALSE(compatible(bounded3, shape({3, 6}, {true, false})));
  EXPECT_EQ(incompatibility(shape({7, 5}, {false, false}), bounded3),
            "dimension 0 is 7, expected <=3");
}

TEST(ShapeCompat, RefineKeepsTheMostSpecificDimension) {
  Shape bounded3 = shape({3}, {true});
  Shape refined = refine(bounded3, shape({2}, {true}));
  EXPECT_EQ(refined.toString(), "f32[<=2]");
  EXPECT_EQ(refine(bounded3, shape({4}, {true})).toString(), "f32[<=3]");
  EXPECT_EQ(refine(bounded3, shape({2}, {false})).toString(), "f32[2]");
  EXPECT_EQ(refine(shape({-1}, {true}), bounded3).toString(), "f32[<=3]");
}

TEST(ShapeCompat, ElementTypesRanksAndTuples) {
  Shape a = shape({2}, {false});
  Shape b = a;
  b.element_type = "s32";
  EXPECT_EQ(incompatibility(a, b), "has element type f32, expected s32");
  EXPECT_EQ(incompatibility(a, shape({2, 1}, {false, false})), "has rank 1, expected 2");
  Shape tuple;
  tuple.isTuple = true;
  tuple.tupleElements = {a, a};
  Shape other = tuple;
  other.tupleElements[1] = shape({3}, {false});
  EXPECT_EQ(incompatibility(tuple, other), "tuple element 1 dimension 0 is 2, expected 3");
}

}  // namespace
}  // namespace idxmap::hlo
