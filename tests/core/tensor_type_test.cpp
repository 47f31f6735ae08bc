// TensorType against spec 002's three kinds of dim, written out by hand: static, bounded
// (`<=N`), unbounded (`?`).
#include "core/tensor_type.h"

#include <gtest/gtest.h>

#include "core/checked.h"

namespace idxmap {
namespace {

// f32[2, <=3, ?] built dim by dim, as the HLO reader builds it.
TensorType mixed() {
  TensorType type{{}, "f32"};
  type.appendDim(2, false);
  type.appendDim(3, true);
  type.appendDim(kDynamic, true);
  return type;
}

TEST(TensorType, AppendDimKeepsSizesAndBoundsApart) {
  TensorType type = mixed();
  EXPECT_EQ(type.shape, (std::vector<int64_t>{2, kDynamic, kDynamic}));
  EXPECT_EQ(type.bounds, (std::vector<int64_t>{kDynamic, 3, kDynamic}));
  EXPECT_EQ(type.extents(), (std::vector<int64_t>{2, 3, kDynamic}));
  EXPECT_FALSE(type.isDynamic(0));
  EXPECT_TRUE(type.isDynamic(1));
  EXPECT_FALSE(type.isStatic());
  EXPECT_EQ(type.maxElementCount(), std::nullopt);  // the `?` dim has no bound
  // A bounded first dim records its bound too.
  TensorType bounded{{}, "f32"};
  bounded.appendDim(3, true);
  EXPECT_EQ(bounded.bounds, (std::vector<int64_t>{3}));
  EXPECT_EQ(bounded.extent(0), 3);
}

TEST(TensorType, StaticDimsRecordNoBounds) {
  TensorType type{{}, "i32"};
  type.appendDim(4, false);
  type.appendDim(0, false);
  EXPECT_TRUE(type.bounds.empty());
  EXPECT_TRUE(type.isStatic());
  EXPECT_EQ(type.maxElementCount(), 0);
  // A first bounded dim added later gives every earlier dim "no bound".
  type.setDim(0, 5, true);
  EXPECT_EQ(type.shape, (std::vector<int64_t>{kDynamic, 0}));
  EXPECT_EQ(type.bounds, (std::vector<int64_t>{5, kDynamic}));
}

TEST(TensorType, ElementCountUsesBoundsAndIsChecked) {
  TensorType type{{}, "f32"};
  type.appendDim(10, false);
  type.appendDim(4, true);
  EXPECT_EQ(type.maxElementCount(), 40);
  TensorType huge{{int64_t{1} << 40, int64_t{1} << 40}, "f32"};
  EXPECT_THROW(huge.maxElementCount(), OverflowError);
}

TEST(TensorType, SizeRangesAndCompatibilityFollowSpec002) {
  TensorType type = mixed();
  EXPECT_EQ(type.sizeRange(0).lo, 2);
  EXPECT_EQ(type.sizeRange(0).hi, 2);
  EXPECT_EQ(type.sizeRange(1).lo, 0);
  EXPECT_EQ(type.sizeRange(1).hi, 3);
  EXPECT_EQ(type.sizeRange(2).hi, std::nullopt);
  TensorType two{{2}, "f32"}, seven{{7}, "f32"};
  EXPECT_TRUE(compatibleDims(type, 1, two, 0));     // <=3 and 2
  EXPECT_FALSE(compatibleDims(type, 1, seven, 0));  // <=3 and 7
  EXPECT_TRUE(compatibleDims(type, 2, seven, 0));   // ? and anything
  EXPECT_FALSE(compatibleDims(type, 0, seven, 0));  // 2 and 7
  EXPECT_TRUE(compatibleDims(type, 1, type, 1));    // <=3 and <=3
  EXPECT_TRUE(admitsSize(type, 1, 0));
  EXPECT_FALSE(admitsSize(type, 1, 4));
  // A malformed bound (negative, or a list of the wrong length) counts as absent.
  TensorType malformed{{kDynamic, kDynamic}, "f32", {-5, 2}};
  EXPECT_EQ(malformed.sizeRange(0).hi, std::nullopt);
  EXPECT_EQ(malformed.sizeRange(1).hi, 2);
  TensorType shortBounds{{kDynamic, kDynamic}, "f32", {2}};
  EXPECT_EQ(shortBounds.sizeRange(0).hi, std::nullopt);
}

}  // namespace
}  // namespace idxmap
