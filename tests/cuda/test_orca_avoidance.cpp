// cuda/kernels/orca_avoidance.h: ORCA (scenario `avoidance: {"model": "orca"}`). The half-plane
// of a neighbour is RVO2's, checked against values worked by hand; the chosen velocity is the
// one nearest the desired velocity in every half-plane; overlapping agents part at full speed
// (the 3D program's least violation), without being pushed through a wall; a wall ahead takes
// away the velocity that would reach it within its horizon, and a wall seen from its far side
// counts for nothing. Whole runs under every model: test_avoidance_model_runs.cpp.
#include "cuda/kernels/orca_avoidance.h"
#include "tests/support/avoidance_scene.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr float kDt = 0.1f;

/// An agent at the origin with velocity and desired velocity (1, 0) among its neighbours, with
/// two wall slots.
struct Scene : test::AvoidanceScene {
  OrcaAvoidanceParams params;
  Scene() : AvoidanceScene({1.0f, 0.0f}, 2) {}
  std::vector<OrcaLine> lines(int& obstacle_lines) {
    std::vector<OrcaLine> out(static_cast<std::size_t>(capacity()));
    const int count =
        orca_lines(0, arrays.view_without_rotations(), params, kDt, out.data(), obstacle_lines);
    out.resize(static_cast<std::size_t>(count));
    return out;
  }
  glm::vec2 velocity() {
    std::vector<OrcaLine> lines(static_cast<std::size_t>(capacity()));
    std::vector<OrcaLine> projected(lines.size());
    return orca_velocity(0, arrays.view_without_rotations(), params, kDt, lines.data(),
                         projected.data());
  }
  int capacity() const { return orca_line_capacity(arrays.max_neighbors, arrays.max_segments); }
};

/// Whether v is in the half-plane of `line` (on or left of it).
bool permitted(const OrcaLine& line, glm::vec2 v) {
  return orca_det(line.direction, line.point - v) <= 1e-5f;
}

TEST(OrcaAvoidance, AloneTheAgentKeepsItsDesiredVelocity) {
  Scene scene;
  EXPECT_EQ(scene.velocity(), glm::vec2(1.0f, 0.0f));
}

TEST(OrcaAvoidance, AHeadOnNeighbourGivesRvo2sHalfPlane) {
  // Worked by hand from RVO2's computeNewVelocity: relative position p = (4, 0), relative
  // velocity (2, 0), combined radius 0.8, horizon 2.5 s. w = (2, 0) - p / 2.5 = (0.4, 0) lies
  // off the cut-off circle's side (w . p > 0), so the half-plane follows the right leg,
  // -(4 l, -3.2) / 16 with l = sqrt(16 - 0.64): direction (-0.9797959, 0.2); the relative
  // velocity's projection on it leaves u = (-0.08, -0.3919184), and the line passes through
  // v + u / 2 = (0.96, -0.1959592).
  Scene scene;
  scene.add({4.0f, 0.0f}, {-1.0f, 0.0f});
  int obstacle_lines = -1;
  const std::vector<OrcaLine> lines = scene.lines(obstacle_lines);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(obstacle_lines, 0);
  EXPECT_NEAR(lines[0].direction.x, -0.9797959f, 1e-6f);
  EXPECT_NEAR(lines[0].direction.y, 0.2f, 1e-6f);
  EXPECT_NEAR(lines[0].point.x, 0.96f, 1e-6f);
  EXPECT_NEAR(lines[0].point.y, -0.1959592f, 1e-6f);
  // The desired velocity is outside it; the nearest permitted velocity is the line's point
  // (the desired velocity projects onto it there), a turn to the right that its partner,
  // seeing the mirror image, makes too.
  EXPECT_FALSE(permitted(lines[0], {1.0f, 0.0f}));
  const glm::vec2 v = scene.velocity();
  EXPECT_NEAR(v.x, 0.96f, 1e-5f);
  EXPECT_NEAR(v.y, -0.1959592f, 1e-5f);
}

