#include "host/backends/detour_backend.h"
#include "host/navmesh/navmesh.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {
namespace {

constexpr float kDt = 0.1f;

Scenario corridor() {
  Scenario s;
  s.name = "corridor";
  s.file = "corridor.json";
  s.dt = kDt;
  // 5 m wide: room for two agents side by side once Recast has eroded the walkable area.
  s.world.bounds = WorldSpec::Bounds2D{{0.0f, 0.0f}, {20.0f, 5.0f}};
  return s;
}

const NavMesh& corridor_navmesh() {
  static const NavMesh mesh = NavMesh::build(corridor());
  return mesh;
}

AgentSetup agent(glm::vec3 position, glm::vec3 goal) {
  AgentSetup a;
  a.position = position;
  a.goal = goal;
  a.params.radius = 0.4f;
  return a;
}

float distance_xz(glm::vec3 a, glm::vec3 b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

TEST(DetourBackend, TwoAgentsPassInACorridorAndArrive) {
  DetourCrowdBackend backend(corridor_navmesh(), 2, 0.4f);
  EXPECT_EQ(backend.name(), "detour");
  const glm::vec3 goal_a{18.0f, 0.0f, 2.5f}, goal_b{2.0f, 0.0f, 2.5f};
  EXPECT_EQ(backend.add_agent(agent({2.0f, 0.0f, 2.5f}, goal_a)), 0);
  EXPECT_EQ(backend.add_agent(agent({18.0f, 0.0f, 2.5f}, goal_b)), 1);
  ASSERT_EQ(backend.positions().size(), 2u);
  ASSERT_EQ(backend.velocities().size(), 2u);

  bool arrived_a = false, arrived_b = false, passed = false;
  float closest = 1e9f;
  // 16 m at 1.4 m/s is about 115 steps; allow for the sidestep.
  for (int step = 0; step < 300 && !(arrived_a && arrived_b); ++step) {
    backend.step(kDt);
    const auto p = backend.positions();
    closest = std::min(closest, distance_xz(p[0], p[1]));
    // No overlap event by the metrics' rule: penetration <= 5% of 0.4 + 0.4.
    ASSERT_LE(0.8f - distance_xz(p[0], p[1]), 0.05f * 0.8f) << "step " << step;
    passed = passed || p[0].x > p[1].x;
    arrived_a = arrived_a || distance_xz(p[0], goal_a) < 0.5f;
    arrived_b = arrived_b || distance_xz(p[1], goal_b) < 0.5f;
  }
  EXPECT_TRUE(passed);
  EXPECT_TRUE(arrived_a);
  EXPECT_TRUE(arrived_b);
  EXPECT_LT(closest, 3.0f); // they did meet on the way

  const StageTimes& stages = backend.last_step_stages();
  ASSERT_EQ(stages.entries().size(), 2u);
  EXPECT_EQ(stages.entries()[0].first, "detour_update");
  EXPECT_EQ(stages.entries()[1].first, "copy_out");
  // At least the two 256-polygon corridors.
  EXPECT_GT(backend.host_memory_bytes(), 2u * 256u * 4u);
}

TEST(DetourBackend, StoppedAgentStandsStill) {
  DetourCrowdBackend backend(corridor_navmesh(), 1, 0.4f);
  const glm::vec3 start{2.0f, 0.0f, 2.5f};
  backend.add_agent(agent(start, {18.0f, 0.0f, 2.5f}));
  for (int step = 0; step < 20; ++step) {
    backend.step(kDt);
  }
  ASSERT_GT(distance_xz(backend.positions()[0], start), 1.0f); // it was walking
  backend.stop_agent(0);
  // Deceleration is bounded by max_accel (8 m/s^2): from 1.4 m/s it takes 2 steps.
  for (int step = 0; step < 3; ++step) {
    backend.step(kDt);
  }
  const glm::vec3 stopped = backend.positions()[0];
  for (int step = 0; step < 50; ++step) {
    backend.step(kDt);
    EXPECT_LT(distance_xz(backend.positions()[0], stopped), 1e-4f) << "step " << step;
    EXPECT_LT(glm::length(backend.velocities()[0]), 1e-4f) << "step " << step;
  }
  // A new goal sets it walking again.
  backend.set_goal(0, {2.0f, 0.0f, 2.5f});
  for (int step = 0; step < 10; ++step) {
    backend.step(kDt);
  }
  EXPECT_LT(backend.positions()[0].x, stopped.x - 0.5f);
}

// The spec (scenario.md, Errors): an agent whose goal cannot be reached walks to the nearest
// reachable point, even when the goal is 40 m out past the end of the corridor, far beyond the
// crowd's placement extents.
TEST(DetourBackend, GoalWithNoNavmeshNearbySendsTheAgentToTheNearestReachablePoint) {
  DetourCrowdBackend backend(corridor_navmesh(), 1, 0.4f);
  backend.add_agent(agent({5.0f, 0.0f, 2.5f}, {60.0f, 0.0f, 2.5f}));
  for (int step = 0; step < 200; ++step) {
    backend.step(kDt);
  }
  EXPECT_GT(backend.positions()[0].x, 18.5f) << "at the corridor's end nearest the goal";
  EXPECT_NEAR(backend.positions()[0].z, 2.5f, 0.5f);
}

TEST(DetourBackend, RemovedAgentsKeepTheirIdAndLastPosition) {
  DetourCrowdBackend backend(corridor_navmesh(), 2, 0.4f);
  backend.add_agent(agent({2.0f, 0.0f, 1.8f}, {18.0f, 0.0f, 1.8f}));
  backend.add_agent(agent({2.0f, 0.0f, 3.2f}, {18.0f, 0.0f, 3.2f}));
  for (int step = 0; step < 10; ++step) {
    backend.step(kDt);
  }
  backend.remove_agent(0);
  const glm::vec3 last = backend.positions()[0];
  // The freed dtCrowd slot is reused by the next agent; our ids are not.
  EXPECT_EQ(backend.add_agent(agent({18.0f, 0.0f, 1.8f}, {2.0f, 0.0f, 1.8f})), 2);
  for (int step = 0; step < 10; ++step) {
    backend.step(kDt);
  }
  ASSERT_EQ(backend.positions().size(), 3u);
  EXPECT_EQ(backend.positions()[0], last);
  EXPECT_LT(backend.positions()[2].x, 17.0f);  // the new agent walks toward x = 2
  EXPECT_GT(backend.positions()[1].x, last.x); // agent 1 unaffected
  EXPECT_THROW(backend.stop_agent(3), std::out_of_range);
  backend.remove_agent(0); // twice: no effect
}

TEST(DetourBackend, CapacityGuards) {
  try {
    DetourCrowdBackend backend(corridor_navmesh(), 20000, 0.4f);
    FAIL() << "capacity 20000 was accepted";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("20000"), std::string::npos) << what;
    EXPECT_NE(what.find("16383"), std::string::npos) << what;
    EXPECT_NE(what.find("16-bit"), std::string::npos) << what;
  }
  EXPECT_EQ(DetourCrowdBackend::kMaxCapacity, 16383);

  DetourCrowdBackend backend(corridor_navmesh(), 2, 0.4f);
  backend.add_agent(agent({2.0f, 0.0f, 1.8f}, {18.0f, 0.0f, 1.8f}));
  backend.add_agent(agent({2.0f, 0.0f, 3.2f}, {18.0f, 0.0f, 3.2f}));
  try {
    backend.add_agent(agent({5.0f, 0.0f, 2.5f}, {18.0f, 0.0f, 2.5f}));
    FAIL() << "a third agent fitted in a crowd of 2";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("full"), std::string::npos) << e.what();
  }
}

TEST(DetourBackend, EightAvoidanceSlotsAtMost) {
  DetourCrowdBackend many(corridor_navmesh(), 10, 0.4f);
  for (int i = 0; i < 8; ++i) {
    AgentSetup a = agent({2.0f + static_cast<float>(i), 0.0f, 2.5f}, {18.0f, 0.0f, 2.5f});
    a.params.avoidance.adaptive_depth = i + 1;
    many.add_agent(a);
  }
  EXPECT_EQ(many.avoidance_slots_used(), 8);
  AgentSetup same = agent({11.0f, 0.0f, 2.5f}, {18.0f, 0.0f, 2.5f});
  same.params.avoidance.adaptive_depth = 3;
  many.add_agent(same); // an existing set: fine
  EXPECT_EQ(many.avoidance_slots_used(), 8);
  AgentSetup ninth = agent({12.0f, 0.0f, 2.5f}, {18.0f, 0.0f, 2.5f});
  ninth.params.avoidance.adaptive_depth = 9;
  try {
    many.add_agent(ninth);
    FAIL() << "a ninth avoidance set was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("8"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace crowd
