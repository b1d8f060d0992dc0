// The portal of every navmesh link, looked up once when the navmesh is loaded instead of on
// every straight-path query. dtNavMeshQuery::getPortalPoints walks the polygon's link chain
// and decodes both references for each portal it is asked for; findStraightPath asks for
// every portal of the corridor on every step, which made it the largest single cost of a step
// (about a quarter of the instructions at 4,000 agents).
#pragma once

#include "cuda/kernels/navmesh_tables.h"
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
  /// Every link between two ground polygons of `navmesh`, with its portal computed as
  /// dtNavMeshQuery::getPortalPoints does. Off-mesh connections are left out (their portals
  /// are points): a lookup for them fails.
  explicit PortalTable(const dtNavMesh& navmesh);

  /// The portal from polygon `from` into `to` (the first link of `from` to `to`, as
  /// getPortalPoints finds it), or nullptr when there is none in the table.
  const NavPortal* find(dtPolyRef from, dtPolyRef to) const {
    const int to_index = polygons_.index_of(to);
    return to_index < 0 ? nullptr : view_of(polygons_.index_of(from), to_index);
  }

  /// Dense index of a polygon, or -1 (PolygonIndex::index_of).
  int index_of(dtPolyRef ref) const { return polygons_.index_of(ref); }
  const PolygonIndex& index() const { return polygons_; }

  /// Portals of dense polygon p: [start()[p], start()[p + 1]) of portals(), their `to` dense.
  const std::int32_t* start() const { return start_.data(); }
  const NavPortal* portals() const { return portals_.data(); }

  std::size_t memory_bytes() const;

private:
  const NavPortal* view_of(int from, int to) const {
    if (from < 0)
      return nullptr;
    for (auto k = static_cast<std::size_t>(start_[static_cast<std::size_t>(from)]);
         k < static_cast<std::size_t>(start_[static_cast<std::size_t>(from) + 1]); ++k) {
      if (portals_[k].to == to)
        return &portals_[k];
    }
    return nullptr;
  }

  PolygonIndex polygons_;
  std::vector<std::int32_t> start_; ///< Portals of polygon p: [start_[p], start_[p + 1]).
  std::vector<NavPortal> portals_;
};

} // namespace crowd
