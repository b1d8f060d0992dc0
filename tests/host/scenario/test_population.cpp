// Placing a scenario's agents on a real navmesh: order, snapping, refusal of impossible
// starts, rect spawns clear of walls and of each other, circle spacing, seeded determinism.
#include "host/navmesh/navmesh.h"
#include "host/scenario/polygon2d.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"
#include "tests/support/temp_dir.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <numbers>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace crowd {
namespace {

namespace fs = std::filesystem;

struct World {
  Scenario scenario;
  NavMesh navmesh;
};

World build(const std::string& json, const fs::path& file = "population.json") {
  Scenario scenario = parse_scenario(json, file);
  NavMesh navmesh = NavMesh::build(scenario);
  return {std::move(scenario), std::move(navmesh)};
}

std::vector<AgentSetup> place(const std::string& json) {
  const World world = build(json);
  return populate(world.scenario, world.navmesh);
}

/// The ScenarioError populate throws (the test fails when there is none).
ScenarioError placement_error(const std::string& json) {
  const World world = build(json);
  try {
    populate(world.scenario, world.navmesh);
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "placed without error:\n" << json;
  return ScenarioError("", "(none)", "(none)");
}

float horizontal(const glm::vec3& a, const glm::vec3& b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

/// The first pair of agents on one floor whose discs overlap (by more than float noise), as
/// "i, j", or "".
std::string first_overlap(const std::vector<AgentSetup>& agents) {
  std::vector<std::size_t> order(agents.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return agents[a].position.x < agents[b].position.x;
  });
  float max_radius = 0.0f;
  for (const AgentSetup& a : agents) {
    max_radius = std::max(max_radius, a.params.radius);
  }
  // Sweep along x: only agents closer than two radii in x can overlap.
  for (std::size_t s = 0; s < order.size(); ++s) {
    const AgentSetup& a = agents[order[s]];
    for (std::size_t t = s + 1; t < order.size(); ++t) {
      const AgentSetup& b = agents[order[t]];
      if (b.position.x - a.position.x >= a.params.radius + max_radius) {
        break;
      }
      // Agents on different floors (a deck over a floor) may share x/z.
      if (std::abs(a.position.y - b.position.y) < 1.0f &&
          horizontal(a.position, b.position) < a.params.radius + b.params.radius - 1e-4f) {
        return std::to_string(order[s]) + ", " + std::to_string(order[t]);
      }
    }
  }
  return "";
}

using test::TempDir;

// ---- explicit agents --------------------------------------------------------------------

TEST(Population, ExplicitAgentsComeFirstThenGroupsInFileOrder) {
  const auto agents = place(R"({
    "world": {"bounds": [[0, 0], [30, 30]]},
    "defaults": {"max_speed": 1.1},
    "agents": [{"position": [2, 2], "goal": [28, 28], "max_speed": 2.2},
               {"position": [3, 2], "goal": [28, 27]}],
    "groups": [
      {"count": 3, "spawn": {"rect": [[5, 5], [12, 12]]}, "goal": {"point": [25, 5]},
       "max_speed": 3.3},
      {"count": 2, "spawn": {"circle": {"center": [20, 20], "radius": 4}}, "goal": "antipodal"}]})");
  ASSERT_EQ(agents.size(), 7u);
  const char* paths[] = {"agents[0]", "agents[1]", "groups[0]", "groups[0]",
                         "groups[0]", "groups[1]", "groups[1]"};
  const float speeds[] = {2.2f, 1.1f, 3.3f, 3.3f, 3.3f, 1.1f, 1.1f};
  for (std::size_t i = 0; i < agents.size(); ++i) {
    EXPECT_EQ(agents[i].json_path, paths[i]) << i;
    EXPECT_FLOAT_EQ(agents[i].params.max_speed, speeds[i]) << i;
  }
}

TEST(Population, ExplicitAgentIsSnappedOntoTheFloorAndItsGoalKeptAsRequested) {
  const auto agents = place(R"({
    "world": {"bounds": [[0, 0], [10, 10]], "obstacles": [[[6, 6], [8, 6], [8, 8], [6, 8]]]},
    "agents": [{"position": [5, 2], "goal": [9, 9]},
               {"position": [0.05, 5], "goal": [7, 7]},
               {"position": [5, 3], "goal": [7, 7.5, 7]}]})");
  ASSERT_EQ(agents.size(), 3u);
  // Inside the walkable area a point stays where it is, at floor height.
  EXPECT_NEAR(agents[0].position.x, 5.0f, 1e-4f);
  EXPECT_NEAR(agents[0].position.z, 2.0f, 1e-4f);
  EXPECT_NEAR(agents[0].position.y, 0.0f, 0.25f);
  EXPECT_NEAR(agents[0].goal.x, 9.0f, 1e-6f);
  EXPECT_NEAR(agents[0].goal.z, 9.0f, 1e-6f);
  EXPECT_NEAR(agents[0].goal.y, 0.0f, 0.25f);
  // Next to the wall it moves onto the navmesh, which keeps an agent radius from the wall.
  EXPECT_GE(agents[1].position.x, 0.3f);
  EXPECT_NEAR(agents[1].position.z, 5.0f, 0.05f);
  // A goal inside an obstacle is not an error: it stays where it was asked for, and the run
  // reports it unreachable.
  EXPECT_NEAR(agents[1].goal.x, 7.0f, 1e-6f);
  EXPECT_NEAR(agents[1].goal.z, 7.0f, 1e-6f);
  // A goal with a height is kept exactly.
  EXPECT_EQ(agents[2].goal, glm::vec3(7.0f, 7.5f, 7.0f));
}

