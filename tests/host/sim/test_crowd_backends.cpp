// host/sim/crowd.h on every backend: the same calls drive our solver and DetourCrowd itself
// (CrowdOptions::backend), so a caller can compare the two through one API; a crowd keeps a
// navmesh this library built for it; and a Simulation is a Crowd with a scenario around it,
// stepping its agents exactly as a Crowd given the same agents does.
#include "host/backends/detour_backend.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"
#include "host/sim/crowd.h"
#include "host/sim/simulation.h"
#include "tests/support/crowd_api.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace crowd {
namespace {

using test::crowd_on;
using test::ground_distance;

// A 30 x 12 m hall with a pillar in the middle of its length.
constexpr const char* kHall = R"({
  "name": "hall", "dt": 0.1, "steps": 1,
  "world": {
    "bounds": [[0, 0], [30, 12]],
    "obstacles": [[[14, 5], [16, 5], [16, 7], [14, 7]]]
  },
  "agents": [
    {"position": [2, 6], "goal": [28, 6]},
    {"position": [28, 5.5], "goal": [2, 5.5]},
    {"position": [3, 2], "goal": [27, 10]},
    {"position": [27, 2], "goal": [3, 10]}
  ]
})";

const Scenario& hall() {
  static const Scenario scenario = parse_scenario(kHall, "hall.json");
  return scenario;
}

const NavMesh& hall_navmesh() {
  static const NavMesh navmesh = NavMesh::build(hall());
  return navmesh;
}

class CrowdOnEveryBackend : public ::testing::TestWithParam<BackendKind> {};

TEST_P(CrowdOnEveryBackend, AnAgentSentRoundAPillarSteersByItsCornersAndArrives) {
  Crowd crowd(hall_navmesh().detour(), crowd_on(GetParam()));
  EXPECT_EQ(crowd.executor_name(), GetParam() == BackendKind::Detour ? "detour" : "cpu");
  const int id = crowd.add_agent({10.0f, 0.0f, 6.0f});
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::None);
  crowd.update(0.1f);
  EXPECT_EQ(crowd.path_searches(), 0u) << "an agent standing without a target searches nothing";
  crowd.request_move_target(id, {20.0f, 0.0f, 6.0f});
  for (int step = 0; step < 3; ++step)
    crowd.update(0.1f);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::Valid);
  EXPECT_EQ(crowd.path_searches(), 1u);
  const std::vector<CrowdCorner> corners = crowd.corners(id);
  ASSERT_FALSE(corners.empty());
  // The pillar (x 14-16, z 5-7) stands in the way: the first corner is one of its near corners.
  EXPECT_FALSE(corners.front().is_target);
  EXPECT_NEAR(corners.front().position.x, 14.0f, 0.8f);
  EXPECT_NEAR(std::abs(corners.front().position.z - 6.0f), 1.0f, 0.8f);
  const glm::vec2 wants = crowd.desired_velocity(id);
  const glm::vec3 to_corner = corners.front().position - crowd.position(id);
  EXPECT_GT(glm::dot(glm::normalize(wants), glm::normalize(glm::vec2(to_corner.x, to_corner.z))),
            0.9f);
  for (int step = 0; step < 150; ++step)
    crowd.update(0.1f);
  EXPECT_LT(ground_distance(crowd.position(id), crowd.target(id)), 0.5f);
}

TEST_P(CrowdOnEveryBackend, AVelocityRequestMovesTheAgentUntilAResetStopsIt) {
  Crowd crowd(hall_navmesh().detour(), crowd_on(GetParam()));
  const int id = crowd.add_agent({3.0f, 0.0f, 2.0f});
  crowd.request_move_velocity(id, {1.0f, 0.0f, 0.0f});
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::Velocity);
  for (int step = 0; step < 40; ++step)
    crowd.update(0.1f);
  EXPECT_NEAR(crowd.velocity(id).x, 1.0f, 0.05f);
  EXPECT_GT(crowd.position(id).x, 5.5f);
  EXPECT_TRUE(crowd.corners(id).empty());
  crowd.reset_move_target(id);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::None);
  for (int step = 0; step < 30; ++step)
    crowd.update(0.1f);
  EXPECT_LT(glm::length(crowd.velocity(id)), 1e-3f);
}

TEST_P(CrowdOnEveryBackend, UpdatedParametersTakeEffectOnTheWay) {
  Crowd crowd(hall_navmesh().detour(), crowd_on(GetParam()));
  const int id = crowd.add_agent({2.0f, 0.0f, 2.0f});
  crowd.request_move_target(id, {28.0f, 0.0f, 2.0f});
  for (int step = 0; step < 30; ++step)
    crowd.update(0.1f);
  EXPECT_NEAR(glm::length(crowd.velocity(id)), 1.4f, 0.02f);
  AgentParams slower = crowd.agent_parameters(id);
  slower.max_speed = 0.7f;
  crowd.update_agent_parameters(id, slower);
  for (int step = 0; step < 30; ++step)
    crowd.update(0.1f);
  EXPECT_NEAR(glm::length(crowd.velocity(id)), 0.7f, 0.02f);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::Valid);
}