TEST(OrcaAvoidance, TheChosenVelocityIsTheNearestInEveryHalfPlane) {
  Scene scene;
  scene.add({3.0f, 0.5f}, {-1.0f, 0.0f});
  scene.add({2.0f, -1.5f}, {0.0f, 1.0f});
  scene.add({-1.5f, -1.0f}, {1.2f, 0.5f});
  int obstacle_lines = 0;
  const std::vector<OrcaLine> lines = scene.lines(obstacle_lines);
  ASSERT_EQ(lines.size(), 3u);
  const glm::vec2 v = scene.velocity();
  for (const OrcaLine& line : lines)
    EXPECT_TRUE(permitted(line, v));
  EXPECT_LE(orca_dot(v, v), 1.4f * 1.4f * (1.0f + 1e-5f)) << "within the desired speed";
  // No permitted velocity within the speed circle is nearer the desired one (a fine grid).
  const float chosen = orca_dot(v - glm::vec2(1.0f, 0.0f), v - glm::vec2(1.0f, 0.0f));
  for (float x = -1.4f; x <= 1.4f; x += 0.01f)
    for (float y = -1.4f; y <= 1.4f; y += 0.01f) {
      const glm::vec2 c(x, y);
      if (orca_dot(c, c) > 1.4f * 1.4f)
        continue;
      bool inside = true;
      for (const OrcaLine& line : lines)
        inside = inside && orca_det(line.direction, line.point - c) <= 0.0f;
      if (inside) {
        EXPECT_GE(orca_dot(c - glm::vec2(1.0f, 0.0f), c - glm::vec2(1.0f, 0.0f)), chosen - 1e-4f)
            << "(" << x << ", " << y << ") is nearer";
      }
    }
}

TEST(OrcaAvoidance, OverlappingAgentsPartAtFullSpeed) {
  // Both standing, 0.3 m deep into each other: the one-step cut-off asks for 1.5 m/s apart,
  // more than the 1.4 m/s the agent may go, so the 2D program has no room and the 3D program
  // gives the least violation: straight away from the other at full speed.
  Scene scene;
  scene.arrays.velocity[0] = glm::vec2(0.0f);
  scene.arrays.desired_velocity[0] = glm::vec2(0.0f);
  scene.add({0.5f, 0.0f}, {0.0f, 0.0f});
  const glm::vec2 v = scene.velocity();
  EXPECT_NEAR(v.x, -1.4f, 1e-5f);
  EXPECT_NEAR(v.y, 0.0f, 1e-5f);
}

TEST(OrcaAvoidance, TwoAgentsOnOneSpotPartInOppositeDirections) {
  Scene scene;
  scene.arrays.velocity[0] = glm::vec2(0.0f);
  scene.arrays.desired_velocity[0] = glm::vec2(0.0f);
  const int other = scene.add({0.0f, 0.0f}, {0.0f, 0.0f});
  const glm::vec2 first = scene.velocity();
  EXPECT_TRUE(std::isfinite(first.x) && std::isfinite(first.y));
  EXPECT_GT(orca_dot(first, first), 1.0f) << "it moves off the spot";
  // The other agent, seeing agent 0 as its neighbour, goes the other way.
  scene.arrays.neighbor_index[static_cast<std::size_t>(other) * 4] = 0;
  scene.arrays.neighbor_count[static_cast<std::size_t>(other)] = 1;
  std::vector<OrcaLine> lines(static_cast<std::size_t>(scene.capacity()));
  std::vector<OrcaLine> projected(lines.size());
  const glm::vec2 second = orca_velocity(other, scene.arrays.view_without_rotations(), scene.params,
                                         kDt, lines.data(), projected.data());
  EXPECT_LT(orca_dot(first, second), 0.0f);
}

TEST(OrcaAvoidance, AWallAheadTakesAwayTheVelocityThatWouldReachIt) {
  // The walkable side of a segment a->b is on its right ((b - a) turned clockwise in x/z):
  // a->b along +x keeps the agent on the -y side.
  Scene scene;
  scene.arrays.desired_velocity[0] = {0.9f, 0.9f}; // 45 degrees toward the wall
  scene.wall({-5.0f, 0.3f}, {5.0f, 0.3f});
  int obstacle_lines = 0;
  ASSERT_EQ(scene.lines(obstacle_lines).size(), 1u);
  EXPECT_EQ(obstacle_lines, 1);
  const glm::vec2 v = scene.velocity();
  EXPECT_LE(v.y * scene.params.time_horizon_obstacles, 0.3f + 1e-5f)
      << "it does not reach the wall within the obstacle horizon";
  EXPECT_NEAR(v.x, 0.9f, 1e-5f) << "the part along the wall stays";

  Scene far;
  far.arrays.desired_velocity[0] = {0.9f, 0.9f};
  far.wall({-5.0f, 2.0f}, {5.0f, 2.0f});
  EXPECT_EQ(far.velocity(), glm::vec2(0.9f, 0.9f)) << "a wall beyond the horizon changes nothing";

  Scene behind;
  behind.arrays.desired_velocity[0] = {0.9f, 0.9f};
  behind.wall({5.0f, 0.3f}, {-5.0f, 0.3f});
  EXPECT_EQ(behind.velocity(), glm::vec2(0.9f, 0.9f))
      << "a wall whose walkable side is the other one is not the agent's";
}

