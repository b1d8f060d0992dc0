// Steering toward the corners (cuda/kernels/corner_steering.h), as dtCrowd::update steers: full
// speed toward the first corner, turned toward the second to round the corner, and slowing
// within two radii of the end of the path.
#include "cuda/kernels/corner_steering.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(CornerSteering, NoCornersNoVelocity) {
  const float none[3] = {0.0f, 0.0f, 0.0f};
  const std::uint8_t flags[1] = {0};
  EXPECT_EQ(preferred_velocity({1.0f, 0.0f, 1.0f}, none, flags, 0, 0.4f, 1.5f), glm::vec2(0.0f));
}

TEST(CornerSteering, FullSpeedTowardAFarEndAndSlowerWithinTwoRadii) {
  const std::uint8_t flags[1] = {kCornerEnd};
  const float far_end[3] = {10.0f, 0.0f, 0.0f};
  const glm::vec2 v = preferred_velocity({0.0f, 0.0f, 0.0f}, far_end, flags, 1, 0.4f, 1.5f);
  EXPECT_FLOAT_EQ(v.x, 1.5f);
  EXPECT_FLOAT_EQ(v.y, 0.0f);
  // 0.4 m from the end with a 0.4 m radius: half of two radii, so half speed.
  const float near_end[3] = {0.4f, 0.0f, 0.0f};
  const glm::vec2 slow = preferred_velocity({0.0f, 0.0f, 0.0f}, near_end, flags, 1, 0.4f, 1.5f);
  EXPECT_NEAR(slow.x, 0.75f, 1e-6f);
  // A corner that is not the path's end does not slow the agent down.
  const std::uint8_t corner[1] = {0};
  const glm::vec2 on = preferred_velocity({0.0f, 0.0f, 0.0f}, near_end, corner, 1, 0.4f, 1.5f);
  EXPECT_FLOAT_EQ(on.x, 1.5f);
}

TEST(CornerSteering, AimsPastTheFirstCornerTowardTheSecond) {
  // A corner 4 m ahead on x, then a turn to +z: the direction leans away from the second
  // corner's side (calcSmoothSteerDirection subtracts half of it), so the agent swings wide
  // and rounds the corner instead of cutting into it.
  const float corners[6] = {4.0f, 0.0f, 0.0f, 4.0f, 0.0f, 4.0f};
  const std::uint8_t flags[2] = {0, kCornerEnd};
  const glm::vec2 dir = smooth_steer_direction({0.0f, 0.0f, 0.0f}, corners, 2);
  EXPECT_NEAR(std::hypot(dir.x, dir.y), 1.0f, 1e-6f);
  EXPECT_GT(dir.x, 0.0f);
  EXPECT_LT(dir.y, 0.0f);
  const glm::vec2 v = preferred_velocity({0.0f, 0.0f, 0.0f}, corners, flags, 2, 0.4f, 1.5f);
  EXPECT_NEAR(std::hypot(v.x, v.y), 1.5f, 1e-5f);
}

} // namespace
} // namespace crowd
