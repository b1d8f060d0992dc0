// The polygon nearest to a goal, however far off the navmesh the goal is.
#pragma once

#include "host/navmesh/navmesh.h"

#include <DetourNavMesh.h>

namespace crowd {

/// findNearestPoly with `first_extents`, then with extents growing fourfold until they span
/// the whole navmesh. The spec (scenario.md, Errors) has an agent whose goal cannot be reached
/// walk to the nearest reachable point, so a goal out in the void must still give it a polygon
/// to walk to. Writes the nearest point on that polygon to `nearest`; returns 0 only when the
/// navmesh has no polygon `filter` (default: the navmesh's) lets through.
dtPolyRef nearest_polygon_anywhere(const NavMesh& navmesh, const dtNavMeshQuery& query,
                                   const glm::vec3& point, const glm::vec3& first_extents,
                                   glm::vec3& nearest, const dtQueryFilter* filter = nullptr);

} // namespace crowd
