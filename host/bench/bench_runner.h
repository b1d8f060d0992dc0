// Runs the bench: every requested backend on the same generated scenes, in this process, and
// measures each run.
#pragma once

#include "host/distributed/domain_tally.h"
#include "host/output/metrics.h"
#include "host/sim/simulation.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace crowd {

struct BenchOptions {
  std::vector<int> agents{1000, 4000, 16000, 64000};
  std::vector<BackendKind> backends{BackendKind::Cpu, BackendKind::Cuda, BackendKind::Detour};
  int steps = 200;
  int threads = 0; ///< cpu backend workers; 0 = all cores.
  std::uint64_t seed = 1;
  std::filesystem::path write_scenes; ///< Directory for the scene files; empty = none.
  /// Observe each run as if split into this many MPI ranks' domains (DomainTally): 0 = not.
  int domains = 0;
};

/// One (agents, backend) cell of the bench.
struct BenchRun {
  int agents = 0;
  std::string backend; ///< "cpu", "cuda", "detour"
  enum class Status { Ran, Skipped, Failed } status = Status::Ran;
  std::string reason; ///< Why it was skipped or how it failed.

  std::string scene;       ///< Scenario name, e.g. "bench_1000".
  std::string scene_file;  ///< Written scene file, if any.
  double world_side = 0.0; ///< m
  double cell_size = 0.0;  ///< Recast cell size, m
  int steps = 0;
  /// Wall time of building the simulation: navmesh, placement, backend, and the metrics'
  /// reference path of every agent. Not part of ms per step.
  double setup_ms = 0.0;
  double step_ms_mean = 0.0, step_ms_p95 = 0.0;
  /// Agents in the scene summed over the steps: agents leave on arrival, and a backend whose
  /// agents arrive sooner has fewer left to step, so rates are per agent actually stepped.
  long long agent_steps = 0;
  double us_per_agent_step = 0.0; ///< total step time / agent_steps
  double agent_steps_per_second = 0.0;
  /// This run's agent-steps per second / detour's, same agents; none without a detour run.
  std::optional<double> speedup;
  /// Host memory for the agents: Simulation::host_memory_bytes() less the navmesh tables
  /// (largest seen), over the agents.
  double host_bytes_per_agent = 0.0;
  /// The navmesh, apart: its build time (part of setup_ms), tiles (1: a single-tile build),
  /// and bytes (Detour's tile data plus the backend's tables of it).
  double navmesh_build_ms = 0.0;
  int navmesh_tiles = 0;
  double navmesh_bytes = 0.0;
  /// Device memory per agent (largest seen, the wall grid included): none for host backends.
  std::optional<double> device_bytes_per_agent;
  MetricsSummary metrics; ///< arrived, overlap_events, wall_events, ...
  /// With BenchOptions::domains: agents, ghosts and migrations per domain (not timed).
  std::optional<DomainFigures> domains;
};

/// What a run is about to do, for progress output.
struct BenchObserver {
  std::function<void(int agents, const std::string& backend)> run_started;
  std::function<void(int step, int steps, double last_step_ms)> step_done;
  std::function<void(const BenchRun& run)> run_finished;
};

/// "cpu", "cuda", "detour" (BackendKind::Auto is not a bench backend).
std::string bench_backend_name(BackendKind backend);

/// Why `backend` cannot run `agents` agents on this machine, or nothing when it can: cuda
/// without a CUDA device (or without the CUDA backend in this build), detour above
/// DetourCrowdBackend::kMaxCapacity.
std::optional<std::string> bench_skip_reason(BackendKind backend, int agents);

/// The scene of `agents` agents as the bench runs it (make_bench_scenario with options.seed
/// and options.steps).
Scenario bench_scenario(int agents, const BenchOptions& options);

/// Writes the scene files (one per agent count, "bench_<agents>.json") into
/// options.write_scenes (created if missing) and returns their paths. Throws
/// std::runtime_error when a file cannot be written.
std::vector<std::filesystem::path> write_bench_scenes(const BenchOptions& options);

/// Runs every (agents, backend) pair, agents outer, backends in the order given. A run that
/// throws is reported as Failed with the message; the others still run. Fills speedup once
/// all runs are done.
std::vector<BenchRun> run_bench(const BenchOptions& options, const BenchObserver& observer = {});

/// Sets every ran run's speedup from the detour run of the same agent count.
void fill_speedups(std::vector<BenchRun>& runs);

} // namespace crowd
