// dtPathCorridor::findCorners through the corners kernel body (cuda/kernels/corridor_corners.h):
// the corridor's polygons as dense indices, its portals and end polygons read from the
// navmesh tables, so the corners are Detour's to the bit (tests/host/paths/
// test_corridor_corners.cpp compares them) at a fraction of the cost: a portal is a table
// entry, not a link-chain walk.
#pragma once

#include "cuda/kernels/navmesh_tables.h"
#include "host/paths/polygon_index.h"

#include <DetourPathCorridor.h>

namespace crowd {

/// Writes up to max_corners - 1 corners of `corridor`'s straight path (verts [3 x
/// max_corners], flags and polys [max_corners]) exactly as corridor.findCorners would, and
/// returns their count. Returns -1 when the tables cannot answer (a portal or an end polygon
/// of the corridor that they do not hold: an off-mesh connection, a polygon the navmesh no
/// longer has): call findCorners then. `polygons` numbers the polygons of `tables`.
int find_corridor_corners(const dtPathCorridor& corridor, const NavmeshTablesView& tables,
                          const PolygonIndex& polygons, float* verts, unsigned char* flags,
                          dtPolyRef* polys, int max_corners);
} // namespace crowd
