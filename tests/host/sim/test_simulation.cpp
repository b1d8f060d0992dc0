// host/sim/simulation.cpp: the run's health as the library user sees it: stuck agents found
// and replanned, and the health figures in the metrics.
#include "host/navmesh/navmesh.h"
#include "host/scenario/population.h"
#include "host/sim/api_error.h"
#include "host/sim/simulation.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <unistd.h>

#ifndef CROWD_SOURCE_DIR
#error "CROWD_SOURCE_DIR must point at the source tree"
#endif

namespace crowd {
namespace {

const std::filesystem::path kScenarios =
    std::filesystem::path(CROWD_SOURCE_DIR) / "samples" / "scenarios";

MetricsSummary run_bottleneck(double stuck_seconds) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  options.stuck_seconds = stuck_seconds;
  Simulation sim = Simulation::from_file(kScenarios / "bottleneck.json", options);
  const int steps = sim.scenario().step_count();
  while (sim.step_index() < steps)
    sim.step();
  return sim.metrics();
}

// The run holds its agents' parameters apart from their placements (AgentSetupTable): every
// agent's parameters, and its type label alone, read back as the scenario placed it, those of the
// emitter's agents not yet entered among them.
TEST(SimulationAgents, EveryAgentsParametersReadBackAsPlaced) {
  const Scenario scenario = load_scenario(kScenarios / "film_shot.json");
  const NavMesh navmesh = NavMesh::build(scenario);
  const std::vector<AgentSetup> placed = populate(scenario, navmesh);
  Simulation sim(scenario, SimulationOptions{});
  ASSERT_EQ(sim.agent_count(), static_cast<int>(placed.size()));
  bool any_pending = false;
  for (int id = 0; id < sim.agent_count(); ++id) {
    const AgentParams& expected = placed[static_cast<std::size_t>(id)].params;
    EXPECT_EQ(sim.agent_params(id), expected) << id;
    EXPECT_EQ(sim.agent_type(id), expected.type) << id;
    any_pending = any_pending || sim.phase(id) == AgentPhase::Pending;
  }
  EXPECT_TRUE(any_pending) << "the emitter's agents enter later";
  EXPECT_THROW(sim.agent_type(sim.agent_count()), ApiError);
}

TEST(SimulationHealth, AgentsQueuedAtADoorAreFoundStuckReplannedAndReleased) {
  const MetricsSummary s = run_bottleneck(2.0);
  // 60 agents through a 1.6 m door: the back of the queue waits longer than 2 s in place.
  EXPECT_GT(s.stuck.agents, 0);
  EXPECT_GE(s.stuck.episodes, s.stuck.agents);
  EXPECT_GE(s.stuck.replans, s.stuck.episodes);
  EXPECT_GE(s.stuck.longest_seconds, 2.0);
  EXPECT_GE(s.stuck.total_seconds, s.stuck.longest_seconds);
  EXPECT_EQ(s.stuck.stuck_now, 0) << "every agent got through in the end";
  EXPECT_EQ(s.arrived, s.agents);
  EXPECT_TRUE(s.faults.empty());
}

// stage_ms.host is the step's time outside the backend's stages, so the stages and it add up
// to the step's time; the observers are timed apart, outside it.
TEST(SimulationStages, HostTimeIsTheStepOutsideTheStagesAndObserversAreApart) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim = Simulation::from_file(kScenarios / "circle.json", options);
  for (int s = 0; s < 5; ++s) {
    sim.step();
    double in_step = 0.0;
    bool host = false, observe = false;
    for (const auto& [stage, ms] : sim.last_step_stages().entries()) {
      EXPECT_GE(ms, 0.0) << stage;
      if (stage == "observe") {
        observe = true;
        continue;
      }
      host = host || stage == "host";
      in_step += ms;
    }
    EXPECT_TRUE(host && observe);
    EXPECT_NEAR(in_step, sim.last_step_ms(), 1e-9 + 1e-9 * sim.last_step_ms());
  }
}

// SimulationOptions::observe off (the ranks of an MPI run that write no metrics): the same
// trajectory and arrivals, without the per-step observers' figures.
TEST(SimulationStages, WithoutObserversTheRunIsTheSameAndOnlyTheirFiguresAreMissing) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation observed = Simulation::from_file(kScenarios / "circle.json", options);
  options.observe = false;
  Simulation unobserved = Simulation::from_file(kScenarios / "circle.json", options);
  for (int s = 0; s < 700; ++s) {
    observed.step();
    unobserved.step();
  }
  for (int id = 0; id < observed.agent_count(); ++id)
    ASSERT_EQ(observed.position(id), unobserved.position(id)) << "agent " << id;
  const MetricsSummary with = observed.metrics(), without = unobserved.metrics();
  EXPECT_EQ(with.arrived, without.arrived);
  EXPECT_GT(with.arrived, 0);
  EXPECT_EQ(with.steps, without.steps);
  EXPECT_GT(with.overlap_events, 0);
  EXPECT_EQ(without.overlap_events, 0);
}

