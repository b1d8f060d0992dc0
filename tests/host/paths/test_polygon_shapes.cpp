// The polygon table (host/paths/polygon_shapes.h) holds each polygon's outline as Detour has
// it, and across each edge the polygon Detour's raycast enters there.
#include "host/navmesh/navmesh.h"
#include "host/paths/polygon_shapes.h"
#include "tests/support/pillar_field.h"

#include <cfloat>
#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(PolygonShapes, OutlinesAndNeighboursAreDetours) {
  const NavMesh navmesh = NavMesh::build(test::pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  ASSERT_GT(shapes.index().size(), 50);
  int walls = 0, neighbours = 0;
  for (int p = 0; p < shapes.index().size(); ++p) {
    const dtPolyRef ref = shapes.index().ref_of(p);
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    ASSERT_TRUE(dtStatusSucceed(navmesh.detour().getTileAndPolyByRef(ref, &tile, &poly)));
    ASSERT_TRUE(shapes.is_ground(p));
    EXPECT_TRUE(shapes.is_flat(p)) << "the pillar field is level";
    EXPECT_EQ(shapes.flat_height(p), tile->verts[poly->verts[0] * 3 + 1]);
    ASSERT_EQ(shapes.vertex_count(p), static_cast<int>(poly->vertCount));
    float centre[3] = {0.0f, 0.0f, 0.0f};
    for (int v = 0; v < poly->vertCount; ++v) {
      const float* detour = &tile->verts[poly->verts[v] * 3];
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(shapes.vertices(p)[v * 3 + c], detour[c]);
        centre[c] += detour[c] / static_cast<float>(poly->vertCount);
      }
    }
    // A ray from the centre out through the middle of each edge: Detour's raycast either stops
    // at the edge (a wall) or goes on into the polygon the table names.
    for (int e = 0; e < poly->vertCount; ++e) {
      const float* a = &shapes.vertices(p)[e * 3];
      const float* b = &shapes.vertices(p)[((e + 1) % poly->vertCount) * 3];
      const float mid[3] = {(a[0] + b[0]) * 0.5f, centre[1], (a[2] + b[2]) * 0.5f};
      const float end[3] = {centre[0] + (mid[0] - centre[0]) * 1.05f, centre[1],
                            centre[2] + (mid[2] - centre[2]) * 1.05f};
      float t = 0.0f, normal[3];
      dtPolyRef path[4];
      int count = 0;
      query->raycast(ref, centre, end, &navmesh.filter(), &t, normal, path, &count, 4);
      const std::int32_t across = shapes.across(p, e);
      if (across == PolygonShapes::kWall) {
        EXPECT_LT(t, 1.0f) << "polygon " << p << " edge " << e;
        EXPECT_EQ(count, 1);
        ++walls;
      } else {
        ASSERT_GE(across, 0) << "a single tile has no partial links";
        ASSERT_GE(count, 2) << "polygon " << p << " edge " << e;
        EXPECT_EQ(path[1], shapes.index().ref_of(across)) << "polygon " << p << " edge " << e;
        ++neighbours;
      }
    }
  }
  EXPECT_GT(walls, 20);
  EXPECT_GT(neighbours, 100);
}

} // namespace
} // namespace crowd
