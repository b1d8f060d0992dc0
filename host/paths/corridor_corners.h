// dtPathCorridor::findCorners through the corners kernel body (cuda/kernels/corridor_corners.h):
// the corridor's polygons as dense indices, its portals and end polygons read from the
// navmesh tables, so the corners are Detour's to the bit (tests/host/paths/
// test_corridor_corners.cpp compares them) at a fraction of the cost: a portal is a table
// entry, not a link-chain walk.
#pragma once

#include "cuda/kernels/navmesh_tables.h"
#include "host/paths/polygon_index.h"

#include <DetourPathCorridor.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd {

/// A corridor's polygons as dense indices, kept beside a dtPathCorridor and brought up to date
/// only when its polygons changed (an agent crosses into a new polygon every few seconds, so
/// most steps reuse it): what the corridor rows of the agent arrays will hold.
class DenseCorridor {
public:
  /// The dense indices of corridor.getPath() (-1 for a polygon the navmesh no longer has).
  const std::vector<std::int32_t>& of(const dtPathCorridor& corridor, const PolygonIndex& polygons);
  /// Records that the corridor now holds `refs`, whose dense indices are `dense` (count each):
  /// what a kernel that moved the corridor already knows.
  void assign(const dtPolyRef* refs, const std::int32_t* dense, int count) {
    refs_.assign(refs, refs + count);
    dense_.assign(dense, dense + count);
  }
  std::size_t memory_bytes() const {
    return refs_.capacity() * sizeof(dtPolyRef) + dense_.capacity() * sizeof(std::int32_t);
  }

private:
  std::vector<dtPolyRef> refs_; ///< the polygons `dense_` was made from
  std::vector<std::int32_t> dense_;
};

/// Writes up to max_corners - 1 corners of `corridor`'s straight path (verts [3 x
/// max_corners], flags and polys [max_corners]) exactly as corridor.findCorners would, and
/// returns their count. Returns -1 when the tables cannot answer (a portal or an end polygon
/// of the corridor that they do not hold: an off-mesh connection, a polygon the navmesh no
/// longer has): call findCorners then. `polygons` numbers the polygons of `tables`.
int find_corridor_corners(const dtPathCorridor& corridor, const NavmeshTablesView& tables,
                          const PolygonIndex& polygons, float* verts, unsigned char* flags,
                          dtPolyRef* polys, int max_corners);
/// The same with the corridor's dense mirror kept by the caller.
int find_corridor_corners(const dtPathCorridor& corridor, DenseCorridor& dense,
                          const NavmeshTablesView& tables, const PolygonIndex& polygons,
                          float* verts, unsigned char* flags, dtPolyRef* polys, int max_corners);

} // namespace crowd
