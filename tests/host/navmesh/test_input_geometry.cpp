// The 2D world's triangles: floor rectangle, obstacle prisms, ear clipping of the top caps.
#include "host/navmesh/input_geometry.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

// dtTriArea2D (DetourCommon.h): > 0 when the triangle's normal points up.
float tri_area_2d(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  return (c.x - a.x) * (b.z - a.z) - (b.x - a.x) * (c.z - a.z);
}

float polygon_area(const Polygon2D& poly) {
  float twice = 0.0f;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    twice += poly[j].x * poly[i].y - poly[i].x * poly[j].y;
  }
  return std::abs(twice) * 0.5f;
}

bool inside(glm::vec2 p, const Polygon2D& poly) {
  bool in = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const glm::vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      in = !in;
    }
  }
  return in;
}

struct Cap {
  int triangles = 0;
  float area = 0.0f;
  float min_signed_area = 1e9f;
  bool centroids_inside = true;
};

// The triangles of the prism's top cap (all three vertices at the prism height).
Cap top_cap(const InputGeometry& g, const Polygon2D& poly) {
  Cap cap;
  for (const glm::ivec3& t : g.triangles) {
    const glm::vec3 a = g.vertices[t.x], b = g.vertices[t.y], c = g.vertices[t.z];
    if (a.y < 1.5f || b.y < 1.5f || c.y < 1.5f) {
      continue;
    }
    ++cap.triangles;
    const float twice = tri_area_2d(a, b, c);
    cap.area += 0.5f * twice;
    cap.min_signed_area = std::min(cap.min_signed_area, twice);
    const glm::vec3 centroid = (a + b + c) / 3.0f;
    cap.centroids_inside = cap.centroids_inside && inside({centroid.x, centroid.z}, poly);
  }
  return cap;
}

WorldSpec world_with(const std::vector<Polygon2D>& obstacles) {
  WorldSpec world;
  world.bounds = WorldSpec::Bounds2D{{0.0f, 0.0f}, {20.0f, 10.0f}};
  world.obstacles = obstacles;
  return world;
}

TEST(InputGeometry, FloorIsTwoWalkableUpFacingTrianglesOverTheBounds) {
  WorldSpec world;
  world.bounds = WorldSpec::Bounds2D{{-5.0f, 2.0f}, {15.0f, 12.0f}};
  const InputGeometry g = geometry_from_2d_world(world);
  ASSERT_EQ(g.triangles.size(), 2u);
  ASSERT_EQ(g.walkable.size(), 2u);
  float area = 0.0f;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(g.walkable[i], 1);
    const glm::ivec3 t = g.triangles[i];
    const float twice = tri_area_2d(g.vertices[t.x], g.vertices[t.y], g.vertices[t.z]);
    EXPECT_GT(twice, 0.0f) << "floor triangle " << i << " faces down";
    area += 0.5f * twice;
  }
  EXPECT_FLOAT_EQ(area, 200.0f);
  EXPECT_EQ(g.bounds_min, glm::vec3(-5.0f, 0.0f, 2.0f));
  EXPECT_EQ(g.bounds_max, glm::vec3(15.0f, 0.0f, 12.0f));
}

TEST(InputGeometry, ConcavePolygonCapIsEarClippedInBothWindings) {
  // An arrow-like concave polygon with 7 vertices (two reflex vertices).
  Polygon2D concave = {{2, 2}, {8, 2}, {8, 8}, {5, 4}, {4, 8}, {3, 5}, {2, 8}};
  for (int winding = 0; winding < 2; ++winding) {
    SCOPED_TRACE(winding == 0 ? "counter-clockwise" : "clockwise");
    if (winding == 1) {
      std::reverse(concave.begin(), concave.end());
    }
    const InputGeometry g = geometry_from_2d_world(world_with({concave}));
    const Cap cap = top_cap(g, concave);
    EXPECT_EQ(cap.triangles, static_cast<int>(concave.size()) - 2);
    EXPECT_NEAR(cap.area, polygon_area(concave), 1e-4f);
    EXPECT_GT(cap.min_signed_area, 0.0f) << "a cap triangle is degenerate or faces down";
    EXPECT_TRUE(cap.centroids_inside) << "a cap triangle lies outside the polygon";
    // Two floor triangles, two per wall, n - 2 for the cap; nothing of the prism walkable.
    EXPECT_EQ(g.triangles.size(), 2u + 2u * concave.size() + concave.size() - 2u);
    EXPECT_EQ(std::count(g.walkable.begin(), g.walkable.end(), 1), 2);
    EXPECT_FLOAT_EQ(g.bounds_max.y, 2.0f);
  }
}

TEST(InputGeometry, SlottedPolygonWithManyReflexVertices) {
  // A bar with four slots cut from its top edge: 19 vertices, 8 of them reflex.
  Polygon2D comb = {{1, 1}, {19, 1}, {19, 9}};
  for (int tooth = 3; tooth >= 0; --tooth) {
    const float x = 2.0f + 4.5f * static_cast<float>(tooth);
    comb.push_back({x + 2.0f, 9.0f});
    comb.push_back({x + 2.0f, 3.0f});
    comb.push_back({x, 3.0f});
    if (tooth > 0) {
      comb.push_back({x, 9.0f});
    }
  }
  comb.push_back({1, 9});
  const InputGeometry g = geometry_from_2d_world(world_with({comb}));
  const Cap cap = top_cap(g, comb);
  EXPECT_EQ(cap.triangles, static_cast<int>(comb.size()) - 2);
  EXPECT_NEAR(cap.area, polygon_area(comb), 1e-3f);
  EXPECT_GT(cap.min_signed_area, 0.0f);
  EXPECT_TRUE(cap.centroids_inside);
}

TEST(InputGeometry, RepeatedClosingPointIsIgnored) {
  const Polygon2D closed = {{2, 2}, {4, 2}, {4, 4}, {2, 4}, {2, 2}};
  const InputGeometry g = geometry_from_2d_world(world_with({closed}));
  const Cap cap = top_cap(g, {closed.begin(), closed.end() - 1});
  EXPECT_EQ(cap.triangles, 2);
  EXPECT_NEAR(cap.area, 4.0f, 1e-5f);
  EXPECT_EQ(g.triangles.size(), 2u + 8u + 2u);
}

TEST(InputGeometry, UpdateBounds) {
  InputGeometry g;
  g.update_bounds();
  EXPECT_EQ(g.bounds_min, glm::vec3(0.0f));
  g.vertices = {{1, 2, 3}, {-1, 5, 0}, {4, -2, 1}};
  g.update_bounds();
  EXPECT_EQ(g.bounds_min, glm::vec3(-1, -2, 0));
  EXPECT_EQ(g.bounds_max, glm::vec3(4, 5, 3));
}

} // namespace
} // namespace crowd
