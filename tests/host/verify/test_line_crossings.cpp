#include "host/verify/line_crossings.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

SimulationOptions on_cpu() {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  return options;
}

/// One agent walking +x at 1 m/s along a 2 m corridor from x = 1.
Scenario walk(OnArrival on_arrival, float goal_x) {
  Scenario s;
  s.name = "walk";
  s.file = "walk.json";
  s.dt = 0.1f;
  s.steps = 250;
  s.world.bounds = WorldSpec::Bounds2D{{0.0f, 0.0f}, {20.0f, 2.0f}};
  s.world.navmesh.cell_size = 0.1f;
  s.defaults.radius = 0.2f;
  s.defaults.max_speed = 1.0f;
  s.defaults.on_arrival = on_arrival;
  ExplicitAgentSpec a;
  a.position.position = {1.0f, 0.0f, 1.0f};
  a.goal.position = {goal_x, 0.0f, 1.0f};
  a.params = s.defaults;
  s.agents.push_back(a);
  return s;
}

TEST(LineCrossings, TimesTheCrossingBetweenStepsAndItsDirection) {
  Simulation sim(walk(OnArrival::Stop, 19.0f), on_cpu());
  LineCrossings line({10.0f, 0.0f}, {10.0f, 2.0f}), reversed({10.0f, 2.0f}, {10.0f, 0.0f});
  LineCrossings beside({10.0f, 3.0f}, {10.0f, 5.0f});
  for (int step = 0; step <= 150; ++step) {
    if (step > 0)
      sim.step();
    line.observe(sim);
    reversed.observe(sim);
    beside.observe(sim);
  }
  ASSERT_EQ(line.crossings().size(), 1u);
  // The first step reaches 0.8 m/s (8 m/s2) and moves 0.08 m, each later one 0.1 m: x = 10 at
  // 0.1 + 8.92 s.
  EXPECT_NEAR(line.crossings()[0].time, 9.02, 1e-3);
  EXPECT_EQ(line.crossings()[0].direction, 1);
  EXPECT_EQ(reversed.crossings()[0].direction, -1);
  EXPECT_EQ(beside.agents_crossed(), 0);
  EXPECT_FALSE(line.flow()); // one crossing: no flow
}

TEST(LineCrossings, CountsTheStepOfRemoval) {
  // The step from x = 9.98 to 10.08 takes the agent over the line and within the arrival
  // radius (0.5 m) of its goal: it is removed in that step.
  Simulation sim(walk(OnArrival::Remove, 10.55f), on_cpu());
  LineCrossings line({10.0f, 0.0f}, {10.0f, 2.0f});
  line.observe(sim);
  while (sim.phase(0) != AgentPhase::Removed && sim.step_index() < 200) {
    sim.step();
    line.observe(sim);
  }
  EXPECT_EQ(sim.phase(0), AgentPhase::Removed);
  EXPECT_EQ(line.agents_crossed(), 1);
}

} // namespace
} // namespace crowd
