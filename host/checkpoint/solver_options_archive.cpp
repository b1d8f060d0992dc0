#include "host/checkpoint/solver_options_archive.h"

#include "host/checkpoint/archive.h"

namespace crowd {

namespace {

// One field list for save and restore, so that the two cannot disagree on the order.
constexpr auto kSolverOptionFields = [](auto& archive, auto& s) {
  archive.fields(s.max_neighbors, s.max_wall_segments, s.collision_iterations,
                 s.collision_resolve_factor, s.collision_walls, s.collision_yield, s.max_corners,
                 s.max_path_polys, s.path_requests_per_step, s.path_share_queue_length,
                 s.path_tree_cache_bytes, s.path_search_nodes, s.path_optimization_range_factor,
                 s.topology_optimization_interval, s.topology_optimizations_per_step, s.threads,
                 s.standoff_wait, s.standoff_duration, s.standoff_turn_degrees,
                 s.standoff_horizon_scale, s.standoff_keep_degrees);
};

} // namespace

void save_solver_options(ArchiveWriter& out, const SolverOptions& options) {
  kSolverOptionFields(out, options);
}

SolverOptions restore_solver_options(ArchiveReader& in) {
  SolverOptions options;
  kSolverOptionFields(in, options);
  return options;
}

} // namespace crowd