TEST(Population, AgentInsideAnObstacleIsRefused) {
  const std::string world =
      R"("world": {"bounds": [[0, 0], [10, 10]],
                   "obstacles": [[[1, 6], [2, 6], [2, 7], [1, 7]],
                                 [[4, 4], [7, 4], [7, 5], [5, 5], [5, 7], [4, 7]]]})";
  ScenarioError e = placement_error("{" + world + R"(, "agents": [
      {"position": [1, 1], "goal": [9, 9]},
      {"position": [4.5, 6], "goal": [9, 9]}]})");
  EXPECT_EQ(e.json_path(), "agents[1].position");
  EXPECT_EQ(e.problem(), "starts inside obstacle 1");
  EXPECT_STREQ(e.what(), "population.json: agents[1].position: starts inside obstacle 1");

  // In the concave notch of the L-shaped obstacle is outside it: placed without error.
  const auto agents = place("{" + world + R"(, "agents": [{"position": [6, 6], "goal": [9, 9]}]})");
  EXPECT_EQ(agents.size(), 1u);

  // A point given with a height is tested on its x/z.
  e = placement_error("{" + world +
                      R"(, "agents": [{"position": [1.5, 0, 6.5], "goal": [9, 9]}]})");
  EXPECT_EQ(e.json_path(), "agents[0].position");
  EXPECT_EQ(e.problem(), "starts inside obstacle 0");
}

TEST(Population, AgentOutsideTheBoundsIsRefused) {
  const ScenarioError e = placement_error(R"({"world": {"bounds": [[0, 0], [10, 10]]},
    "agents": [{"position": [11, 5], "goal": [5, 5]}]})");
  EXPECT_EQ(e.json_path(), "agents[0].position");
  EXPECT_EQ(e.problem(), "starts outside the world bounds");
}

// ---- rect spawns ------------------------------------------------------------------------

const char* const kObstacleCourse = R"({
  "seed": 7,
  "world": {"bounds": [[0, 0], [24, 16]],
            "obstacles": [[[6, 4], [10, 4], [10, 8], [6, 8]],
                          [[14, 2], [14.2, 2], [14.2, 14], [14, 14]],
                          [[18, 9], [22, 11], [19, 13]]]},
  "agents": [{"position": [2, 2], "goal": [20, 2], "radius": 0.6}],
  "groups": [{"count": 200, "spawn": {"rect": [[-2, -2], [26, 18]]},
              "goal": {"rect": [[5, 3], [11, 9]]}, "radius": {"uniform": [0.25, 0.5]}}]})";

