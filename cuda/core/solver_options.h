// Tunables of our solver. Defaults reproduce DetourCrowd's fixed limits (field notes 1a);
// larger values work.
#pragma once

#include <cstddef>

namespace crowd {

struct SolverOptions {
  int max_neighbors = 6; ///< Nearest agents considered per agent (DT_CROWDAGENT_MAX_NEIGHBOURS).
  int max_wall_segments = 8; ///< Nearest wall segments per agent (dtLocalBoundary MAX_LOCAL_SEGS).
  /// Jacobi passes of collision resolution. dtCrowd::update runs 4; 8 lets dense contact
  /// converge (at 4 a crowd pressed into a door or a jam keeps most of its overlap).
  int collision_iterations = 8;
  /// Over-relaxation omega of the averaged contact corrections (Macklin et al. 2014, 4.2).
  /// DetourCrowd's COLLISION_RESOLVE_FACTOR is 0.7, which leaves 30% of every overlap each
  /// pass; 1.0 is plain constraint averaging. Above ~1.2 crowds at doors clog (measured).
  float collision_resolve_factor = 1.0f;
  /// Resolve contacts with the navmesh boundary inside the collision passes, so the corridor
  /// move afterwards does not push agents back into each other (DetourCrowd: off).
  bool collision_walls = true;
  /// Asymmetry of a contact's correction (cuda/kernels/collision.h contact_share): 0 splits it
  /// in halves (DetourCrowd); 0.5 gives the agent walking into the other up to 75%.
  float collision_yield = 0.5f;
  int max_corners = 4; ///< Straight-path corners kept per agent (DT_CROWDAGENT_MAX_CORNERS).
  /// Corridor capacity in polygons (dtCrowd's m_maxPathResult, 256 there). A longer path is
  /// followed in pieces: the corridor ends at the last polygon it holds and the validity check
  /// searches again near its end. 128: the longest corridor held in any sample scenario
  /// (300 steps) or bench scene (1,000 to 64,000 agents) is 49 polygons, and a row then
  /// takes 613 bytes per agent instead of 1,125 at 256.
  int max_path_polys = 128;
  /// New path searches per step at most (a goal polygon's path tree, or an A* search where
  /// no tree reaches); the rest wait. Agents whose goal polygon already has a tree are all
  /// served at once, so a crowd heading for a few goal regions gets its paths in a few steps.
  int path_requests_per_step = 64;
  /// Paths are shared through trees only while more agents than this wait for one; below it
  /// every agent gets its own A* search (exactly DetourCrowd's path).
  std::size_t path_share_queue_length = 1024;
  /// Memory for cached path trees (one int per navmesh polygon each); least recently used
  /// trees are dropped beyond it and rebuilt, identical, when asked for again (a search of
  /// the budget).
  std::size_t path_tree_cache_bytes = std::size_t{32} << 20;
  int path_search_nodes = 8192;                 ///< A* node pool per worker.
  float path_optimization_range_factor = 30.0f; ///< x radius (RecastDemo).
  float topology_optimization_interval = 0.5f;  ///< Seconds between corridor topology fixes.
  /// Topology fixes per step at most, given to the agents that waited longest past the
  /// interval (dtCrowd's updateTopologyOptimization keeps the same queue with OPT_MAX_AGENTS
  /// = 1). Each is a short sliced A* (about a third of a step's corridor work at 4,000 agents
  /// when every agent had its fix every 0.5 s).
  int topology_optimizations_per_step = 64;
  /// The standoff breaker (cuda/kernels/standoff.h), for agents whose scenario `standoff` is
  /// not "off": seconds an agent makes no headway with another agent in front before its
  /// manoeuvre, how long the manoeuvre lasts, how far it turns its preferred velocity toward
  /// its side in the manoeuvre (degrees), the factor on its avoidance time horizon then, and
  /// how far it turns toward its side while a walker comes at it in its lane (degrees).
  /// Chosen on the sample scenes (README, "Arrival, standoffs and lanes").
  float standoff_wait = 1.0f;
  float standoff_duration = 1.0f;
  float standoff_turn_degrees = 45.0f;
  float standoff_horizon_scale = 0.4f;
  float standoff_keep_degrees = 40.0f;
  /// Steps between sorts of the agents' rows by neighbour-grid cell (CrowdSolver::sort_rows),
  /// so that agents near each other sit near each other in memory; 0 (the default): the rows
  /// stay in the order the agents entered. No output depends on the order
  /// (tests/host/sim/test_crowd_solver_rows.cpp): the solver reads its rows by agent id, the way
  /// to a rank holding rows of its own (docs/distributed-model.md, "Memory per rank"). On the
  /// CPU bench scene it costs more than it saves (measured there), so no command sets it.
  int row_sort_interval = 0;
  int threads = 0; ///< Worker threads for the CPU stages; 0 = all cores.
};

} // namespace crowd
