#include "host/bench/bench_report.h"

#include "host/bench/bench_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>

namespace crowd {

namespace {

std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* pattern, ...) {
  char buffer[512];
  va_list args;
  va_start(args, pattern);
  const int n = std::vsnprintf(buffer, sizeof buffer, pattern, args);
  va_end(args);
  return std::string(buffer, static_cast<std::size_t>(std::clamp(n, 0, 511)));
}

const char* status_name(BenchRun::Status status) {
  switch (status) {
  case BenchRun::Status::Ran:
    return "ran";
  case BenchRun::Status::Skipped:
    return "skipped";
  case BenchRun::Status::Failed:
    return "failed";
  }
  return "?";
}

/// A figure that may be missing, as a JSON number or null.
nlohmann::ordered_json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string thousands(long long value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return (value < 0 ? "-" : "") + digits;
}

} // namespace

int bench_threads_used(int threads) {
  if (threads > 0)
    return threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string bench_table(const std::vector<BenchRun>& runs) {
  std::string out;
  out += format("%8s  %-7s %9s %9s %10s %9s %10s %10s %8s %10s %10s %13s %10s %8s\n", "agents",
                "backend", "ms/step", "p95 ms", "us/agent", "vs detour", "host KB/a", "dev KB/a",
                "setup s", "navmesh s", "navmesh MB", "arrived", "overlaps", "walls");
  for (const BenchRun& run : runs) {
    const std::string agents = thousands(run.agents);
    if (run.status != BenchRun::Status::Ran) {
      out += format("%8s  %-7s %s: %s\n", agents.c_str(), run.backend.c_str(),
                    status_name(run.status), run.reason.c_str());
      continue;
    }
    const std::string speedup = run.speedup ? format("%.2fx", *run.speedup) : std::string("-");
    const std::string device = run.device_bytes_per_agent
                                   ? format("%.2f", *run.device_bytes_per_agent / 1024.0)
                                   : std::string("-");
    const std::string arrived =
        thousands(run.metrics.arrived) + "/" + thousands(run.metrics.agents);
    out += format(
        "%8s  %-7s %9.3f %9.3f %10.3f %9s %10.2f %10s %8.2f %10.2f %10.1f %13s %10s %8s\n",
        agents.c_str(), run.backend.c_str(), run.step_ms_mean, run.step_ms_p95,
        run.us_per_agent_step, speedup.c_str(), run.host_bytes_per_agent / 1024.0, device.c_str(),
        run.setup_ms / 1000.0, run.navmesh_build_ms / 1000.0, run.navmesh_bytes / (1024.0 * 1024.0),
        arrived.c_str(), thousands(run.metrics.overlap_events).c_str(),
        thousands(run.metrics.wall_events).c_str());
  }
  return out;
}

std::string bench_domain_table(const std::vector<BenchRun>& runs) {
  std::string out;
  for (const BenchRun& run : runs) {
    if (!run.domains)
      continue;
    if (out.empty())
      out += format("%8s  %-7s %7s %7s %12s %12s %12s %12s %8s %12s %10s\n", "agents", "backend",
                    "domains", "halo m", "agents/dom", "max agents", "ghosts/dom", "max ghosts",
                    "halo %", "migr/step", "rebalances");
    const DomainFigures& d = *run.domains;
    out +=
        format("%8s  %-7s %7d %7.2f %12.1f %12s %12.1f %12s %8.2f %12.2f %10lld\n",
               thousands(run.agents).c_str(), run.backend.c_str(), d.domains, d.halo, d.mean_agents,
               thousands(d.max_agents).c_str(), d.mean_ghosts, thousands(d.max_ghosts).c_str(),
               100.0 * d.halo_fraction, d.migrations_per_step, d.rebalances);
  }
  return out;
}

nlohmann::ordered_json bench_json(const std::vector<BenchRun>& runs, const BenchOptions& options) {
  using nlohmann::ordered_json;
  ordered_json root;
  ordered_json machine;
  machine["cores"] = std::thread::hardware_concurrency();
  machine["threads"] = bench_threads_used(options.threads);
#if defined(CROWD_HAS_CUDA)
  machine["cuda_built"] = true;
#else
  machine["cuda_built"] = false;
#endif
  machine["cuda_device"] = cuda_device_available();
  root["machine"] = std::move(machine);

  ordered_json scene;
  scene["family"] = "four crossing flows through a grid of pillars, leaving on arrival";
  scene["density_per_m2"] = kBenchDensity;
  scene["pillar_side_m"] = kBenchPillarSide;
  scene["pillar_spacing_m"] = kBenchPillarSpacing;
  scene["seed"] = options.seed;
  root["scene"] = std::move(scene);
  root["steps"] = options.steps;

  ordered_json entries = ordered_json::array();
  for (const BenchRun& run : runs) {
    ordered_json entry;
    entry["agents"] = run.agents;
    entry["backend"] = run.backend;
    entry["status"] = status_name(run.status);
    if (run.status != BenchRun::Status::Ran)
      entry["reason"] = run.reason;
    entry["scene"] = run.scene;
    if (!run.scene_file.empty())
      entry["scene_file"] = run.scene_file;
    entry["world_side_m"] = run.world_side;
    entry["cell_size_m"] = run.cell_size;
    if (run.status == BenchRun::Status::Ran) {
      const MetricsSummary& m = run.metrics;
      entry["steps"] = run.steps;
      entry["setup_ms"] = run.setup_ms;
      entry["step_ms_mean"] = run.step_ms_mean;
      entry["step_ms_p95"] = run.step_ms_p95;
      entry["agent_steps"] = run.agent_steps;
      entry["agent_steps_per_second"] = run.agent_steps_per_second;
      entry["us_per_agent_step"] = run.us_per_agent_step;
      entry["speedup_vs_detour"] = optional_number(run.speedup);
      entry["host_bytes_per_agent"] = run.host_bytes_per_agent;
      entry["device_bytes_per_agent"] = optional_number(run.device_bytes_per_agent);
      entry["navmesh_build_ms"] = run.navmesh_build_ms;
      entry["navmesh_tiles"] = run.navmesh_tiles;
      entry["navmesh_bytes"] = run.navmesh_bytes;
      entry["arrived"] = m.arrived;
      entry["unreachable"] = m.unreachable;
      entry["mean_arrival_time"] = optional_number(m.mean_arrival_time);
      entry["overlap_events"] = m.overlap_events;
      entry["max_overlap"] = m.max_overlap;
      entry["wall_events"] = m.wall_events;
      entry["max_wall_penetration"] = m.max_wall_penetration;
      entry["mean_path_ratio"] = optional_number(m.mean_path_ratio);
      ordered_json stages = ordered_json::object();
      for (const auto& [stage, ms] : m.stage_ms)
        stages[stage] = ms;
      entry["stage_ms"] = std::move(stages);
      if (run.domains) {
        const DomainFigures& d = *run.domains;
        ordered_json domains;
        domains["domains"] = d.domains;
        domains["halo_m"] = d.halo;
        domains["mean_agents"] = d.mean_agents;
        domains["max_agents"] = d.max_agents;
        domains["mean_ghosts"] = d.mean_ghosts;
        domains["max_ghosts"] = d.max_ghosts;
        domains["halo_fraction"] = d.halo_fraction;
        domains["migrations_per_step"] = d.migrations_per_step;
        domains["rebalances"] = d.rebalances;
        entry["domains"] = std::move(domains);
      }
    }
    entries.push_back(std::move(entry));
  }
  root["runs"] = std::move(entries);
  return root;
}

} // namespace crowd
