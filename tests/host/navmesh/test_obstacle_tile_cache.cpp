// Dynamic obstacles (navmesh.h, obstacle_tile_cache.h): a navmesh built for them is tiled and
// walks like the static one; an obstacle cuts the navmesh away around it (a radius off, as
// walls), its removal gives the floor back, a wall of them blocks the way, and what
// DetourTileCache cannot do is refused with a reason.
#include "host/navmesh/navmesh.h"
#include "tests/support/navmesh_path.h"

#include <DetourNavMesh.h>
#include <gtest/gtest.h>
#include <string>

namespace crowd {
namespace {

// A 40 x 12 m hall.
NavMesh hall(bool dynamic, int tile_size = 0) {
  WorldSpec world;
  world.bounds = WorldSpec::Bounds2D{{0, 0}, {40, 12}};
  NavmeshBuildSettings settings;
  settings.dynamic = dynamic;
  settings.tile_size = tile_size;
  return NavMesh::build(geometry_from_2d_world(world), settings);
}

NavObstacle cylinder(glm::vec2 at, float radius) {
  NavObstacle o;
  o.position = {at.x, 0.0f, at.y};
  o.radius = radius;
  return o;
}

// How far the navmesh's nearest point to `at` lies from it, on the ground.
float distance_to_navmesh(const NavMesh& mesh, glm::vec2 at) {
  const auto nearest = mesh.nearest_point({at.x, 0.0f, at.y}, {6.0f, 2.0f, 6.0f});
  if (!nearest)
    return 1e9f;
  return glm::length(glm::vec2(nearest->x, nearest->z) - at);
}

TEST(ObstacleTileCache, ADynamicNavmeshIsTiledAndWalksAsTheStaticOne) {
  const NavMesh still = hall(false);
  const NavMesh dynamic = hall(true);
  EXPECT_TRUE(dynamic.dynamic());
  EXPECT_FALSE(still.dynamic());
  EXPECT_EQ(dynamic.tile_size(), kDefaultDynamicTileSize);
  EXPECT_GT(dynamic.tile_count(), 1);
  const Path a = find_path(still, {1, 0, 1}, {39, 0, 11});
  const Path b = find_path(dynamic, {1, 0, 1}, {39, 0, 11});
  ASSERT_TRUE(a.reached);
  ASSERT_TRUE(b.reached);
  EXPECT_NEAR(b.length, a.length, 0.02f * a.length);
  // The erosion is the same: the edge lies the agent radius (and less than a cell) from walls.
  EXPECT_NEAR(distance_to_navmesh(dynamic, {20.0f, 0.0f}),
              distance_to_navmesh(still, {20.0f, 0.0f}), still.settings().cell_size);
}

TEST(ObstacleTileCache, AnObstacleCutsTheNavmeshAwayAroundItUntilRemoved) {
  NavMesh mesh = hall(true);
  const float radius = mesh.settings().agent_radius;
  const int polygons = mesh.polygon_count();
  const std::size_t walls = mesh.boundary_segments().size();
  EXPECT_LT(distance_to_navmesh(mesh, {20, 6}), 0.01f);
  const unsigned int id = mesh.add_obstacle(cylinder({20, 6}, 1.0f));
  EXPECT_EQ(mesh.obstacle_count(), 1);
  // Queued: nothing changes before the update.
  EXPECT_LT(distance_to_navmesh(mesh, {20, 6}), 0.01f);
  EXPECT_GT(mesh.update_obstacles(), 0);
  // The navmesh now keeps the agent radius from the cylinder, within a cell.
  const float cell = mesh.settings().cell_size;
  EXPECT_NEAR(distance_to_navmesh(mesh, {20, 6}), 1.0f + radius, 1.5f * cell);
  EXPECT_GT(mesh.boundary_segments().size(), walls) << "the obstacle's outline is a wall";
  EXPECT_NE(mesh.polygon_count(), polygons);
  // A path past it goes round.
  const Path round = find_path(mesh, {14, 0, 6}, {26, 0, 6});
  ASSERT_TRUE(round.reached);
  EXPECT_GT(round.length, 12.0f + 0.1f);

  EXPECT_TRUE(mesh.remove_obstacle(id));
  EXPECT_FALSE(mesh.remove_obstacle(id)) << "removed twice";
  EXPECT_GT(mesh.update_obstacles(), 0);
  EXPECT_EQ(mesh.obstacle_count(), 0);
  EXPECT_LT(distance_to_navmesh(mesh, {20, 6}), 0.01f);
  EXPECT_EQ(mesh.polygon_count(), polygons);
  EXPECT_EQ(mesh.boundary_segments().size(), walls);
  EXPECT_EQ(mesh.update_obstacles(), 0) << "nothing left to rebuild";
}

TEST(ObstacleTileCache, ABoxAcrossTheHallBlocksTheWay) {
  NavMesh mesh = hall(true);
  ASSERT_TRUE(find_path(mesh, {2, 0, 6}, {38, 0, 6}).reached);
  NavObstacle box;
  box.shape = NavObstacle::Shape::Box;
  box.position = {20.0f, 0.0f, 6.0f};
  box.half_size = {0.5f, 6.5f}; // wall to wall
  mesh.add_obstacle(box);
  mesh.update_obstacles();
  EXPECT_FALSE(find_path(mesh, {2, 0, 6}, {38, 0, 6}).reached);
  // Turned by 90 degrees it lies along the hall and leaves room on both sides... of nothing:
  // 13 m long in a 12 m hall it still blocks; a short one turned does not.
  NavObstacle turned = box;
  turned.half_size = {0.5f, 3.0f};
  turned.yaw = 1.5707963f;
  turned.position.x = 30.0f;
  mesh.add_obstacle(turned);
  mesh.update_obstacles();
  EXPECT_LT(distance_to_navmesh(mesh, {30.0f, 1.0f}), 0.01f) << "the turned box is 1 m wide";
  EXPECT_GT(distance_to_navmesh(mesh, {32.5f, 6.0f}), 0.4f) << "and 6 m long along x";
}

TEST(ObstacleTileCache, AnObstacleMovedWhereNoSlotIsFreeTakesTheSlotItsRemovalFrees) {
  WorldSpec world;
  world.bounds = WorldSpec::Bounds2D{{0, 0}, {40, 12}};
  NavmeshBuildSettings settings;
  settings.dynamic = true;
  settings.max_obstacles = 1;
  NavMesh mesh = NavMesh::build(geometry_from_2d_world(world), settings);
  const unsigned int first = mesh.add_obstacle(cylinder({10, 6}, 1.0f));
  mesh.update_obstacles();
  // A move: the removal is queued, the slot not yet free when the addition asks for it.
  EXPECT_TRUE(mesh.remove_obstacle(first));
  mesh.add_obstacle(cylinder({30, 6}, 1.0f));
  mesh.update_obstacles();
  EXPECT_EQ(mesh.obstacle_count(), 1);
  EXPECT_LT(distance_to_navmesh(mesh, {10, 6}), 0.01f);
  EXPECT_GT(distance_to_navmesh(mesh, {30, 6}), 1.0f);
  // Two at once do not fit one slot.
  EXPECT_THROW(mesh.add_obstacle(cylinder({20, 6}, 1.0f)), NavmeshError);
}

TEST(ObstacleTileCache, AYawTurnsABoxsXAxisTowardZ) {
  NavMesh mesh = hall(true);
  NavObstacle plank;
  plank.shape = NavObstacle::Shape::Box;
  plank.position = {20.0f, 0.0f, 6.0f};
  plank.half_size = {3.0f, 0.3f};
  plank.yaw = 0.5235988f; // 30 degrees
  mesh.add_obstacle(plank);
  mesh.update_obstacles();
  // 2.5 m along its axis, (cos 30, sin 30): inside it. The mirror image across x: clear.
  EXPECT_GT(distance_to_navmesh(mesh, {20.0f + 2.165f, 7.25f}), 0.3f);
  EXPECT_LT(distance_to_navmesh(mesh, {20.0f + 2.165f, 4.75f}), 0.01f);
}

TEST(ObstacleTileCache, WhatTheTileCacheCannotDoIsRefused) {
  NavMesh still = hall(false);
  EXPECT_THROW(still.add_obstacle(cylinder({20, 6}, 1.0f)), NavmeshError);
  EXPECT_EQ(still.update_obstacles(), 0);
  EXPECT_FALSE(still.remove_obstacle(1));

  NavMesh mesh = hall(true, 16); // small tiles
  try {
    mesh.add_obstacle(cylinder({20, 6}, 8.0f));
    FAIL() << "an obstacle over more than 8 tiles was taken";
  } catch (const NavmeshError& e) {
    EXPECT_NE(std::string(e.what()).find("tile_size"), std::string::npos) << e.what();
  }
  EXPECT_THROW(mesh.add_obstacle(cylinder({20, 6}, -1.0f)), NavmeshError);
  try {
    hall(true, kMaxDynamicTileSize + 1);
    FAIL() << "a tile the tile cache cannot hold was built";
  } catch (const NavmeshError& e) {
    EXPECT_EQ(e.setting(), NavmeshError::Setting::TileSize);
  }
}

} // namespace
} // namespace crowd
