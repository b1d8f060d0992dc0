// Moving an agent's corridor to its new position: dtPathCorridor::movePosition, i.e.
// dtNavMeshQuery::moveAlongSurface from the corridor's first polygon (a breadth-first walk over
// neighbouring polygons, in its tiny node pool of 64 nodes and its stack of 48, that stops in
// the polygon holding the new position or at the nearest point of a wall), the polygons it
// crossed merged into the start of the corridor (dtMergeCorridorStartMoved), and the height of
// the new position read from the polygon table where the polygon is flat. The same operations
// in the same order as Detour's, on the navmesh tables (navmesh_tables.h), so the corridor
// and the position are Detour's to the bit (tests/host/paths/test_corridor_move.cpp compares
// them with movePosition itself). Where the tables cannot answer (a polygon they do not hold,
// a first polygon with a detail mesh that is not flat) the body says so and the host asks
// Detour.
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/corridor_merge.h"
#include "cuda/kernels/navmesh_geometry.h"
#include "cuda/kernels/navmesh_tables.h"

#include <cfloat>
#include <cstdint>

namespace crowd {

/// dtNavMeshQuery::moveAlongSurface's tiny node pool (64 nodes) and search stack (48).
inline constexpr int kMoveNodePool = 64;
inline constexpr int kMoveStack = 48;
/// dtPathCorridor::movePosition's buffer of visited polygons (MAX_VISITED).
inline constexpr int kMoveMaxVisited = 16;

namespace detail {

/// The node pool of moveAlongSurface: getNode finds a polygon's node or makes one while there
/// is room (-1 when full); parents are node numbers + 1, 0 for none (getNodeIdx).
struct MoveNodePool {
  std::int32_t id[kMoveNodePool];
  std::int32_t parent[kMoveNodePool];
  bool closed[kMoveNodePool];
  int count = 0;

  CROWD_HD int get(std::int32_t polygon) {
    for (int k = 0; k < count; ++k) {
      if (id[k] == polygon)
        return k;
    }
    if (count >= kMoveNodePool)
      return -1;
    id[count] = polygon;
    parent[count] = 0;
    closed[count] = false;
    return count++;
  }
};

} // namespace detail

/// dtNavMeshQuery::moveAlongSurface(start, start_pos, end_pos, filter, result, visited, &count,
/// max_visited) for the filter the tables were built with: writes the result position and the
/// polygons visited, start first (at most max_visited), and returns their count. Returns -1
/// when the tables cannot answer: ask Detour.
CROWD_HD int move_along_surface(const NavmeshTablesView& nav, int start, const float* start_pos,
                                const float* end_pos, float* result, std::int32_t* visited,
                                int max_visited) {
  if (!nav.contains_polygon(start) || nav.vertex_count(start) == 0 || !nav::visfinite(start_pos) ||
      !nav::visfinite(end_pos) || max_visited <= 0)
    return -1;
  detail::MoveNodePool pool;
  const int start_node = pool.get(start);
  pool.closed[start_node] = true;
  int stack[kMoveStack];
  int nstack = 0;
  stack[nstack++] = start_node;

  float best_pos[3];
  float best_dist = FLT_MAX;
  int best_node = -1;
  nav::vcopy(best_pos, start_pos);
  // Search constraints
  float search_pos[3];
  nav::vlerp(search_pos, start_pos, end_pos, 0.5f);
  const float half = sqrtf(nav::vdist_sqr(start_pos, end_pos)) / 2.0f + 0.001f;
  const float search_rad_sqr = half * half;

  while (nstack) {
    // Pop front.
    const int cur = stack[0];
    for (int i = 0; i < nstack - 1; ++i)
      stack[i] = stack[i + 1];
    nstack--;
    const int polygon = pool.id[cur];
    const float* verts = nav.polygon_vertices(polygon);
    const int nverts = nav.vertex_count(polygon);
    if (nverts == 0)
      return -1; // an off-mesh connection: Detour's
    // If target is inside the poly, stop search.
    if (nav::point_in_polygon(end_pos, verts, nverts)) {
      best_node = cur;
      nav::vcopy(best_pos, end_pos);
      break;
    }
    // Find wall edges and find nearest point inside the walls.
    const int edge0 = nav.vertex_start[polygon];
    for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
      const int first = nav.neighbour_start[edge0 + j];
      const int end = nav.neighbour_start[edge0 + j + 1];
      const float* vj = &verts[j * 3];
      const float* vi = &verts[i * 3];
      if (first == end) {
        // Wall edge, calc distance.
        float tseg;
        const float dist_sqr = nav::distance_pt_seg_sqr_2d(end_pos, vj, vi, tseg);
        if (dist_sqr < best_dist) {
          // Update nearest distance.
          nav::vlerp(best_pos, vj, vi, tseg);
          best_dist = dist_sqr;
          best_node = cur;
        }
        continue;
      }
      for (int k = first; k < end; ++k) {
        const int neighbour = nav.neighbours[k];
        if (!nav.contains_polygon(neighbour))
          return -1;
        // Skip if no node can be allocated.
        const int node = pool.get(neighbour);
        if (node < 0)
          continue;
        // Skip if already visited.
        if (pool.closed[node])
          continue;
        // Skip the link if it is too far from search constraint.
        float tseg;
        const float dist_sqr = nav::distance_pt_seg_sqr_2d(search_pos, vj, vi, tseg);
        if (dist_sqr > search_rad_sqr)
          continue;
        // Mark as the node as visited and push to queue.
        if (nstack < kMoveStack) {
          pool.parent[node] = cur + 1;
          pool.closed[node] = true;
          stack[nstack++] = node;
        }
      }
    }
  }

