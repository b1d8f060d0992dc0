// Corners from the portal table (host/paths/corridor_corners.h) are dtPathCorridor::findCorners'
// corners to the bit, for corridors of every length and agents anywhere along them.
#include "host/navmesh/navmesh.h"
#include "host/paths/corridor_corners.h"
#include "host/paths/navmesh_tables.h"
#include "host/paths/portal_table.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#include <DetourPathCorridor.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

using test::pillar_field;

struct Corners {
  int count = 0;
  std::vector<float> verts;
  std::vector<unsigned char> flags;
  std::vector<dtPolyRef> polys;
  explicit Corners(int capacity)
      : verts(static_cast<std::size_t>(capacity) * 3), flags(static_cast<std::size_t>(capacity)),
        polys(static_cast<std::size_t>(capacity)) {}
};

void expect_same(const Corners& ours, const Corners& detour, const std::string& where) {
  ASSERT_EQ(ours.count, detour.count) << where;
  const std::size_t n = static_cast<std::size_t>(ours.count);
  EXPECT_EQ(std::memcmp(ours.verts.data(), detour.verts.data(), n * 3 * sizeof(float)), 0) << where;
  EXPECT_EQ(std::memcmp(ours.flags.data(), detour.flags.data(), n), 0) << where;
  EXPECT_EQ(std::memcmp(ours.polys.data(), detour.polys.data(), n * sizeof(dtPolyRef)), 0) << where;
}

TEST(CorridorCorners, AgreeWithDetourToTheBitAlongRandomCorridors) {
  const NavMesh navmesh = NavMesh::build(pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PortalTable portals(navmesh.detour());
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const NavmeshTablesView tables = navmesh_tables_view(portals, shapes);
  const dtQueryFilter& filter = navmesh.filter();
  const glm::vec3 ext = navmesh.placement_extents();
  std::mt19937 rng(7);
  int corridors = 0, comparisons = 0, turns = 0;
  test::RandomPath path;
  for (int trial = 0; trial < 300; ++trial) {
    if (!test::random_path(*query, filter, ext, rng, 256, path))
      continue;
    dtPathCorridor corridor;
    test::load_corridors(path, 256, {&corridor});
    ++corridors;
    // Walk the agent along its own corners, comparing at every step, with several buffer
    // sizes (4 is the crowd's; 2 stops after one corner; 32 takes the whole path).
    for (int step = 0; step < 200 && corridor.getPathCount() > 0; ++step) {
      for (const int capacity : {2, 4, 32}) {
        Corners ours(capacity), detour(capacity);
        ours.count = find_corridor_corners(corridor, tables, portals.index(), ours.verts.data(),
                                           ours.flags.data(), ours.polys.data(), capacity);
        detour.count = corridor.findCorners(detour.verts.data(), detour.flags.data(),
                                            detour.polys.data(), capacity, query.get(), &filter);
        expect_same(ours, detour,
                    "trial " + std::to_string(trial) + " step " + std::to_string(step) +
                        " capacity " + std::to_string(capacity));
        ++comparisons;
        if (capacity == 32 && detour.count > 1)
          ++turns;
      }
      Corners next(4);
      next.count = corridor.findCorners(next.verts.data(), next.flags.data(), next.polys.data(), 4,
                                        query.get(), &filter);
      if (next.count == 0)
        break;
      // Half a metre toward the first corner, with some sideways wobble.
      const float* c = next.verts.data();
      const float* p = corridor.getPos();
      float d[3] = {c[0] - p[0], 0.0f, c[2] - p[2]};
      const float len = std::sqrt(d[0] * d[0] + d[2] * d[2]);
      if (len < 0.05f)
        break;
      const float wobble = std::uniform_real_distribution<float>(-0.2f, 0.2f)(rng);
      const float scale = std::min(0.5f, len) / len;
      const float target[3] = {p[0] + d[0] * scale - d[2] * wobble, p[1],
                               p[2] + d[2] * scale + d[0] * wobble};
      corridor.movePosition(target, query.get(), &filter);
    }
  }
  EXPECT_GT(corridors, 200);
  EXPECT_GT(comparisons, 20000);
  EXPECT_GT(turns, 1000) << "the corridors should turn around pillars";
}

TEST(CorridorCorners, AskForDetourWhenAPortalIsNotInTheTable) {
  const NavMesh navmesh = NavMesh::build(pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PortalTable portals(navmesh.detour());
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const dtQueryFilter& filter = navmesh.filter();
  const glm::vec3 ext = navmesh.placement_extents();
  // Two polygons far apart: no link between them.
  const glm::vec3 a{-28.0f, 0.0f, -28.0f}, b{28.0f, 0.0f, 28.0f};
  dtPolyRef ra = 0, rb = 0;
  float pa[3], pb[3];
  query->findNearestPoly(&a.x, &ext.x, &filter, &ra, pa);
  query->findNearestPoly(&b.x, &ext.x, &filter, &rb, pb);
  ASSERT_NE(ra, 0u);
  ASSERT_NE(rb, 0u);
  EXPECT_EQ(portals.find(ra, rb), nullptr);
  dtPathCorridor corridor;
  corridor.init(8);
  corridor.reset(ra, pa);
  const dtPolyRef path[2] = {ra, rb};
  corridor.setCorridor(pb, path, 2);
  Corners ours(4);
  EXPECT_EQ(find_corridor_corners(corridor, navmesh_tables_view(portals, shapes), portals.index(),
                                  ours.verts.data(), ours.flags.data(), ours.polys.data(), 4),
            -1);
}

} // namespace
} // namespace crowd
