// The scenario's own ground under a point (host/navmesh/ground_surface.h), on which film
// exports stand characters instead of on the navmesh above it.
#include "host/navmesh/ground_surface.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

/// A floor at y = 0 over [0, 20] x [0, 10], a slab at y = 3 over [5, 10] x [0, 10] (a second
/// storey), and a ramp from (12, 0) up to (16, 2) over x, 4 m wide in z from 0 to 4.
InputGeometry storeys_and_ramp() {
  InputGeometry g;
  const auto quad = [&](glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
    const int base = static_cast<int>(g.vertices.size());
    g.vertices.insert(g.vertices.end(), {a, b, c, d});
    g.triangles.push_back({base, base + 1, base + 2});
    g.triangles.push_back({base, base + 2, base + 3});
    g.walkable.insert(g.walkable.end(), {1, 1});
  };
  quad({0, 0, 0}, {20, 0, 0}, {20, 0, 10}, {0, 0, 10});
  quad({5, 3, 0}, {10, 3, 0}, {10, 3, 10}, {5, 3, 10});
  quad({12, 0, 0}, {16, 2, 0}, {16, 2, 4}, {12, 0, 4});
  // A wall: vertical, no footprint; it gives no ground.
  quad({18, 0, 0}, {18, 0, 10}, {18, 5, 10}, {18, 5, 0});
  g.update_bounds();
  return g;
}

TEST(GroundSurface, StandsOnTheSurfaceBelowTheNavmeshHeight) {
  const GroundSurface ground(storeys_and_ramp());
  // The navmesh lies a little above the floor (a cell height): the floor is the ground.
  EXPECT_EQ(ground.height_under({2.0f, 0.2f, 5.0f}), 0.0f);
  // Under the slab, on the ground floor: the slab 3 m up is another storey.
  EXPECT_EQ(ground.height_under({7.0f, 0.2f, 5.0f}), 0.0f);
  // On the slab.
  EXPECT_EQ(ground.height_under({7.0f, 3.1f, 5.0f}), 3.0f);
  // Half way up the ramp: 1 m.
  EXPECT_NEAR(ground.height_under({14.0f, 1.1f, 2.0f}), 1.0f, 1e-5f);
  // Beside the wall, the floor.
  EXPECT_EQ(ground.height_under({18.0f, 0.1f, 5.0f}), 0.0f);
}

TEST(GroundSurface, OffTheGeometryKeepsTheGivenHeight) {
  const GroundSurface ground(storeys_and_ramp());
  EXPECT_EQ(ground.height_under({-5.0f, 0.7f, 5.0f}), 0.7f);
  EXPECT_EQ(ground.height_under({25.0f, 0.7f, 5.0f}), 0.7f);
  const GroundSurface nothing{InputGeometry{}};
  EXPECT_EQ(nothing.height_under({1.0f, 0.3f, 1.0f}), 0.3f);
}

TEST(GroundSurface, TheTwoDimensionalWorldsGroundIsItsFloorNotTheObstacleTops) {
  WorldSpec world;
  world.bounds = WorldSpec::Bounds2D{{0.0f, 0.0f}, {20.0f, 10.0f}};
  world.obstacles.push_back({{8.0f, 4.0f}, {12.0f, 4.0f}, {12.0f, 6.0f}, {8.0f, 6.0f}});
  const GroundSurface ground(geometry_from_2d_world(world));
  for (const glm::vec2 p : {glm::vec2(1.0f, 1.0f), glm::vec2(7.9f, 5.0f), glm::vec2(19.0f, 9.0f)})
    EXPECT_EQ(ground.height_under({p.x, 0.2f, p.y}), 0.0f) << p.x << ", " << p.y;
}

} // namespace
} // namespace crowd
