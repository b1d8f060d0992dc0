#include "host/navmesh/nearest_polygon.h"

#include <DetourNavMeshQuery.h>

namespace crowd {

dtPolyRef nearest_polygon_anywhere(const NavMesh& navmesh, const dtNavMeshQuery& query,
                                   const glm::vec3& point, const glm::vec3& first_extents,
                                   glm::vec3& nearest, const dtQueryFilter* filter) {
  // Far enough to reach every polygon from the point: its distance to the bounds' centre plus
  // the bounds' size, on each axis, and never less than the first extents. (A 2D world without
  // obstacles is flat: its bounds have no height, and the height extent would shrink to 0,
  // missing polygons that lie a cell height above the floor.)
  const glm::vec3 span = navmesh.bounds_max() - navmesh.bounds_min();
  const glm::vec3 centre = 0.5f * (navmesh.bounds_min() + navmesh.bounds_max());
  const glm::vec3 far = glm::max(glm::abs(point - centre) + span, first_extents);
  glm::vec3 extents = first_extents;
  for (;;) {
    dtPolyRef ref = 0;
    const dtStatus status = query.findNearestPoly(
        &point.x, &extents.x, filter != nullptr ? filter : &navmesh.filter(), &ref, &nearest.x);
    if (dtStatusSucceed(status) && ref != 0)
      return ref;
    if (glm::all(glm::greaterThanEqual(extents, far)))
      return 0;
    extents = glm::min(extents * 4.0f, far);
  }
}

} // namespace crowd
