// Tiled navmeshes (navmesh.h, tile_build.h): worlds built as a grid of Recast tiles connect
// across tile borders, keep their walls and clearance, come out the same whatever the thread
// count, and a world too large for one tile is built in tiles on its own.
#include "host/navmesh/navmesh.h"
#include "tests/support/navmesh_path.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>
#include <string>
#include <vector>

namespace crowd {
namespace {

WorldSpec world_2d(glm::vec2 lo, glm::vec2 hi, std::vector<Polygon2D> obstacles) {
  WorldSpec world;
  world.bounds = WorldSpec::Bounds2D{lo, hi};
  world.obstacles = std::move(obstacles);
  return world;
}

Polygon2D square(glm::vec2 center, float half) {
  return {center + glm::vec2(-half, -half), center + glm::vec2(half, -half),
          center + glm::vec2(half, half), center + glm::vec2(-half, half)};
}

// 60 x 60 m with a pillar every 6 m.
WorldSpec pillar_world() {
  std::vector<Polygon2D> pillars;
  for (float x = 3.0f; x < 60.0f; x += 6.0f) {
    for (float z = 3.0f; z < 60.0f; z += 6.0f) {
      pillars.push_back(square({x, z}, 0.5f));
    }
  }
  return world_2d({0, 0}, {60, 60}, pillars);
}

NavMesh build(const WorldSpec& world, int tile_size) {
  NavmeshBuildSettings settings;
  settings.tile_size = tile_size;
  return NavMesh::build(geometry_from_2d_world(world), settings);
}

TEST(TiledNavMesh, PathsCrossTileBordersAsOnOneTile) {
  const WorldSpec world = pillar_world();
  const NavMesh single = build(world, 0);
  const NavMesh tiled = build(world, 32); // 9.6 m tiles: 7 x 7
  EXPECT_EQ(single.tile_count(), 1);
  EXPECT_EQ(single.tile_size(), 0);
  EXPECT_EQ(tiled.tile_count(), 49);
  EXPECT_EQ(tiled.tile_size(), 32);
  for (const auto& [from, to] : {std::pair{glm::vec3(1, 0, 1), glm::vec3(59, 0, 59)},
                                 std::pair{glm::vec3(1, 0, 30), glm::vec3(59, 0, 31)},
                                 std::pair{glm::vec3(30, 0, 1), glm::vec3(29, 0, 58)}}) {
    const Path a = find_path(single, from, to), b = find_path(tiled, from, to);
    ASSERT_TRUE(a.reached);
    ASSERT_TRUE(b.reached) << "no path across the tiles";
    // Tile borders cut polygons, so A* over the polygons (portal midpoints) may take another
    // way between the pillars, but no longer one: the string-pulled lengths agree within 5%.
    EXPECT_NEAR(b.length, a.length, 0.05f * a.length);
    EXPECT_GE(b.length, glm::length(to - from) - 1.0f);
  }
}

TEST(TiledNavMesh, TileBordersAreNotWalls) {
  const WorldSpec world = world_2d({0, 0}, {30, 30}, {});
  const NavMesh tiled = build(world, 20);
  ASSERT_GT(tiled.tile_count(), 4);
  // The only walls are along the world's bounds, the radius (and up to a cell) inside them.
  const float near_bounds = 0.4f + 2.0f * tiled.settings().cell_size;
  for (const WallSegment& w : tiled.boundary_segments()) {
    for (const glm::vec3 p : {w.p, w.q}) {
      const float to_bounds = std::min({p.x, 30.0f - p.x, p.z, 30.0f - p.z});
      EXPECT_LE(to_bounds, near_bounds) << "a wall inside the open floor at " << p.x << ", " << p.z;
    }
  }
  // And they close the floor: their total length is the eroded square's perimeter.
  float length = 0.0f;
  for (const WallSegment& w : tiled.boundary_segments()) {
    length += glm::length(w.q - w.p);
  }
  EXPECT_NEAR(length, 4.0f * (30.0f - 2.0f * 0.4f), 4.0f * 2.0f * tiled.settings().cell_size);
}

TEST(TiledNavMesh, WallsKeepTheRadiusFromThePillars) {
  const WorldSpec world = pillar_world();
  const NavMesh tiled = build(world, 32);
  for (const WallSegment& w : tiled.boundary_segments()) {
    for (const Polygon2D& pillar : world.obstacles) {
      // Pillars are axis-aligned squares: the distance from a point is the box distance, and
      // the nearest point of a segment to a box is within the segment's sampled points.
      for (int k = 0; k <= 8; ++k) {
        const glm::vec3 p = w.p + (w.q - w.p) * (static_cast<float>(k) / 8.0f);
        const glm::vec2 d =
            glm::max(glm::max(pillar[0] - glm::vec2(p.x, p.z), glm::vec2(p.x, p.z) - pillar[2]),
                     glm::vec2(0.0f));
        ASSERT_GE(glm::length(d), 0.4f - 1e-3f) << "a wall within the radius of a pillar";
      }
    }
  }
}

TEST(TiledNavMesh, SameTilesWhateverTheThreadCount) {
  const WorldSpec world = pillar_world();
  auto build_with = [&](int threads) {
    tbb::task_arena arena(threads);
    return arena.execute([&] { return build(world, 32); });
  };
  const NavMesh one = build_with(1), two = build_with(2);
  ASSERT_EQ(one.detour().getMaxTiles(), two.detour().getMaxTiles());
  for (int t = 0; t < one.detour().getMaxTiles(); ++t) {
    const dtMeshTile* a = one.detour().getTile(t);
    const dtMeshTile* b = two.detour().getTile(t);
    ASSERT_EQ(a->dataSize, b->dataSize) << "tile " << t;
    if (a->dataSize > 0) {
      EXPECT_EQ(std::memcmp(a->data, b->data, static_cast<std::size_t>(a->dataSize)), 0)
          << "tile " << t;
    }
  }
  EXPECT_EQ(one.boundary_segments().size(), two.boundary_segments().size());
}

TEST(TiledNavMesh, AWorldOverOneTilesVerticesIsBuiltInTiles) {
  // 728 x 728 m at 0.6 m cells (1.5 million cells, within the single-tile grid) with a 1 m
  // pillar every 8 m: 8,281 pillars, more vertices than the 65,535 one Detour tile holds.
  std::vector<Polygon2D> pillars;
  for (float x = 4.0f; x < 728.0f; x += 8.0f) {
    for (float z = 4.0f; z < 728.0f; z += 8.0f) {
      pillars.push_back(square({x, z}, 0.5f));
    }
  }
  const WorldSpec world = world_2d({0, 0}, {728, 728}, pillars);
  NavmeshBuildSettings settings;
  settings.cell_size = 0.6f;
  const NavMesh mesh = NavMesh::build(geometry_from_2d_world(world), settings);
  EXPECT_EQ(mesh.tile_size(), kDefaultTileSize);
  EXPECT_GT(mesh.tile_count(), 1);
  EXPECT_TRUE(find_path(mesh, {0.5f, 0, 364}, {727.5f, 0, 364}).reached);

  // A tile size that puts the whole world in one tile again is refused, naming the setting.
  try {
    settings.tile_size = 2048;
    NavMesh::build(geometry_from_2d_world(world), settings);
    FAIL() << "no error";
  } catch (const NavmeshError& e) {
    EXPECT_EQ(e.setting(), NavmeshError::Setting::TileSize);
    EXPECT_NE(std::string(e.what()).find("lower world.navmesh.tile_size"), std::string::npos)
        << e.what();
  }
}

} // namespace
} // namespace crowd
