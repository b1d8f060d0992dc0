#include "host/navmesh/navmesh.h"
#include "host/output/metrics.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"
#include "tests/support/measured_metrics.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace crowd {
namespace {

Scenario room(glm::vec2 lo, glm::vec2 hi, std::vector<Polygon2D> obstacles = {}) {
  Scenario s;
  s.name = "metrics_test";
  s.file = "metrics_test.json";
  s.dt = 0.1f;
  s.world.bounds = WorldSpec::Bounds2D{lo, hi};
  s.world.obstacles = std::move(obstacles);
  return s;
}

AgentSetup agent(glm::vec3 position, glm::vec3 goal, float radius = 0.5f) {
  AgentSetup a;
  a.position = position;
  a.goal = goal;
  a.params.radius = radius;
  return a;
}

Polygon2D square(float x0, float z0, float x1, float z1) {
  return {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
}

// One shared open room: building a navmesh per test is cheap but not free.
const Scenario& open_scenario() {
  static const Scenario s = room({-10.0f, -10.0f}, {10.0f, 10.0f});
  return s;
}
const NavMesh& open_navmesh() {
  static const NavMesh mesh = NavMesh::build(open_scenario());
  return mesh;
}

struct Frame {
  std::vector<glm::vec3> positions;
  std::vector<AgentPhase> phases;
};

MetricsCollector collector_for(const std::vector<AgentSetup>& agents) {
  return test::measured_metrics(open_scenario(), open_navmesh(), agents);
}

TEST(Metrics, OverlapEventsFollowTheFivePercentRule) {
  // Radii 0.5 + 0.5: the threshold is a penetration of 0.05 m, i.e. a distance of 0.95 m.
  const std::vector<AgentSetup> agents = {agent({0, 0, 0}, {0, 0, 0}), agent({3, 0, 0}, {3, 0, 0})};
  MetricsCollector m = collector_for(agents);
  const std::vector<AgentPhase> walking(2, AgentPhase::Walking);
  const auto observe = [&](float x_b) {
    const std::vector<glm::vec3> p = {{0, 0, 0}, {x_b, 0, 0}};
    m.observe_step(p, walking);
  };
  observe(0.951f); // pen 0.049: below the threshold
  EXPECT_EQ(m.overlap_events(), 0);
  observe(0.949f); // pen 0.051: above it
  EXPECT_EQ(m.overlap_events(), 1);
  observe(0.9f); // pen 0.1; the pair counts once per step, not once per agent
  EXPECT_EQ(m.overlap_events(), 2);
  observe(1.5f); // apart
  observe(0.97f);
  EXPECT_EQ(m.overlap_events(), 2);
  const MetricsSummary s = m.summary("cpu", 5);
  EXPECT_EQ(s.overlap_events, 2);
  EXPECT_NEAR(s.max_overlap, 0.1, 1e-6);
}

TEST(Metrics, MaxOverlapCountsBelowTheThreshold) {
  const std::vector<AgentSetup> agents = {agent({0, 0, 0}, {0, 0, 0}), agent({3, 0, 0}, {3, 0, 0})};
  MetricsCollector m = collector_for(agents);
  const std::vector<glm::vec3> p = {{0, 0, 0}, {0.98f, 0, 0}};
  m.observe_step(p, std::vector<AgentPhase>(2, AgentPhase::Walking));
  const MetricsSummary s = m.summary("cpu", 1);
  EXPECT_EQ(s.overlap_events, 0);
  EXPECT_NEAR(s.max_overlap, 0.02, 1e-6);
}

TEST(Metrics, OverlapIgnoresRemovedAgentsAndOtherLevels) {
  const std::vector<AgentSetup> agents = {agent({0, 0, 0}, {0, 0, 0}), agent({3, 0, 0}, {3, 0, 0})};
  MetricsCollector m = collector_for(agents);
  // Same spot, but one agent is on a level more than agent_height (2 m) above.
  m.observe_step(std::vector<glm::vec3>{{0, 0, 0}, {0.1f, 2.5f, 0}},
                 std::vector<AgentPhase>(2, AgentPhase::Walking));
  EXPECT_EQ(m.overlap_events(), 0);
  // Within agent_height: counts.
  m.observe_step(std::vector<glm::vec3>{{0, 0, 0}, {0.1f, 1.5f, 0}},
                 std::vector<AgentPhase>(2, AgentPhase::Walking));
  EXPECT_EQ(m.overlap_events(), 1);
  // Removed agents do not obstruct; arrived (standing) ones do.
  m.observe_step(std::vector<glm::vec3>{{0, 0, 0}, {0.1f, 0, 0}},
                 std::vector<AgentPhase>{AgentPhase::Walking, AgentPhase::Removed});
  EXPECT_EQ(m.overlap_events(), 1);
  m.observe_step(std::vector<glm::vec3>{{0, 0, 0}, {0.1f, 0, 0}},
                 std::vector<AgentPhase>{AgentPhase::Arrived, AgentPhase::Walking});
  EXPECT_EQ(m.overlap_events(), 2);
}

TEST(Metrics, OverlapGridMatchesBruteForce) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(-8.0f, 8.0f), radius(0.2f, 0.6f), height(0.0f, 5.0f);
  const int n = 3000;
  std::vector<AgentSetup> agents;
  std::vector<glm::vec3> p;
  for (int i = 0; i < n; ++i) {
    agents.push_back(agent({0, 0, 0}, {0, 0, 0}, radius(rng)));
    p.emplace_back(coord(rng), height(rng), coord(rng));
  }
  std::vector<AgentPhase> phases(n, AgentPhase::Walking);
  for (int i = 0; i < n; i += 17) {
    phases[static_cast<std::size_t>(i)] = AgentPhase::Removed;
  }
  MetricsCollector m = collector_for(agents);
  m.observe_step(p, phases);

  long long expected = 0;
  double deepest = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      if (phases[i] == AgentPhase::Removed || phases[j] == AgentPhase::Removed ||
          std::abs(static_cast<double>(p[i].y) - p[j].y) > 2.0) {
        continue;
      }
      const double sum = static_cast<double>(agents[i].params.radius) + agents[j].params.radius;
      const double pen = sum - std::hypot(static_cast<double>(p[i].x) - p[j].x,
                                          static_cast<double>(p[i].z) - p[j].z);
      deepest = std::max(deepest, pen);
      expected += pen > 0.05 * sum ? 1 : 0;
    }
  }
  ASSERT_GT(expected, 100); // the test is dense enough to mean something
  const MetricsSummary s = m.summary("cpu", 1);
  EXPECT_EQ(s.overlap_events, expected);
  EXPECT_DOUBLE_EQ(s.max_overlap, deepest);
}

