#include "host/paths/corridor_move.h"

#include "cuda/kernels/corridor_move.h"
#include "host/paths/corridor_path_copy.h"
#include "host/paths/navmesh_tables.h"

#include <DetourCommon.h>
#include <algorithm>
#include <cstdint>
#include <vector>

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

// movePosition with Detour's moveAlongSurface, for what the tables cannot answer.
bool move_with_detour(dtPathCorridor& corridor, const float* npos, int max_path,
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

} // namespace

bool move_corridor_position(dtPathCorridor& corridor, const float* npos, int max_path,
                            const PolygonShapes& shapes, dtNavMeshQuery& query,
                            const dtQueryFilter& filter) {
  thread_local std::vector<std::int32_t> current;
  const int count = corridor.getPathCount();
  current.resize(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k)
    current[static_cast<std::size_t>(k)] = shapes.index().index_of(corridor.getPath()[k]);
  // Room for the merge to grow the path up to the corridor's capacity; only the path is copied.
  thread_local std::vector<std::int32_t> row;
  const auto room = static_cast<std::size_t>(std::max(max_path, count));
  if (row.size() < room)
    row.resize(room);
  std::copy(current.begin(), current.end(), row.begin());
  float pos[3];
  dtVcopy(pos, corridor.getPos());
  const int merged =
      move_corridor(outline_tables_view(shapes), row.data(), count, max_path, pos, npos);
  if (merged < 0)
    return move_with_detour(corridor, npos, max_path, shapes, query, filter);
  // The path in references: the corridor's own when the move left it as it was (most steps).
  thread_local std::vector<dtPolyRef> refs;
  const bool unchanged = merged == count && std::equal(current.begin(), current.end(), row.begin());
  if (unchanged) {
    refs.assign(corridor.getPath(), corridor.getPath() + count);
  } else {
    refs.resize(static_cast<std::size_t>(merged));
    for (int k = 0; k < merged; ++k)
      refs[static_cast<std::size_t>(k)] = shapes.index().ref_of(row[static_cast<std::size_t>(k)]);
  }
  float target[3];
  dtVcopy(target, corridor.getTarget());
  corridor.reset(refs[0], pos); // the position; the path and target are loaded next
  corridor.setCorridor(target, refs.data(), merged);
  return true;
}

} // namespace crowd
