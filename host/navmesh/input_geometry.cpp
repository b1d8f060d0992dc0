// The triangles Recast rasterises for a 2D world: the floor rectangle and every obstacle polygon
// extruded to a solid prism. The OBJ reader is in obj_loader.cpp.
#include "host/navmesh/input_geometry.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <numeric>
#include <vector>

namespace crowd {

namespace {

// Height of an obstacle prism (scenario.md: "extruded as 2 m tall prisms").
constexpr float kObstacleHeight = 2.0f;

// Twice the signed area of the triangle (a, b, c) in the x/z plane with the sign convention of
// Detour's dtTriArea2D (DetourCommon.h): positive when a -> b -> c turns clockwise in x/z
// coordinates, which is also when the 3D normal of the triangle at y = const points up (+y), the
// test rcMarkWalkableTriangles applies.
float tri_area_2d(glm::vec2 a, glm::vec2 b, glm::vec2 c) {
  return (c.x - a.x) * (b.y - a.y) - (b.x - a.x) * (c.y - a.y);
}

// Twice the signed area of a polygon with the dtTriArea2D sign convention (sum over a fan).
float polygon_area_2d(const std::vector<glm::vec2>& poly) {
  float area = 0.0f;
  for (std::size_t i = 1; i + 1 < poly.size(); ++i) {
    area += tri_area_2d(poly[0], poly[i], poly[i + 1]);
  }
  return area;
}

// True when p lies inside or on the triangle (a, b, c), which has tri_area_2d > 0.
bool point_in_triangle(glm::vec2 p, glm::vec2 a, glm::vec2 b, glm::vec2 c) {
  return tri_area_2d(a, b, p) >= 0.0f && tri_area_2d(b, c, p) >= 0.0f &&
         tri_area_2d(c, a, p) >= 0.0f;
}

// The polygon without repeated consecutive points (and without a closing copy of the first
// point), so that the ear clipper sees a proper simple polygon.
std::vector<glm::vec2> without_duplicates(const Polygon2D& polygon) {
  std::vector<glm::vec2> out;
  out.reserve(polygon.size());
  for (const glm::vec2& p : polygon) {
    if (out.empty() || out.back() != p) {
      out.push_back(p);
    }
  }
  while (out.size() > 1 && out.back() == out.front()) {
    out.pop_back();
  }
  return out;
}

// Ear clipping of a simple polygon of either winding (O(n^2) in practice: only reflex vertices
// can lie inside an ear). Returns n - 2 triangles as indices into `poly`, each with
// tri_area_2d >= 0 (normal up). A degenerate or self-intersecting input still terminates with
// n - 2 triangles: when no proper ear exists the first convex (or any) vertex is clipped.
std::vector<glm::ivec3> ear_clip(const std::vector<glm::vec2>& poly) {
  const int n = static_cast<int>(poly.size());
  std::vector<glm::ivec3> triangles;
  if (n < 3) {
    return triangles;
  }
  triangles.reserve(static_cast<std::size_t>(n - 2));

  // Work on a ring of indices wound so that interior angles are on the tri_area_2d > 0 side.
  std::vector<int> ring(static_cast<std::size_t>(n));
  std::iota(ring.begin(), ring.end(), 0);
  if (polygon_area_2d(poly) < 0.0f) {
    std::reverse(ring.begin(), ring.end());
  }

  auto at = [&](std::size_t i) { return poly[static_cast<std::size_t>(ring[i])]; };
  auto is_convex = [&](std::size_t i) {
    const std::size_t m = ring.size();
    return tri_area_2d(at((i + m - 1) % m), at(i), at((i + 1) % m)) > 0.0f;
  };
  auto is_ear = [&](std::size_t i) {
    const std::size_t m = ring.size();
    const std::size_t ip = (i + m - 1) % m, in = (i + 1) % m;
    if (!is_convex(i)) {
      return false;
    }
    const glm::vec2 a = at(ip), b = at(i), c = at(in);
    for (std::size_t k = 0; k < m; ++k) {
      if (k == ip || k == i || k == in || is_convex(k)) {
        continue; // Only a reflex vertex can lie inside an ear of a simple polygon.
      }
      const glm::vec2 p = at(k);
      if (p != a && p != b && p != c && point_in_triangle(p, a, b, c)) {
        return false;
      }
    }
    return true;
  };

  while (ring.size() > 3) {
    const std::size_t m = ring.size();
    std::size_t clip = m;
    for (std::size_t i = 0; i < m && clip == m; ++i) {
      if (is_ear(i)) {
        clip = i;
      }
    }
    for (std::size_t i = 0; i < m && clip == m; ++i) {
      if (is_convex(i)) {
        clip = i; // Degenerate input: no proper ear.
      }
    }
    if (clip == m) {
      clip = 0; // All vertices collinear: the triangles have zero area anyway.
    }
    triangles.emplace_back(ring[(clip + m - 1) % m], ring[clip], ring[(clip + 1) % m]);
    ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(clip));
  }
  triangles.emplace_back(ring[0], ring[1], ring[2]);
  return triangles;
}

// Appends the prism of one obstacle: a wall quad per edge and the ear-clipped top cap, all
// marked not walkable. The bottom is not needed: the floor below is covered by the prism's
// solid spans once Recast merges them with the floor's.
void add_prism(InputGeometry& geometry, const Polygon2D& polygon) {
  std::vector<glm::vec2> poly = without_duplicates(polygon);
  const int n = static_cast<int>(poly.size());
  if (n < 2) {
    return;
  }
  // Wind the ring so that tri_area_2d > 0 inside (as the cap triangles); the walls then face
  // outward with the vertex order used below. Recast rasterises both sides of a triangle, so
  // this only keeps the output tidy for debugging.
  if (polygon_area_2d(poly) < 0.0f) {
    std::reverse(poly.begin(), poly.end());
  }
  const int base = static_cast<int>(geometry.vertices.size());
  for (const glm::vec2& p : poly) {
    geometry.vertices.emplace_back(p.x, 0.0f, p.y);
  }
  for (const glm::vec2& p : poly) {
    geometry.vertices.emplace_back(p.x, kObstacleHeight, p.y);
  }
  auto add = [&](int a, int b, int c) {
    geometry.triangles.emplace_back(a, b, c);
    geometry.walkable.push_back(0);
  };
  const int edges = n == 2 ? 1 : n; // Two points: a zero-thickness fence, one wall.
  for (int i = 0; i < edges; ++i) {
    const int j = (i + 1) % n;
    const int b0 = base + i, b1 = base + j, t0 = base + n + i, t1 = base + n + j;
    add(b0, t1, b1);
    add(b0, t0, t1);
  }
  for (const glm::ivec3& t : ear_clip(poly)) {
    add(base + n + t.x, base + n + t.y, base + n + t.z);
  }
}

} // namespace

