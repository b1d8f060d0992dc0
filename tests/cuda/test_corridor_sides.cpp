// cuda/kernels/corridor_sides.h: the sides of a corridor section are exactly the edges of its
// first two polygons that Detour's getPolyWallSegments reports as leading into a polygon off
// the corridor, on one tile and across tile borders; there are none where the corridor has no
// portal left or there are no rows.
#include "cuda/core/agent_arrays.h"
#include "cuda/kernels/corridor_sides.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "tests/support/navmesh_with_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#include <DetourNavMesh.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr int kCapacity = 64;

using Side = std::array<float, 4>; // p.x, p.z, q.x, q.z

/// What Detour says the sides of the section of `path` are: the segments getPolyWallSegments
/// gives for its first two polygons that lead into a polygon other than its first three and
/// cover a whole edge (both ends vertices of the polygon).
std::vector<Side> sides_by_detour(const NavMesh& navmesh, const std::vector<dtPolyRef>& path) {
  std::vector<Side> sides;
  NavQueryPtr query = navmesh.make_query();
  const auto ahead = std::min<std::size_t>(path.size(), 3);
  for (std::size_t k = 0; k < 2; ++k) {
    float segments[32 * 6];
    dtPolyRef refs[32];
    int count = 0;
    query->getPolyWallSegments(path[k], &navmesh.filter(), segments, refs, &count, 32);
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.detour().getTileAndPolyByRefUnsafe(path[k], &tile, &poly);
    // The polygon's vertex at `v` (a tile-border segment's ends are interpolated along its
    // edge: within a rounding), or null.
    const auto vertex_at = [&](const float* v) -> const float* {
      for (int j = 0; j < poly->vertCount; ++j) {
        const float* w = &tile->verts[poly->verts[j] * 3];
        if (std::fabs(v[0] - w[0]) < 1e-4f && std::fabs(v[2] - w[2]) < 1e-4f)
          return w;
      }
      return nullptr;
    };
    const auto end = path.begin() + static_cast<long>(ahead);
    for (int s = 0; s < count; ++s) {
      const float* seg = &segments[s * 6];
      if (refs[s] == 0 || std::find(path.begin(), end, refs[s]) != end)
        continue;
      const float* p = vertex_at(seg);
      const float* q = vertex_at(seg + 3);
      if (p != nullptr && q != nullptr)
        sides.push_back({p[0], p[2], q[0], q[2]});
    }
  }
  std::sort(sides.begin(), sides.end());
  return sides;
}

/// The sides for_each_corridor_side visits for row 0 of `arrays`, in the order visited.
std::vector<Side> sides_by_kernel(const AgentArrays& arrays, const NavmeshTablesView& tables) {
  std::vector<Side> sides;
  const int count =
      for_each_corridor_side(arrays.corridor_rows(tables), 0, [&](int k, glm::vec2 p, glm::vec2 q) {
        EXPECT_EQ(k, static_cast<int>(sides.size()));
        sides.push_back({p.x, p.y, q.x, q.y});
      });
  EXPECT_EQ(count, static_cast<int>(sides.size()));
  EXPECT_LE(count, kMaxCorridorSides);
  return sides;
}

/// One agent whose corridor row is `path`.
AgentArrays one_agent_on(const std::vector<dtPolyRef>& path, const PolygonIndex& index) {
  AgentArrays arrays;
  arrays.corridors.capacity = kCapacity;
  arrays.corridors.corner_capacity = 4;
  arrays.append(glm::vec3(0.0f), 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, 0);
  arrays.corridors.append(glm::vec3(0.0f));
  for (std::size_t k = 0; k < path.size(); ++k)
    arrays.corridors.row(0)[k] = index.index_of(path[k]);
  arrays.corridors.size[0] = static_cast<std::int32_t>(path.size());
  return arrays;
}

class CorridorSides : public ::testing::TestWithParam<int> {};

TEST_P(CorridorSides, AreTheEdgesOfTheSectionDetourSaysLeadOffTheCorridor) {
  const test::NavmeshWithTables world(test::pillar_field_in_tiles(GetParam()));
  const NavMesh& navmesh = world.navmesh;
  const dtNavMeshQuery* query = world.query.get();
  const PolygonShapes& shapes = world.shapes;
  const NavmeshTablesView& tables = world.tables;
  std::mt19937 rng(11);
  test::RandomPath path;
  int corridors = 0, with_sides = 0, sides_seen = 0;
  while (corridors < 200) {
    if (!test::random_path(*query, navmesh.filter(), navmesh.placement_extents(), rng, kCapacity,
                           path) ||
        path.polys.size() < 2)
      continue;
    ++corridors;
    const AgentArrays arrays = one_agent_on(path.polys, shapes.index());
    std::vector<Side> kernel = sides_by_kernel(arrays, tables);
    std::sort(kernel.begin(), kernel.end());
    EXPECT_EQ(kernel, sides_by_detour(navmesh, path.polys)) << "corridor " << corridors;
    with_sides += kernel.empty() ? 0 : 1;
    sides_seen += static_cast<int>(kernel.size());
  }
  // Not vacuous: most sections have sides off the corridor.
  EXPECT_GT(with_sides, corridors / 2);
  EXPECT_GT(sides_seen, corridors);
}

TEST_P(CorridorSides, AreNoneWithoutAPortalLeftOrWithoutRows) {
  const test::NavmeshWithTables world(test::pillar_field_in_tiles(GetParam()));
  const NavMesh& navmesh = world.navmesh;
  const dtNavMeshQuery* query = world.query.get();
  const PolygonShapes& shapes = world.shapes;
  const NavmeshTablesView& tables = world.tables;
  std::mt19937 rng(12);
  test::RandomPath path;
  while (!test::random_path(*query, navmesh.filter(), navmesh.placement_extents(), rng, kCapacity,
                            path) ||
         path.polys.size() < 6) {
  }
  // In the goal's polygon.
  EXPECT_TRUE(sides_by_kernel(one_agent_on({path.polys.back()}, shapes.index()), tables).empty());
  // A corridor whose first two polygons are not neighbours (no portal in the tables).
  const PolygonIndex& index = shapes.index();
  const auto apart = std::find_if(path.polys.begin() + 2, path.polys.end(), [&](dtPolyRef p) {
    return tables.find_portal(index.index_of(path.polys[0]), index.index_of(p)) == nullptr;
  });
  ASSERT_NE(apart, path.polys.end());
  EXPECT_TRUE(sides_by_kernel(one_agent_on({path.polys[0], *apart}, index), tables).empty());
  // No tables, or rows not one per agent: no rows.
  AgentArrays arrays = one_agent_on(path.polys, shapes.index());
  EXPECT_FALSE(sides_by_kernel(arrays, tables).empty());
  EXPECT_EQ(arrays.corridor_rows(NavmeshTablesView{}).polys, nullptr);
  arrays.append(glm::vec3(0.0f), 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, 0);
  EXPECT_EQ(arrays.corridor_rows(tables).polys, nullptr);
}

// One tile, and tiles of 32 cells (tile borders cross the corridors).
INSTANTIATE_TEST_SUITE_P(Tiles, CorridorSides, ::testing::Values(0, 32));

} // namespace
} // namespace crowd
