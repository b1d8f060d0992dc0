// host/sim/simulation.cpp: the run's health as the library user sees it: stuck agents found
// and replanned, and the health figures in the metrics.
#include "host/sim/simulation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

} // namespace
} // namespace crowd
