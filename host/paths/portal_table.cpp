#include "host/paths/portal_table.h"

#include <DetourCommon.h>

namespace crowd {
namespace {

// The portal of `link` of a ground polygon, as dtNavMeshQuery::getPortalPoints (private)
// computes it: the link's edge, narrowed to the part a tile-border link covers.
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

} // namespace

PortalTable::PortalTable(const dtNavMesh& navmesh) : navmesh_(navmesh) {
  tile_base_.assign(static_cast<std::size_t>(navmesh.getMaxTiles()), -1);
  for (int t = 0; t < navmesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = navmesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr)
      continue;
    tile_base_[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(refs_.size());
    const dtPolyRef base = navmesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p)
      refs_.push_back(base | static_cast<dtPolyRef>(p));
  }
  start_.assign(refs_.size() + 1, 0);
  for (std::size_t i = 0; i < refs_.size(); ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.getTileAndPolyByRefUnsafe(refs_[i], &tile, &poly);
    if (poly->getType() == DT_POLYTYPE_GROUND) {
      for (unsigned int k = poly->firstLink; k != DT_NULL_LINK; k = tile->links[k].next) {
        const dtLink& link = tile->links[k];
        const dtMeshTile* to_tile = nullptr;
        const dtPoly* to_poly = nullptr;
        if (link.ref == 0 ||
            dtStatusFailed(navmesh.getTileAndPolyByRef(link.ref, &to_tile, &to_poly)) ||
            to_poly->getType() != DT_POLYTYPE_GROUND)
          continue;
        Portal portal;
        portal.to = link.ref;
        portal_points(*tile, *poly, link, portal.left, portal.right);
        portals_.push_back(portal);
      }
    }
    start_[i + 1] = static_cast<std::int32_t>(portals_.size());
  }
}

std::size_t PortalTable::memory_bytes() const {
  return tile_base_.capacity() * sizeof(std::int32_t) + refs_.capacity() * sizeof(dtPolyRef) +
         start_.capacity() * sizeof(std::int32_t) + portals_.capacity() * sizeof(Portal);
}

} // namespace crowd
