#include "host/cli/run_checkpoint.h"

#include "host/checkpoint/archive.h"
#include "host/checkpoint/fnv1a.h"

namespace crowd {
namespace {

// Every solver option in one list, so that save and restore cannot disagree on the order.
template <class Options, class F> void for_each_solver_option(Options& o, F&& f) {
  f(o.max_neighbors);
  f(o.max_wall_segments);
  f(o.collision_iterations);
  f(o.collision_resolve_factor);
  f(o.collision_walls);
  f(o.collision_yield);
  f(o.max_corners);
  f(o.max_path_polys);
  f(o.path_requests_per_step);
  f(o.path_share_queue_length);
  f(o.path_tree_cache_bytes);
  f(o.path_search_nodes);
  f(o.path_optimization_range_factor);
  f(o.topology_optimization_interval);
  f(o.topology_optimizations_per_step);
  f(o.threads);
}

std::string absolute(const std::string& path) {
  return path.empty() ? path : std::filesystem::absolute(path).lexically_normal().string();
}

} // namespace

InputFingerprints InputFingerprints::of(const std::vector<std::filesystem::path>& files) {
  InputFingerprints fingerprints;
  for (const auto& file : files)
    fingerprints.files.emplace_back(absolute(file.string()), fnv1a64_of_file(file));
  return fingerprints;
}

void InputFingerprints::check_unchanged(const std::string& checkpoint) const {
  for (const auto& [file, hash] : files) {
    std::uint64_t now = 0;
    try {
      now = fnv1a64_of_file(file);
    } catch (const std::exception& e) {
      throw CheckpointError(checkpoint + ": " + e.what());
    }
    if (now != hash)
      throw CheckpointError(checkpoint + ": " + file + " changed since the checkpoint was written");
  }
}

RunOptions with_absolute_paths(RunOptions options) {
  options.scenario = absolute(options.scenario);
  for (std::string& out : options.out)
    out = absolute(out);
  options.metrics = absolute(options.metrics);
  options.checkpoint = absolute(options.checkpoint);
  return options;
}

void save_run_record(ArchiveWriter& out, const RunOptions& options, int total_steps,
                     const InputFingerprints& inputs) {
  out.put(options.scenario);
  out.put(options.backend);
  out.put(options.steps);
  out.put(options.threads);
  out.put(options.out);
  out.put(options.every);
  out.put(options.fps);
  out.put(options.metrics);
  out.put(options.quiet);
  out.put(options.stuck_seconds);
  for_each_solver_option(options.solver, [&](const auto& value) { out.put(value); });
  out.put(options.checkpoint);
  out.put(options.checkpoint_every);
  out.put(total_steps);
  out.put(static_cast<std::uint64_t>(inputs.files.size()));
  for (const auto& [file, hash] : inputs.files) {
    out.put(file);
    out.put(hash);
  }
}

RunRecord restore_run_record(ArchiveReader& in) {
  RunRecord record;
  RunOptions& o = record.options;
  in.get(o.scenario);
  in.get(o.backend);
  in.get(o.steps);
  in.get(o.threads);
  in.get(o.out);
  in.get(o.every);
  in.get(o.fps);
  in.get(o.metrics);
  in.get(o.quiet);
  in.get(o.stuck_seconds);
  for_each_solver_option(o.solver, [&](auto& value) { in.get(value); });
  in.get(o.checkpoint);
  in.get(o.checkpoint_every);
  in.get(record.total_steps);
  record.inputs.files.resize(in.count());
  for (auto& [file, hash] : record.inputs.files) {
    in.get(file);
    in.get(hash);
  }
  return record;
}

} // namespace crowd