  int n = 0;
  if (best_node >= 0) {
    // Reverse the path.
    int prev = 0; // node number + 1
    int node = best_node + 1;
    do {
      const int next = pool.parent[node - 1];
      pool.parent[node - 1] = prev;
      prev = node;
      node = next;
    } while (node);
    // Store result
    node = prev;
    do {
      visited[n++] = pool.id[node - 1];
      if (n >= max_visited)
        break;
      node = pool.parent[node - 1];
    } while (node);
  }
  nav::vcopy(result, best_pos);
  return n;
}

/// dtPathCorridor::movePosition(npos, ...) for an agent at `pos` (x y z, overwritten with the
/// new position) whose corridor is `path` (npath of max_path, dense indices, changed in place).
/// Returns the corridor's new count; 0 when moveAlongSurface fails (movePosition returns false
/// and changes nothing); -1, with nothing changed, when the tables cannot answer: ask Detour.
CROWD_HD int move_corridor(const NavmeshTablesView& nav, std::int32_t* path, int npath,
                           int max_path, float* pos, const float* npos) {
  if (npath <= 0)
    return -1;
  std::int32_t visited[kMoveMaxVisited];
  float result[3];
  const int nvisited =
      move_along_surface(nav, path[0], pos, npos, result, visited, kMoveMaxVisited);
  if (nvisited < 0)
    return -1;
  // The first polygon after the merge: the last one visited where the two share a polygon.
  int furthest_path = -1, furthest_visited = -1;
  detail::furthest_common_polygon(path, npath, visited, nvisited, furthest_path, furthest_visited);
  const int first = furthest_path >= 0 ? visited[nvisited - 1] : path[0];
  // Keep the position on the navmesh surface: a flat polygon's height for a point inside it
  // (getPolyHeight), the old height for a point outside (getPolyHeight fails then).
  if (!nav.contains_polygon(first) || !nav.flat[first])
    return -1;
  float height = pos[1];
  if (nav::point_in_polygon(result, nav.polygon_vertices(first), nav.vertex_count(first)))
    height = nav.flat_height[first];
  const int merged = merge_corridor_start_moved_at(path, npath, max_path, visited, nvisited,
                                                   furthest_path, furthest_visited);
  pos[0] = result[0];
  pos[1] = height;
  pos[2] = result[2];
  return merged;
}

/// move_corridor for agent i of corridor rows (CorridorRowsView's layout; rows and positions
/// written in place) toward npos[i]. answered[i] is 0 where the tables could not answer (the
/// row and position are unchanged: the host asks Detour), else 1.
CROWD_HD void move_of_agent(int i, const NavmeshTablesView& nav, std::int32_t* polys,
                            std::int32_t* size, int capacity, float* position, const float* npos,
                            std::int32_t* answered) {
  const int n =
      move_corridor(nav, polys + i * capacity, size[i], capacity, position + i * 3, npos + i * 3);
  answered[i] = n >= 0 ? 1 : 0;
  if (n >= 0)
    size[i] = n;
}

} // namespace crowd