TEST(Metrics, WallEventsAgainstAnObstaclePolygon) {
  const Scenario scenario = room({-10, -10}, {10, 10}, {square(2, 2, 4, 4)});
  const NavMesh navmesh = NavMesh::build(scenario);
  // Radius 0.5: the threshold is a penetration of 0.025 m.
  const std::vector<glm::vec3> positions = {
      {1.6f, 0, 3},  // 0.4 m from the left face: pen 0.1, event
      {1.52f, 0, 3}, // pen 0.02: below the threshold, but the deepest of the 0.02s
      {1.49f, 0, 3}, // clear
      {3, 0, 4.45f}, // 0.45 m above the top face: pen 0.05, event
  };
  const std::vector<AgentSetup> agents(positions.size(), agent({-5, 0, -5}, {-5, 0, -5}));
  const auto run = [&](std::size_t only) {
    MetricsCollector m = test::measured_metrics(scenario, navmesh, agents);
    std::vector<AgentPhase> phases(agents.size(), AgentPhase::Removed);
    phases[only] = AgentPhase::Walking;
    m.observe_step(positions, phases);
    return m.summary("cpu", 1);
  };
  EXPECT_EQ(run(0).wall_events, 1);
  EXPECT_NEAR(run(0).max_wall_penetration, 0.1, 1e-6);
  EXPECT_EQ(run(1).wall_events, 0);
  EXPECT_NEAR(run(1).max_wall_penetration, 0.02, 1e-6);
  EXPECT_EQ(run(2).wall_events, 0);
  EXPECT_EQ(run(2).max_wall_penetration, 0.0);
  EXPECT_EQ(run(3).wall_events, 1);

  // Inside the obstacle: the signed distance is negative (-1 at the centre), pen = r + 1.
  MetricsCollector inside =
      test::measured_metrics(scenario, navmesh, std::vector<AgentSetup>{agents[0]});
  inside.observe_step(std::vector<glm::vec3>{{3, 0, 3}},
                      std::vector<AgentPhase>{AgentPhase::Walking});
  inside.observe_step(std::vector<glm::vec3>{{3, 0, 3}},
                      std::vector<AgentPhase>{AgentPhase::Walking});
  EXPECT_EQ(inside.wall_events(), 2); // one per (agent, step)
  EXPECT_NEAR(inside.summary("cpu", 2).max_wall_penetration, 1.5, 1e-6);
}

