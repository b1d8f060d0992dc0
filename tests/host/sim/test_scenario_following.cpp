// Scenario extension `follow` (Simulation): a follower keeps within its offset plus its arrival
// radius of a walking leader, on our solver and on DetourCrowd; it arrives only once its leader
// has, at its place beside it; standing beside a waiting leader is not being stuck; a checkpoint
// taken on the way resumes bit for bit.
#include "host/checkpoint/archive.h"
#include "host/sim/simulation.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace crowd {
namespace {

// A 40 x 20 m hall with two pillars. The captain walks from (4, 10) to (36, 10), waiting 3 s
// at a waypoint half way; its escort follows 1.5 m behind and 1 m to the side, as they spawned.
// Separation (DT_CROWD_SEPARATION) would push the two apart within their query range, the
// escort at its place included: a formation turns it off (as the Crowd's follow test does).
constexpr const char* kEscort = R"({
  "name": "escort", "seed": 3, "dt": 0.1, "duration": 60,
  "world": {"bounds": [[0, 0], [40, 20]],
            "obstacles": [[[12, 4], [13, 4], [13, 7], [12, 7]],
                          [[26, 13], [27, 13], [27, 16], [26, 16]]]},
  "defaults": {"max_speed": 1.2, "separation_weight": 0},
  "agents": [
    {"position": [4, 10], "goal": [36, 10], "waypoints": [{"point": [20, 10], "wait": 3}]},
    {"position": [2.5, 11], "follow": {"agent": 0}, "max_speed": 1.6}
  ]})";

float ground_distance(glm::vec3 a, glm::vec3 b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

class ScenarioFollowing : public ::testing::TestWithParam<BackendKind> {};

TEST_P(ScenarioFollowing, AFollowerKeepsItsPlaceBesideAWalkingLeaderAndArrivesAfterIt) {
  SimulationOptions options;
  options.backend = GetParam();
  Simulation sim(parse_scenario(kEscort, "escort.json"), options);
  const float allowed = std::hypot(1.5f, 1.0f) + 0.5f; // offset plus arrival radius
  float worst = 0.0f;
  int leader_arrived = -1, follower_arrived = -1;
  while (sim.step_index() < 600 && follower_arrived < 0) {
    sim.step();
    if (leader_arrived < 0 && sim.phase(0) == AgentPhase::Arrived)
      leader_arrived = sim.step_index();
    if (sim.phase(1) == AgentPhase::Arrived)
      follower_arrived = sim.step_index();
    if (sim.step_index() > 50) // after the first 5 s
      worst = std::max(worst, ground_distance(sim.position(0), sim.position(1)));
  }
  // DetourCrowd cannot move a path's end: its follower's goal is requested again once a second,
  // and it trails further (2.8 m here).
  EXPECT_LE(worst, GetParam() == BackendKind::Detour ? 3.0f : allowed);
  ASSERT_GT(leader_arrived, 0);
  ASSERT_GT(follower_arrived, 0);
  EXPECT_GE(follower_arrived, leader_arrived); // never before its leader
  // At its place: the leader's position plus the offset, within its arrival radius.
  const glm::vec3 place = sim.position(0) + glm::vec3(-1.5f, 0.0f, 1.0f);
  EXPECT_LE(ground_distance(sim.position(1), place), 0.5f);
  // Standing beside the captain at the waypoint was keeping its place, not being stuck.
  EXPECT_EQ(sim.metrics().stuck.episodes, 0);
  EXPECT_EQ(sim.metrics().arrived, 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, ScenarioFollowing,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const ::testing::TestParamInfo<BackendKind>& backend) {
                           return std::string(backend.param == BackendKind::Cpu ? "cpu" : "detour");
                         });

TEST(ScenarioFollowingCheckpoint, ACheckpointTakenOnTheWayResumesBitForBit) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  const Scenario scenario = parse_scenario(kEscort, "escort.json");
  Simulation original(scenario, options);
  for (int step = 0; step < 83; ++step) // between two replans of the follower
    original.step();
  ArchiveWriter out;
  original.save_checkpoint(out);
  Simulation resumed(scenario, options);
  ArchiveReader in(out.bytes().data(), out.bytes().size(), "on-the-way");
  resumed.restore_checkpoint(in);
  for (int step = 0; step < 150; ++step) {
    original.step();
    resumed.step();
    ASSERT_EQ(original.position(1), resumed.position(1)) << "step " << step;
  }
}

TEST(ScenarioFollowingApi, SetGoalEndsTheFollowing) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(parse_scenario(kEscort, "escort.json"), options);
  sim.set_goal(1, {2.0f, 0.0f, 2.0f});
  while (sim.step_index() < 300 && sim.phase(1) != AgentPhase::Arrived)
    sim.step();
  EXPECT_EQ(sim.phase(1), AgentPhase::Arrived); // at its own goal, long before the captain
  EXPECT_LT(ground_distance(sim.position(1), {2.0f, 0.0f, 2.0f}), 0.6f);
}

} // namespace
} // namespace crowd
