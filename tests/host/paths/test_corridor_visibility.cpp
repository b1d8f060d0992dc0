// The visibility raycast from the polygon table (host/paths/corridor_visibility.h) is
// dtNavMeshQuery::raycast to the bit, and the shortcut it gives a corridor is
// dtPathCorridor::optimizePathVisibility's, on a real Recast navmesh.
#include "host/navmesh/navmesh.h"
#include "host/paths/corridor_visibility.h"
#include "host/paths/polygon_shapes.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#include <DetourPathCorridor.h>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

using test::pillar_field;

TEST(CorridorVisibility, RaycastAgreesWithDetourToTheBitOverRandomRays) {
  const NavMesh navmesh = NavMesh::build(pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const dtQueryFilter& filter = navmesh.filter();
  const glm::vec3 ext = navmesh.placement_extents();
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(-29.5f, 29.5f), angle(0.0f, 6.2831853f),
      length(0.05f, 45.0f);
  int rays = 0, walls = 0, through = 0, truncated = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const glm::vec3 from{coord(rng), 0.0f, coord(rng)};
    dtPolyRef start = 0;
    float start_pos[3];
    query->findNearestPoly(&from.x, &ext.x, &filter, &start, start_pos);
    if (!start)
      continue;
    const float a = angle(rng), len = length(rng);
    const float end_pos[3] = {start_pos[0] + std::cos(a) * len, start_pos[1],
                              start_pos[2] + std::sin(a) * len};
    // The corridor asks for 32 polygons; 3 makes the path buffer overflow.
    const int max_path = trial % 4 == 0 ? 3 : 32;
    std::vector<dtPolyRef> ours(32, 0), detour(32, 0);
    float ours_t = -1.0f, detour_t = -1.0f, normal[3];
    int ours_count = -1, detour_count = -1;
    ASSERT_TRUE(raycast_polygons(shapes, start, start_pos, end_pos, ours_t, ours.data(), ours_count,
                                 max_path))
        << "a single-tile navmesh has no link the table cannot follow";
    query->raycast(start, start_pos, end_pos, &filter, &detour_t, normal, detour.data(),
                   &detour_count, max_path);
    const std::string where = "ray " + std::to_string(trial);
    EXPECT_EQ(std::memcmp(&ours_t, &detour_t, sizeof(float)), 0)
        << where << ": t " << ours_t << " vs " << detour_t;
    ASSERT_EQ(ours_count, detour_count) << where;
    EXPECT_EQ(std::memcmp(ours.data(), detour.data(), sizeof(dtPolyRef) * 32), 0) << where;
    ++rays;
    walls += detour_t < 1.0f ? 1 : 0;
    through += detour_count > 3 ? 1 : 0;
    truncated += detour_count == max_path && max_path == 3 ? 1 : 0;
  }
  EXPECT_GT(rays, 15000);
  EXPECT_GT(walls, 3000) << "many rays should hit a pillar or the border";
  EXPECT_GT(through, 3000) << "many rays should cross several polygons";
  EXPECT_GT(truncated, 500) << "some rays should visit more polygons than the buffer holds";
}

TEST(CorridorVisibility, RaycastLeavesAStalePolygonToDetour) {
  const NavMesh navmesh = NavMesh::build(pillar_field());
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const float p[3] = {0.0f, 0.0f, 0.0f}, q[3] = {1.0f, 0.0f, 1.0f};
  float t = 0.0f;
  int count = 0;
  dtPolyRef path[4];
  EXPECT_FALSE(raycast_polygons(shapes, 0, p, q, t, path, count, 4));
  EXPECT_FALSE(raycast_polygons(shapes, 0xfffffffu, p, q, t, path, count, 4));
}

TEST(CorridorVisibility, ShortcutsAreDetoursAlongRandomCorridors) {
  const NavMesh navmesh = NavMesh::build(pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const dtQueryFilter& filter = navmesh.filter();
  const glm::vec3 ext = navmesh.placement_extents();
  constexpr int kCapacity = 256;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coord(-29.0f, 29.0f), range(0.5f, 8.0f),
      wobble_of(-1.5f, 1.5f);
  int comparisons = 0, shortcuts = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    // A corridor with a detour, as a corridor looks after the agent was pushed off its way;
    // the shortcuts straighten it.
    test::RandomPath detour_path;
    if (!test::random_path_with_a_detour(*query, filter, ext, rng, kCapacity, detour_path))
      continue;
    dtPathCorridor ours, detour;
    test::load_corridors(detour_path, kCapacity, {&ours, &detour});
    // Walk the agent toward its corners, shortcutting toward the corner after next each step
    // (as the crowd does), and toward random points now and then.
    for (int step = 0; step < 100 && detour.getPathCount() > 0; ++step) {
      float corners[4 * 3];
      unsigned char flags[4];
      dtPolyRef polys[4];
      const int n = detour.findCorners(corners, flags, polys, 4, query.get(), &filter);
      if (n == 0)
        break;
      float next[3];
      std::memcpy(next, &corners[(n > 1 ? 1 : 0) * 3], sizeof(next));
      if (step % 7 == 3) {
        next[0] = coord(rng);
        next[2] = coord(rng);
      }
      const float r = range(rng);
      const std::vector<dtPolyRef> before(detour.getPath(),
                                          detour.getPath() + detour.getPathCount());
      optimize_corridor_visibility(ours, next, r, kCapacity, shapes, *query, filter);
      detour.optimizePathVisibility(next, r, query.get(), &filter);
      const std::string where = "trial " + std::to_string(trial) + " step " + std::to_string(step);
      ASSERT_EQ(ours.getPathCount(), detour.getPathCount()) << where;
      EXPECT_EQ(std::memcmp(ours.getPath(), detour.getPath(),
                            sizeof(dtPolyRef) * static_cast<std::size_t>(detour.getPathCount())),
                0)
          << where;
      EXPECT_EQ(std::memcmp(ours.getTarget(), detour.getTarget(), sizeof(float) * 3), 0) << where;
      ++comparisons;
      shortcuts += std::vector<dtPolyRef>(detour.getPath(),
                                          detour.getPath() + detour.getPathCount()) != before
                       ? 1
                       : 0;
      // Half a metre toward the first corner with a wide sideways wobble, on both corridors
      // alike: the corridor picks up detours the shortcuts then cut.
      const float* c = corners;
      const float* p = detour.getPos();
      const float d[3] = {c[0] - p[0], 0.0f, c[2] - p[2]};
      const float len = std::sqrt(d[0] * d[0] + d[2] * d[2]);
      if (len < 0.05f)
        break;
      const float scale = std::min(0.5f, len) / len;
      const float wobble = wobble_of(rng) / len;
      const float target[3] = {p[0] + d[0] * scale - d[2] * wobble, p[1],
                               p[2] + d[2] * scale + d[0] * wobble};
      ours.movePosition(target, query.get(), &filter);
      detour.movePosition(target, query.get(), &filter);
    }
  }
  EXPECT_GT(comparisons, 20000);
  EXPECT_GT(shortcuts, 250) << "the corridors should be shortened often";
}

} // namespace
} // namespace crowd
