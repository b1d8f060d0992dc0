// The visibility shortcut of an agent's corridor: dtPathCorridor::optimizePathVisibility, i.e.
// a dtNavMeshQuery::raycast from the agent toward a point ahead, and, when the ray gets there,
// the polygons it crossed spliced in front of the corridor (dtMergeCorridorStartShortcut).
// The raycast walks from polygon to polygon along the ray through the navmesh tables
// (navmesh_tables.h: outlines and the polygon across each edge) with Detour's own
// segment-polygon test, so the hit, the polygons visited and the shortcut are Detour's to the
// bit (tests/cuda/test_corridor_visibility.cpp compares them with Detour's). Where the tables
// cannot answer (a start polygon they do not hold, a partial tile-border link on the way) the
// body says so and the host asks Detour.
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/corridor_merge.h"
#include "cuda/kernels/navmesh_geometry.h"
#include "cuda/kernels/navmesh_tables.h"

#include <cfloat>
#include <cstdint>

namespace crowd {

/// dtNavMeshQuery::raycast(start, start_pos, end_pos, filter, &t, normal, path, &count,
/// max_path) for the filter the tables were built with, without the hit normal: writes `t`
/// (FLT_MAX when the ray reaches end_pos) and the polygons visited (at most max_path), and
/// returns their count. Returns -1 when the tables cannot answer: ask Detour.
CROWD_HD int raycast_polygons(const NavmeshTablesView& nav, int start, const float* start_pos,
                              const float* end_pos, float& t, std::int32_t* path, int max_path) {
  if (!nav.contains_polygon(start) || nav.vertex_count(start) == 0)
    return -1; // raycast refuses an invalid start; an off-mesh connection is Detour's
  int current = start;
  int count = 0;
  t = 0.0f;
  for (;;) {
    float tmin = 0.0f, tmax = 0.0f;
    int seg_min = 0, seg_max = 0;
    if (!nav::intersect_segment_poly_2d(start_pos, end_pos, nav.polygon_vertices(current),
                                        nav.vertex_count(current), tmin, tmax, seg_min, seg_max))
      return count; // the ray misses the polygon: keep the t so far
    if (tmax > t)
      t = tmax; // the furthest t so far
    if (count < max_path)
      path[count++] = current;
    if (seg_max == -1) {
      t = FLT_MAX; // the ray ends inside the polygon
      return count;
    }
    const std::int32_t next = nav.across_edge(current, seg_max);
    if (next == kEdgeAskDetour)
      return -1;
    if (next == kEdgeWall)
      return count;
    current = next;
  }
}

/// The most polygons the shortcut's raycast collects (optimizePathVisibility's MAX_RES).
inline constexpr int kMaxVisibilityPolygons = 32;

/// dtPathCorridor::optimizePathVisibility(next, range, ...) on a corridor of dense indices
/// (`path`, npath of max_path) for an agent at `pos`. Returns the corridor's new count, or -1
/// when the tables cannot answer the raycast (the corridor is unchanged: ask Detour).
CROWD_HD int optimize_visibility(const NavmeshTablesView& nav, std::int32_t* path, int npath,
                                 int max_path, const float* pos, const float* next, float range) {
  float goal[3];
  nav::vcopy(goal, next);
  float dist = nav::vdist_2d(pos, goal);
  if (dist < 0.01f)
    return npath;                                       // too close to the goal to optimize
  dist = (dist + 0.01f) < range ? dist + 0.01f : range; // overshoot a little (dtMin)
  const float delta[3] = {goal[0] - pos[0], goal[1] - pos[1], goal[2] - pos[2]};
  const float scale = range / dist;
  goal[0] = pos[0] + delta[0] * scale;
  goal[1] = pos[1] + delta[1] * scale;
  goal[2] = pos[2] + delta[2] * scale;
  std::int32_t visited[kMaxVisibilityPolygons];
  float t = 0.0f;
  const int count = raycast_polygons(nav, path[0], pos, goal, t, visited, kMaxVisibilityPolygons);
  if (count < 0)
    return -1;
  if (count > 1 && t > 0.99f)
    return merge_corridor_start_shortcut(path, npath, max_path, visited, count);
  return npath;
}

/// optimize_visibility for agent i of corridor rows (CorridorRowsView's layout, the rows
/// written in place): toward next[i] within range[i]. answered[i] is 0 where the tables could
/// not answer (the row is unchanged: the host asks Detour), else 1.
CROWD_HD void shortcut_of_agent(int i, const NavmeshTablesView& nav, std::int32_t* polys,
                                std::int32_t* size, int capacity, const float* position,
                                const float* next, const float* range, std::int32_t* answered) {
  std::int32_t* row = polys + i * capacity;
  if (size[i] <= 0) {
    answered[i] = 1; // no corridor, nothing to shorten (Detour asserts a path)
    return;
  }
  const int n =
      optimize_visibility(nav, row, size[i], capacity, position + i * 3, next + i * 3, range[i]);
  answered[i] = n >= 0 ? 1 : 0;
  if (n >= 0)
    size[i] = n;
}

} // namespace crowd