TEST(Population, RectSpawnKeepsDiscsApartAndClearOfWallsAndObstacles) {
  const World world = build(kObstacleCourse);
  const auto agents = populate(world.scenario, world.navmesh);
  ASSERT_EQ(agents.size(), 201u);
  EXPECT_EQ(first_overlap(agents), "") << "overlapping discs";
  const auto& obstacles = world.scenario.world.obstacles;
  for (std::size_t i = 1; i < agents.size(); ++i) {
    const AgentSetup& a = agents[i];
    const float r = a.params.radius;
    const glm::vec2 p(a.position.x, a.position.z);
    EXPECT_GE(r, 0.25f);
    EXPECT_LT(r, 0.5f);
    // Inside the bounds with the whole disc.
    EXPECT_GE(p.x - r, 0.0f) << i;
    EXPECT_GE(p.y - r, 0.0f) << i;
    EXPECT_LE(p.x + r, 24.0f) << i;
    EXPECT_LE(p.y + r, 16.0f) << i;
    EXPECT_NEAR(a.position.y, 0.0f, 0.25f) << i;
    for (std::size_t o = 0; o < obstacles.size(); ++o) {
      EXPECT_FALSE(point_in_polygon(obstacles[o], p)) << "agent " << i << " in obstacle " << o;
      EXPECT_GE(std::sqrt(squared_distance_to_boundary(obstacles[o], p)), r - 1e-4f)
          << "agent " << i << " within its radius of obstacle " << o;
    }
    // Rect goals: drawn in the goal rect, on the walkable floor (the obstacle in the middle of
    // the goal rect leaves plenty of room around it, so 100 tries always find one).
    EXPECT_GE(a.goal.x, 5.0f);
    EXPECT_LE(a.goal.x, 11.0f);
    EXPECT_GE(a.goal.z, 3.0f);
    EXPECT_LE(a.goal.z, 9.0f);
    EXPECT_FALSE(point_in_polygon(obstacles[0], {a.goal.x, a.goal.z})) << i;
  }
  // The radii really are drawn per agent.
  const auto [lo, hi] = std::minmax_element(
      agents.begin() + 1, agents.end(),
      [](const AgentSetup& a, const AgentSetup& b) { return a.params.radius < b.params.radius; });
  EXPECT_GT(hi->params.radius - lo->params.radius, 0.1f);
}

TEST(Population, SameScenarioAndSeedGiveIdenticalAgents) {
  const World world = build(kObstacleCourse);
  const auto first = populate(world.scenario, world.navmesh);
  const auto second = place(kObstacleCourse); // a fresh navmesh too
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].position, second[i].position) << i;
    EXPECT_EQ(first[i].goal, second[i].goal) << i;
    EXPECT_EQ(first[i].params.radius, second[i].params.radius) << i;
  }
}

TEST(Population, AnotherSeedGivesOtherPositions) {
  std::string reseeded = kObstacleCourse;
  reseeded.replace(reseeded.find("\"seed\": 7"), 9, "\"seed\": 8");
  const auto a = place(kObstacleCourse);
  const auto b = place(reseeded);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a[0].position, b[0].position); // explicit agents do not depend on the seed
  int moved = 0;
  for (std::size_t i = 1; i < a.size(); ++i) {
    moved += horizontal(a[i].position, b[i].position) > 1e-3f ? 1 : 0;
  }
  EXPECT_GT(moved, 190);
}

