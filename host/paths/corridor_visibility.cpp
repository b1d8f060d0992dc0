#include "host/paths/corridor_visibility.h"

#include "host/paths/corridor_path_copy.h"

#include <DetourCommon.h>
#include <cfloat>

namespace crowd {

bool raycast_polygons(const PolygonShapes& shapes, dtPolyRef start, const float* start_pos,
                      const float* end_pos, float& t, dtPolyRef* path, int& count, int max_path) {
  int current = shapes.index().index_of(start); // raycast refuses an invalid start: so do we
  if (current < 0 || !shapes.is_ground(current))
    return false;
  t = 0.0f;
  count = 0;
  for (;;) {
    float tmin = 0.0f, tmax = 0.0f;
    int seg_min = 0, seg_max = 0;
    if (!dtIntersectSegmentPoly2D(start_pos, end_pos, shapes.vertices(current),
                                  shapes.vertex_count(current), tmin, tmax, seg_min, seg_max))
      return true; // the ray misses the polygon: keep the t so far
    if (tmax > t)
      t = tmax; // the furthest t so far
    if (count < max_path)
      path[count++] = shapes.index().ref_of(current);
    if (seg_max == -1) {
      t = FLT_MAX; // the ray ends inside the polygon
      return true;
    }
    const std::int32_t next = shapes.across(current, seg_max);
    if (next == PolygonShapes::kAskDetour)
      return false;
    if (next == PolygonShapes::kWall)
      return true;
    current = next;
  }
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