// An agent sent to a goal it cannot reach walks to the nearest point and stands there: it is
// not stuck, and replanning it would only search again. What counts is the goal it has now,
// not the one it had when it was added.
TEST(SimulationHealth, AnAgentWhoseNewGoalIsOutOfReachIsNotJudgedStuck) {
  Scenario two_rooms;
  two_rooms.name = "two-rooms";
  two_rooms.file = "two-rooms.json";
  two_rooms.world.bounds = WorldSpec::Bounds2D{{0.0f, 0.0f}, {20.0f, 10.0f}};
  two_rooms.world.obstacles = {{{9, 0}, {11, 0}, {11, 10}, {9, 10}}}; // wall across the floor
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  options.stuck_seconds = 2.0;
  Simulation sim(two_rooms, options);
  const int walker = sim.add_agent({3, 0, 5}, {6, 0, 5}, AgentParams{});
  sim.set_goal(walker, {17, 0, 5}); // the other room
  for (int step = 0; step < 100; ++step)
    sim.step();
  EXPECT_GT(sim.position(walker).x, 7.5f) << "it walked to the wall";
  const MetricsSummary s = sim.metrics();
  EXPECT_EQ(s.stuck.agents, 0);
  EXPECT_EQ(s.stuck.replans, 0);
  EXPECT_EQ(s.arrived, 0);
}

TEST(SimulationHealth, DetectionOffCountsNothing) {
  const MetricsSummary s = run_bottleneck(0.0);
  EXPECT_EQ(s.stuck.agents, 0);
  EXPECT_EQ(s.stuck.replans, 0);
}

TEST(SimulationHealth, TheMetricsJsonCarriesTheHealthAfterTheSpecKeys) {
  MetricsSummary s;
  s.faults.push_back({3, 17, "integration"});
  s.stuck.agents = 2;
  s.stuck.longest_seconds = 12.5;
  s.navmesh_corrections = 4;
  const nlohmann::ordered_json j = to_json(s);
  EXPECT_EQ(j["frozen_agents"], 1);
  EXPECT_EQ(j["faults"][0]["agent"], 3);
  EXPECT_EQ(j["faults"][0]["step"], 17);
  EXPECT_EQ(j["faults"][0]["stage"], "integration");
  EXPECT_EQ(j["stuck_agents"], 2);
  EXPECT_EQ(j["stuck_seconds_max"], 12.5);
  EXPECT_EQ(j["navmesh_corrections"], 4);
  // The spec's keys come first, in its order.
  EXPECT_EQ(j.begin().key(), "scenario");
}

TEST(SimulationHealth, SetGoalOnAnUnknownOrRemovedAgentIsRefused) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim = Simulation::from_file(kScenarios / "circle.json", options);
  EXPECT_THROW(sim.set_goal(sim.agent_count(), {0, 0, 0}), ApiError);
  sim.remove_agent(0);
  EXPECT_THROW(sim.set_goal(0, {0, 0, 0}), ApiError);
  EXPECT_FALSE(sim.frozen(1));
  EXPECT_TRUE(sim.faults().empty());
}

// The spec (scenario.md, Errors): "A goal that cannot be reached is not an error: the agent
// walks to the nearest reachable point and the run reports it as unreachable." A goal 25 m out
// in the void beyond a 20 x 20 m floor: the agent walks to the floor's edge nearest the goal.
class SimulationGoalOffTheNavmesh : public ::testing::TestWithParam<BackendKind> {};

TEST_P(SimulationGoalOffTheNavmesh, TheAgentWalksToTheNearestReachablePoint) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("crowd_goal_off_navmesh_" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << R"({"name": "goal_off_navmesh", "seed": 1, "dt": 0.1, "duration": 30,
    "world": {"bounds": [[0, 0], [20, 20]], "obstacles": []},
    "agents": [{"position": [5, 10], "goal": [45, 10], "radius": 0.4, "max_speed": 1.5}]})";
  SimulationOptions options;
  options.backend = GetParam();
  Simulation sim = Simulation::from_file(file, options);
  std::filesystem::remove(file);
  const glm::vec3 start = sim.position(0);
  while (sim.step_index() < sim.scenario().step_count())
    sim.step();
  const glm::vec3 end = sim.position(0);
  EXPECT_GT(end.x, 18.5f) << "walked from x = " << start.x << " to the floor's edge";
  EXPECT_NEAR(end.z, start.z, 1.0f) << "straight toward the goal";
  EXPECT_LT(glm::length(sim.velocity(0)), 0.2f) << "and stopped there";
  const MetricsSummary m = sim.metrics();
  EXPECT_EQ(m.unreachable, 1);
  EXPECT_EQ(m.arrived, 0);
}