TEST(Population, DrawOrderIsRadiusThenOtherParamsThenSpawnThenGoal) {
  // The documented order lets other tools reproduce a placement: per agent, the uniform
  // parameters in the fixed order (radius first), then x and z of the spawn, then of the goal.
  const auto agents = place(R"({"seed": 12345, "world": {"bounds": [[0, 0], [100, 100]]},
    "groups": [{"count": 1, "spawn": {"rect": [[10, 20], [60, 70]]},
                "goal": {"rect": [[70, 70], [90, 95]]},
                "radius": {"uniform": [0.3, 0.5]}, "max_accel": 5,
                "arrival_radius": {"uniform": [0.2, 1.0]}}]})");
  ASSERT_EQ(agents.size(), 1u);
  std::mt19937_64 rng(12345);
  const auto draw = [&](float lo, float hi) {
    return lo + (hi - lo) * (static_cast<float>(rng() >> 40) * 0x1p-24f);
  };
  const float radius = draw(0.3f, 0.5f);
  const float arrival = draw(0.2f, 1.0f);
  const float x = draw(10, 60), z = draw(20, 70);
  const float gx = draw(70, 90), gz = draw(70, 95);
  EXPECT_EQ(agents[0].params.radius, radius);
  EXPECT_EQ(agents[0].params.arrival_radius, arrival);
  EXPECT_EQ(agents[0].params.max_accel, 5.0f);
  EXPECT_NEAR(agents[0].position.x, x, 1e-4f);
  EXPECT_NEAR(agents[0].position.z, z, 1e-4f);
  EXPECT_EQ(agents[0].goal.x, gx);
  EXPECT_EQ(agents[0].goal.z, gz);
}

TEST(Population, UniformParametersAreDrawnPerAgentWithinTheirRange) {
  const auto agents = place(R"({"world": {"bounds": [[0, 0], [40, 40]]},
    "groups": [{"count": 100, "spawn": {"rect": [[1, 1], [39, 39]]}, "goal": {"point": [20, 20]},
                "radius": {"uniform": [0.2, 0.4]}, "max_speed": {"uniform": [1, 2]},
                "collision_query_range": {"uniform": [3, 6]}, "separation_weight": 0.5},
               {"count": 20, "spawn": {"rect": [[1, 1], [39, 39]]}, "goal": {"point": [20, 20]},
                "radius": {"uniform": [0.2, 0.4]}}]})");
  ASSERT_EQ(agents.size(), 120u);
  std::vector<float> speeds;
  for (std::size_t i = 0; i < 100; ++i) {
    const AgentParams& p = agents[i].params;
    EXPECT_GE(p.max_speed, 1.0f);
    EXPECT_LT(p.max_speed, 2.0f);
    ASSERT_TRUE(p.collision_query_range.has_value());
    EXPECT_GE(*p.collision_query_range, 3.0f);
    EXPECT_LT(*p.collision_query_range, 6.0f);
    EXPECT_EQ(p.separation_weight, 0.5f);
    speeds.push_back(p.max_speed);
  }
  std::sort(speeds.begin(), speeds.end());
  EXPECT_EQ(std::unique(speeds.begin(), speeds.end()) - speeds.begin(), 100);
  // Without a query range of its own, each agent looks 12 of its own radii far.
  for (std::size_t i = 100; i < 120; ++i) {
    EXPECT_FALSE(agents[i].params.collision_query_range.has_value());
    EXPECT_FLOAT_EQ(agents[i].params.query_range(), 12.0f * agents[i].params.radius);
  }
}

TEST(Population, RectSpawnAvoidsExplicitAgents) {
  // The navmesh is built for the small agents so that the large one's disc is what keeps
  // the others away from the middle.
  const auto agents = place(R"({"world": {"bounds": [[0, 0], [8, 8]],
                                          "navmesh": {"agent_radius": 0.3}},
    "agents": [{"position": [4, 4], "goal": [1, 1], "radius": 1.5}],
    "groups": [{"count": 30, "spawn": {"rect": [[0, 0], [8, 8]]}, "goal": {"point": [7, 7]},
                "radius": 0.3}]})");
  ASSERT_EQ(agents.size(), 31u);
  EXPECT_EQ(first_overlap(agents), "");
}

