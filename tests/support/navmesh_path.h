// A path between two points of a navmesh as Detour finds it (findPath, then findStraightPath):
// whether it reaches, its polygons and its string-pulled length.
#pragma once

#include "host/navmesh/navmesh.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <glm/glm.hpp>
#include <vector>

namespace crowd {

struct Path {
  bool reached = false;
  int polygons = 0;
  float length = 0.0f; // Of the straight (string-pulled) path.
};

inline Path find_path(const NavMesh& mesh, glm::vec3 from, glm::vec3 to) {
  NavQueryPtr query = mesh.make_query(8192);
  const glm::vec3 ext = mesh.placement_extents();
  dtPolyRef start = 0, end = 0;
  float start_pos[3], end_pos[3];
  query->findNearestPoly(&from.x, &ext.x, &mesh.filter(), &start, start_pos);
  query->findNearestPoly(&to.x, &ext.x, &mesh.filter(), &end, end_pos);
  Path result;
  if (start == 0 || end == 0) {
    return result;
  }
  constexpr int kMaxPath = 1024;
  std::vector<dtPolyRef> path(kMaxPath);
  const dtStatus status = query->findPath(start, end, start_pos, end_pos, &mesh.filter(),
                                          path.data(), &result.polygons, kMaxPath);
  result.reached = dtStatusSucceed(status) && !dtStatusDetail(status, DT_PARTIAL_RESULT) &&
                   result.polygons > 0 &&
                   path[static_cast<std::size_t>(result.polygons - 1)] == end;
  std::vector<float> straight(3 * kMaxPath);
  int count = 0;
  query->findStraightPath(start_pos, end_pos, path.data(), result.polygons, straight.data(),
                          nullptr, nullptr, &count, kMaxPath);
  for (int i = 1; i < count; ++i) {
    const float* a = &straight[static_cast<std::size_t>(3 * i - 3)];
    const float* b = &straight[static_cast<std::size_t>(3 * i)];
    result.length += glm::length(glm::vec3(b[0], b[1], b[2]) - glm::vec3(a[0], a[1], a[2]));
  }
  return result;
}

} // namespace crowd
