// NameTable against what its rows say: every row found by its name, names sorted, an unknown
// name not found, and a name written in two rows refused when the table is built.
#include "core/name_table.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace idxmap {
namespace {

using Table = NameTable<int>;

TEST(NameTable, FindsEveryRowOfEveryGroup) {
  const Table::Row first[] = {{"stablehlo.add", 1}, {"stablehlo.iota", 2}};
  const Table::Row second[] = {{"stablehlo.clamp", 3}};
  Table table({first, second});
  ASSERT_NE(table.find("stablehlo.add"), nullptr);
  EXPECT_EQ(*table.find("stablehlo.add"), 1);
  EXPECT_EQ(*table.find("stablehlo.iota"), 2);
  EXPECT_EQ(*table.find("stablehlo.clamp"), 3);
  EXPECT_EQ(table.find("stablehlo.gather"), nullptr);
  EXPECT_EQ(table.find(""), nullptr);
  EXPECT_EQ(table.names(),
            (std::vector<std::string_view>{"stablehlo.add", "stablehlo.clamp", "stablehlo.iota"}));
}

TEST(NameTable, ANameInTwoRowsIsRefused) {
  const Table::Row first[] = {{"stablehlo.add", 1}};
  const Table::Row second[] = {{"stablehlo.add", 2}};
  EXPECT_THROW(Table({first, second}), std::logic_error);
}

}  // namespace
}  // namespace idxmap
