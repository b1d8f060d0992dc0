#include "host/verify/floor_plan.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(FloorPlan, WallsLeaveTheirDoorsOpen) {
  std::vector<Polygon2D> walls;
  wall_along_x(walls, 0.0f, 30.0f, -0.2f, 0.0f, {{20.0f, 1.0f}, {10.0f, 1.0f}});
  ASSERT_EQ(walls.size(), 3u);
  EXPECT_EQ(walls[0], box(0.0f, -0.2f, 9.5f, 0.0f));
  EXPECT_EQ(walls[1], box(10.5f, -0.2f, 19.5f, 0.0f));
  EXPECT_EQ(walls[2], box(20.5f, -0.2f, 30.0f, 0.0f));
  walls.clear();
  wall_along_z(walls, 0.0f, 10.0f, 25.0f, 25.2f, {{0.3f, 1.0f}});
  ASSERT_EQ(walls.size(), 1u); // The door at the end leaves one piece.
  EXPECT_EQ(walls[0], box(25.0f, 0.8f, 25.2f, 10.0f));
}

} // namespace
} // namespace crowd