TEST(Population, RectThatCannotHoldTheGroupIsAnError) {
  const ScenarioError e = placement_error(R"({"world": {"bounds": [[0, 0], [20, 20]]},
    "groups": [{"count": 5, "spawn": {"rect": [[1, 1], [19, 19]]}, "goal": {"point": [2, 2]}},
               {"count": 40, "spawn": {"rect": [[2, 2], [4, 4]]}, "goal": {"point": [9, 9]},
                "radius": 0.5}]})");
  EXPECT_EQ(e.json_path(), "groups[1].spawn");
  EXPECT_NE(e.problem().find("cannot fit 40 agents of radius 0.5 in the rect [[2, 2], [4, 4]]"),
            std::string::npos)
      << e.what();
  // 2 x 2 m holds a handful of 1 m discs, never 40.
  EXPECT_NE(e.problem().find("; placed "), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("in 40000 attempts"), std::string::npos) << e.what();
}

// Regression: the search went on to the group's budget of 1,000 attempts per agent, 1e10
// attempts (hours) for 10 million agents in a 5 x 5 m rect; it now stops once one agent alone
// has needed 100,000 attempts.
TEST(Population, FullRectStopsOnceOneAgentCannotBePlacedInsteadOfHanging) {
  const ScenarioError e = placement_error(R"({"world": {"bounds": [[0, 0], [20, 20]]},
    "groups": [{"count": 10000000, "spawn": {"rect": [[0, 0], [5, 5]]},
                "goal": {"point": [18, 18]}}]})");
  EXPECT_EQ(e.json_path(), "groups[0].spawn");
  const std::string& problem = e.problem();
  EXPECT_NE(problem.find("cannot fit 10000000 agents of radius 0.4"), std::string::npos) << problem;
  const std::size_t placed_at = problem.find("; placed ");
  const std::size_t in_at = problem.find(" in ", placed_at);
  ASSERT_NE(placed_at, std::string::npos) << problem;
  ASSERT_NE(in_at, std::string::npos) << problem;
  const long long placed = std::stoll(problem.substr(placed_at + 9, in_at - placed_at - 9));
  const long long attempts = std::stoll(problem.substr(in_at + 4));
  // 5 x 5 m (erosion and bounds leave 4.6 x 4.6 m of centres) holds a few dozen 0.8 m discs.
  EXPECT_GT(placed, 10) << problem;
  EXPECT_LT(placed, 60) << problem;
  // Without the per-agent stop: the group's budget, 1,000 x 10,000,000 = 1e10 attempts.
  EXPECT_LT(attempts, 1000000) << problem;
}

TEST(Population, RectEntirelyInsideAnObstacleIsAnError) {
  const ScenarioError e = placement_error(R"({"world": {"bounds": [[0, 0], [20, 20]],
      "obstacles": [[[5, 5], [15, 5], [15, 15], [5, 15]]]},
    "groups": [{"count": 2, "spawn": {"rect": [[8, 8], [12, 12]]}, "goal": {"point": [2, 2]}}]})");
  EXPECT_EQ(e.json_path(), "groups[0].spawn");
  EXPECT_NE(e.problem().find("placed 0 in 2000 attempts"), std::string::npos) << e.what();
}

// ---- circle spawns ----------------------------------------------------------------------

TEST(Population, CircleSpawnIsEvenlySpacedWithAntipodalGoals) {
  const auto agents = place(R"({"world": {"bounds": [[0, 0], [30, 30]]},
    "groups": [{"count": 12, "spawn": {"circle": {"center": [15, 14], "radius": 10}},
                "goal": "antipodal"}]})");
  ASSERT_EQ(agents.size(), 12u);
  const glm::vec2 center(15, 14);
  for (std::size_t k = 0; k < 12; ++k) {
    const double angle = 2.0 * std::numbers::pi * static_cast<double>(k) / 12.0;
    const glm::vec3& p = agents[k].position;
    EXPECT_NEAR(p.x, 15.0 + 10.0 * std::cos(angle), 1e-3) << k;
    EXPECT_NEAR(p.z, 14.0 + 10.0 * std::sin(angle), 1e-3) << k;
    // The goal is the start mirrored through the centre, i.e. the opposite agent's start.
    const glm::vec3& g = agents[k].goal;
    EXPECT_NEAR(g.x, 2.0f * center.x - p.x, 1e-3f) << k;
    EXPECT_NEAR(g.z, 2.0f * center.y - p.z, 1e-3f) << k;
    EXPECT_NEAR(horizontal(g, agents[(k + 6) % 12].position), 0.0f, 1e-3f) << k;
  }
}

