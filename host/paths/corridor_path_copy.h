// dtPathCorridor keeps its path private, and its own movePosition and optimizePathVisibility
// merge into it in place. Our versions of those (corridor_move.h, corridor_visibility.h) merge
// into a copy with the same dtMergeCorridorStart* functions and load it back with
// setCorridor; this is that copy.
#pragma once

#include <DetourPathCorridor.h>
#include <algorithm>
#include <span>
#include <vector>

namespace crowd {

/// The corridor's path followed by room up to `max_path` polygons (the corridor's capacity),
/// in a buffer of the calling thread that the next call reuses.
inline std::span<dtPolyRef> corridor_path_copy(const dtPathCorridor& corridor, int max_path) {
  thread_local std::vector<dtPolyRef> path;
  const int count = corridor.getPathCount();
  path.assign(corridor.getPath(), corridor.getPath() + count);
  path.resize(static_cast<std::size_t>(std::max(max_path, count)));
  return path;
}

} // namespace crowd
