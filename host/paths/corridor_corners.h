// dtPathCorridor::findCorners with the corridor's portals read from a PortalTable: the same
// string pulling (dtNavMeshQuery::findStraightPath's funnel, Mononen's "Simple Stupid Funnel
// Algorithm", 2010) with the same float operations in the same order, so the corners are
// Detour's to the bit (tests/host/paths/test_corridor_corners.cpp compares them), at a
// fraction of the cost: a portal is a table entry, not a link-chain walk.
#pragma once

#include "host/paths/polygon_shapes.h"
#include "host/paths/portal_table.h"

#include <DetourNavMeshQuery.h>
#include <DetourPathCorridor.h>

namespace crowd {

/// Writes up to max_corners - 1 corners of `corridor`'s straight path (verts [3 x
/// max_corners], flags and polys [max_corners]) exactly as corridor.findCorners would, and
/// returns their count. Returns -1 when a portal of the corridor is not in the table (an
/// off-mesh connection, or a polygon the navmesh no longer has): call findCorners then.
/// `shapes` answers the closest points of the start and end where it can.
int find_corridor_corners(const dtPathCorridor& corridor, const PortalTable& portals,
                          const PolygonShapes& shapes, const dtNavMeshQuery& query, float* verts,
                          unsigned char* flags, dtPolyRef* polys, int max_corners);

} // namespace crowd