TEST_P(CrowdOnEveryBackend, AMovedAgentWalksOnToItsTargetFromItsNewPlace) {
  Crowd crowd(hall_navmesh().detour(), crowd_on(GetParam()));
  const int id = crowd.add_agent({2.0f, 0.0f, 10.0f});
  crowd.request_path(id, {28.0f, 0.0f, 10.0f});
  for (int step = 0; step < 10; ++step)
    crowd.update(0.1f);
  crowd.move_agent(id, {20.0f, 0.0f, 10.0f});
  EXPECT_LT(ground_distance(crowd.position(id), {20.0f, 0.0f, 10.0f}), 0.05f);
  EXPECT_EQ(crowd.positions()[static_cast<std::size_t>(id)], crowd.position(id));
  for (int step = 0; step < 80; ++step)
    crowd.update(0.1f);
  // 8 m at 1.4 m/s: there well within 8 s, where from x 2 it would have needed 19 s.
  EXPECT_LT(ground_distance(crowd.position(id), {28.0f, 0.0f, 10.0f}), 0.5f);
}

INSTANTIATE_TEST_SUITE_P(Backends, CrowdOnEveryBackend,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const ::testing::TestParamInfo<BackendKind>& backend) {
                           return std::string(backend.param == BackendKind::Cpu ? "cpu" : "detour");
                         });

TEST(CrowdOnDetour, ItsStateCannotBeSavedAndTheErrorSaysWhy) {
  Crowd crowd(hall_navmesh().detour(), crowd_on(BackendKind::Detour));
  crowd.add_agent({2.0f, 0.0f, 2.0f});
  const auto file = std::filesystem::temp_directory_path() / "crowd_test_detour_save.ckpt";
  try {
    crowd.save(file);
    ADD_FAILURE() << "a DetourCrowd crowd was saved";
  } catch (const ApiError& e) {
    EXPECT_NE(std::string(e.what()).find("the cpu or cuda backend"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(CrowdOnDetour, MoreAgentsThanItsCapacityAreRefusedAndTheCrowdIsUnchanged) {
  CrowdOptions options = crowd_on(BackendKind::Detour);
  options.max_agents = 2;
  Crowd crowd(hall_navmesh().detour(), options);
  crowd.add_agent({2.0f, 0.0f, 2.0f});
  crowd.add_agent({4.0f, 0.0f, 2.0f});
  EXPECT_THROW(crowd.add_agent({6.0f, 0.0f, 2.0f}), ApiError);
  EXPECT_EQ(crowd.agent_count(), 2);
  options.max_agents = DetourCrowdBackend::kMaxCapacity + 1;
  EXPECT_THROW(Crowd too_many(hall_navmesh().detour(), options), ApiError);
}

TEST(Crowd, KeepsANavmeshThisLibraryBuiltForIt) {
  Crowd crowd(NavMesh::build(hall()),
              crowd_on(BackendKind::Cpu)); // the temporary is gone after this
  EXPECT_EQ(crowd.navmesh().polygon_count(), hall_navmesh().polygon_count());
  const int id = crowd.add_agent({2.0f, 0.0f, 2.0f});
  crowd.request_move_target(id, {10.0f, 0.0f, 2.0f});
  for (int step = 0; step < 80; ++step)
    crowd.update(0.1f);
  EXPECT_LT(ground_distance(crowd.position(id), crowd.target(id)), 0.5f);
}

// The Simulation's engine is a Crowd: a scenario without start delays, waypoints or followers
// runs, before any agent arrives, exactly as its placed agents added to a Crowd of the same
// backend and capacity, bit for bit.
class SimulationIsACrowd : public ::testing::TestWithParam<BackendKind> {};

TEST_P(SimulationIsACrowd, ItsAgentsStepExactlyAsTheSameAgentsInACrowd) {
  SimulationOptions sim_options;
  sim_options.backend = GetParam();
  Simulation sim(hall(), sim_options);
  CrowdOptions options = crowd_on(GetParam());
  options.max_agents = 4 + 64; // the Simulation's room: its scene and 64 added through the API
  options.max_agent_radius =
      std::max(hall().max_agent_radius(), hall_navmesh().settings().agent_radius);
  Crowd crowd(NavMesh::build(hall()), options);
  const NavMesh& navmesh = crowd.navmesh();
  for (const AgentSetup& setup : populate(hall(), navmesh))
    crowd.add_agent(setup);
  for (int step = 0; step < 60; ++step) {
    sim.step();
    crowd.update(hall().dt);
    for (int id = 0; id < crowd.agent_count(); ++id) {
      ASSERT_EQ(sim.position(id), crowd.position(id)) << "agent " << id << ", step " << step;
      ASSERT_EQ(sim.velocity(id), crowd.velocity(id)) << "agent " << id << ", step " << step;
    }
  }
  EXPECT_GT(crowd.position(0).x, 7.0f); // it walked from x 2
}

INSTANTIATE_TEST_SUITE_P(Backends, SimulationIsACrowd,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const ::testing::TestParamInfo<BackendKind>& backend) {
                           return std::string(backend.param == BackendKind::Cpu ? "cpu" : "detour");
                         });

} // namespace
} // namespace crowd
