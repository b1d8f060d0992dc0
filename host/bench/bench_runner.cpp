#include "host/bench/bench_runner.h"

#include "host/backends/detour_backend.h"
#include "host/bench/bench_scene.h"
#include "host/checkpoint/atomic_file.h"
#include "host/scenario/scenario_writer.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <numeric>
#include <span>
#include <stdexcept>
#include <system_error>

namespace crowd {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Nearest-rank percentile (q in (0, 1]) of unsorted samples; 0 for none.
double percentile(std::vector<double> samples, double q) {
  if (samples.empty())
    return 0.0;
  std::sort(samples.begin(), samples.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(samples.size())));
  return samples[std::clamp<std::size_t>(rank, 1, samples.size()) - 1];
}

/// A float as the shortest decimal that reads back to it (0.3f -> 0.3, not 0.30000001...).
double decimal(float value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  double result = static_cast<double>(value);
  std::from_chars(text, end, result);
  return result;
}

/// The halo of a rank's domain (docs/distributed-model.md): the largest collision query range
/// of the run's agents, plus twice what the fastest can walk in a step (its neighbours are
/// found before it moves, and they move too).
float domain_halo(const Simulation& sim) {
  float range = 0.0f, speed = 0.0f;
  for (int id = 0; id < sim.agent_count(); ++id) {
    range = std::max(range, sim.agent_params(id).query_range());
    speed = std::max(speed, sim.agent_params(id).max_speed);
  }
  return range + 2.0f * speed * sim.scenario().dt;
}

std::filesystem::path scene_path(const BenchOptions& options, int agents) {
  return options.write_scenes / ("bench_" + std::to_string(agents) + ".json");
}

} // namespace

std::string bench_backend_name(BackendKind backend) {
  switch (backend) {
  case BackendKind::Cpu:
    return "cpu";
  case BackendKind::Cuda:
    return "cuda";
  case BackendKind::Detour:
    return "detour";
  case BackendKind::Auto:
    break;
  }
  throw std::invalid_argument("the bench runs cpu, cuda and detour, not auto");
}

std::optional<std::string> bench_skip_reason(BackendKind backend, int agents) {
  if (backend == BackendKind::Cuda && !cuda_device_available()) {
#if defined(CROWD_HAS_CUDA)
    return std::string("no CUDA device on this machine");
#else
    return std::string("this build has no CUDA backend (nvcc was not found at configure time)");
#endif
  }
  if (backend == BackendKind::Detour && agents > DetourCrowdBackend::kMaxCapacity) {
    return "DetourCrowd's proximity grid keeps 16-bit links: at most " +
           std::to_string(DetourCrowdBackend::kMaxCapacity) + " agents";
  }
  return std::nullopt;
}

Scenario bench_scenario(int agents, const BenchOptions& options) {
  Scenario scenario = make_bench_scenario(agents, options.seed);
  scenario.steps = options.steps;
  return scenario;
}

std::vector<std::filesystem::path> write_bench_scenes(const BenchOptions& options) {
  std::vector<std::filesystem::path> written;
  if (options.write_scenes.empty())
    return written;
  std::error_code error;
  std::filesystem::create_directories(options.write_scenes, error);
  if (error)
    throw std::runtime_error(options.write_scenes.string() +
                             ": cannot create the directory: " + error.message());
  for (const int agents : options.agents) {
    const std::filesystem::path path = scene_path(options, agents);
    write_file_atomically(path, write_scenario_json(bench_scenario(agents, options)));
    written.push_back(path);
  }
  return written;
}

void fill_speedups(std::vector<BenchRun>& runs) {
  std::map<int, double> detour_rate;
  for (const BenchRun& run : runs) {
    if (run.status == BenchRun::Status::Ran && run.backend == "detour" &&
        run.agent_steps_per_second > 0.0)
      detour_rate[run.agents] = run.agent_steps_per_second;
  }
  for (BenchRun& run : runs) {
    run.speedup.reset();
    const auto it = detour_rate.find(run.agents);
    if (run.status == BenchRun::Status::Ran && it != detour_rate.end() &&
        run.agent_steps_per_second > 0.0)
      run.speedup = run.backend == "detour" ? 1.0 : run.agent_steps_per_second / it->second;
  }
}

