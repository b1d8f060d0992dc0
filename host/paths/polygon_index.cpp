#include "host/paths/polygon_index.h"

namespace crowd {

PolygonIndex::PolygonIndex(const dtNavMesh& navmesh) : navmesh_(&navmesh) {
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
}

} // namespace crowd