TEST(Population, CircleAgentInsideAnObstacleIsAnErrorNamingIt) {
  // Agent 2 of 8 sits at 90 degrees: (10, 15), inside the obstacle.
  const ScenarioError e = placement_error(R"({"world": {"bounds": [[0, 0], [20, 20]],
      "obstacles": [[[9, 14], [11, 14], [11, 16], [9, 16]]]},
    "groups": [{"count": 8, "spawn": {"circle": {"center": [10, 10], "radius": 5}},
                "goal": "antipodal"}]})");
  EXPECT_EQ(e.json_path(), "groups[0].spawn");
  EXPECT_NE(e.problem().find("agent 2 of 8"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("starts inside obstacle 0"), std::string::npos) << e.what();
}

TEST(Population, CircleAgentOutsideTheBoundsIsAnError) {
  const ScenarioError e = placement_error(R"({"world": {"bounds": [[0, 0], [20, 20]]},
    "groups": [{"count": 4, "spawn": {"circle": {"center": [10, 10], "radius": 15}},
                "goal": "antipodal"}]})");
  EXPECT_EQ(e.json_path(), "groups[0].spawn");
  EXPECT_NE(e.problem().find("agent 0 of 4 on the circle (at [25, 10]) starts outside the world "
                             "bounds"),
            std::string::npos)
      << e.what();
}

// ---- mesh worlds ------------------------------------------------------------------------

// A 20 x 20 m floor at y = 0 and, 3 m above its middle, a 10 x 10 m deck (high enough that
// the floor under it stays walkable): two walkable surfaces over the same x/z.
const char* const kTwoLevelObj = R"(v 0 0 0
v 0 0 20
v 20 0 20
v 20 0 0
v 5 3 5
v 5 3 15
v 15 3 15
v 15 3 5
f 1 2 3 4
f 5 6 7 8
)";

TEST(Population, TwoDimensionalPointInAMeshWorldGoesOnTheHighestSurface) {
  const TempDir dir;
  dir.write("two_levels.obj", kTwoLevelObj);
  const fs::path file = dir.write("s.json", R"({"world": {"mesh": "two_levels.obj"},
    "agents": [{"position": [10, 10], "goal": [2, 2]},
               {"position": [10, 0, 10], "goal": [12, 12]},
               {"position": [2, 18], "goal": [10, 0.2, 11]}]})");
  const Scenario scenario = load_scenario(file);
  const NavMesh navmesh = NavMesh::build(scenario);
  const auto agents = populate(scenario, navmesh);
  ASSERT_EQ(agents.size(), 3u);
  // [x, z] over the deck: on the deck.
  EXPECT_NEAR(agents[0].position.y, 3.0f, 0.3f);
  EXPECT_NEAR(agents[0].position.x, 10.0f, 1e-3f);
  EXPECT_NEAR(agents[0].position.z, 10.0f, 1e-3f);
  EXPECT_NEAR(agents[0].goal.y, 0.0f, 0.3f); // (2, 2) only has the floor
  // [x, y, z] under the deck: on the floor.
  EXPECT_NEAR(agents[1].position.y, 0.0f, 0.3f);
  EXPECT_NEAR(agents[1].goal.y, 3.0f, 0.3f); // a 2D goal over the deck: the deck
  EXPECT_NEAR(agents[2].position.y, 0.0f, 0.3f);
  EXPECT_EQ(agents[2].goal, glm::vec3(10.0f, 0.2f, 11.0f)); // a goal with height is kept
}

