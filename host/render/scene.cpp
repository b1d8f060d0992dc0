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

// An arrowhead at `tip`, pointing along `direction` (unit), 0.35 m long.
void add_arrowhead(ShapeLayer& layer, glm::vec2 tip, glm::vec2 direction, glm::vec4 colour) {
  const glm::vec2 back = tip - 0.35f * direction;
  const glm::vec2 side = 0.18f * glm::vec2(-direction.y, direction.x);
  layer.add_line(tip, back + side, colour);
  layer.add_line(tip, back - side, colour);
}

// The off-mesh connections of every tile (dtMeshTile::offMeshCons), as DetourDebugDraw's
// duDebugDrawNavMesh shows them: the way across, its direction, and the trigger radius (an
// agent takes the link within 2.25 of its radii of the start; the circle is the connection's
// own radius, within which the link's ends were connected to the navmesh).
void add_off_mesh_links(const dtNavMesh& mesh, ShapeLayer& layer) {
  layer.line_width_pixels = 2.0f;
  const glm::vec4 colour(palette::kOffMeshLink, 1.0f);
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = mesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr)
      continue;
    for (int k = 0; k < tile->header->offMeshConCount; ++k) {
      const dtOffMeshConnection& link = tile->offMeshCons[k];
      const glm::vec2 start(link.pos[0], link.pos[2]), end(link.pos[3], link.pos[5]);
      layer.add_line(start, end, colour);
      layer.add_circle(start, link.rad, colour, 16);
      layer.add_circle(end, link.rad, colour, 16);
      const float length = glm::length(end - start);
      if (!(length > 0.0f))
        continue;
      const glm::vec2 along = (end - start) / length;
      add_arrowhead(layer, end, along, colour);
      if (link.flags & DT_OFFMESH_CON_BIDIR)
        add_arrowhead(layer, start, -along, colour);
    }
  }
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
  add_off_mesh_links(mesh, scene.links);
  scene.obstacles = obstacle_timeline(scenario);
  return scene;
}

void add_standing_obstacles(const SceneData& scene, double time, ShapeLayer& layer) {
  layer.line_width_pixels = 2.0f;
  const glm::vec4 wall(palette::kWall, 1.0f);
  for (const TimedObstacle& obstacle : scene.obstacles) {
    if (!obstacle.stands_at(time))
      continue;
    layer.add_convex(obstacle.outline, wall);
    layer.add_outline(obstacle.outline, wall);
  }
}

} // namespace crowd
