// host/paths/shortest_routes.cpp: whether an agent's goal can be reached and how long its
// shortest route is, as the solver judges stuck agents and the metrics measure path ratios.
#include "host/navmesh/navmesh.h"
#include "host/paths/shortest_routes.h"
#include "host/scenario/scenario.h"

#include <array>
#include <cmath>
#include <gtest/gtest.h>

namespace crowd {
namespace {

Polygon2D square(float x0, float z0, float x1, float z1) {
  return {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
}

Scenario room(glm::vec2 lo, glm::vec2 hi, std::vector<Polygon2D> obstacles) {
  Scenario s;
  s.world.bounds = WorldSpec::Bounds2D{lo, hi};
  s.world.obstacles = std::move(obstacles);
  return s;
}

ShortestRoute route(const ShortestRoutes& routes, glm::vec3 from, glm::vec3 to) {
  const std::array<glm::vec3, 2> stops = {from, to};
  return routes.measure(stops, 0.5f);
}

TEST(ShortestRoutes, AGoalInAnotherRoomOrFarFromTheNavmeshIsUnreachable) {
  // Two rooms separated by a wall across the whole floor.
  const NavMesh navmesh = NavMesh::build(room({0, 0}, {20, 10}, {square(9, 0, 11, 10)}));
  const ShortestRoutes routes(navmesh);
  EXPECT_FALSE(route(routes, {3, 0, 5}, {17, 0, 5}).reachable);
  EXPECT_EQ(route(routes, {3, 0, 5}, {17, 0, 5}).length, 0.0);
  EXPECT_FALSE(route(routes, {3, 0, 5}, {50, 0, 5}).reachable);
  const ShortestRoute same_room = route(routes, {3, 0, 5}, {6, 0, 5});
  EXPECT_TRUE(same_room.reachable);
  EXPECT_NEAR(same_room.length, 3.0, 1e-3);
}

// Regression: a goal inside an obstacle has navmesh within the placement extents, so it used
// to count as reachable although no agent can ever come within arrival_radius of it.
TEST(ShortestRoutes, AGoalInsideAnObstacleIsUnreachableButOneAtItsEdgeIsNot) {
  const NavMesh navmesh = NavMesh::build(room({0, 0}, {20, 20}, {square(8, 8, 12, 12)}));
  const ShortestRoutes routes(navmesh);
  // The navmesh stops at least the agent radius, 0.4 m, short of the obstacle, and less than
  // a cell more.
  const float edge = navmesh.nearest_point({7.9f, 0, 10})->x;
  ASSERT_LE(edge, 7.6f + 1e-3f);
  ASSERT_GT(edge, 7.6f - navmesh.settings().cell_size);
  EXPECT_FALSE(route(routes, {2, 0, 2}, {10, 0, 10}).reachable) << "the obstacle's centre";
  EXPECT_TRUE(route(routes, {2, 0, 2}, {edge + 0.3f, 0, 10}).reachable)
      << "within arrival_radius 0.5 of the navmesh edge";
  EXPECT_FALSE(route(routes, {2, 0, 2}, {edge + 0.7f, 0, 10}).reachable);
  EXPECT_FALSE(route(routes, {2, 0, 2}, {10, 0, 20.6f}).reachable) << "past the bounds";
}

TEST(ShortestRoutes, TheRouteGoesThroughEveryStopAndRoundTheWalls) {
  // A wall between start and goal: two legs of about sqrt(5^2 + 6.5^2) = 8.2 m each.
  const NavMesh navmesh = NavMesh::build(room({-10, -10}, {10, 10}, {square(-0.5f, -6, 0.5f, 6)}));
  const ShortestRoutes routes(navmesh);
  const ShortestRoute around = route(routes, {-5, 0, 0}, {5, 0, 0});
  ASSERT_TRUE(around.reachable);
  EXPECT_GT(around.length, 16.0);
  EXPECT_LT(around.length, 17.5);
  // Through two stops on the near side first: the legs add up.
  const std::array<glm::vec3, 3> stops = {glm::vec3{-5, 0, 0}, glm::vec3{-5, 0, 4},
                                          glm::vec3{-5, 0, 8}};
  EXPECT_NEAR(routes.measure(stops, 0.5f).length, 8.0, 1e-3);
  // One unreachable stop makes the whole route unreachable.
  const std::array<glm::vec3, 3> off = {glm::vec3{-8, 0, 0}, glm::vec3{0, 0, 40},
                                        glm::vec3{8, 0, 0}};
  EXPECT_FALSE(routes.measure(off, 0.5f).reachable);
}

} // namespace
} // namespace crowd
