// Tunables of our solver. Defaults reproduce DetourCrowd's fixed limits (field notes 1a);
// larger values work.
#pragma once

namespace crowd {

struct SolverOptions {
  int max_neighbors = 6; ///< Nearest agents considered per agent (DT_CROWDAGENT_MAX_NEIGHBOURS).
  int max_wall_segments = 8; ///< Nearest wall segments per agent (dtLocalBoundary MAX_LOCAL_SEGS).
  int collision_iterations = 4; ///< Jacobi passes of collision resolution (dtCrowd::update).
  float collision_resolve_factor = 0.7f; ///< COLLISION_RESOLVE_FACTOR.
  int max_corners = 4;      ///< Straight-path corners kept per agent (DT_CROWDAGENT_MAX_CORNERS).
  int max_path_polys = 256; ///< Corridor capacity in polygons (dtCrowd m_maxPathResult).
  int path_requests_per_step = 64; ///< A* searches run per step at most; the rest wait.
  int path_search_nodes = 8192;    ///< A* node pool per worker.
  float path_optimization_range_factor = 30.0f; ///< x radius (RecastDemo).
  float topology_optimization_interval = 0.5f;  ///< Seconds between corridor topology fixes.
  int threads = 0; ///< Worker threads for the CPU stages; 0 = all cores.
};

} // namespace crowd
