#include "host/verify/area_sampler.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

SimulationOptions on_cpu() {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  return options;
}

TEST(AreaSampler, DensityAndSpeedOfTheAgentsInside) {
  Scenario s;
  s.name = "area";
  s.file = "area.json";
  s.dt = 0.1f;
  s.world.bounds = WorldSpec::Bounds2D{{0.0f, 0.0f}, {20.0f, 4.0f}};
  s.world.navmesh.cell_size = 0.1f;
  s.defaults.radius = 0.2f;
  s.defaults.max_speed = 1.0f;
  // Two walkers in lanes z = 1 and 3 heading +x from x = 1; one agent standing at x = 15.
  for (const float z : {1.0f, 3.0f}) {
    ExplicitAgentSpec a;
    a.position.position = {1.0f, 0.0f, z};
    a.goal.position = {19.0f, 0.0f, z};
    a.params = s.defaults;
    s.agents.push_back(a);
  }
  ExplicitAgentSpec standing;
  standing.position.position = {15.0f, 0.0f, 2.0f};
  standing.goal.position = standing.position.position;
  standing.params = s.defaults;
  s.agents.push_back(standing);
  Simulation sim(s, on_cpu());
  // The walkers are inside [4, 8] x [0, 4] from about 3 s to 7 s; sampling from 4 s to 6 s
  // sees both every step, at 1 m/s along +x; the area is 16 m2.
  AreaSampler area({4.0f, 0.0f}, {8.0f, 4.0f}, 4.0, {1.0f, 0.0f});
  for (int step = 1; step <= 60; ++step) {
    sim.step();
    area.observe(sim);
  }
  EXPECT_EQ(area.samples(), 21);
  EXPECT_DOUBLE_EQ(area.mean_count(), 2.0);
  EXPECT_DOUBLE_EQ(area.mean_density(), 2.0 / 16.0);
  EXPECT_NEAR(area.mean_speed(), 1.0, 0.01);
  EXPECT_EQ(area.max_count(), 2);
}

} // namespace
} // namespace crowd
