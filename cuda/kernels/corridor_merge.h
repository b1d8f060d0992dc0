// Splicing the polygons a query visited into the start of a corridor: Detour's
// dtMergeCorridorStartMoved (after moveAlongSurface) and dtMergeCorridorStartShortcut (after
// the visibility raycast), DetourPathCorridor.cpp, on corridors of dense polygon indices.
#pragma once

#include "cuda/common/hd.h"

#include <cstdint>

namespace crowd {
namespace detail {

/// The furthest polygon of `path` that `visited` also holds (the last of path; the first of
/// visited where it holds it twice): sets furthest_path / furthest_visited, or leaves them -1.
CROWD_HD void furthest_common_polygon(const std::int32_t* path, int npath,
                                      const std::int32_t* visited, int nvisited, int& furthest_path,
                                      int& furthest_visited) {
  furthest_path = -1;
  furthest_visited = -1;
  for (int i = npath - 1; i >= 0; --i) {
    bool found = false;
    for (int j = nvisited - 1; j >= 0; --j) {
      if (path[i] == visited[j]) {
        furthest_path = i;
        furthest_visited = j;
        found = true;
      }
    }
    if (found)
      break;
  }
}

/// memmove(path + to, path + from, count elements).
CROWD_HD void move_polygons(std::int32_t* path, int to, int from, int count) {
  if (to < from) {
    for (int k = 0; k < count; ++k)
      path[to + k] = path[from + k];
  } else if (to > from) {
    for (int k = count - 1; k >= 0; --k)
      path[to + k] = path[from + k];
  }
}

} // namespace detail

/// dtMergeCorridorStartMoved after its search for the furthest common polygon, whose result
/// (detail::furthest_common_polygon) the caller already holds.
CROWD_HD int merge_corridor_start_moved_at(std::int32_t* path, int npath, int max_path,
                                           const std::int32_t* visited, int nvisited,
                                           int furthest_path, int furthest_visited) {
  // If no intersection found just return current path.
  if (furthest_path == -1 || furthest_visited == -1)
    return npath;
  // Adjust beginning of the buffer to include the visited.
  const int req = nvisited - furthest_visited;
  const int orig = furthest_path + 1 < npath ? furthest_path + 1 : npath;
  int size = npath - orig > 0 ? npath - orig : 0;
  if (req + size > max_path)
    size = max_path - req;
  detail::move_polygons(path, req, orig, size);
  // Store visited
  for (int i = 0; i < req; ++i)
    path[i] = visited[(nvisited - 1) - i];
  return req + size;
}

/// dtMergeCorridorStartMoved: the corridor `path` (npath of max_path) with its start replaced
/// by the polygons `visited` (start first) up to the furthest polygon the two have in common.
/// Returns the new count.
CROWD_HD int merge_corridor_start_moved(std::int32_t* path, int npath, int max_path,
                                        const std::int32_t* visited, int nvisited) {
  int furthest_path = -1, furthest_visited = -1;
  detail::furthest_common_polygon(path, npath, visited, nvisited, furthest_path, furthest_visited);
  return merge_corridor_start_moved_at(path, npath, max_path, visited, nvisited, furthest_path,
                                       furthest_visited);
}

/// dtMergeCorridorStartShortcut: the corridor `path` (npath of max_path) with its start
/// replaced by the polygons `visited` up to the furthest polygon the two have in common.
/// Returns the new count.
CROWD_HD int merge_corridor_start_shortcut(std::int32_t* path, int npath, int max_path,
                                           const std::int32_t* visited, int nvisited) {
  int furthest_path = -1, furthest_visited = -1;
  detail::furthest_common_polygon(path, npath, visited, nvisited, furthest_path, furthest_visited);
  // If no intersection found just return current path.
  if (furthest_path == -1 || furthest_visited == -1)
    return npath;
  // Adjust beginning of the buffer to include the visited.
  const int req = furthest_visited;
  if (req <= 0)
    return npath;
  const int orig = furthest_path;
  int size = npath - orig > 0 ? npath - orig : 0;
  if (req + size > max_path)
    size = max_path - req;
  detail::move_polygons(path, req, orig, size);
  // Store visited
  for (int i = 0; i < req; ++i)
    path[i] = visited[i];
  return req + size;
}

} // namespace crowd
