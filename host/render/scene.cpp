#include "host/render/scene.h"

#include "host/render/agent_style.h"

#include <DetourNavMesh.h>
#include <algorithm>

namespace crowd {
namespace {

float cross(glm::vec2 a, glm::vec2 b, glm::vec2 c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

bool inside_triangle(glm::vec2 p, glm::vec2 a, glm::vec2 b, glm::vec2 c) {
  return cross(a, b, p) >= 0.0f && cross(b, c, p) >= 0.0f && cross(c, a, p) >= 0.0f;
}

} // namespace

std::vector<int> triangulate_polygon(const std::vector<glm::vec2>& polygon) {
  std::vector<int> indices;
  std::vector<int> remaining;
  double area = 0.0;
  for (std::size_t k = 0; k < polygon.size(); ++k) {
    remaining.push_back(static_cast<int>(k));
    const glm::vec2 a = polygon[k], b = polygon[(k + 1) % polygon.size()];
    area += static_cast<double>(a.x * b.y - b.x * a.y);
  }
  if (area < 0.0)
    std::reverse(remaining.begin(), remaining.end()); // work counter-clockwise
  const auto at = [&](int k) { return polygon[static_cast<std::size_t>(k)]; };
  while (remaining.size() > 3) {
    bool clipped = false;
    const std::size_t n = remaining.size();
    for (std::size_t k = 0; k < n && !clipped; ++k) {
      const int ia = remaining[(k + n - 1) % n], ib = remaining[k], ic = remaining[(k + 1) % n];
      if (cross(at(ia), at(ib), at(ic)) <= 0.0f)
        continue; // reflex corner
      bool ear = true;
      for (const int other : remaining)
        if (other != ia && other != ib && other != ic &&
            inside_triangle(at(other), at(ia), at(ib), at(ic)))
          ear = false;
      if (!ear)
        continue;
      indices.insert(indices.end(), {ia, ib, ic});
      remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(k));
      clipped = true;
    }
    if (!clipped)
      break; // degenerate input: leave the rest unfilled rather than loop
  }
  if (remaining.size() == 3)
    indices.insert(indices.end(), remaining.begin(), remaining.end());
  return indices;
}

SceneData make_scene(const Scenario& scenario, const NavMesh& navmesh,
                     std::vector<AgentSetup> setups) {
  SceneData scene;
  scene.name = scenario.name;
  scene.dt = scenario.dt;
  scene.setups = std::move(setups);
  scene.bounds_min = {navmesh.bounds_min().x, navmesh.bounds_min().z};
  scene.bounds_max = {navmesh.bounds_max().x, navmesh.bounds_max().z};
  if (scenario.world.bounds) {
    scene.bounds_min = glm::min(scene.bounds_min, scenario.world.bounds->min);
    scene.bounds_max = glm::max(scene.bounds_max, scenario.world.bounds->max);
  }

  scene.navmesh.line_width_pixels = 1.0f;
  const dtNavMesh& mesh = navmesh.detour();
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = mesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr)
      continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      if (poly.getType() != DT_POLYTYPE_GROUND)
        continue;
      std::vector<glm::vec2> outline;
      for (int k = 0; k < poly.vertCount; ++k) {
        const float* v = &tile->verts[poly.verts[k] * 3];
        outline.emplace_back(v[0], v[2]);
      }
      scene.navmesh.add_convex(outline, glm::vec4(palette::kNavmeshFill, 1.0f));
      scene.navmesh.add_outline(outline, glm::vec4(palette::kNavmeshEdge, 1.0f));
    }
  }

  scene.walls.line_width_pixels = 2.0f;
  const glm::vec4 wall(palette::kWall, 1.0f);
  for (const Polygon2D& obstacle : scenario.world.obstacles) {
    const std::vector<int> triangles = triangulate_polygon(obstacle);
    for (std::size_t k = 0; k + 2 < triangles.size(); k += 3)
      scene.walls.add_triangle(obstacle[static_cast<std::size_t>(triangles[k])],
                               obstacle[static_cast<std::size_t>(triangles[k + 1])],
                               obstacle[static_cast<std::size_t>(triangles[k + 2])], wall);
  }
  for (const WallSegment& s : navmesh.boundary_segments())
    scene.walls.add_line({s.p.x, s.p.z}, {s.q.x, s.q.z}, wall);
  return scene;
}

} // namespace crowd