TEST(OrcaAvoidance, AnAgentOnAWallMayNotStepIntoIt) {
  // The corridor move leaves an agent exactly on the navmesh boundary: the segment under it
  // forbids every velocity into the wall and nothing along or away from it.
  Scene scene;
  scene.arrays.desired_velocity[0] = {0.6f, 1.2f}; // into the wall, which is the x axis
  scene.wall({-5.0f, 0.0f}, {5.0f, 0.0f});         // walkable side: -y
  int obstacle_lines = 0;
  const std::vector<OrcaLine> lines = scene.lines(obstacle_lines);
  ASSERT_EQ(obstacle_lines, 1);
  EXPECT_FALSE(permitted(lines[0], {0.0f, 0.1f}));
  EXPECT_TRUE(permitted(lines[0], {1.0f, 0.0f}));
  EXPECT_TRUE(permitted(lines[0], {0.0f, -1.0f}));
  const glm::vec2 v = scene.velocity();
  EXPECT_NEAR(v.x, 0.6f, 1e-6f) << "it slides along";
  EXPECT_LE(v.y, 1e-6f);
}

TEST(OrcaAvoidance, TheFarFaceOfADoorInLineWithTheAgentsFaceDoesNotBarTheDoor) {
  // The agent stands on the wall face left of a door (segment x in [-5, -0.4] on the x axis);
  // the face right of the door (x in [0.4, 5]) lies on the same line, beyond its end. Walking
  // along the face toward the door stays permitted.
  Scene scene;
  scene.arrays.position[0] = {-1.0f, 0.0f, 0.0f};
  scene.arrays.velocity[0] = {1.0f, 0.0f};
  scene.arrays.desired_velocity[0] = {1.0f, 0.0f};
  scene.wall({-5.0f, 0.0f}, {-0.4f, 0.0f});
  scene.wall({0.4f, 0.0f}, {5.0f, 0.0f});
  int obstacle_lines = 0;
  const std::vector<OrcaLine> lines = scene.lines(obstacle_lines);
  EXPECT_EQ(obstacle_lines, 1) << "only the face it stands on";
  EXPECT_EQ(scene.velocity(), glm::vec2(1.0f, 0.0f));
}

TEST(OrcaAvoidance, ANeighbourDoesNotPushTheAgentThroughAWall) {
  // Overlapping a neighbour below it, the agent is pushed toward +y and into a wall 0.05 m
  // above: the wall's half-plane stays hard in the 3D program.
  Scene scene;
  scene.arrays.velocity[0] = glm::vec2(0.0f);
  scene.arrays.desired_velocity[0] = glm::vec2(0.0f);
  scene.wall({-5.0f, 0.05f}, {5.0f, 0.05f});
  scene.add({0.0f, -0.5f}, {0.0f, 0.0f});
  const glm::vec2 v = scene.velocity();
  EXPECT_LE(v.y * scene.params.time_horizon_obstacles, 0.05f + 1e-5f);
}

TEST(OrcaAvoidance, EveryAnswerIsFiniteAndWithinTheSpeedOnRandomAndDegenerateScenes) {
  // Random neighbourhoods, some with agents on one spot, agents on a segment's end or line,
  // standing agents and zero-length walls: the answer is always a finite velocity no faster
  // than the desired speed, to float rounding (a non-finite one would trip the integration
  // stage's fault guard).
  std::mt19937 rng(12345u);
  std::uniform_real_distribution<float> place(-2.0f, 2.0f);
  std::uniform_real_distribution<float> speed(-1.5f, 1.5f);
  std::uniform_int_distribution<int> neighbours(0, 4);
  std::uniform_int_distribution<int> walls(0, 2);
  std::uniform_int_distribution<int> degenerate(0, 5);
  for (int scene_index = 0; scene_index < 3000; ++scene_index) {
    Scene scene;
    const auto snap = [&](glm::vec2 v) { return degenerate(rng) == 0 ? glm::vec2(0.0f) : v; };
    scene.arrays.velocity[0] = snap({speed(rng), speed(rng)});
    scene.arrays.desired_velocity[0] = snap({speed(rng), speed(rng)});
    for (int k = neighbours(rng); k > 0; --k)
      scene.add(snap({place(rng), place(rng)}), snap({speed(rng), speed(rng)}));
    for (int w = walls(rng); w > 0; --w) {
      const glm::vec2 a = snap({place(rng), place(rng)});
      const glm::vec2 b = degenerate(rng) == 0 ? a : glm::vec2(place(rng), place(rng));
      scene.wall(a, b);
    }
    const glm::vec2 v = scene.velocity();
    ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y)) << "scene " << scene_index;
    // Within 1%: two overlapping neighbours can give nearly opposite half-planes, whose
    // projected line in the 3D program passes far from the origin, and RVO2's circle
    // intersection then loses digits to cancellation (|v| 1.4013 for 1.4 in one scene here).
    EXPECT_LE(orca_dot(v, v), 1.4f * 1.4f * 1.01f) << "scene " << scene_index;
  }
}

} // namespace
} // namespace crowd
