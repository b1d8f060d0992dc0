#include "host/cli/run_command.h"

#include "host/cli/command_error.h"
#include "host/cli/interrupt_signals.h"
#include "host/cli/progress.h"
#include "host/navmesh/navmesh.h"
#include "host/output/atomic_file.h"
#include "host/output/film_resampler.h"
#include "host/output/metrics.h"
#include "host/output/output_format.h"
#include "host/scenario/scenario.h"
#include "host/sim/simulation.h"

#include <cstdio>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace crowd {
namespace {

void print_summary(const MetricsSummary& m, std::FILE* out) {
  std::fprintf(out, "%s: %d agents, backend %s, %d steps of %.3g s\n", m.scenario.c_str(), m.agents,
               m.backend.c_str(), m.steps, static_cast<double>(m.dt));
  std::fprintf(out, "  arrived %d/%d, unreachable %d", m.arrived, m.agents, m.unreachable);
  if (m.mean_arrival_time)
    std::fprintf(out, ", arrival time mean %.2f s, max %.2f s", *m.mean_arrival_time,
                 *m.max_arrival_time);
  std::fprintf(out, "\n  overlaps %lld (max %.3f m), wall contacts %lld (max %.3f m)\n",
               m.overlap_events, m.max_overlap, m.wall_events, m.max_wall_penetration);
  if (!m.faults.empty())
    std::fprintf(out,
                 "  frozen after a non-finite state: %zu agents (first: agent %d at step %d)\n",
                 m.faults.size(), m.faults.front().agent, m.faults.front().step);
  if (m.stuck.agents > 0)
    std::fprintf(out, "  stuck: %d agents, %d episodes, longest %.1f s, %d still stuck\n",
                 m.stuck.agents, m.stuck.episodes, m.stuck.longest_seconds, m.stuck.stuck_now);
  std::fprintf(out, "  %.3f ms per step (p95 %.3f ms)\n", m.step_ms_mean, m.step_ms_p95);
}

/// One warning line per agent frozen since the last call (faults_seen counts those reported).
void warn_new_faults(const Simulation& sim, std::size_t& faults_seen) {
  const auto faults = sim.faults();
  for (; faults_seen < faults.size(); ++faults_seen) {
    const FaultRecord& f = faults[faults_seen];
    std::fprintf(stderr, "warning: agent %d frozen at step %d: non-finite value in %s\n", f.agent,
                 f.step, f.stage.c_str());
  }
}

} // namespace

int run_command(const RunOptions& options) {
  try {
    if (options.every < 1)
      throw std::invalid_argument("--every must be >= 1");
    if (options.steps && *options.steps < 0)
      throw std::invalid_argument("--steps must be >= 0");
    if (options.threads < 0)
      throw std::invalid_argument("--threads must be >= 0");
    if (options.fps && !(*options.fps > 0.0 && *options.fps <= 1e6))
      throw std::invalid_argument("--fps must be a number > 0 and at most 1e6");
    SimulationOptions sim_options;
    sim_options.backend = parse_backend_kind(options.backend);
    sim_options.solver = options.solver;
    sim_options.solver.threads = options.threads;
    sim_options.stuck_seconds = options.stuck_seconds;
    Scenario scenario = load_scenario(options.scenario);
    if (options.steps)
      scenario.steps = *options.steps;
    const int total_steps = scenario.step_count();
    Simulation sim(std::move(scenario), sim_options);

    // Per-step trajectories get every K-th step; film exports get every step, resampled.
    const double fps = options.fps.value_or(kDefaultFps);
    std::vector<std::unique_ptr<FrameSink>> step_sinks, film_sinks;
    for (const std::string& out : options.out) {
      const OutputFormat format = output_format_for(out, options.fps.has_value());
      (is_film_format(format) ? film_sinks : step_sinks)
          .push_back(make_output_sink(format, out, fps));
    }
    std::unique_ptr<FilmResampler> film;
    if (!film_sinks.empty())
      film = std::make_unique<FilmResampler>(fps, std::move(film_sinks));

    std::vector<std::string> types;
    const auto deliver = [&](bool written_step) {
      for (int id = static_cast<int>(types.size()); id < sim.agent_count(); ++id)
        types.push_back(sim.agent_params(id).type);
      const FrameView frame{sim.step_index(), sim.time(),   sim.positions(),
                            sim.velocities(), sim.phases(), types};
      if (written_step)
        for (const auto& sink : step_sinks)
          sink->write_frame(frame);
      if (film)
        film->write_frame(frame);
    };

    // From here on, SIGINT / SIGTERM end the run at a step boundary with complete outputs.
    const InterruptSignals signals;
    deliver(true);
    ProgressReporter progress(total_steps);
    bool stop = signals.received() != 0;
    std::size_t faults_seen = 0;
    for (int s = 1; s <= total_steps && !stop; ++s) {
      sim.step();
      warn_new_faults(sim, faults_seen);
      stop = signals.received() != 0;
      // The last step run is always written, whether the run ends or is interrupted.
      deliver(s % options.every == 0 || s == total_steps || stop);
      progress.update(s, sim.last_step_ms());
    }
    progress.finish();
    const MetricsSummary summary = sim.metrics();
    for (const auto& sink : step_sinks)
      sink->finish();
    if (film)
      film->finish();
    const int interrupted_by = signals.received();
    if (!options.metrics.empty()) {
      nlohmann::ordered_json json = to_json(summary);
      json["host_memory_bytes"] = sim.host_memory_bytes();
      if (interrupted_by != 0)
        json["interrupted"] = true;
      write_file_atomically(options.metrics, json.dump(2) + "\n");
    }
    if (!options.quiet)
      print_summary(summary, stdout);
    if (interrupted_by != 0) {
      std::fflush(stdout);
      std::fprintf(stderr, "interrupted by %s at step %d: outputs hold steps 0..%d\n",
                   signal_name(interrupted_by), summary.steps, summary.steps);
      return 128 + interrupted_by;
    }
    return 0;
  } catch (...) {
    return report_command_error(options.scenario);
  }
}

} // namespace crowd
