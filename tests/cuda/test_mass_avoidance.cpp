// cuda/kernels/mass_avoidance.h: the force model (scenario `avoidance: {"model": "mass"}`).
// The body's pushes point the way a user expects (away from a neighbour in the way, weaker from
// a standing agent, never past the desired speed; a wall ahead takes away the velocity into it);
// and in whole runs on the cpu backend a head-on pair passes without overlap, an agent does not
// walk into a wall across its way, and both crossings of a crowd arrive.
#include "cuda/core/agent_arrays.h"
#include "cuda/kernels/mass_avoidance.h"
#include "host/scenario/scenario.h"
#include "host/sim/simulation.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace crowd {
namespace {

/// An agent at the origin walking +x at 1.4 m/s, and `others` at their places and velocities,
/// all of them its neighbours; `wall` a wall segment it sees when `with_wall`.
struct Scene {
  AgentArrays arrays;
  explicit Scene(int max_segments = 1) {
    arrays.max_neighbors = 4;
    arrays.max_segments = max_segments;
    add({0.0f, 0.0f}, {1.4f, 0.0f});
  }
  int add(glm::vec2 at, glm::vec2 velocity, std::uint8_t mode = kAgentMoving) {
    const int i = arrays.append({at.x, 0.0f, at.y}, 0.4f, 2.0f, 8.0f, 4.8f, 2.0f, 0);
    const auto k = static_cast<std::size_t>(i);
    arrays.mode[k] = mode;
    arrays.velocity[k] = velocity;
    arrays.desired_velocity[k] = velocity;
    arrays.desired_speed[k] = 1.4f;
    if (i > 0) {
      arrays.neighbor_index[static_cast<std::size_t>(arrays.neighbor_count[0])] = i;
      ++arrays.neighbor_count[0];
    }
    return i;
  }
  void wall(glm::vec2 a, glm::vec2 b) {
    arrays.segment[0] = {a.x, a.y, b.x, b.y};
    arrays.segment_count[0] = 1;
  }
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

// ---- Whole runs on the cpu backend.

std::string with_mass(const std::string& body) {
  return R"({"name": "mass", "seed": 3, "dt": 0.1, "duration": 30,
             "defaults": {"radius": 0.4, "max_speed": 1.4, "avoidance": {"model": "mass"}},
            )" +
         body + "}";
}

MetricsSummary run(const std::string& json) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(parse_scenario(json, "mass.json"), options);
  while (sim.step_index() < sim.scenario().step_count())
    sim.step();
  return sim.metrics();
}

TEST(MassAvoidanceRuns, AHeadOnPairPassesWithoutOverlap) {
  const MetricsSummary m = run(with_mass(R"(
      "world": {"bounds": [[-10, -5], [10, 5]]},
      "agents": [{"position": [-6, 0], "goal": [6, 0]}, {"position": [6, 0.1], "goal": [-6, 0.1]}])"));
  EXPECT_EQ(m.arrived, 2);
  EXPECT_EQ(m.overlap_events, 0);
}

TEST(MassAvoidanceRuns, AnAgentDoesNotWalkIntoAWallAcrossItsWay) {
  // The wall stands across the straight line; the path goes round its end.
  const MetricsSummary m = run(with_mass(R"(
      "world": {"bounds": [[-10, -10], [10, 10]], "obstacles": [[[-0.1, -6], [0.1, -6], [0.1, 3], [-0.1, 3]]]},
      "agents": [{"position": [-5, 0], "goal": [5, 0]}, {"position": [-5, -2], "goal": [5, -2]}])"));
  EXPECT_EQ(m.arrived, 2);
  EXPECT_EQ(m.wall_events, 0);
}

TEST(MassAvoidanceRuns, TwoCrossingGroupsArriveWithoutWallEvents) {
  const MetricsSummary m = run(with_mass(R"(
      "world": {"bounds": [[-12, -12], [12, 12]]},
      "groups": [
        {"count": 12, "spawn": {"rect": [[-11, -3], [-7, 3]]}, "goal": {"rect": [[7, -3], [11, 3]]}},
        {"count": 12, "spawn": {"rect": [[-3, -11], [3, -7]]}, "goal": {"rect": [[-3, 7], [3, 11]]}}])"));
  EXPECT_EQ(m.arrived, 24);
  EXPECT_EQ(m.wall_events, 0);
}

} // namespace
} // namespace crowd