TEST(Metrics, WallEventsAgainstTheEventsObstaclesWhileTheyStand) {
  // A 2 x 2 m crate put down at 0.2 s (before the third step) and taken away at 0.4 s.
  Scenario scenario = room({-10, -10}, {10, 10});
  ObstacleEvent add;
  add.time = 0.2f;
  add.name = "crate";
  add.shape = ObstacleEvent::Shape::Box;
  add.position.position = {3.0f, 0.0f, 3.0f};
  add.size = {2.0f, 2.0f};
  ObstacleEvent remove = add;
  remove.time = 0.4f;
  remove.action = ObstacleEvent::Action::Remove;
  scenario.events = {add, remove};
  const NavMesh navmesh = NavMesh::build(scenario);
  MetricsCollector m = test::measured_metrics(
      scenario, navmesh, std::vector<AgentSetup>{agent({-5, 0, -5}, {-5, 0, -5})});
  const std::vector<AgentPhase> walking{AgentPhase::Walking};
  const std::vector<glm::vec3> in_the_crate{{3.0f, 0.0f, 3.0f}};
  const long long expected[] = {0, 0, 1, 2, 2}; // it stands in steps 3 and 4 only
  for (const long long events : expected) {
    m.observe_step(in_the_crate, walking);
    EXPECT_EQ(m.wall_events(), events);
  }
  EXPECT_NEAR(m.summary("cpu", 5).max_wall_penetration, 0.5 + 1.0, 1e-6);
}

TEST(Metrics, WallEventsAgainstTheBounds) {
  MetricsCollector m = collector_for({agent({0, 0, 0}, {0, 0, 0})});
  const std::vector<AgentPhase> walking{AgentPhase::Walking};
  m.observe_step(std::vector<glm::vec3>{{0, 0, 0}}, walking);
  EXPECT_EQ(m.wall_events(), 0);
  m.observe_step(std::vector<glm::vec3>{{-9.6f, 0, 0}}, walking); // 0.4 m from xmin: pen 0.1
  EXPECT_EQ(m.wall_events(), 1);
  m.observe_step(std::vector<glm::vec3>{{0, 0, 9.49f}}, walking); // clear of zmax
  EXPECT_EQ(m.wall_events(), 1);
  m.observe_step(std::vector<glm::vec3>{{10.2f, 0, 0}}, walking); // outside: pen 0.5 + 0.2
  EXPECT_EQ(m.wall_events(), 2);
  EXPECT_NEAR(m.summary("cpu", 4).max_wall_penetration, 0.7, 1e-6);
}

TEST(Metrics, WallGridMatchesBruteForce) {
  // 50 pillars and 2000 agents: the per-obstacle grid must find every contact.
  std::vector<Polygon2D> pillars;
  for (int i = 0; i < 50; ++i) {
    const float x = -9.0f + static_cast<float>(i % 10) * 1.9f;
    const float z = -9.0f + static_cast<float>(i / 10) * 3.7f;
    pillars.push_back(square(x, z, x + 0.6f, z + 0.6f));
  }
  const Scenario scenario = room({-10, -10}, {10, 10}, pillars);
  const NavMesh navmesh = NavMesh::build(scenario);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> coord(-10.5f, 10.5f), radius(0.2f, 0.6f);
  std::vector<AgentSetup> agents;
  std::vector<glm::vec3> p;
  for (int i = 0; i < 2000; ++i) {
    agents.push_back(agent({0, 0, 0}, {0, 0, 0}, radius(rng)));
    p.emplace_back(coord(rng), 0.0f, coord(rng));
  }
  MetricsCollector m = test::measured_metrics(scenario, navmesh, agents);
  m.observe_step(p, std::vector<AgentPhase>(p.size(), AgentPhase::Walking));

  long long expected = 0;
  double deepest = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double r = agents[i].params.radius;
    const double x = p[i].x, z = p[i].z;
    double pen;
    if (x >= -10 && x <= 10 && z >= -10 && z <= 10) {
      pen = r - std::min({x + 10, 10 - x, z + 10, 10 - z});
    } else {
      pen = r + std::hypot(std::max({-10 - x, x - 10, 0.0}), std::max({-10 - z, z - 10, 0.0}));
    }
    for (const Polygon2D& sq : pillars) {
      const double x0 = sq[0].x, z0 = sq[0].y, x1 = sq[2].x, z1 = sq[2].y;
      double sd;
      if (x > x0 && x < x1 && z > z0 && z < z1) {
        sd = -std::min({x - x0, x1 - x, z - z0, z1 - z});
      } else {
        sd = std::hypot(std::max({x0 - x, x - x1, 0.0}), std::max({z0 - z, z - z1, 0.0}));
      }
      pen = std::max(pen, r - sd);
    }
    if (pen > 0.0) {
      deepest = std::max(deepest, pen);
      expected += pen > 0.05 * r ? 1 : 0;
    }
  }
  ASSERT_GT(expected, 50);
  const MetricsSummary s = m.summary("cpu", 1);
  EXPECT_EQ(s.wall_events, expected);
  EXPECT_NEAR(s.max_wall_penetration, deepest, 1e-9);
}

