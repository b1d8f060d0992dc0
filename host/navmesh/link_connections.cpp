#include "host/navmesh/link_connections.h"

#include <DetourNavMesh.h>
#include <vector>

namespace crowd {

int off_mesh_connection_count(const dtNavMesh& navmesh) {
  int count = 0;
  for (int t = 0; t < navmesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = navmesh.getTile(t);
    if (tile != nullptr && tile->header != nullptr)
      count += tile->header->offMeshConCount;
  }
  return count;
}

std::optional<UnconnectedLinkEnd> first_unconnected_link_end(const dtNavMesh& navmesh,
                                                             int link_count) {
  // Per link: its start connected (bit 0), its end connected (bit 1).
  std::vector<unsigned char> connected(static_cast<std::size_t>(link_count), 0);
  for (int t = 0; t < navmesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = navmesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr)
      continue;
    for (int c = 0; c < tile->header->offMeshConCount; ++c) {
      const dtOffMeshConnection& con = tile->offMeshCons[c];
      if (con.userId >= static_cast<unsigned int>(link_count))
        continue;
      const dtPoly& poly = tile->polys[con.poly];
      // Detour's link from the connection's polygon to the ground: edge 0 at its start, 1 at
      // its end.
      for (unsigned int k = poly.firstLink; k != DT_NULL_LINK; k = tile->links[k].next)
        if (tile->links[k].edge <= 1)
          connected[con.userId] |= static_cast<unsigned char>(1u << tile->links[k].edge);
    }
  }
  for (int k = 0; k < link_count; ++k) {
    const unsigned char bits = connected[static_cast<std::size_t>(k)];
    if ((bits & 1u) == 0)
      return UnconnectedLinkEnd{k, false};
    if ((bits & 2u) == 0)
      return UnconnectedLinkEnd{k, true};
  }
  return std::nullopt;
}

} // namespace crowd
