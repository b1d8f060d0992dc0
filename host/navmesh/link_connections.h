// Whether the off-mesh links built into a navmesh (InputGeometry::links) took: Detour connects
// each end of a link to the nearest polygon within the link's radius when the tiles are added
// (dtNavMesh::baseOffMeshLinks, connectExtOffMeshLinks), and silently leaves an end with none
// unconnected, which makes the link useless. The scenario reader's caller names such a link.
#pragma once

#include <optional>

class dtNavMesh;

namespace crowd {

/// How many off-mesh connections the navmesh's tiles hold.
int off_mesh_connection_count(const dtNavMesh& navmesh);

/// An end of a link that is not connected to the navmesh.
struct UnconnectedLinkEnd {
  int link = 0;     ///< Its index in InputGeometry::links (the connection's user id).
  bool end = false; ///< false: its start; true: its end.
};

/// The first end, in link order (start before end), of links 0 .. link_count - 1 that the
/// navmesh did not connect; nothing when every one is connected.
std::optional<UnconnectedLinkEnd> first_unconnected_link_end(const dtNavMesh& navmesh,
                                                             int link_count);

} // namespace crowd
