// dtPathCorridor::movePosition through the corridor move kernel body
// (cuda/kernels/corridor_move.h: moveAlongSurface over the polygon tables,
// dtMergeCorridorStartMoved, and the height of a flat polygon), with Detour's own
// moveAlongSurface and getPolyHeight where the tables cannot answer. The corridor ends up as
// movePosition leaves it, to the bit (tests/host/paths/test_corridor_move.cpp).
#pragma once

#include "host/paths/polygon_shapes.h"

#include <DetourNavMeshQuery.h>
#include <DetourPathCorridor.h>

namespace crowd {

/// corridor.movePosition(npos, &query, &filter); `shapes` is built for the query's navmesh and
/// filter, max_path is the corridor's capacity (its init). Returns movePosition's result.
bool move_corridor_position(dtPathCorridor& corridor, const float* npos, int max_path,
                            const PolygonShapes& shapes, dtNavMeshQuery& query,
                            const dtQueryFilter& filter);

} // namespace crowd
