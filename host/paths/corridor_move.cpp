#include "host/paths/corridor_move.h"

#include "host/paths/corridor_path_copy.h"

#include <DetourCommon.h>

namespace crowd {

namespace {

// dtNavMeshQuery::getPolyHeight(ref, pos, &height): a flat polygon's height when pos is
// inside it (dtNavMesh::getPolyHeight's own dtPointInPolygon test), `height` unchanged when
// it is not (getPolyHeight fails then); Detour answers for any other polygon.
void poly_height(const PolygonShapes& shapes, const dtNavMeshQuery& query, dtPolyRef ref,
                 const float* pos, float& height) {
  const int p = shapes.index().index_of(ref);
  if (p >= 0 && shapes.is_flat(p)) {
    if (shapes.contains(p, pos))
      height = shapes.flat_height(p);
    return;
  }
  query.getPolyHeight(ref, pos, &height);
}

} // namespace

bool move_corridor_position(dtPathCorridor& corridor, const float* npos, int max_path,
                            const PolygonShapes& shapes, dtNavMeshQuery& query,
                            const dtQueryFilter& filter) {
  // DetourPathCorridor.cpp's movePosition, step for step.
  constexpr int kMaxVisited = 16;
  float result[3];
  dtPolyRef visited[kMaxVisited];
  int visited_count = 0;
  const dtStatus status =
      query.moveAlongSurface(corridor.getPath()[0], corridor.getPos(), npos, &filter, result,
                             visited, &visited_count, kMaxVisited);
  if (!dtStatusSucceed(status))
    return false;
  const std::span<dtPolyRef> path = corridor_path_copy(corridor, max_path);
  const int merged = dtMergeCorridorStartMoved(path.data(), corridor.getPathCount(), max_path,
                                               visited, visited_count);
  // Keep the position on the navmesh surface.
  float height = corridor.getPos()[1];
  poly_height(shapes, query, path[0], result, height);
  result[1] = height;
  float target[3];
  dtVcopy(target, corridor.getTarget());
  corridor.reset(path[0], result); // the position; the path and target are loaded next
  corridor.setCorridor(target, path.data(), merged);
  return true;
}

} // namespace crowd
