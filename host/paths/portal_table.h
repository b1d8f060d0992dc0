// The portal of every navmesh link, looked up once when the navmesh is loaded instead of on
// every straight-path query. dtNavMeshQuery::getPortalPoints walks the polygon's link chain
// and decodes both references for each portal it is asked for; findStraightPath asks for
// every portal of the corridor on every step, which made it the largest single cost of a step
// (about a quarter of the instructions at 4,000 agents).
#pragma once

#include "host/paths/polygon_index.h"

#include <DetourNavMesh.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd {

/// The portal of `link`, a link of the ground polygon `poly` of `tile`, as
/// dtNavMeshQuery::getPortalPoints (private there) computes it: the link's edge, narrowed to
/// the part a tile-border link covers. Writes float[3] `left` and `right`.
void portal_points(const dtMeshTile& tile, const dtPoly& poly, const dtLink& link, float* left,
                   float* right);

class PortalTable {
public:
  struct Portal {
    dtPolyRef to = 0;
    std::int32_t to_index = -1; ///< dense index of `to`
    float left[3] = {0.0f, 0.0f, 0.0f};
    float right[3] = {0.0f, 0.0f, 0.0f};
  };

  /// Every link between two ground polygons of `navmesh`, with its portal computed as
  /// dtNavMeshQuery::getPortalPoints does. Off-mesh connections are left out (their portals
  /// are points): a lookup for them fails.
  explicit PortalTable(const dtNavMesh& navmesh);

  /// The portal from polygon `from` into `to` (the first link of `from` to `to`, as
  /// getPortalPoints finds it), or nullptr when there is none in the table.
  const Portal* find(dtPolyRef from, dtPolyRef to) const {
    return find_from(polygons_.index_of(from), to);
  }

  /// find(from, to) with `from` given by its dense index (index_of, or a portal's to_index):
  /// a path's portals are looked up one after the other, each from where the last one led.
  const Portal* find_from(int from, dtPolyRef to) const {
    if (from < 0)
      return nullptr;
    const auto index = static_cast<std::size_t>(from);
    const auto end = static_cast<std::size_t>(start_[index + 1]);
    for (auto k = static_cast<std::size_t>(start_[index]); k < end; ++k) {
      if (portals_[k].to == to)
        return &portals_[k];
    }
    return nullptr;
  }

  /// Dense index of a polygon, or -1 (PolygonIndex::index_of).
  int index_of(dtPolyRef ref) const { return polygons_.index_of(ref); }

  std::size_t memory_bytes() const;

private:
  PolygonIndex polygons_;
  std::vector<std::int32_t> start_; ///< Portals of polygon p: [start_[p], start_[p + 1]).
  std::vector<Portal> portals_;
};

} // namespace crowd