// Standoffs: two groups of six walking through each other (samples/scenarios/
// head_on_groups.json). DetourCrowd leaves half of them standing face to face or short of
// their goals for good; our solver's breaker (cuda/kernels/standoff.h) gets them all through.
MetricsSummary run_head_on(BackendKind backend, std::optional<StandoffRule> standoff) {
  SimulationOptions options;
  options.backend = backend;
  options.standoff = standoff;
  Simulation sim = Simulation::from_file(kScenarios / "head_on_groups.json", options);
  while (sim.step_index() < sim.scenario().step_count())
    sim.step();
  return sim.metrics();
}

TEST(SimulationStandoffs, TheBreakerGetsBothGroupsThroughWhereDetourCrowdDeadlocks) {
  const MetricsSummary ours = run_head_on(BackendKind::Cpu, std::nullopt);
  EXPECT_EQ(ours.arrived, 12);
  EXPECT_EQ(ours.deadlocks.agents, 0);
  EXPECT_EQ(ours.stuck.stuck_now, 0);
  const MetricsSummary detour = run_head_on(BackendKind::Detour, std::nullopt);
  EXPECT_LE(detour.arrived, 8);
  EXPECT_GT(detour.deadlocks.agents, 0);
  EXPECT_GT(detour.stuck.stuck_now, 0);
}

TEST(SimulationStandoffs, WithTheBreakerOffOurSolverStallsLikeDetourCrowd) {
  const MetricsSummary off = run_head_on(BackendKind::Cpu, StandoffRule::Off);
  EXPECT_LE(off.arrived, 8);
  EXPECT_GT(off.stuck.stuck_now, 0);
}

// `crowd run --avoidance MODEL`: one scene compared under each avoidance model.
std::vector<glm::vec3> final_positions(const std::string& json, const SimulationOptions& options) {
  Simulation sim(parse_scenario(json, "models.json"), options);
  for (int step = 0; step < 40; ++step)
    sim.step();
  std::vector<glm::vec3> positions;
  for (int id = 0; id < sim.agent_count(); ++id)
    positions.push_back(sim.position(id));
  return positions;
}

std::string crossing_with_avoidance(const std::string& first, const std::string& second) {
  return R"({"name": "models", "seed": 2, "dt": 0.1, "duration": 10,
             "world": {"bounds": [[-8, -8], [8, 8]]},
             "groups": [{"count": 8, "spawn": {"rect": [[-7, -2], [-4, 2]]},
                         "goal": {"rect": [[4, -2], [7, 2]]}, "avoidance": )" +
         first + R"(},
                        {"count": 8, "spawn": {"rect": [[-2, -7], [2, -4]]},
                         "goal": {"rect": [[-2, 4], [2, 7]]}, "avoidance": )" +
         second + "}]}";
}

TEST(SimulationAvoidanceModel, TheOptionPutsEveryAgentOnTheModelAsIfTheScenarioNamedIt) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  const std::vector<glm::vec3> named = final_positions(
      crossing_with_avoidance(R"({"model": "orca"})", R"({"model": "orca"})"), options);
  SimulationOptions orca = options;
  orca.avoidance_model = kAvoidanceOrca;
  EXPECT_EQ(final_positions(crossing_with_avoidance(R"("high")", R"({"model": "mass"})"), orca),
            named);
  // Back to DetourCrowd's sampling: agents on another model get "good", agents already
  // sampling keep their own parameters.
  SimulationOptions detour = options;
  detour.avoidance_model = kAvoidanceDetour;
  EXPECT_EQ(final_positions(crossing_with_avoidance(R"("high")", R"({"model": "mass"})"), detour),
            final_positions(crossing_with_avoidance(R"("high")", R"("good")"), options));
  EXPECT_NE(named, final_positions(crossing_with_avoidance(R"("high")", R"("good")"), options))
      << "the models move the crowd differently";
}

TEST(SimulationStandoffs, TheMetricsJsonCarriesTheFlowKeysLast) {
  MetricsSummary s;
  s.arrived = 10;
  s.arrived_by_contact = 4;
  s.deadlocks = {3, 2};
  s.mean_time_ratio = 1.5;
  const nlohmann::ordered_json j = to_json(s);
  EXPECT_EQ(j["arrived_by_contact"], 4);
  EXPECT_EQ(j["deadlocked_agents"], 3);
  EXPECT_EQ(j["deadlocked_at_end"], 2);
  EXPECT_EQ(j["mean_time_ratio"], 1.5);
  EXPECT_TRUE(j["lane_index"].is_null());
  EXPECT_EQ(std::prev(j.end()).key(), "lane_index");
}

INSTANTIATE_TEST_SUITE_P(Backends, SimulationGoalOffTheNavmesh,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const ::testing::TestParamInfo<BackendKind>& test_param) {
                           return std::string(test_param.param == BackendKind::Cpu ? "Cpu"
                                                                                   : "Detour");
                         });

} // namespace
} // namespace crowd
