// cuda/kernels/mass_avoidance.h: the force model (scenario `avoidance: {"model": "mass"}`).
// The body's pushes point the way a user expects (away from a neighbour in the way, weaker from
// a standing agent, never past the desired speed; a wall ahead takes away the velocity into it).
// Whole runs under every model: test_avoidance_model_runs.cpp.
#include "cuda/kernels/mass_avoidance.h"
#include "tests/support/avoidance_scene.h"

#include <cmath>
#include <gtest/gtest.h>

namespace crowd {
namespace {

/// An agent at the origin walking +x at 1.4 m/s among its neighbours, with one wall slot.
struct Scene : test::AvoidanceScene {
  Scene() : AvoidanceScene({1.4f, 0.0f}, 1) {}
  glm::vec2 velocity() {
    return mass_velocity(0, arrays.view_without_rotations(), MassAvoidanceParams{});
  }
};

float length(glm::vec2 v) {
  return std::sqrt(v.x * v.x + v.y * v.y);
}

TEST(MassAvoidance, AloneTheAgentKeepsItsDesiredVelocity) {
  Scene scene;
  EXPECT_EQ(scene.velocity(), glm::vec2(1.4f, 0.0f));
}

TEST(MassAvoidance, AnOncomingAgentSlightlyToTheLeftPushesItRightAndSlower) {
  Scene scene;
  scene.add({4.0f, 0.3f}, {-1.4f, 0.0f});
  const glm::vec2 v = scene.velocity();
  EXPECT_LT(v.y, -0.05f) << "away from the approach, to the right of +x";
  EXPECT_LE(length(v), 1.4f) << "never past the desired speed";
}

TEST(MassAvoidance, AStandingAgentPushesLessThanAMovingOneAtTheSamePlace) {
  Scene moving;
  moving.add({0.7f, 0.2f}, {0.5f, 0.0f});
  Scene standing;
  standing.add({0.7f, 0.2f}, {0.0f, 0.0f}, kAgentStanding);
  EXPECT_LT(standing.velocity().y, 0.0f);
  EXPECT_LT(moving.velocity().y, standing.velocity().y) << "the moving one pushes harder";
}

TEST(MassAvoidance, AWallAheadTakesAwayTheVelocityIntoItAndLetsItSlideAlong) {
  Scene scene;
  scene.arrays.desired_velocity[0] = {0.9f, 0.9f}; // 45 degrees toward the wall
  scene.wall({-5.0f, 0.2f}, {5.0f, 0.2f});
  const glm::vec2 v = scene.velocity();
  EXPECT_LT(v.y, 0.45f) << "most of the velocity into the wall is gone";
  EXPECT_FLOAT_EQ(v.x, 0.9f) << "the part along the wall stays";
  Scene far;
  far.arrays.desired_velocity[0] = {0.9f, 0.9f};
  far.wall({-5.0f, 0.6f}, {5.0f, 0.6f});
  EXPECT_EQ(far.velocity(), glm::vec2(0.9f, 0.9f)) << "beyond wall_distance nothing changes";
}

} // namespace
} // namespace crowd