void InputGeometry::update_bounds() {
  if (vertices.empty()) {
    bounds_min = bounds_max = glm::vec3(0.0f);
    return;
  }
  bounds_min = glm::vec3(std::numeric_limits<float>::max());
  bounds_max = glm::vec3(std::numeric_limits<float>::lowest());
  for (const glm::vec3& v : vertices) {
    bounds_min = glm::min(bounds_min, v);
    bounds_max = glm::max(bounds_max, v);
  }
}

InputGeometry geometry_from_2d_world(const WorldSpec& world) {
  InputGeometry geometry;
  if (world.bounds) {
    const glm::vec2 lo = world.bounds->min, hi = world.bounds->max;
    geometry.vertices = {
        {lo.x, 0.0f, lo.y}, {lo.x, 0.0f, hi.y}, {hi.x, 0.0f, hi.y}, {hi.x, 0.0f, lo.y}};
    // Both triangles have tri_area_2d > 0, i.e. their normals point up, which is what
    // rcMarkWalkableTriangles' slope test needs.
    geometry.triangles = {{0, 1, 2}, {0, 2, 3}};
    geometry.walkable = {1, 1};
  }
  for (const Polygon2D& obstacle : world.obstacles) {
    add_prism(geometry, obstacle);
  }
  if (world.bounds) {
    geometry.floor_plan = FloorPlan{world.bounds->min, world.bounds->max, world.obstacles};
  }
  geometry.update_bounds();
  return geometry;
}

} // namespace crowd
