// The default cell size: half the agent radius, at most the specification's 0.3 m, larger only
// for worlds whose grid would pass the cell budget, never above 0.3 m.
#include "host/navmesh/default_cell_size.h"

#include <cmath>
#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(DefaultCellSize, IsHalfTheRadiusAtMostTheSpecificationsDefault) {
  const glm::vec2 room(40.0f, 30.0f);
  EXPECT_EQ(default_cell_size(0.2f, room), 0.1f);
  EXPECT_EQ(default_cell_size(0.35f, room), 0.175f);
  EXPECT_EQ(default_cell_size(0.4f, room), 0.2f);
  EXPECT_EQ(default_cell_size(0.6f, room), 0.3f); // RecastDemo's own pair
  EXPECT_EQ(default_cell_size(1.5f, room), kSpecCellSize);
  EXPECT_EQ(default_cell_size(0.0f, room), kSpecCellSize);
  // Exactly two cells per radius: halving is exact in floating point.
  for (const float r : {0.2f, 0.3f, 0.37f, 0.45f}) {
    EXPECT_EQ(r / default_cell_size(r, room), 2.0f) << r;
  }
}

TEST(DefaultCellSize, BigWorldsStayWithinTheBudgetButNeverCoarserThanTheSpecification) {
  // 400 x 400 m at 0.1 m would be 16 M cells: the smallest millimetre size within 4 M cells.
  const float big = default_cell_size(0.2f, {400.0f, 400.0f});
  EXPECT_NEAR(big, 0.196f, 1e-6f);
  EXPECT_LE((400.0 / big) * (400.0 / big), kDefaultCellBudget);
  EXPECT_GT((400.0 / (big - 0.001)) * (400.0 / (big - 0.001)), kDefaultCellBudget);
  // Within the budget at half the radius: unchanged.
  EXPECT_EQ(default_cell_size(0.4f, {400.0f, 400.0f}), 0.2f);
  // The bench world at 64,000 agents (470 m, agents up to 0.4 m): 0.23 m, about 4.2 M cells.
  const float bench = default_cell_size(0.4f, {470.3f, 470.3f});
  EXPECT_GT(bench, 0.2f);
  EXPECT_LE((470.3 / bench) * (470.3 / bench), kDefaultCellBudget * 1.001);
  // A world too big even at 0.3 m keeps 0.3 m (the build then refuses it, as before).
  EXPECT_EQ(default_cell_size(0.2f, {5000.0f, 4000.0f}), kSpecCellSize);
}

} // namespace
} // namespace crowd
