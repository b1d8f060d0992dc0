#include "host/paths/walking_direction.h"

#include "host/navmesh/nearest_polygon.h"

#include <DetourNavMeshQuery.h>
#include <array>
#include <cmath>

namespace crowd {

std::optional<glm::vec2> walking_direction(const NavMesh& navmesh, dtNavMeshQuery& query,
                                           const glm::vec3& from, const glm::vec3& to) {
  constexpr int kMaxPath = 64;   // polygons; a partial path still gives the first corner
  constexpr int kMaxCorners = 3; // the start, the first corner, one more
  constexpr float kSamePlace = 0.01f;
  const dtQueryFilter& filter = navmesh.filter();
  const glm::vec3 extents = navmesh.placement_extents();
  glm::vec3 start{0.0f}, end{0.0f};
  dtPolyRef start_ref = 0;
  if (dtStatusFailed(query.findNearestPoly(&from.x, &extents.x, &filter, &start_ref, &start.x)) ||
      start_ref == 0)
    return std::nullopt;
  const dtPolyRef end_ref = nearest_polygon_anywhere(navmesh, query, to, extents, end);
  if (end_ref == 0)
    return std::nullopt;
  std::array<dtPolyRef, kMaxPath> path{};
  int path_count = 0;
  if (dtStatusFailed(query.findPath(start_ref, end_ref, &start.x, &end.x, &filter, path.data(),
                                    &path_count, kMaxPath)) ||
      path_count == 0)
    return std::nullopt;
  // A partial path ends short of the goal: head for the nearest point of its last polygon.
  if (path[static_cast<std::size_t>(path_count - 1)] != end_ref &&
      dtStatusFailed(query.closestPointOnPoly(path[static_cast<std::size_t>(path_count - 1)],
                                              &end.x, &end.x, nullptr)))
    return std::nullopt;
  std::array<float, 3 * kMaxCorners> corners{};
  int corner_count = 0;
  if (dtStatusFailed(query.findStraightPath(&start.x, &end.x, path.data(), path_count,
                                            corners.data(), nullptr, nullptr, &corner_count,
                                            kMaxCorners)))
    return std::nullopt;
  for (int c = 0; c < corner_count; ++c) {
    const glm::vec2 d{corners[static_cast<std::size_t>(3 * c)] - from.x,
                      corners[static_cast<std::size_t>(3 * c + 2)] - from.z};
    const float length = std::sqrt(d.x * d.x + d.y * d.y);
    if (length > kSamePlace)
      return d / length;
  }
  return std::nullopt;
}

} // namespace crowd
