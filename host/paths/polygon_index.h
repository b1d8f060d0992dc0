// Dense indices 0..n-1 for the polygons of a navmesh, tile by tile in polygon order, and
// back: the index by which the path trees (path_tree.h) and the portal table (portal_table.h)
// keep their per-polygon arrays.
#pragma once

#include <DetourNavMesh.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd {

class PolygonIndex {
public:
  explicit PolygonIndex(const dtNavMesh& navmesh);

  int size() const { return static_cast<int>(refs_.size()); }
  dtPolyRef ref_of(int index) const { return refs_[static_cast<std::size_t>(index)]; }
  /// Dense index of a polygon, or -1 when the reference is 0, stale or not of this navmesh.
  int index_of(dtPolyRef ref) const {
    if (ref == 0)
      return -1;
    unsigned int salt = 0, tile = 0, poly = 0;
    navmesh_->decodePolyId(ref, salt, tile, poly);
    if (tile >= tile_base_.size() || tile_base_[tile] < 0)
      return -1;
    const std::size_t index = static_cast<std::size_t>(tile_base_[tile]) + poly;
    if (index >= refs_.size() || refs_[index] != ref)
      return -1;
    return static_cast<int>(index);
  }

  std::size_t memory_bytes() const {
    return tile_base_.capacity() * sizeof(std::int32_t) + refs_.capacity() * sizeof(dtPolyRef);
  }

private:
  const dtNavMesh* navmesh_;
  std::vector<std::int32_t> tile_base_; ///< Dense index of each tile's first polygon, -1: none.
  std::vector<dtPolyRef> refs_;         ///< Reference of each dense index.
};

} // namespace crowd