TEST(Metrics, StepTimesMeanNearestRankP95AndStages) {
  MetricsCollector m = collector_for({});
  for (int i = 1; i <= 20; ++i) {
    StageTimes stages;
    stages.add("plan", 1.0 * i);
    stages.add("move", 2.0);
    m.record_step_time(static_cast<double>(i), stages);
  }
  const MetricsSummary s = m.summary("cpu", 20);
  EXPECT_DOUBLE_EQ(s.step_ms_mean, 10.5);
  EXPECT_DOUBLE_EQ(s.step_ms_p95, 19.0); // rank ceil(0.95 x 20) = 19
  ASSERT_EQ(s.stage_ms.size(), 2u);
  EXPECT_EQ(s.stage_ms[0].first, "plan"); // pipeline order, not alphabetical
  EXPECT_DOUBLE_EQ(s.stage_ms[0].second, 10.5);
  EXPECT_EQ(s.stage_ms[1].first, "move");
  EXPECT_DOUBLE_EQ(s.stage_ms[1].second, 2.0);

  MetricsCollector one = collector_for({});
  one.record_step_time(4.0, StageTimes{});
  EXPECT_DOUBLE_EQ(one.summary("cpu", 1).step_ms_p95, 4.0);

  MetricsCollector hundred = collector_for({});
  for (int i = 100; i >= 1; --i) {
    hundred.record_step_time(static_cast<double>(i), StageTimes{});
  }
  EXPECT_DOUBLE_EQ(hundred.summary("cpu", 100).step_ms_p95, 95.0);
}

TEST(Metrics, ArrivalStatsAreNullWhenNoneArrived) {
  MetricsCollector m = collector_for({agent({-5, 0, 0}, {5, 0, 0})});
  m.observe_step(std::vector<glm::vec3>{{-4, 0, 0}}, std::vector<AgentPhase>{AgentPhase::Walking});
  const MetricsSummary s = m.summary("detour", 1);
  EXPECT_EQ(s.arrived, 0);
  EXPECT_FALSE(s.mean_arrival_time);
  EXPECT_FALSE(s.max_arrival_time);
  EXPECT_FALSE(s.mean_path_ratio);
  const nlohmann::ordered_json j = to_json(s);
  EXPECT_TRUE(j.at("mean_arrival_time").is_null());
  EXPECT_TRUE(j.at("max_arrival_time").is_null());
  EXPECT_EQ(j.at("backend"), "detour");
}

