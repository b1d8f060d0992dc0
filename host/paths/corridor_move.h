// dtPathCorridor::movePosition with the height of the new position read from a PolygonShapes
// table where the polygon is flat: the same moveAlongSurface and dtMergeCorridorStartMoved,
// and, for a point inside a flat polygon, the height dtNavMesh::getPolyHeight would
// interpolate between equal heights, without walking its detail triangles. The corridor ends
// up as movePosition leaves it, to the bit (tests/host/paths/test_corridor_move.cpp).
#pragma once

#include "host/paths/polygon_shapes.h"

#include <DetourNavMeshQuery.h>
#include <DetourPathCorridor.h>

namespace crowd {

/// corridor.movePosition(npos, &query, &filter); `shapes` is built for the query's navmesh
/// and max_path is the corridor's capacity (its init). Returns movePosition's result.
bool move_corridor_position(dtPathCorridor& corridor, const float* npos, int max_path,
                            const PolygonShapes& shapes, dtNavMeshQuery& query,
                            const dtQueryFilter& filter);

} // namespace crowd
