// dtPathCorridor::optimizePathVisibility with its raycast answered by the kernel body
// (cuda/kernels/corridor_visibility.h) from a PolygonShapes table: dtNavMeshQuery::raycast's
// walk from polygon to polygon along the ray, with the same dtIntersectSegmentPoly2D on the
// same vertices, so the hit, the polygons visited and the shortcut taken are Detour's to the
// bit (tests/host/paths/test_corridor_visibility.cpp compares them). Detour answers where the
// table cannot: a start polygon that is not in it, or a partial tile-border link on the way.
#pragma once

#include "host/paths/polygon_shapes.h"

#include <DetourNavMeshQuery.h>
#include <DetourPathCorridor.h>

namespace crowd {

/// dtNavMeshQuery::raycast(start, start_pos, end_pos, filter, &t, normal, path, &count,
/// max_path) for the filter `shapes` was built with, without the hit normal: writes `t` (FLT_MAX
/// when the ray reaches end_pos), the polygons visited and their count, and returns true.
/// Returns false, having written nothing useful, when the table cannot answer: ask Detour.
bool raycast_polygons(const PolygonShapes& shapes, dtPolyRef start, const float* start_pos,
                      const float* end_pos, float& t, dtPolyRef* path, int& count, int max_path);

/// corridor.optimizePathVisibility(next, range, &query, &filter) with the raycast from
/// `shapes` (built with `filter`); max_path is the corridor's capacity (its init).
void optimize_corridor_visibility(dtPathCorridor& corridor, const float* next, float range,
                                  int max_path, const PolygonShapes& shapes, dtNavMeshQuery& query,
                                  const dtQueryFilter& filter);

} // namespace crowd