TEST(Metrics, JsonHasEveryKeyOfTheSpec) {
  MetricsCollector m = collector_for({agent({-5, 0, 0}, {5, 0, 0})});
  StageTimes stages;
  stages.add("detour_update", 1.5);
  m.record_step_time(1.5, stages);
  m.record_arrival(0, 2.5);
  const nlohmann::ordered_json j = to_json(m.summary("cpu", 7));
  for (const char* key :
       {"scenario", "backend", "agents", "steps", "dt", "arrived", "unreachable",
        "mean_arrival_time", "max_arrival_time", "overlap_events", "max_overlap", "wall_events",
        "max_wall_penetration", "mean_path_ratio", "step_ms_mean", "step_ms_p95", "stage_ms"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.at("scenario"), "metrics_test");
  EXPECT_EQ(j.at("agents"), 1);
  EXPECT_EQ(j.at("steps"), 7);
  EXPECT_EQ(j.at("dt").get<double>(), 0.1); // the float 0.1f shown as the user wrote it
  EXPECT_EQ(j.at("arrived"), 1);
  EXPECT_DOUBLE_EQ(j.at("mean_arrival_time").get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(j.at("stage_ms").at("detour_update").get<double>(), 1.5);
}

TEST(Metrics, PathRatioIsOneForAStraightWalk) {
  // Two agents walk 10 m straight to their goals in 10 steps of 1 m. The arrival of agent 0
  // is recorded after the step is observed, that of agent 1 before: both orders must count
  // the last step. Agent 0 is pushed further after arriving: that does not count.
  const std::vector<AgentSetup> agents = {agent({-5, 0, 0}, {5, 0, 0}, 0.4f),
                                          agent({-5, 0, 3}, {5, 0, 3}, 0.4f)};
  MetricsCollector m = collector_for(agents);
  const std::vector<AgentPhase> walking(2, AgentPhase::Walking);
  for (int step = 1; step <= 10; ++step) {
    const float x = -5.0f + static_cast<float>(step);
    const double time = step * static_cast<double>(0.1f);
    if (step == 10) {
      m.record_arrival(1, time);
    }
    m.observe_step(std::vector<glm::vec3>{{x, 0, 0}, {x, 0, 3}}, walking);
    if (step == 10) {
      m.record_arrival(0, time);
    }
  }
  m.observe_step(std::vector<glm::vec3>{{7, 0, 0}, {5, 0, 3}},
                 std::vector<AgentPhase>(2, AgentPhase::Arrived));
  const MetricsSummary s = m.summary("cpu", 11);
  EXPECT_EQ(s.arrived, 2);
  EXPECT_EQ(s.unreachable, 0);
  ASSERT_TRUE(s.mean_path_ratio);
  EXPECT_NEAR(*s.mean_path_ratio, 1.0, 1e-3);
  ASSERT_TRUE(s.max_arrival_time);
  EXPECT_NEAR(*s.max_arrival_time, 1.0, 1e-6);
}

TEST(Metrics, PathRatioFollowsTheDetourAroundAnObstacle) {
  // A wall between start and goal: the shortest path goes round it, so walking straight
  // through (which a broken solver might do) gives a ratio below 1.
  const Scenario scenario = room({-10, -10}, {10, 10}, {square(-0.5f, -6, 0.5f, 6)});
  const NavMesh navmesh = NavMesh::build(scenario);
  MetricsCollector m = test::measured_metrics(
      scenario, navmesh, std::vector<AgentSetup>{agent({-5, 0, 0}, {5, 0, 0}, 0.4f)});
  m.observe_step(std::vector<glm::vec3>{{5, 0, 0}}, std::vector<AgentPhase>{AgentPhase::Walking});
  m.record_arrival(0, 0.1);
  const MetricsSummary s = m.summary("cpu", 1);
  ASSERT_TRUE(s.mean_path_ratio);
  // Shortest path: two legs of about sqrt(5^2 + 6.5^2) = 8.2 m each, ratio about 10 / 16.4.
  EXPECT_LT(*s.mean_path_ratio, 0.7);
  EXPECT_GT(*s.mean_path_ratio, 0.5);
}

TEST(Metrics, CountsTheAgentsWhoseRouteTheSolverFoundUnreachable) {
  // Two rooms separated by a wall across the whole floor.
  const Scenario scenario = room({0, 0}, {20, 10}, {square(9, 0, 11, 10)});
  const NavMesh navmesh = NavMesh::build(scenario);
  const std::vector<AgentSetup> agents = {
      agent({3, 0, 5}, {17, 0, 5}, 0.4f), // the other room
      agent({3, 0, 5}, {6, 0, 5}, 0.4f),  // same room
      agent({3, 0, 5}, {50, 0, 5}, 0.4f), // no navmesh anywhere near the goal
  };
  MetricsCollector m = test::measured_metrics(scenario, navmesh, agents);
  EXPECT_EQ(m.summary("cpu", 0).unreachable, 2);
  // The count is what the routes say, not a search of the metrics' own.
  const std::vector<ShortestRoute> routes = {{false, 0.0}, {false, 0.0}, {true, 3.0}};
  EXPECT_EQ(MetricsCollector(scenario, navmesh, agents, routes).summary("cpu", 0).unreachable, 2);
  EXPECT_THROW(MetricsCollector(scenario, navmesh, agents, std::vector<ShortestRoute>(2)),
               std::invalid_argument);
}

TEST(Metrics, AgentsAddedLaterAreMeasured) {
  const Scenario scenario = room({0, 0}, {20, 10}, {square(9, 0, 11, 10)});
  const NavMesh navmesh = NavMesh::build(scenario);
  MetricsCollector m = test::measured_metrics(scenario, navmesh, std::vector<AgentSetup>{});
  test::add_measured_agent(m, navmesh, agent({3, 0, 5}, {17, 0, 5}, 0.4f)); // unreachable
  test::add_measured_agent(m, navmesh, agent({3, 0, 3}, {6, 0, 3}, 0.4f));
  // Larger than any agent so far: the obstacle grid must reach 1 m around the wall.
  test::add_measured_agent(m, navmesh, agent({7, 0, 7}, {7, 0, 2}, 1.0f));
  EXPECT_EQ(m.summary("cpu", 0).unreachable, 1);
  m.observe_step(std::vector<glm::vec3>{{3, 0, 5}, {3, 0, 4.5f}, {8.1f, 0, 7}},
                 std::vector<AgentPhase>(3, AgentPhase::Walking));
  EXPECT_EQ(m.overlap_events(), 1); // agents 0 and 1: pen 0.3
  EXPECT_EQ(m.wall_events(), 1);    // agent 2, 0.9 m from the wall: pen 0.1
  m.record_arrival(1, 0.1);
  const MetricsSummary s = m.summary("cpu", 1);
  EXPECT_EQ(s.agents, 3);
  EXPECT_EQ(s.unreachable, 1);
  EXPECT_EQ(s.arrived, 1);
  EXPECT_NEAR(s.max_wall_penetration, 0.1, 1e-6);
}

TEST(Metrics, MeshWorldWallIsTheNavmeshBoundaryGrownByTheAgentRadius) {
  // A 10 x 10 floor as an OBJ file: the navmesh is the floor eroded by agent_radius (0.4).
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("crowd_metrics_mesh_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream obj(dir / "floor.obj");
    obj << "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n";
  }
  Scenario scenario;
  scenario.name = "mesh";
  scenario.file = dir / "mesh.json";
  scenario.world.mesh = dir / "floor.obj";
  scenario.world.navmesh.agent_radius = 0.4f;
  const NavMesh navmesh = NavMesh::build(scenario);
  // Where the navmesh ends toward +x (the erosion and the ledge filter decide how far in).
  float edge = 0.0f;
  for (const WallSegment& w : navmesh.boundary_segments()) {
    edge = std::max({edge, w.p.x, w.q.x});
  }
  ASSERT_GT(edge, 8.0f);
  ASSERT_LT(edge, 10.0f);
  const auto measure = [&](glm::vec3 p, float radius) {
    const std::vector<AgentSetup> agents = {agent({5, 0, 5}, {5, 0, 5}, radius)};
    MetricsCollector m = test::measured_metrics(scenario, navmesh, agents);
    m.observe_step(std::vector<glm::vec3>{p}, std::vector<AgentPhase>{AgentPhase::Walking});
    return m.summary("cpu", 1);
  };
  EXPECT_EQ(measure({5, 0, 5}, 0.4f).wall_events, 0); // middle of the floor
  // On the navmesh next to its edge: an agent of the navmesh radius is clear of the wall.
  EXPECT_EQ(measure({edge - 0.05f, 0, 5}, 0.4f).wall_events, 0);
  EXPECT_EQ(measure({edge - 0.05f, 0, 5}, 0.4f).max_wall_penetration, 0.0);
  // 0.3 m off the navmesh: pen = 0.4 - 0.4 + 0.3.
  const MetricsSummary off = measure({edge + 0.3f, 0, 5}, 0.4f);
  EXPECT_EQ(off.wall_events, 1);
  EXPECT_NEAR(off.max_wall_penetration, 0.3, 0.02);
  // A larger agent than the navmesh was built for, on the navmesh 0.1 m from its edge:
  // pen = 0.6 - (0.4 + 0.1).
  const MetricsSummary big = measure({edge - 0.1f, 0, 5}, 0.6f);
  EXPECT_EQ(big.wall_events, 1);
  EXPECT_NEAR(big.max_wall_penetration, 0.1, 0.02);
  std::filesystem::remove_all(dir);
}

TEST(Metrics, MeshWorldWallsFollowTheNavmeshAsObstaclesCutIt) {
  // The 10 x 10 floor again, with a scenario event so that its navmesh takes obstacles.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("crowd_metrics_mesh_events_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream obj(dir / "floor.obj");
    obj << "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n";
  }
  Scenario scenario;
  scenario.name = "mesh";
  scenario.file = dir / "mesh.json";
  scenario.world.mesh = dir / "floor.obj";
  scenario.world.navmesh.agent_radius = 0.4f;
  ObstacleEvent add;
  add.name = "crate";
  add.shape = ObstacleEvent::Shape::Box;
  add.position.position = {6.0f, 0.0f, 5.0f};
  add.size = {1.0f, 1.0f};
  scenario.events = {add};
  NavMesh navmesh = NavMesh::build(scenario);
  MetricsCollector m = test::measured_metrics(
      scenario, navmesh, std::vector<AgentSetup>{agent({2, 0, 5}, {2, 0, 5}, 0.6f)});
  const std::vector<AgentPhase> walking{AgentPhase::Walking};
  // Beside where the crate will stand, clear of every wall: the agent (0.6 m) is 1.2 m from it.
  const std::vector<glm::vec3> beside{{4.3f, 0.0f, 5.0f}};
  m.observe_step(beside, walking);
  EXPECT_EQ(m.wall_events(), 0);
  NavObstacle crate;
  crate.shape = NavObstacle::Shape::Box;
  crate.position = {6.0f, 0.0f, 5.0f};
  crate.half_size = {0.5f, 0.5f};
  navmesh.add_obstacle(crate);
  ASSERT_GT(navmesh.update_obstacles(), 0);
  // The navmesh now ends about 0.9 m west of the crate's centre (its half size and the
  // navmesh radius): 0.6 - (0.4 + ~0.2) on it, the crate's outline a wall like any other.
  m.observe_step(beside, walking);
  EXPECT_EQ(m.wall_events(), 0);
  const std::vector<glm::vec3> grazing{{4.95f, 0.0f, 5.0f}};
  m.observe_step(grazing, walking);
  EXPECT_EQ(m.wall_events(), 1);
  EXPECT_GT(m.summary("cpu", 3).max_wall_penetration, 0.03);
  std::filesystem::remove_all(dir);
}

// ---- scenario extensions: entries, waypoints, types -------------------------------------

TEST(Metrics, AgentsCountFromTheirEntryAndArrivalTimesFromThere) {
  std::vector<AgentSetup> agents = {agent({-8, 0, 0}, {-4, 0, 0}), agent({-8, 0, 5}, {-4, 0, 5})};
  agents[1].start_time = 3.0;
  MetricsCollector m = collector_for(agents);
  EXPECT_EQ(m.summary("cpu", 0).agents, 1) << "the delayed agent has not entered";
  m.record_start(1, 3.0);
  m.record_arrival(0, 4.0);
  m.record_arrival(1, 5.0);
  const MetricsSummary s = m.summary("cpu", 50);
  EXPECT_EQ(s.agents, 2);
  EXPECT_EQ(s.arrived, 2);
  EXPECT_DOUBLE_EQ(*s.max_arrival_time, 4.0);
  EXPECT_DOUBLE_EQ(*s.mean_arrival_time, 3.0); // (4 + (5 - 3)) / 2
}

TEST(Metrics, PendingAgentsAreNotMeasured) {
  // Two discs on one spot: an overlap only once both are present.
  std::vector<AgentSetup> agents = {agent({0, 0, 0}, {0, 0, 0}), agent({0.1f, 0, 0}, {0, 0, 0})};
  agents[1].start_time = 1.0;
  MetricsCollector m = collector_for(agents);
  const std::vector<glm::vec3> p = {{0, 0, 0}, {0.1f, 0, 0}};
  m.observe_step(p, std::vector<AgentPhase>{AgentPhase::Walking, AgentPhase::Pending});
  EXPECT_EQ(m.overlap_events(), 0);
  m.observe_step(p, std::vector<AgentPhase>{AgentPhase::Walking, AgentPhase::Waiting});
  EXPECT_EQ(m.overlap_events(), 1);
}

TEST(Metrics, ShortestPathRunsThroughTheWaypoints) {
  AgentSetup direct = agent({-8, 0, 0}, {8, 0, 0});
  AgentSetup detour = direct;
  detour.waypoints.push_back({{0, 0, 6}, 0.0f});
  MetricsCollector m = collector_for({direct, detour});
  // Both walk exactly their shortest path: 16 m, and 2 x 10 m through (0, 6).
  m.observe_step(std::vector<glm::vec3>{{8, 0, 0}, {0, 0, 6}},
                 std::vector<AgentPhase>(2, AgentPhase::Walking));
  m.observe_step(std::vector<glm::vec3>{{8, 0, 0}, {8, 0, 0}},
                 std::vector<AgentPhase>(2, AgentPhase::Walking));
  m.record_arrival(0, 0.2);
  m.record_arrival(1, 0.2);
  EXPECT_NEAR(*m.summary("cpu", 2).mean_path_ratio, 1.0, 1e-3);
}

TEST(Metrics, TimeRatioIsArrivalTimeOverTheFreeWalkingTimeWaitsIncluded) {
  // 8 m straight at 2 m/s: 4 s free; the second agent also waits 3 s at a waypoint on the way.
  std::vector<AgentSetup> agents{agent({-4, 0, 0}, {4, 0, 0}), agent({-4, 0, 3}, {4, 0, 3})};
  for (AgentSetup& a : agents)
    a.params.max_speed = 2.0f;
  agents[1].waypoints.push_back({{0, 0, 3}, 3.0f});
  MetricsCollector m = collector_for(agents);
  m.record_arrival(0, 6.0);  // 1.5 x its 4 s
  m.record_arrival(1, 14.0); // 2 x its 7 s
  const MetricsSummary s = m.summary("cpu", 140);
  ASSERT_TRUE(s.mean_time_ratio.has_value());
  EXPECT_NEAR(*s.mean_time_ratio, 1.75, 1e-3);
  EXPECT_EQ(s.arrived_by_contact, 0);
}

TEST(Metrics, ArrivalsByContactAreCountedAmongTheArrivals) {
  MetricsCollector m = collector_for({agent({-4, 0, 0}, {4, 0, 0}), agent({-4, 0, 3}, {4, 0, 3})});
  m.record_arrival(0, 5.0);
  m.record_arrival(1, 6.0, true);
  const MetricsSummary s = m.summary("cpu", 60);
  EXPECT_EQ(s.arrived, 2);
  EXPECT_EQ(s.arrived_by_contact, 1);
}

TEST(Metrics, TypesGetTheirOwnCountsOnlyWhenTheScenarioUsesThem) {
  std::vector<AgentSetup> agents = {agent({-8, 0, 0}, {-4, 0, 0}), agent({-8, 0, 3}, {-4, 0, 3}),
                                    agent({-8, 0, 6}, {-4, 0, 6})};
  MetricsCollector plain = collector_for(agents);
  EXPECT_FALSE(to_json(plain.summary("cpu", 1)).contains("types"));

  agents[0].params.type = "walker";
  agents[1].params.type = "jogger";
  agents[2].params.type = "walker";
  MetricsCollector typed = collector_for(agents);
  typed.record_arrival(0, 2.0);
  typed.record_arrival(2, 4.0);
  const nlohmann::ordered_json j = to_json(typed.summary("cpu", 50));
  ASSERT_TRUE(j.contains("types"));
  EXPECT_EQ(j["types"].begin().key(), "walker") << "in order of first appearance";
  EXPECT_EQ(j["types"]["walker"]["agents"], 2);
  EXPECT_EQ(j["types"]["walker"]["arrived"], 2);
  EXPECT_DOUBLE_EQ(j["types"]["walker"]["mean_arrival_time"].get<double>(), 3.0);
  EXPECT_EQ(j["types"]["jogger"]["agents"], 1);
  EXPECT_EQ(j["types"]["jogger"]["arrived"], 0);
  EXPECT_TRUE(j["types"]["jogger"]["mean_arrival_time"].is_null());
}

} // namespace
} // namespace crowd
