#include "host/paths/corridor_move.h"

#include <DetourCommon.h>
#include <algorithm>
#include <vector>

namespace crowd {

namespace {

// dtNavMeshQuery::getPolyHeight(ref, pos, &height): a flat polygon's height when pos is
// inside it (dtNavMesh::getPolyHeight's own dtPointInPolygon test), `height` unchanged when
// it is not (getPolyHeight fails then); Detour answers for any other polygon.
void poly_height(const PolygonShapes& shapes, const dtNavMeshQuery& query, dtPolyRef ref,
                 const float* pos, float& height) {
  const int p = shapes.index().index_of(ref);
  if (p >= 0 && shapes.is_ground(p) && shapes.is_flat(p)) {
    if (dtPointInPolygon(pos, shapes.vertices(p), shapes.vertex_count(p)))
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
  // dtPathCorridor keeps its path private: merge into a copy and load it back.
  thread_local std::vector<dtPolyRef> path;
  const int count = corridor.getPathCount();
  path.resize(static_cast<std::size_t>(std::max(max_path, count)));
  std::copy(corridor.getPath(), corridor.getPath() + count, path.begin());
  const int merged =
      dtMergeCorridorStartMoved(path.data(), count, max_path, visited, visited_count);
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
