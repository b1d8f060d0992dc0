// The bench scene family: density, layout and that it builds and places at every size.
#include "host/bench/bench_scene.h"
#include "host/navmesh/navmesh.h"
#include "host/scenario/population.h"

#include <DetourNavMesh.h>
#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>

namespace crowd {
namespace {

/// Area of the navmesh's polygons seen from above (the floor the agents can stand on).
double navmesh_area(const NavMesh& navmesh) {
  const dtNavMesh& mesh = navmesh.detour();
  double area = 0.0;
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = mesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr)
      continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      for (int i = 0, j = poly.vertCount - 1; i < poly.vertCount; j = i++) {
        const float* a = &tile->verts[poly.verts[j] * 3];
        const float* b = &tile->verts[poly.verts[i] * 3];
        area += 0.5 * (static_cast<double>(a[0]) * b[2] - static_cast<double>(b[0]) * a[2]);
      }
    }
  }
  return std::abs(area);
}

TEST(BenchScene, DensityIsAboutPointThreeAgentsPerSquareMetreAtEverySize) {
  for (const int agents : {1, 200, 1000, 4000, 16000, 64000, 1000000}) {
    const BenchSceneLayout layout = bench_scene_layout(agents);
    const Scenario scenario = make_bench_scenario(agents, 1);
    EXPECT_EQ(scenario.agent_count(), static_cast<std::size_t>(agents));
    if (agents < 200)
      continue; // One agent in a 1.8 m world is all rounding.
    const double density = agents / layout.walkable_area;
    EXPECT_NEAR(density, kBenchDensity, 0.05) << agents << " agents";
    const double n = layout.pillars_per_axis;
    EXPECT_DOUBLE_EQ(layout.walkable_area, static_cast<double>(layout.side) * layout.side -
                                               n * n * kBenchPillarSide * kBenchPillarSide);
    EXPECT_EQ(scenario.world.obstacles.size(), static_cast<std::size_t>(n * n));
  }
}

TEST(BenchScene, DensityOverTheBuiltNavmeshIsAboutPointThree) {
  // The navmesh is the floor minus the pillars, shrunk by the agent radius along every wall.
  const Scenario scenario = make_bench_scenario(1000, 1);
  const NavMesh navmesh = NavMesh::build(scenario);
  const double density = 1000.0 / navmesh_area(navmesh);
  EXPECT_NEAR(density, kBenchDensity, 0.05);
  // Every agent finds a place.
  EXPECT_EQ(populate(scenario, navmesh).size(), 1000u);
}

TEST(BenchScene, WorldGrowsWithTheSquareRootOfTheAgentCount) {
  const float side_1k = bench_scene_layout(1000).side;
  const float side_64k = bench_scene_layout(64000).side;
  EXPECT_NEAR(side_64k / side_1k, 8.0f, 0.1f);
  EXPECT_GT(bench_scene_layout(16000).pillars_per_axis, 10);
}

TEST(BenchScene, CellSizeKeepsTheRecastGridWithinItsLimit) {
  // navmesh.cpp refuses single-tile builds of more than 2^24 cells.
  for (const int agents : {1000, 64000, 270000, 1000000, 4000000}) {
    const BenchSceneLayout layout = bench_scene_layout(agents);
    const double cells_per_side = std::ceil(layout.side / layout.cell_size);
    EXPECT_LE(cells_per_side * cells_per_side, static_cast<double>(1 << 24)) << agents;
    EXPECT_GE(layout.cell_size, 0.3f);
  }
  EXPECT_FLOAT_EQ(bench_scene_layout(64000).cell_size, 0.3f);
  EXPECT_GT(bench_scene_layout(1000000).cell_size, 0.3f);
}

TEST(BenchScene, FourCrossingFlowsOfAQuarterEach) {
  const Scenario scenario = make_bench_scenario(1003, 9);
  ASSERT_EQ(scenario.groups.size(), 4u);
  EXPECT_EQ(scenario.seed, 9u);
  const WorldSpec::Bounds2D bounds = *scenario.world.bounds;
  int total = 0;
  for (const GroupSpec& group : scenario.groups) {
    EXPECT_GE(group.count, 250);
    EXPECT_LE(group.count, 251);
    total += group.count;
    EXPECT_EQ(group.base.on_arrival, OnArrival::Remove);
    EXPECT_EQ(group.base.avoidance_name, "good");
    ASSERT_TRUE(group.radius && group.max_speed);
    EXPECT_FLOAT_EQ(group.radius->lo, 0.3f);
    EXPECT_FLOAT_EQ(group.radius->hi, 0.4f);
    EXPECT_FLOAT_EQ(group.max_speed->lo, 1.2f);
    EXPECT_FLOAT_EQ(group.max_speed->hi, 1.5f);
    ASSERT_EQ(group.goal_kind, GroupSpec::GoalKind::Rect);
    for (const glm::vec2 p : {group.spawn_min, group.spawn_max, group.goal_min, group.goal_max}) {
      EXPECT_GE(p.x, bounds.min.x);
      EXPECT_LE(p.x, bounds.max.x);
      EXPECT_GE(p.y, bounds.min.y);
      EXPECT_LE(p.y, bounds.max.y);
    }
    // The goal band lies across the world from the spawn half.
    const glm::vec2 spawn_centre = (group.spawn_min + group.spawn_max) * 0.5f;
    const glm::vec2 goal_centre = (group.goal_min + group.goal_max) * 0.5f;
    EXPECT_LT(glm::dot(spawn_centre, goal_centre), 0.0f);
  }
  EXPECT_EQ(total, 1003);
}

TEST(BenchScene, LargeWorldsAreCutIntoBlocksOfFourFlows) {
  // Paths stay about a block long whatever the world's size.
  const Scenario scenario = make_bench_scenario(64000, 1);
  const float side = bench_scene_layout(64000).side;
  const int blocks = bench_blocks_per_axis(side);
  EXPECT_EQ(blocks, 7);
  ASSERT_EQ(scenario.groups.size(), static_cast<std::size_t>(4 * blocks * blocks));
  const float block = side / static_cast<float>(blocks);
  int total = 0;
  for (const GroupSpec& group : scenario.groups) {
    total += group.count;
    const glm::vec2 span =
        glm::max(group.spawn_max, group.goal_max) - glm::min(group.spawn_min, group.goal_min);
    EXPECT_LE(span.x, block * 1.001f);
    EXPECT_LE(span.y, block * 1.001f);
  }
  EXPECT_EQ(total, 64000);
  EXPECT_EQ(bench_blocks_per_axis(10.0f), 1);
}

TEST(BenchScene, RefusesFewerThanOneAgent) {
  EXPECT_THROW(make_bench_scenario(0, 1), std::invalid_argument);
  EXPECT_THROW(bench_scene_layout(-5), std::invalid_argument);
}

} // namespace
} // namespace crowd