TEST(Population, AgentOffTheMeshIsRefused) {
  const TempDir dir;
  dir.write("two_levels.obj", kTwoLevelObj);
  const fs::path file = dir.write("s.json", R"({"world": {"mesh": "two_levels.obj"},
    "agents": [{"position": [10, 10], "goal": [2, 2]},
               {"position": [40, 40], "goal": [2, 2]}]})");
  const Scenario scenario = load_scenario(file);
  const NavMesh navmesh = NavMesh::build(scenario);
  try {
    populate(scenario, navmesh);
    FAIL() << "placed an agent 20 m off the mesh";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), file.string());
    EXPECT_EQ(e.json_path(), "agents[1].position");
    EXPECT_NE(e.problem().find("is off the walkable area"), std::string::npos) << e.what();
  }
}

TEST(Population, RectSpawnInAMeshWorldLandsOnTheWalkableSurface) {
  const TempDir dir;
  dir.write("two_levels.obj", kTwoLevelObj);
  const fs::path file = dir.write("s.json", R"({"world": {"mesh": "two_levels.obj"},
    "groups": [{"count": 60, "spawn": {"rect": [[0, 0], [20, 20]]}, "goal": {"point": [1, 1]}}]})");
  const Scenario scenario = load_scenario(file);
  const NavMesh navmesh = NavMesh::build(scenario);
  const auto agents = populate(scenario, navmesh);
  ASSERT_EQ(agents.size(), 60u);
  EXPECT_EQ(first_overlap(agents), "");
  int on_deck = 0;
  for (const AgentSetup& a : agents) {
    const auto inside_by = [&](float margin) {
      return a.position.x > 5 + margin && a.position.x < 15 - margin && a.position.z > 5 + margin &&
             a.position.z < 15 - margin;
    };
    // Over the deck's walkable part a 2D point means the deck; away from the deck, the floor.
    // Near the deck's edge (its navmesh keeps about a radius and a cell from the edge) only
    // the floor below is walkable, so either is right there.
    if (inside_by(1.0f)) {
      EXPECT_NEAR(a.position.y, 3.0f, 0.3f) << a.position.x << ", " << a.position.z;
    } else if (!inside_by(-0.01f)) {
      EXPECT_NEAR(a.position.y, 0.0f, 0.3f) << a.position.x << ", " << a.position.z;
    }
    on_deck += a.position.y > 1.5f ? 1 : 0;
  }
  EXPECT_GT(on_deck, 0);
}

// ---- scale ------------------------------------------------------------------------------

TEST(Population, HundredThousandAgentsPlaceQuicklyWithoutOverlap) {
  const World world = build(R"({"world": {"bounds": [[0, 0], [500, 500]],
                                          "navmesh": {"cell_size": 0.5}},
    "groups": [{"count": 100000, "spawn": {"rect": [[0, 0], [500, 500]]},
                "goal": {"point": [250, 250]}, "radius": 0.4}]})");
  const auto start = std::chrono::steady_clock::now();
  const auto agents = populate(world.scenario, world.navmesh);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(agents.size(), 100000u);
  EXPECT_EQ(first_overlap(agents), "");
  // Generous: typically well under a second. A quadratic overlap test would take minutes.
  EXPECT_LT(seconds, 20.0);
}

// ---- the shipped samples ----------------------------------------------------------------

#ifdef CROWD_SOURCE_DIR
TEST(Population, EverySampleScenarioLoadsAndPlaces) {
  const fs::path samples = fs::path(CROWD_SOURCE_DIR) / "samples" / "scenarios";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(samples)) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    SCOPED_TRACE(entry.path().string());
    const Scenario scenario = load_scenario(entry.path());
    const NavMesh navmesh = NavMesh::build(scenario);
    const auto agents = populate(scenario, navmesh);
    EXPECT_EQ(agents.size(), scenario.agent_count());
    // Emitters' agents (listed last) enter one by one where there is room, so only the
    // others must be placed apart.
    std::vector<AgentSetup> at_once = agents;
    std::erase_if(at_once, [](const AgentSetup& a) { return a.json_path.starts_with("emitters"); });
    EXPECT_EQ(first_overlap(at_once), "");
    ++checked;
  }
  EXPECT_GT(checked, 0);
}
#endif

} // namespace
} // namespace crowd
