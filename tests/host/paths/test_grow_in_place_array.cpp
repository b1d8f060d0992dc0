// The path tree pool's columns (host/paths/grow_in_place_array.h): values survive every growth
// and shrink, and the room stays within an eighth of what is held once it shrinks.
#include "host/paths/grow_in_place_array.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <numeric>
#include <vector>

namespace crowd {
namespace {

TEST(GrowInPlaceArray, KeepsEveryValueAsItGrowsABlockAtATimeAndShrinks) {
  GrowInPlaceArray<std::int32_t> column;
  std::vector<std::int32_t> expected;
  // Blocks of 1 to 4,000 values, past the size C libraries map on their own.
  for (int block = 1; expected.size() < 600000; block = block % 4000 + 37) {
    std::vector<std::int32_t> values(static_cast<std::size_t>(block));
    std::iota(values.begin(), values.end(), static_cast<std::int32_t>(expected.size()) * 3);
    column.append(values.data(), values.size());
    expected.insert(expected.end(), values.begin(), values.end());
    ASSERT_EQ(column.size(), expected.size());
    ASSERT_GE(column.capacity(), column.size());
    ASSERT_LE(column.capacity(), column.size() + column.size() / 8 + 4000);
  }
  for (std::size_t i = 0; i < expected.size(); ++i)
    ASSERT_EQ(column[i], expected[i]) << i;
  column.shrink_to(100000);
  EXPECT_EQ(column.size(), 100000u);
  EXPECT_LE(column.capacity(), 100000u + 100000u / 8 + 1024);
  for (std::size_t i = 0; i < column.size(); ++i)
    ASSERT_EQ(column[i], expected[i]) << i;

  GrowInPlaceArray<std::int32_t> moved = std::move(column);
  EXPECT_EQ(moved.size(), 100000u);
  EXPECT_EQ(moved[99999], expected[99999]);
  moved.shrink_to(0);
  EXPECT_EQ(moved.size(), 0u);
  EXPECT_EQ(moved.capacity(), 0u);
}

} // namespace
} // namespace crowd