std::vector<BenchRun> run_bench(const BenchOptions& options, const BenchObserver& observer) {
  std::vector<BenchRun> runs;
  for (const int agents : options.agents) {
    const Scenario scenario = bench_scenario(agents, options);
    const BenchSceneLayout layout = bench_scene_layout(agents);
    for (const BackendKind backend : options.backends) {
      BenchRun run;
      run.agents = agents;
      run.backend = bench_backend_name(backend);
      run.scene = scenario.name;
      if (!options.write_scenes.empty())
        run.scene_file = scene_path(options, agents).string();
      run.world_side = decimal(layout.side);
      run.cell_size = decimal(layout.cell_size);
      if (const auto reason = bench_skip_reason(backend, agents)) {
        run.status = BenchRun::Status::Skipped;
        run.reason = *reason;
        if (observer.run_finished)
          observer.run_finished(run);
        runs.push_back(std::move(run));
        continue;
      }
      if (observer.run_started)
        observer.run_started(agents, run.backend);
      try {
        SimulationOptions sim_options;
        sim_options.backend = backend;
        sim_options.solver.threads = options.threads;
        const Clock::time_point setup_start = Clock::now();
        Simulation sim(scenario, sim_options);
        run.setup_ms = ms_since(setup_start);
        run.navmesh_build_ms = sim.navmesh().build_seconds() * 1000.0;
        run.navmesh_tiles = sim.navmesh().tile_count();
        const auto agent_bytes = [&sim] {
          return sim.host_memory_bytes() - sim.navmesh_table_bytes();
        };
        std::size_t host_bytes = agent_bytes();
        std::optional<DomainTally> domains;
        if (options.domains > 0)
          domains.emplace(options.domains, domain_halo(sim));
        std::vector<double> step_ms;
        step_ms.reserve(static_cast<std::size_t>(options.steps));
        long long agent_steps = 0;
        for (int s = 1; s <= options.steps; ++s) {
          const std::span<const AgentPhase> phases = sim.phases();
          agent_steps += std::count_if(phases.begin(), phases.end(), is_present);
          sim.step();
          step_ms.push_back(sim.last_step_ms());
          if (domains)
            domains->observe(sim.positions(), sim.phases());
          if (observer.step_done)
            observer.step_done(s, options.steps, sim.last_step_ms());
        }
        host_bytes = std::max(host_bytes, agent_bytes());
        if (const std::size_t device_bytes = sim.device_memory_bytes(); device_bytes > 0)
          run.device_bytes_per_agent = static_cast<double>(device_bytes) / agents;
        run.navmesh_bytes =
            static_cast<double>(sim.navmesh().detour_bytes() + sim.navmesh_table_bytes());
        run.steps = options.steps;
        run.step_ms_mean = step_ms.empty() ? 0.0
                                           : std::accumulate(step_ms.begin(), step_ms.end(), 0.0) /
                                                 static_cast<double>(step_ms.size());
        run.step_ms_p95 = percentile(step_ms, 0.95);
        const double total_ms = std::accumulate(step_ms.begin(), step_ms.end(), 0.0);
        run.agent_steps = agent_steps;
        if (agent_steps > 0 && total_ms > 0.0) {
          run.us_per_agent_step = total_ms * 1000.0 / static_cast<double>(agent_steps);
          run.agent_steps_per_second = static_cast<double>(agent_steps) / (total_ms / 1000.0);
        }
        run.host_bytes_per_agent = static_cast<double>(host_bytes) / agents;
        run.metrics = sim.metrics();
        if (domains)
          run.domains = domains->figures();
      } catch (const std::exception& e) {
        run.status = BenchRun::Status::Failed;
        run.reason = e.what();
      }
      if (observer.run_finished)
        observer.run_finished(run);
      runs.push_back(std::move(run));
    }
  }
  fill_speedups(runs);
  return runs;
}

} // namespace crowd
