#include "host/paths/portal_table.h"

#include <DetourCommon.h>

namespace crowd {
void portal_points(const dtMeshTile& tile, const dtPoly& poly, const dtLink& link, float* left,
                   float* right) {
  const float* v0 = &tile.verts[poly.verts[link.edge] * 3];
  const float* v1 = &tile.verts[poly.verts[(link.edge + 1) % static_cast<int>(poly.vertCount)] * 3];
  dtVcopy(left, v0);
  dtVcopy(right, v1);
  if (link.side != 0xff && (link.bmin != 0 || link.bmax != 255)) {
    const float s = 1.0f / 255.0f;
    dtVlerp(left, v0, v1, link.bmin * s);
    dtVlerp(right, v0, v1, link.bmax * s);
  }
}

PortalTable::PortalTable(const dtNavMesh& navmesh) : polygons_(navmesh) {
  const auto count = static_cast<std::size_t>(polygons_.size());
  start_.assign(count + 1, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.getTileAndPolyByRefUnsafe(polygons_.ref_of(static_cast<int>(i)), &tile, &poly);
    if (poly->getType() == DT_POLYTYPE_GROUND) {
      for (unsigned int k = poly->firstLink; k != DT_NULL_LINK; k = tile->links[k].next) {
        const dtLink& link = tile->links[k];
        const dtMeshTile* to_tile = nullptr;
        const dtPoly* to_poly = nullptr;
        if (link.ref == 0 ||
            dtStatusFailed(navmesh.getTileAndPolyByRef(link.ref, &to_tile, &to_poly)) ||
            to_poly->getType() != DT_POLYTYPE_GROUND)
          continue;
        NavPortal portal;
        portal.to = polygons_.index_of(link.ref);
        portal_points(*tile, *poly, link, portal.left, portal.right);
        portals_.push_back(portal);
      }
    }
    start_[i + 1] = static_cast<std::int32_t>(portals_.size());
  }
}

std::size_t PortalTable::memory_bytes() const {
  return polygons_.memory_bytes() + start_.capacity() * sizeof(std::int32_t) +
         portals_.capacity() * sizeof(NavPortal);
}

} // namespace crowd
