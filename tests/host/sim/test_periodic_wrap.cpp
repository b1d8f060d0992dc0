// Periodic worlds in a running simulation (host/sim/periodic_wrap.h): an agent walking along
// the periodic axis re-enters at the other end at speed and never arrives, on our solver and
// on DetourCrowd alike.
#include "host/sim/simulation.h"

#include <cmath>
#include <gtest/gtest.h>

namespace crowd {
namespace {

Scenario ring(PeriodicAxis axis) {
  Scenario s;
  s.name = "ring";
  s.file = "ring.json";
  s.dt = 0.1f;
  s.steps = 200;
  const bool x = axis == PeriodicAxis::X;
  s.world.bounds =
      WorldSpec::Bounds2D{{0.0f, 0.0f}, x ? glm::vec2{10.0f, 3.0f} : glm::vec2{3.0f, 10.0f}};
  s.world.periodic = axis;
  s.world.navmesh.cell_size = 0.1f;
  s.defaults.radius = 0.2f;
  s.defaults.max_speed = 1.34f;
  ExplicitAgentSpec a;
  a.position.position = x ? glm::vec3{2.0f, 0.0f, 1.5f} : glm::vec3{1.5f, 0.0f, 2.0f};
  a.goal.position = x ? glm::vec3{10.0f, 0.0f, 1.5f} : glm::vec3{1.5f, 0.0f, 10.0f};
  a.params = s.defaults;
  s.agents.push_back(a);
  return s;
}

class PeriodicWrapRun : public ::testing::TestWithParam<std::tuple<BackendKind, PeriodicAxis>> {};

TEST_P(PeriodicWrapRun, AgentGoesRoundAtSpeedAndNeverArrives) {
  const auto [backend, axis] = GetParam();
  SimulationOptions options;
  options.backend = backend;
  Simulation sim(ring(axis), options);
  const int along = axis == PeriodicAxis::X ? 0 : 2;
  int wraps = 0;
  float last = sim.position(0)[along];
  for (int step = 0; step < 200; ++step) {
    sim.step();
    const float now = sim.position(0)[along];
    ASSERT_GE(now, 0.0f) << "step " << step;
    ASSERT_LT(now, 10.0f) << "step " << step;
    if (now < last - 5.0f) {
      ++wraps;
      // Its velocity went with it.
      EXPECT_GT(glm::length(sim.velocity(0)), 1.2f) << "step " << step;
    } else if (step > 10) {
      // Walking on at full speed, the step of the wrap and those after it included: no stop
      // for a new path.
      EXPECT_NEAR(now - last, 0.134f, 0.02f) << "step " << step;
    }
    last = now;
  }
  // 200 steps at 1.34 m/s: 26.8 m, from 2 m: past 10 and 20.
  EXPECT_EQ(wraps, 2);
  EXPECT_EQ(sim.phase(0), AgentPhase::Walking);
  const MetricsSummary m = sim.metrics();
  EXPECT_EQ(m.arrived, 0);
  EXPECT_EQ(m.unreachable, 0);
  EXPECT_EQ(m.wall_events, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, PeriodicWrapRun,
                         ::testing::Combine(::testing::Values(BackendKind::Cpu,
                                                              BackendKind::Detour),
                                            ::testing::Values(PeriodicAxis::X, PeriodicAxis::Z)));

} // namespace
} // namespace crowd
