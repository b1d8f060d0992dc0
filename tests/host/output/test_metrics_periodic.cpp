// The metrics of a periodic world (scenario extension world.periodic): no wall across the
// periodic axis, the obstacles' copies one period away count, agents on either side of the
// seam overlap as their nearest images do, and a wrap is no walk of a period.
#include "host/navmesh/navmesh.h"
#include "host/output/metrics.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"
#include "tests/support/measured_metrics.h"

#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

Scenario periodic_corridor() {
  Scenario s;
  s.name = "metrics_periodic";
  s.file = "metrics_periodic.json";
  s.dt = 0.1f;
  s.world.bounds = WorldSpec::Bounds2D{{0.0f, 0.0f}, {30.0f, 4.0f}};
  s.world.periodic = PeriodicAxis::X;
  s.world.navmesh.cell_size = 0.1f;
  // A block touching the low end: its copy stands past the high end.
  s.world.obstacles.push_back({{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}});
  s.defaults.radius = 0.2f;
  return s;
}

AgentSetup agent(glm::vec3 position) {
  AgentSetup a;
  a.position = position;
  a.goal = position;
  a.params.radius = 0.2f;
  return a;
}

TEST(MetricsPeriodic, SeamIsNoWallAndTheOtherEndsObstaclesAre) {
  const Scenario s = periodic_corridor();
  const NavMesh navmesh = NavMesh::build(s);
  MetricsCollector m =
      test::measured_metrics(s, navmesh, std::vector<AgentSetup>{agent({15.0f, 0.0f, 3.0f})});
  const std::vector<AgentPhase> walking{AgentPhase::Walking};
  m.observe_step(std::vector<glm::vec3>{{0.05f, 0.0f, 3.0f}}, walking); // at the seam: fine
  m.observe_step(std::vector<glm::vec3>{{29.95f, 0.0f, 3.0f}}, walking);
  EXPECT_EQ(m.wall_events(), 0);
  // 0.1 m from the block's copy at x 30-31: 0.1 m into it.
  m.observe_step(std::vector<glm::vec3>{{29.9f, 0.0f, 0.5f}}, walking);
  EXPECT_EQ(m.wall_events(), 1);
  m.observe_step(std::vector<glm::vec3>{{15.0f, 0.0f, 4.1f}}, walking); // past z: still a wall
  EXPECT_EQ(m.wall_events(), 2);
}

TEST(MetricsPeriodic, AgentsAcrossTheSeamOverlapOnce) {
  const Scenario s = periodic_corridor();
  const NavMesh navmesh = NavMesh::build(s);
  MetricsCollector m = test::measured_metrics(s, navmesh,
                                              std::vector<AgentSetup>{agent({10.0f, 0.0f, 3.0f}),
                                                                      agent({20.0f, 0.0f, 3.0f}),
                                                                      agent({25.0f, 0.0f, 3.0f})});
  const std::vector<AgentPhase> walking(3, AgentPhase::Walking);
  // 0.1 m apart across the seam (discs of 0.2 m: 0.3 m into each other); two agents near the
  // low end overlapping each other are counted once, not again through their images.
  m.observe_step(
      std::vector<glm::vec3>{{0.05f, 0.0f, 3.0f}, {29.95f, 0.0f, 3.0f}, {0.35f, 0.0f, 3.0f}},
      walking);
  EXPECT_EQ(m.overlap_events(), 2);
  EXPECT_NEAR(m.summary("cpu", 1).max_overlap, 0.3, 1e-5);
}

TEST(MetricsPeriodic, AWrapIsNoWalk) {
  Scenario s = periodic_corridor();
  const NavMesh navmesh = NavMesh::build(s);
  AgentSetup a = agent({29.9f, 0.0f, 3.0f});
  a.goal = {5.0f, 0.0f, 3.0f};
  MetricsCollector m = test::measured_metrics(s, navmesh, std::vector<AgentSetup>{a});
  const std::vector<AgentPhase> walking{AgentPhase::Walking};
  m.observe_step(std::vector<glm::vec3>{{0.05f, 0.0f, 3.0f}}, walking); // wrapped: 0.15 m on
  m.observe_step(std::vector<glm::vec3>{{5.0f, 0.0f, 3.0f}}, walking);
  m.record_arrival(0, 0.2);
  const MetricsSummary summary = m.summary("cpu", 2);
  ASSERT_TRUE(summary.mean_path_ratio);
  // Walked 0.15 + 4.95 = 5.1 m against a navmesh path of 24.9 m the long way round.
  EXPECT_NEAR(*summary.mean_path_ratio, 5.1 / 24.9, 1e-3);
}

} // namespace
} // namespace crowd
