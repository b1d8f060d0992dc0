#include "host/paths/corridor_visibility.h"

#include "cuda/kernels/corridor_visibility.h"
#include "host/paths/corridor_path_copy.h"
#include "host/paths/navmesh_tables.h"

#include <DetourCommon.h>
#include <cstdint>
#include <vector>

namespace crowd {

bool raycast_polygons(const PolygonShapes& shapes, dtPolyRef start, const float* start_pos,
                      const float* end_pos, float& t, dtPolyRef* path, int& count, int max_path) {
  // The kernel body on the outline tables, its dense polygons turned back into references.
  thread_local std::vector<std::int32_t> visited;
  visited.resize(static_cast<std::size_t>(max_path > 0 ? max_path : 0));
  const int n = raycast_polygons(outline_tables_view(shapes), shapes.index().index_of(start),
                                 start_pos, end_pos, t, visited.data(), max_path);
  if (n < 0)
    return false;
  count = n;
  for (int k = 0; k < n; ++k)
    path[k] = shapes.index().ref_of(visited[static_cast<std::size_t>(k)]);
  return true;
}

void optimize_corridor_visibility(dtPathCorridor& corridor, const float* next, float range,
                                  int max_path, const PolygonShapes& shapes, dtNavMeshQuery& query,
                                  const dtQueryFilter& filter) {
  // DetourPathCorridor.cpp's optimizePathVisibility, operation for operation.
  const float* pos = corridor.getPos();
  float goal[3];
  dtVcopy(goal, next);
  float dist = dtVdist2D(pos, goal);
  if (dist < 0.01f)
    return;                          // too close to the goal to optimize
  dist = dtMin(dist + 0.01f, range); // overshoot a little
  float delta[3];
  dtVsub(delta, goal, pos);
  dtVmad(goal, pos, delta, range / dist);
  constexpr int kMaxResult = 32;
  dtPolyRef visited[kMaxResult];
  float t = 0.0f;
  int count = 0;
  if (!raycast_polygons(shapes, corridor.getPath()[0], pos, goal, t, visited, count, kMaxResult)) {
    float normal[3];
    count = 0;
    query.raycast(corridor.getPath()[0], pos, goal, &filter, &t, normal, visited, &count,
                  kMaxResult);
  }
  if (count > 1 && t > 0.99f) {
    const std::span<dtPolyRef> path = corridor_path_copy(corridor, max_path);
    const int merged = dtMergeCorridorStartShortcut(path.data(), corridor.getPathCount(), max_path,
                                                    visited, count);
    corridor.setCorridor(corridor.getTarget(), path.data(), merged);
  }
}

} // namespace crowd
