// The direction an agent is about to walk: toward the first corner of its path.
#pragma once

#include "host/navmesh/navmesh.h"

#include <glm/glm.hpp>
#include <optional>

namespace crowd {

/// The ground direction (x, z), unit length, from `from` toward the first corner of the
/// navmesh path to `to` (findPath, then findStraightPath's first corner further than 1 cm),
/// through `query` (its node pool bounds the search: a partial path still points the way).
/// Nothing when either point has no navmesh near it or `to` is where `from` is.
std::optional<glm::vec2> walking_direction(const NavMesh& navmesh, dtNavMeshQuery& query,
                                           const glm::vec3& from, const glm::vec3& to);

} // namespace crowd
