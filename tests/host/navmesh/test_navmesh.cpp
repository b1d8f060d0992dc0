// The Recast build and the Detour queries: walkable space, paths, clearance from obstacles,
// boundary segments, errors, and mesh worlds with slopes and levels.
#include "host/navmesh/navmesh.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

namespace crowd {
namespace {

namespace fs = std::filesystem;

// --- Geometry helpers ----------------------------------------------------------------------

// dtTriArea2D (DetourCommon.h).
float tri_area_2d(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  return (c.x - a.x) * (b.z - a.z) - (b.x - a.x) * (c.z - a.z);
}

float cross(glm::vec2 a, glm::vec2 b) {
  return a.x * b.y - a.y * b.x;
}

float point_segment_distance(glm::vec2 p, glm::vec2 a, glm::vec2 b) {
  const glm::vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

bool segments_cross(glm::vec2 a, glm::vec2 b, glm::vec2 c, glm::vec2 d) {
  const float d1 = cross(b - a, c - a), d2 = cross(b - a, d - a);
  const float d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
  return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
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

// Distance from the segment [a, b] to the polygon (area included); 0 when they touch.
float segment_polygon_distance(glm::vec2 a, glm::vec2 b, const Polygon2D& poly) {
  if (inside(a, poly) || inside(b, poly)) {
    return 0.0f;
  }
  float d = std::numeric_limits<float>::max();
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const glm::vec2 c = poly[j], e = poly[i];
    if (segments_cross(a, b, c, e)) {
      return 0.0f;
    }
    // Two segments that do not cross are nearest at an endpoint of one of them.
    d = std::min({d, point_segment_distance(a, c, e), point_segment_distance(b, c, e),
                  point_segment_distance(c, a, b), point_segment_distance(e, a, b)});
  }
  return d;
}

glm::vec2 xz(glm::vec3 v) {
  return {v.x, v.z};
}

Polygon2D rotated_rect(glm::vec2 center, float half_w, float half_h, float angle) {
  const float c = std::cos(angle), s = std::sin(angle);
  Polygon2D poly;
  for (const glm::vec2 d : {glm::vec2(-half_w, -half_h), glm::vec2(half_w, -half_h),
                            glm::vec2(half_w, half_h), glm::vec2(-half_w, half_h)}) {
    poly.push_back(center + glm::vec2(c * d.x - s * d.y, s * d.x + c * d.y));
  }
  return poly;
}

WorldSpec world_2d(glm::vec2 lo, glm::vec2 hi, std::vector<Polygon2D> obstacles) {
  WorldSpec world;
  world.bounds = WorldSpec::Bounds2D{lo, hi};
  world.obstacles = std::move(obstacles);
  return world;
}

NavMesh build_2d(const WorldSpec& world, float agent_radius = 0.4f) {
  NavmeshBuildSettings settings;
  settings.agent_radius = agent_radius;
  return NavMesh::build(geometry_from_2d_world(world), settings);
}

// The smallest distance from any navmesh polygon vertex or boundary edge point to an obstacle
// or to the outside of the bounds.
float min_clearance(const NavMesh& mesh, const WorldSpec& world) {
  const glm::vec2 lo = world.bounds->min, hi = world.bounds->max;
  auto to_bounds = [&](glm::vec2 p) {
    return std::min({p.x - lo.x, hi.x - p.x, p.y - lo.y, hi.y - p.y});
  };
  float clearance = std::numeric_limits<float>::max();
  const dtMeshTile* tile = mesh.detour().getTile(0);
  for (int i = 0; i < tile->header->vertCount; ++i) {
    const glm::vec2 p(tile->verts[3 * i], tile->verts[3 * i + 2]);
    clearance = std::min(clearance, to_bounds(p));
    for (const Polygon2D& obstacle : world.obstacles) {
      clearance = std::min(clearance, segment_polygon_distance(p, p, obstacle));
    }
  }
  for (const WallSegment& s : mesh.boundary_segments()) {
    // The distance to the bounds is linear along the segment: its minimum is at an end.
    clearance = std::min({clearance, to_bounds(xz(s.p)), to_bounds(xz(s.q))});
    for (const Polygon2D& obstacle : world.obstacles) {
      clearance = std::min(clearance, segment_polygon_distance(xz(s.p), xz(s.q), obstacle));
    }
  }
  return clearance;
}

float horizontal_distance(glm::vec3 a, glm::vec3 b) {
  return glm::length(xz(a) - xz(b));
}

// --- Detour helpers ------------------------------------------------------------------------

struct PathResult {
  dtStatus status = 0;
  bool reached = false;
  float length = 0.0f; // Of the straight (string-pulled) path.
};

PathResult find_path(const NavMesh& mesh, glm::vec3 from, glm::vec3 to) {
  NavQueryPtr query = mesh.make_query();
  const glm::vec3 ext = mesh.placement_extents();
  const float half[3] = {ext.x, ext.y, ext.z};
  const float a[3] = {from.x, from.y, from.z}, b[3] = {to.x, to.y, to.z};
  dtPolyRef start = 0, end = 0;
  float start_pos[3], end_pos[3];
  query->findNearestPoly(a, half, &mesh.filter(), &start, start_pos);
  query->findNearestPoly(b, half, &mesh.filter(), &end, end_pos);
  PathResult result;
  if (start == 0 || end == 0) {
    return result;
  }
  constexpr int kMaxPath = 256;
  dtPolyRef path[kMaxPath];
  int count = 0;
  result.status =
      query->findPath(start, end, start_pos, end_pos, &mesh.filter(), path, &count, kMaxPath);
  result.reached = dtStatusSucceed(result.status) &&
                   !dtStatusDetail(result.status, DT_PARTIAL_RESULT) && count > 0 &&
                   path[count - 1] == end;
  float straight[3 * kMaxPath];
  int straight_count = 0;
  query->findStraightPath(start_pos, end_pos, path, count, straight, nullptr, nullptr,
                          &straight_count, kMaxPath);
  for (int i = 1; i < straight_count; ++i) {
    result.length +=
        glm::length(glm::vec3(straight[3 * i], straight[3 * i + 1], straight[3 * i + 2]) -
                    glm::vec3(straight[3 * i - 3], straight[3 * i - 2], straight[3 * i - 1]));
  }
  return result;
}

// --- A 2D world with one wall ----------------------------------------------------------------

// 20 x 20 m with a 0.4 m thick wall across the middle from z = 2 to z = 18.
WorldSpec walled_world() {
  return world_2d({0, 0}, {20, 20}, {{{9.8f, 2}, {10.2f, 2}, {10.2f, 18}, {9.8f, 18}}});
}

TEST(NavMesh, TwoDimensionalWorldBuilds) {
  const NavMesh mesh = build_2d(walled_world());
  EXPECT_GT(mesh.polygon_count(), 0);
  EXPECT_FLOAT_EQ(mesh.settings().agent_radius, 0.4f);
  EXPECT_EQ(mesh.bounds_min(), glm::vec3(0, 0, 0));
  EXPECT_EQ(mesh.bounds_max(), glm::vec3(20, 2, 20));
  EXPECT_FALSE(mesh.boundary_segments().empty());
  // Every polygon passes the shared filter (flags 1; Detour's default filter rejects flags 0).
  const dtMeshTile* tile = mesh.detour().getTile(0);
  for (int i = 0; i < tile->header->polyCount; ++i) {
    EXPECT_EQ(tile->polys[i].flags, 1);
    // dtQueryFilter::passFilter (defined inline in DetourNavMeshQuery.cpp, so not callable).
    EXPECT_NE(tile->polys[i].flags & mesh.filter().getIncludeFlags(), 0);
    EXPECT_EQ(tile->polys[i].flags & mesh.filter().getExcludeFlags(), 0);
  }
}

TEST(NavMesh, NoNavmeshInsideTheObstacleButInTheOpen) {
  const NavMesh mesh = build_2d(walled_world());
  const glm::vec3 in_wall(10.0f, 0.0f, 10.0f);
  const std::optional<glm::vec3> near_wall = mesh.nearest_point(in_wall);
  if (near_wall) {
    // The navmesh starts at least an agent radius away from the wall's face (0.2 m off).
    EXPECT_GT(horizontal_distance(*near_wall, in_wall), 0.05f);
    EXPECT_GE(horizontal_distance(*near_wall, in_wall), 0.2f + 0.95f * 0.4f);
  }
  for (const glm::vec3 open :
       {glm::vec3(5, 0, 10), glm::vec3(15, 0, 3), glm::vec3(1.5f, 0, 1.5f)}) {
    const std::optional<glm::vec3> p = mesh.nearest_point(open);
    ASSERT_TRUE(p.has_value());
    EXPECT_LT(horizontal_distance(*p, open), 0.05f);
    EXPECT_NEAR(p->y, 0.0f, 0.25f); // Within a cell height or so of the floor.
  }
  // Far outside the world: nothing within the placement extents.
  EXPECT_FALSE(mesh.nearest_point(glm::vec3(-10, 0, -10)).has_value());
}

TEST(NavMesh, PathGoesAroundTheObstacle) {
  const NavMesh mesh = build_2d(walled_world());
  const glm::vec3 from(5, 0, 10), to(15, 0, 10);
  const PathResult path = find_path(mesh, from, to);
  EXPECT_TRUE(path.reached) << "status 0x" << std::hex << path.status;
  // Around the wall's end at z = 18 (or 2): at least 2 x sqrt(5^2 + 8^2).
  EXPECT_GT(path.length, 2.0f * std::sqrt(25.0f + 64.0f) - 0.1f);
}

TEST(NavMesh, PlacementExtentsAndQueries) {
  NavMesh small = build_2d(walled_world(), 0.3f);
  EXPECT_EQ(small.placement_extents(), glm::vec3(1.0f, 1.5f, 1.0f));
  // Large cells: the navmesh edge may lie up to a cell beyond the radius (0.2 + 0.5 m), and
  // the extents reach a cell past that.
  NavmeshBuildSettings coarse;
  coarse.cell_size = 0.5f;
  coarse.agent_radius = 0.2f;
  const NavMesh coarse_mesh = NavMesh::build(geometry_from_2d_world(walled_world()), coarse);
  EXPECT_EQ(coarse_mesh.placement_extents(), glm::vec3(1.2f, 1.5f, 1.2f));
  const NavMesh large = build_2d(walled_world(), 1.0f);
  EXPECT_EQ(large.placement_extents(), glm::vec3(2.0f, 1.5f, 2.0f));
  NavQueryPtr query = small.make_query(128);
  EXPECT_NE(query, nullptr);
  EXPECT_THROW(small.make_query(0), NavmeshError);
  // Below 4 nodes Detour's node hash has no bucket: refused rather than read past.
  EXPECT_THROW(small.make_query(NavMesh::kMinQueryNodes - 1), NavmeshError);
  EXPECT_THROW(small.make_query(NavMesh::kMaxQueryNodes + 1), NavmeshError);
  {
    NavQueryPtr tiny = small.make_query(NavMesh::kMinQueryNodes);
    const dtQueryFilter& filter = small.filter();
    const float from[3] = {2.0f, 0.0f, 2.0f}, to[3] = {18.0f, 0.0f, 18.0f};
    const float half[3] = {1.0f, 1.5f, 1.0f};
    dtPolyRef start = 0, goal = 0;
    float start_pt[3], goal_pt[3];
    ASSERT_TRUE(dtStatusSucceed(tiny->findNearestPoly(from, half, &filter, &start, start_pt)));
    ASSERT_TRUE(dtStatusSucceed(tiny->findNearestPoly(to, half, &filter, &goal, goal_pt)));
    dtPolyRef path[64];
    int count = 0;
    tiny->findPath(start, goal, start_pt, goal_pt, &filter, path, &count, 64);
    EXPECT_GT(count, 0); // a partial path at worst, out of nodes
  }
  // Moving keeps the Detour mesh.
  NavMesh moved = std::move(small);
  EXPECT_TRUE(moved.nearest_point(glm::vec3(5, 0, 10)).has_value());
}

// --- Clearance: the navmesh keeps agent discs off the obstacles ----------------------------

struct ClearanceCase {
  const char* name;
  WorldSpec world;
};

std::vector<ClearanceCase> clearance_worlds() {
  std::vector<ClearanceCase> cases;
  const float diagonal = 0.785398f; // 45 degrees
  // Thin walls (0.2 m) at 0, 26.6 (slope 1/2, the worst angle of Recast's 2-3 chamfer
  // distance), 45 and 60 degrees; off-grid bounds so no edge falls on a cell boundary.
  for (const float angle : {0.0f, 0.4636476f, diagonal, 1.0471976f}) {
    cases.push_back({"thin wall", world_2d({0.13f, 0.07f}, {20.21f, 16.37f},
                                           {rotated_rect({10.07f, 8.11f}, 5.0f, 0.1f, angle)})});
  }
  // Rotated squares at several angles and sub-cell offsets.
  for (int i = 0; i < 6; ++i) {
    const float f = static_cast<float>(i);
    cases.push_back(
        {"rotated square",
         world_2d(
             {0, 0}, {20, 16},
             {rotated_rect({6.0f + 0.07f * f, 8.0f + 0.11f * f}, 1.5f, 1.5f, diagonal + 0.1f * f),
              rotated_rect({14.0f - 0.13f * f, 7.0f + 0.05f * f}, 1.0f, 1.0f, 0.3f * f)})});
  }
  // Grids of small square pillars (their corners are the hardest case), at sub-cell offsets.
  for (int i = 0; i < 4; ++i) {
    std::vector<Polygon2D> pillars;
    const float offset = 0.0731f * static_cast<float>(i);
    for (int gx = 0; gx < 5; ++gx) {
      for (int gz = 0; gz < 4; ++gz) {
        const glm::vec2 c(3.0f + 3.3f * static_cast<float>(gx) + offset,
                          3.0f + 3.3f * static_cast<float>(gz) + 0.7f * offset);
        pillars.push_back(rotated_rect(c, 0.25f, 0.25f, 0.0f));
      }
    }
    cases.push_back({"pillar grid", world_2d({0, 0}, {20.5f, 16.5f}, pillars)});
  }
  // Convex corners on cell corners, the worst case of Recast's chamfer erosion (it keeps the
  // cell diagonal to the corner although that is nearer than the radius), and where contour
  // simplification cuts the arc round the corner. Cell size 0.3 m, grid origin 0, corners
  // facing in two diagonal directions.
  std::vector<Polygon2D> corner_pillars;
  const float cs = NavmeshBuildSettings{}.cell_size;
  for (int i = 0; i < 4; ++i) {
    const float x = cs * static_cast<float>(10 + 15 * i), z = cs * 25.0f;
    corner_pillars.push_back({{x - 0.59f, z - 0.59f}, {x, z - 0.59f}, {x, z}, {x - 0.59f, z}});
    const float z2 = z + 3.0f;
    corner_pillars.push_back({{x, z2}, {x + 0.59f, z2}, {x + 0.59f, z2 + 0.59f}, {x, z2 + 0.59f}});
  }
  cases.push_back(
      {"pillar corners at cell corners", world_2d({0, 0}, {20.1f, 15.9f}, corner_pillars)});
  return cases;
}

TEST(NavMeshClearance, DiscsStayClearOfObstaclesAndBounds) {
  // Radii at 0.3 m cells: RecastDemo-like sizes, exact cell multiples (0.3, 0.6, 0.9 m, where
  // cells at exactly the radius are kept), and the radii just below what whole cells of
  // Recast's own erosion guaranteed at a corner (0.42, 0.67 m), which the erosion before
  // FloorPlanClearance had to round up to.
  float worst_ratio = std::numeric_limits<float>::max();
  for (const float radius : {0.25f, 0.3f, 0.31f, 0.4f, 0.42f, 0.5f, 0.6f, 0.67f, 0.75f, 0.9f}) {
    float worst = std::numeric_limits<float>::max();
    for (const ClearanceCase& c : clearance_worlds()) {
      SCOPED_TRACE(std::string(c.name) + ", radius " + std::to_string(radius));
      const NavMesh mesh = build_2d(c.world, radius);
      const float clearance = min_clearance(mesh, c.world);
      EXPECT_GE(clearance, 0.95f * radius);
      worst = std::min(worst, clearance);
    }
    worst_ratio = std::min(worst_ratio, worst / radius);
    std::cout << "[ clearance ] radius " << radius << " m: minimum clearance " << worst << " m ("
              << worst / radius << " x radius)\n";
  }
  RecordProperty("min_clearance_ratio", std::to_string(worst_ratio));
}

// A mesh world has no floor plan: the clearance is measured from the cells where the floor
// ends (GridClearance), whole cells that hold the wall, so the navmesh keeps at least the
// radius from the real wall, less the contour check's sampling (a sixteenth of a cell).
TEST(NavMeshClearance, MeshWallsKeepTheRadius) {
  for (const float cell : {0.0f, 0.3f}) { // 0: the default, half the radius.
    for (const float radius : {0.25f, 0.4f, 0.5f, 0.9f}) {
      float worst = std::numeric_limits<float>::max();
      for (const ClearanceCase& c : clearance_worlds()) {
        SCOPED_TRACE(std::string(c.name) + ", radius " + std::to_string(radius) + ", cell " +
                     std::to_string(cell));
        // The same world as a mesh: the floor, and each obstacle a 2 m block (sides and top).
        InputGeometry g;
        const glm::vec2 lo = c.world.bounds->min, hi = c.world.bounds->max;
        g.vertices = {{lo.x, 0, lo.y}, {lo.x, 0, hi.y}, {hi.x, 0, hi.y}, {hi.x, 0, lo.y}};
        g.triangles = {{0, 1, 2}, {0, 2, 3}};
        for (const Polygon2D& obstacle : c.world.obstacles) {
          const int base = static_cast<int>(g.vertices.size());
          const int n = static_cast<int>(obstacle.size());
          for (const glm::vec2 p : obstacle) {
            g.vertices.emplace_back(p.x, 0.0f, p.y);
          }
          for (const glm::vec2 p : obstacle) {
            g.vertices.emplace_back(p.x, 2.0f, p.y);
          }
          for (int i = 0; i < n; ++i) {
            const int j = (i + 1) % n;
            g.triangles.emplace_back(base + i, base + n + j, base + j);
            g.triangles.emplace_back(base + i, base + n + i, base + n + j);
          }
          for (int i = 1; i + 1 < n; ++i) {
            g.triangles.emplace_back(base + n, base + n + i, base + n + i + 1);
          }
        }
        g.walkable.assign(g.triangles.size(), 1);
        g.update_bounds();
        NavmeshBuildSettings settings;
        settings.agent_radius = radius;
        settings.cell_size = cell > 0.0f ? cell : radius / 2.0f;
        const NavMesh mesh = NavMesh::build(g, settings);
        // The floor's navmesh only (the blocks' tops are walkable islands 2 m up).
        float clearance = std::numeric_limits<float>::max();
        for (const WallSegment& s : mesh.boundary_segments()) {
          if (s.p.y > 1.0f) {
            continue;
          }
          for (const glm::vec2 p : {xz(s.p), xz(s.q)}) {
            clearance = std::min({clearance, p.x - lo.x, hi.x - p.x, p.y - lo.y, hi.y - p.y});
          }
          for (const Polygon2D& obstacle : c.world.obstacles) {
            clearance = std::min(clearance, segment_polygon_distance(xz(s.p), xz(s.q), obstacle));
          }
        }
        EXPECT_GE(clearance, radius - settings.cell_size / 16.0f - 1e-3f);
        worst = std::min(worst, clearance);
      }
      std::cout << "[ clearance ] mesh, radius " << radius << " m, cell "
                << (cell > 0.0f ? cell : radius / 2.0f) << " m: minimum clearance " << worst
                << " m (" << worst / radius << " x radius)\n";
    }
  }
}

// --- Boundary segments -----------------------------------------------------------------------

TEST(NavMesh, BoundarySegmentsMatchDetourWallsAndFaceTheWalkableSide) {
  WorldSpec world = walled_world();
  world.obstacles.push_back(rotated_rect({4, 5}, 1.0f, 1.0f, 0.5f));
  const NavMesh mesh = build_2d(world);
  NavQueryPtr query = mesh.make_query();
  const dtNavMesh& nav = mesh.detour();
  const dtMeshTile* tile = nav.getTile(0);
  const dtPolyRef base = nav.getPolyRefBase(tile);

  std::vector<WallSegment> from_detour;
  int checked = 0;
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const dtPoly& poly = tile->polys[i];
    glm::vec3 centroid(0.0f);
    for (int v = 0; v < poly.vertCount; ++v) {
      const float* p = &tile->verts[3 * poly.verts[v]];
      centroid += glm::vec3(p[0], p[1], p[2]);
    }
    centroid /= static_cast<float>(poly.vertCount);

    float segments[6 * DT_VERTS_PER_POLYGON * 3];
    int count = 0;
    ASSERT_TRUE(dtStatusSucceed(query->getPolyWallSegments(base | static_cast<dtPolyRef>(i),
                                                           &mesh.filter(), segments, nullptr,
                                                           &count, DT_VERTS_PER_POLYGON * 3)));
    for (int k = 0; k < count; ++k) {
      const float* s = &segments[6 * k];
      const WallSegment w{{s[0], s[1], s[2]}, {s[3], s[4], s[5]}};
      from_detour.push_back(w);
      // Header claim: walkable space (here the polygon's centroid, strictly inside the convex
      // polygon) is on the side where dtTriArea2D(inside, p, q) >= 0.
      EXPECT_GT(tri_area_2d(centroid, w.p, w.q), 0.0f);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  const std::vector<WallSegment>& ours = mesh.boundary_segments();
  ASSERT_EQ(ours.size(), from_detour.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i].p, from_detour[i].p);
    EXPECT_EQ(ours[i].q, from_detour[i].q);
  }
  // And an agent standing next to a wall segment, just inside, sees it from the front
  // (DetourCrowd skips segments with dtTriArea2D(agent, p, q) < 0).
  for (const WallSegment& w : ours) {
    const glm::vec3 mid = 0.5f * (w.p + w.q);
    const glm::vec2 dir = glm::normalize(xz(w.q) - xz(w.p));
    // Left of p -> q seen from above in x/z with dtTriArea2D's sign: the normal (dir.y, -dir.x).
    const glm::vec3 probe = mid + 0.05f * glm::vec3(dir.y, 0.0f, -dir.x);
    const std::optional<glm::vec3> on = mesh.nearest_point(probe);
    ASSERT_TRUE(on.has_value());
    EXPECT_LT(horizontal_distance(*on, probe), 1e-3f) << "probe beside a wall is off the mesh";
  }
}

// --- Errors ----------------------------------------------------------------------------------

TEST(NavMesh, ObstacleCoveringTheFloorIsAnError) {
  const WorldSpec world = world_2d({0, 0}, {10, 10}, {{{-1, -1}, {11, -1}, {11, 11}, {-1, 11}}});
  try {
    build_2d(world);
    FAIL() << "no error";
  } catch (const NavmeshError& e) {
    EXPECT_NE(std::string(e.what()).find("the world has no walkable area"), std::string::npos)
        << e.what();
  }
}

TEST(NavMesh, TooSteepMeshIsAnError) {
  InputGeometry g;
  g.vertices = {{0, 0, 0}, {0, 10, 10}, {10, 10, 10}, {10, 0, 0}}; // 45 degrees
  g.triangles = {{0, 1, 2}, {0, 2, 3}};
  g.walkable = {1, 1};
  g.update_bounds();
  NavmeshBuildSettings settings;
  settings.max_slope = 30.0f;
  EXPECT_THROW(NavMesh::build(g, settings), NavmeshError);
}

TEST(NavMesh, GridTooLargeIsAnError) {
  const WorldSpec world = world_2d({0, 0}, {5000, 4000}, {});
  try {
    build_2d(world);
    FAIL() << "no error";
  } catch (const NavmeshError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("world of 5000 x 4000 m at cell_size 0.3 needs"), std::string::npos)
        << what;
    EXPECT_NE(what.find("raise cell_size"), std::string::npos) << what;
  }
}

TEST(NavMesh, InvalidSettingsAreAnError) {
  NavmeshBuildSettings settings;
  settings.cell_size = 0.0f;
  EXPECT_THROW(NavMesh::build(geometry_from_2d_world(walled_world()), settings), NavmeshError);
}

// --- Mesh worlds ---------------------------------------------------------------------------

class NavMeshObj : public ::testing::Test {
protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("crowd_navmesh_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }
  fs::path dir_;
};

// A 20 x 12 m floor; a 1.2 m high platform at x in [14, 20] reached by a ramp from x = 6 to
// x = 14 (8.5 degrees), 4 m wide, z in [4, 8].
constexpr const char* kRampObj = R"(# floor, ramp and platform
v 0 0 0
v 0 0 12
v 14 0 12
v 14 0 0
f 1 2 3 4
# platform box: bottom 5-8, top 9-12
v 14 0 0
v 14 0 12
v 20 0 12
v 20 0 0
v 14 1.2 0
v 14 1.2 12
v 20 1.2 12
v 20 1.2 0
f 9 10 11 12
f 5 9 12 8
f 6 7 11 10
f 5 6 10 9
f 8 12 11 7
# ramp: a wedge against the platform's west side
v 6 0 4
v 6 0 8
v 14 1.2 8
v 14 1.2 4
v 14 0 4
v 14 0 8
f -6 -5 -4 -3
f -6 -3 -2
f -5 -1 -4
)";

// Recast's surface lies up to a cell height above the geometry (span tops are rounded up to
// whole cells) plus the detail mesh's sampling error (1 cell height here).
void expect_surface_height(float navmesh_y, float geometry_y) {
  EXPECT_GE(navmesh_y, geometry_y - 0.05f);
  EXPECT_LE(navmesh_y, geometry_y + 2.0f * NavmeshBuildSettings{}.cell_height + 0.05f);
}

TEST_F(NavMeshObj, RampAndPlatformAreWalkable) {
  const fs::path obj = write("ramp.obj", kRampObj);
  const NavMesh mesh =
      NavMesh::build(load_obj(obj, "scene.json", "world.mesh"), NavmeshBuildSettings{});
  const std::optional<glm::vec3> top = mesh.nearest_point(glm::vec3(17, 1.5f, 6));
  ASSERT_TRUE(top.has_value());
  expect_surface_height(top->y, 1.2f);
  EXPECT_LT(horizontal_distance(*top, glm::vec3(17, 0, 6)), 0.05f);
  // Halfway up the ramp the surface is at 0.6 m.
  const std::optional<glm::vec3> ramp = mesh.nearest_point(glm::vec3(10, 0.6f, 6));
  ASSERT_TRUE(ramp.has_value());
  expect_surface_height(ramp->y, 0.6f);
  // From the floor up the ramp to the platform.
  const PathResult path = find_path(mesh, glm::vec3(3, 0, 2), glm::vec3(18, 1.2f, 10));
  EXPECT_TRUE(path.reached);
}

TEST(NavMeshPlaza, SampleMeshBuildsWithAReachablePlatformAndUnreachableBlocks) {
  const fs::path obj = fs::path(CROWD_SOURCE_DIR) / "samples/scenarios/meshes/plaza.obj";
  const InputGeometry g = load_obj(obj, "plaza.json", "world.mesh");
  EXPECT_NEAR(g.bounds_max.x - g.bounds_min.x, 40.0f, 1e-3f);
  EXPECT_NEAR(g.bounds_max.z - g.bounds_min.z, 30.0f, 1e-3f);
  const NavMesh mesh = NavMesh::build(g, NavmeshBuildSettings{});
  // The platform top (1.5 m) is on the navmesh and reachable from the floor by the ramp.
  const std::optional<glm::vec3> top = mesh.nearest_point(glm::vec3(33, 1.5f, 9));
  ASSERT_TRUE(top.has_value());
  expect_surface_height(top->y, 1.5f);
  EXPECT_TRUE(find_path(mesh, glm::vec3(3, 0, 3), glm::vec3(33, 1.5f, 9)).reached);
  // Across the plaza, around the blocks.
  EXPECT_TRUE(find_path(mesh, glm::vec3(3, 0, 3), glm::vec3(36, 0, 27)).reached);
  // The tops of the 2.5 m blocks are flat but out of reach (max_climb 0.9 m).
  EXPECT_FALSE(find_path(mesh, glm::vec3(3, 0, 3), glm::vec3(14, 2.5f, 22)).reached);
}

// --- Building from a scenario ----------------------------------------------------------------

TEST(NavMeshScenario, DefaultsTheRadiusToTheLargestAgent) {
  Scenario scenario;
  scenario.file = "scene.json";
  scenario.world = walled_world();
  ExplicitAgentSpec agent;
  agent.params.radius = 0.55f;
  scenario.agents.push_back(agent);
  EXPECT_FLOAT_EQ(NavMesh::build(scenario).settings().agent_radius, 0.55f);
  scenario.world.navmesh.agent_radius = 0.3f;
  scenario.world.navmesh.cell_size = 0.25f;
  const NavMesh mesh = NavMesh::build(scenario);
  EXPECT_FLOAT_EQ(mesh.settings().agent_radius, 0.3f);
  EXPECT_FLOAT_EQ(mesh.settings().cell_size, 0.25f);
}

// Regression: a scenario's world that gives no navmesh was a NavmeshError, which `crowd run`
// printed with the file but without a JSON path.
TEST(NavMeshScenario, WorldWithoutANavmeshIsAScenarioErrorAtWorld) {
  Scenario covered;
  covered.file = "covered.json";
  covered.world.bounds = WorldSpec::Bounds2D{{0, 0}, {10, 10}};
  covered.world.obstacles.push_back({{-1, -1}, {11, -1}, {11, 11}, {-1, 11}});
  Scenario huge;
  huge.file = "huge.json";
  huge.world.bounds = WorldSpec::Bounds2D{{0, 0}, {5000, 4000}};
  for (const auto& [scenario, problem] :
       {std::pair{covered, "the world has no walkable area"},
        std::pair{huge, "world of 5000 x 4000 m at cell_size 0.3 needs"}}) {
    try {
      NavMesh::build(scenario);
      ADD_FAILURE() << "no error for " << scenario.file;
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.file(), scenario.file.string());
      EXPECT_EQ(e.json_path(), "world");
      EXPECT_NE(e.problem().find(problem), std::string::npos) << e.what();
    }
  }
}

TEST(NavMeshScenario, MissingMeshNamesTheScenario) {
  Scenario scenario;
  scenario.file = "scene.json";
  scenario.world.mesh = "/nonexistent/level.obj";
  try {
    NavMesh::build(scenario);
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("scene.json"), std::string::npos) << what;
    EXPECT_NE(what.find("world.mesh"), std::string::npos) << what;
    EXPECT_NE(what.find("file not found: /nonexistent/level.obj"), std::string::npos) << what;
  }
}

} // namespace
} // namespace crowd
