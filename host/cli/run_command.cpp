#include "host/cli/run_command.h"

#include "host/checkpoint/archive.h"
#include "host/checkpoint/atomic_file.h"
#include "host/checkpoint/checkpoint_file.h"
#include "host/cli/command_error.h"
#include "host/cli/interrupt_signals.h"
#include "host/cli/progress.h"
#include "host/cli/run_checkpoint.h"
#include "host/cli/split_run.h"
#include "host/cli/thread_limit.h"
#include "host/navmesh/navmesh.h"
#include "host/output/character_cast.h"
#include "host/output/film_resampler.h"
#include "host/output/metrics.h"
#include "host/output/output_format.h"
#include "host/scenario/scenario.h"
#include "host/sim/film_of_run.h"
#include "host/sim/simulation.h"

#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
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
void warn_new_faults(const Simulation& sim, std::size_t& faults_seen, ProgressReporter& progress) {
  const auto faults = sim.faults();
  if (faults_seen < faults.size())
    progress.end_line();
  for (; faults_seen < faults.size(); ++faults_seen) {
    const FaultRecord& f = faults[faults_seen];
    std::fprintf(stderr, "warning: agent %d frozen at step %d: non-finite value in %s\n", f.agent,
                 f.step, f.stage.c_str());
  }
}

/// A number as a user would write it: its shortest round-trip form ("0.333333" is not).
std::string shortest(double value) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

void check_options(const RunOptions& options) {
  if (options.every < 1)
    throw UsageError("--every must be >= 1");
  if (options.steps && *options.steps < 0)
    throw UsageError("--steps must be >= 0");
  if (options.threads < 0)
    throw UsageError("--threads must be >= 0");
  if (options.fps && !(*options.fps > 0.0 && *options.fps <= 1e6))
    throw UsageError("--fps must be a number > 0 and at most 1e6");
  if (!(options.max_turn_rate > 0.0 && options.max_turn_rate <= 1e6))
    throw UsageError("--max-turn-rate must be a number > 0 and at most 1e6");
  if (!(options.preroll >= 0.0 && options.preroll <= 1e6))
    throw UsageError("--preroll must be a number of seconds >= 0 and at most 1e6");
  if (options.handles < 0 || options.handles > 1'000'000)
    throw UsageError("--handles must be a whole number of frames in [0, 1000000]");
  if (options.start_frame < -1'000'000'000 || options.start_frame > 1'000'000'000)
    throw UsageError("--start-frame must be in [-1e9, 1e9]");
  const double fps = options.fps.value_or(kDefaultFps);
  if (options.handles / fps > options.preroll + 1e-9)
    throw UsageError("--handles " + std::to_string(options.handles) + " at " + shortest(fps) +
                     " fps need a --preroll of at least " + shortest(options.handles / fps) +
                     " s: the handles before the start frame are simulated in the preroll");
  if (options.checkpoint_every && options.checkpoint.empty())
    throw UsageError("--checkpoint-every needs --checkpoint FILE");
  if (options.checkpoint_every && *options.checkpoint_every < 1)
    throw UsageError("--checkpoint-every must be >= 1");
  std::vector<std::filesystem::path> outs;
  bool step_csv = false;
  for (const std::string& out : options.out) {
    const std::filesystem::path path = std::filesystem::weakly_canonical(out);
    for (const std::filesystem::path& earlier : outs) {
      if (earlier == path)
        throw UsageError("--out " + out + " is given twice");
    }
    outs.push_back(path);
    try {
      step_csv =
          step_csv || output_format_for(out, options.fps.has_value()) == OutputFormat::StepCsv;
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--out ") + e.what());
    }
  }
  if (options.every != 1 && !step_csv)
    throw UsageError("--every " + std::to_string(options.every) +
                     " applies to per-step .csv outputs, and there is none" +
                     (options.fps
                          ? std::string(" (with --fps, .csv outputs are film frames at that rate)")
                          : std::string()));
  if (!options.avoidance_model.empty() && options.avoidance_model != "detour" &&
      options.backend == "detour")
    throw UsageError("--avoidance " + options.avoidance_model +
                     ": the detour backend runs DetourCrowd, which samples velocities for every "
                     "agent; use --backend cpu or cuda");
  if (options.solver.row_sort_interval > 0 && options.backend == "detour")
    throw UsageError("--sort-rows: the detour backend keeps DetourCrowd's own agent arrays; use "
                     "--backend cpu or cuda");
  if (!options.checkpoint.empty() && options.backend == "detour")
    throw CheckpointError(options.checkpoint +
                          ": checkpoints need the cpu or cuda backend: DetourCrowd's internal "
                          "state cannot be saved");
}

SimulationOptions simulation_options(const RunOptions& options, const SplitRun& split) {
  SimulationOptions sim_options;
  sim_options.agent_share = split.agent_share();
  sim_options.backend = parse_backend_kind(options.backend);
  // Split across ranks, each rank of a node on its own GPU (when the cuda backend runs).
  if (sim_options.agent_share != nullptr)
    sim_options.cuda_device = split.local_rank();
  // The rank that writes the metrics observes for them; every rank measures its agents' share
  // of what costs.
  sim_options.observe = split.speaks();
  sim_options.observation_split = split.observation_split();
  sim_options.solver = options.solver;
  sim_options.solver.threads = split.threads_of_this_rank(options.threads);
  sim_options.stuck_seconds = options.stuck_seconds;
  if (!options.standoff.empty())
    sim_options.standoff = parse_standoff_rule(options.standoff);
  if (!options.arrival.empty())
    sim_options.arrival = parse_arrival_rule(options.arrival);
  if (!options.avoidance_model.empty())
    sim_options.avoidance_model = parse_avoidance_model(options.avoidance_model);
  return sim_options;
}

/// The trajectory and film outputs of a run. Per-step trajectories get every K-th step; film
/// exports get every step, resampled.
struct RunOutputs {
  std::vector<std::unique_ptr<FrameSink>> step_sinks;
  std::unique_ptr<FilmResampler> film;
  std::shared_ptr<const CharacterCast> cast; ///< Who each film character is.

  RunOutputs(const RunOptions& options, const Simulation& sim) {
    const double fps = options.fps.value_or(kDefaultFps);
    std::vector<std::unique_ptr<FrameSink>> film_sinks;
    for (const std::string& out : options.out) {
      const OutputFormat format = output_format_for(out, options.fps.has_value());
      (is_film_format(format) ? film_sinks : step_sinks)
          .push_back(make_output_sink(format, out, fps));
    }
    if (!film_sinks.empty()) {
      // The same film options as `crowd render --fps` (host/sim/film_of_run.h).
      FilmOfRun of_run = film_of_run(sim, options.max_turn_rate, options.start_frame,
                                     options.preroll, options.handles);
      cast = of_run.cast;
      film = std::make_unique<FilmResampler>(fps, std::move(film_sinks), std::move(of_run.options));
    }
  }
  std::vector<FrameSink*> all() const {
    std::vector<FrameSink*> sinks;
    for (const auto& sink : step_sinks)
      sinks.push_back(sink.get());
    if (film)
      sinks.push_back(film.get());
    return sinks;
  }
};

/// Writes the checkpoint: the run record, the simulation, then every output's state. Split
/// across ranks, every rank takes part (the state is gathered) and rank 0 writes.
class Checkpointer {
public:
  Checkpointer(const RunOptions& options, int total_steps, InputFingerprints inputs,
               SplitRun& split)
      : options_(with_absolute_paths(options)), total_steps_(total_steps),
        inputs_(std::move(inputs)), split_(split) {}

  bool due(int step) const {
    return !options_.checkpoint.empty() && step < total_steps_ &&
           step % options_.checkpoint_every.value_or(kDefaultCheckpointEvery) == 0;
  }
  bool enabled() const { return !options_.checkpoint.empty(); }
  /// A checkpoint of this run exists: one was written, or the run was resumed from one.
  bool exists() const { return written_ || resumed_; }
  void mark_resumed() { resumed_ = true; }

  void write(const Simulation& sim, const RunOutputs& outputs, ProgressReporter& progress) const {
    const auto start = std::chrono::steady_clock::now();
    split_.gather_state_for_checkpoint();
    written_ = true;
    if (!split_.speaks())
      return;
    ArchiveWriter body;
    save_run_record(body, options_, total_steps_, inputs_);
    sim.save_checkpoint(body);
    for (FrameSink* sink : outputs.all())
      sink->save(body);
    write_checkpoint_file(options_.checkpoint, body);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    progress.end_line();
    std::fprintf(stderr, "checkpoint at step %d: %s (%.1f MB, %.0f ms)\n", sim.step_index(),
                 options_.checkpoint.c_str(), static_cast<double>(body.bytes().size()) / 1e6, ms);
  }

private:
  RunOptions options_;
  int total_steps_;
  InputFingerprints inputs_;
  SplitRun& split_;
  mutable bool written_ = false;
  bool resumed_ = false;
};

/// The loop shared by run and resume: steps sim.step_index() + 1 .. total_steps, delivers the
/// frames, writes checkpoints, then finishes outputs and metrics.
int run_steps(const RunOptions& options, Simulation& sim, RunOutputs& outputs, int total_steps,
              Checkpointer& checkpointer, SplitRun& split) {
  std::vector<std::string> types;
  const auto frame = [&] {
    for (int id = static_cast<int>(types.size()); id < sim.agent_count(); ++id)
      types.push_back(sim.agent_type(id));
    FrameView view;
    view.number = sim.step_index();
    view.time = sim.time();
    view.positions = sim.positions();
    view.velocities = sim.velocities();
    view.phases = sim.phases();
    view.types = types;
    return view;
  };
  const auto deliver_steps = [&] {
    const FrameView view = frame();
    for (const auto& sink : outputs.step_sinks)
      sink->write_frame(view);
  };
  const auto deliver_film = [&] {
    if (outputs.film)
      outputs.film->write_frame(frame());
  };

  // From here on, SIGINT / SIGTERM end the run at a step boundary with complete outputs.
  const InterruptSignals signals;
  const int first = sim.step_index() + 1;
  if (first == 1) {
    deliver_steps();
    deliver_film();
  }
  // --quiet: no progress and no summary; warnings, checkpoint notices and errors still.
  ProgressReporter progress(total_steps, stderr, 2.0, options.quiet);
  // Split across ranks, every rank stops at the step the first signal reached any of them.
  int interrupted_by = split.agreed_signal(signals.received());
  bool stop = interrupted_by != 0;
  std::size_t faults_seen = sim.faults().size(); // a resumed run warned of these already
  for (int s = first; s <= total_steps && !stop; ++s) {
    sim.step();
    if (split.speaks())
      warn_new_faults(sim, faults_seen, progress);
    interrupted_by = split.agreed_signal(signals.received());
    stop = interrupted_by != 0;
    const bool written_step = s % options.every == 0 || s == total_steps;
    const auto outputs_start = std::chrono::steady_clock::now();
    if (written_step)
      deliver_steps();
    deliver_film();
    // The outputs observe the step: their time is the metrics' stage_ms.observe too.
    sim.record_observer_time(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - outputs_start)
            .count());
    // Interrupted: a last checkpoint here, before the stop frame below, which an
    // uninterrupted run would not have (resume cuts the outputs back to the checkpoint).
    if (checkpointer.due(s) || (stop && s < total_steps && checkpointer.enabled()))
      checkpointer.write(sim, outputs, progress);
    // The last step run is always written, whether the run ends or is interrupted.
    if (stop && !written_step)
      deliver_steps();
    progress.update(s, sim.last_step_ms());
  }
  progress.finish();
  // A signal after the last step's check still marks the run interrupted, on every rank alike.
  interrupted_by = split.agreed_signal(signals.received());
  const MetricsSummary summary = sim.metrics();
  // Complete: a last checkpoint at the final step, so that resuming it says so instead of
  // looking for output streams that are finished.
  if (interrupted_by == 0 && checkpointer.enabled() && sim.step_index() >= total_steps)
    checkpointer.write(sim, outputs, progress);
  std::vector<std::filesystem::path> kept;
  // Interrupted with a checkpoint to resume from: keep the streams it names.
  const bool resumable =
      interrupted_by != 0 && checkpointer.exists() && sim.step_index() < total_steps;
  if (resumable)
    for (FrameSink* sink : outputs.all())
      for (auto& path : sink->keep_streams_after_finish())
        kept.push_back(std::move(path));
  for (FrameSink* sink : outputs.all())
    sink->finish();
  if (!options.metrics.empty()) {
    nlohmann::ordered_json json = to_json(summary);
    json["host_memory_bytes"] = sim.host_memory_bytes();
    if (interrupted_by != 0)
      json["interrupted"] = true;
    write_file_atomically(options.metrics, json.dump(2) + "\n");
  }
  if (!options.quiet) {
    print_summary(summary, stdout);
    std::fputs(split.traffic_summary(split.threads_of_this_rank(options.threads)).c_str(), stdout);
  }
  if (interrupted_by != 0 && !split.speaks())
    return 128 + interrupted_by;
  if (interrupted_by != 0) {
    std::fflush(stdout);
    std::fprintf(stderr, "interrupted by %s at step %d: outputs hold steps 0..%d\n",
                 signal_name(interrupted_by), summary.steps, summary.steps);
    if (resumable) {
      for (const auto& path : kept)
        std::fprintf(stderr, "kept %s for crowd resume\n", path.c_str());
      std::fprintf(stderr, "continue with: crowd resume %s\n", options.checkpoint.c_str());
    }
    return 128 + interrupted_by;
  }
  return 0;
}

Scenario load_run_scenario(const RunOptions& options) {
  Scenario scenario = load_scenario(options.scenario);
  if (options.steps)
    scenario.steps = *options.steps;
  return scenario;
}

/// The run's steps: the scenario's (or --steps), and as many more as the film preroll and the
/// handles after the shot need, so the shot itself keeps the scenario's length.
int run_step_count(const RunOptions& options, const Scenario& scenario) {
  const std::optional<int> total =
      film_run_steps(scenario.step_count(), scenario.dt, options.fps.value_or(kDefaultFps),
                     options.preroll, options.handles);
  if (!total)
    throw UsageError("--preroll and --handles make the run longer than " + std::to_string(INT_MAX) +
                     " steps");
  return *total;
}

/// The scenario file and the files it reads, whose change makes a checkpoint unusable.
std::vector<std::filesystem::path> input_files(const RunOptions& options,
                                               const Scenario& scenario) {
  std::vector<std::filesystem::path> files{options.scenario};
  if (scenario.world.is_mesh())
    files.push_back(scenario.world.mesh);
  return files;
}

} // namespace

int run_command(const RunOptions& given, RankGroup* ranks) {
  SplitRun split(ranks);
  std::optional<CommandError> error;
  try {
    check_options(given);
  } catch (...) {
    error = describe_command_error(given.scenario);
  }
  if (const std::optional<int> exit_code = split.agree_on_setup(error))
    return *exit_code;
  const RunOptions options = split.options_of_this_rank(given);
  const ThreadLimit thread_limit(split.threads_of_this_rank(options.threads));
  std::optional<Simulation> sim;
  std::optional<RunOutputs> outputs;
  std::optional<Checkpointer> checkpointer;
  int total_steps = 0;
  InputFingerprints inputs;
  try {
    Scenario scenario = load_run_scenario(options);
    total_steps = run_step_count(options, scenario);
    // A checkpoint keeps them; ranks compare them.
    if (!options.checkpoint.empty() || split.agent_share() != nullptr)
      inputs = InputFingerprints::of(input_files(options, scenario));
    sim.emplace(std::move(scenario), simulation_options(options, split));
    // A checkpoint names the outputs' temporaries: absolute, so resume works from anywhere.
    outputs.emplace(options.checkpoint.empty() ? options : with_absolute_paths(options), *sim);
    checkpointer.emplace(options, total_steps, inputs, split);
  } catch (...) {
    error = describe_command_error(options.scenario);
  }
  if (const std::optional<int> exit_code = split.agree_on_setup(error))
    return *exit_code;
  if (const std::optional<int> exit_code = split.agree_on_inputs(inputs.files, options.scenario))
    return *exit_code;
  try {
    return run_steps(options, *sim, *outputs, total_steps, *checkpointer, split);
  } catch (...) {
    return split.fail_while_stepping(describe_command_error(options.scenario));
  }
}

int resume_command(const ResumeOptions& resume, RankGroup* ranks) {
  SplitRun split(ranks);
  std::optional<CommandError> error;
  std::optional<ThreadLimit> thread_limit; // the checkpoint's --threads, or the one given
  std::optional<Simulation> sim;
  std::optional<RunOutputs> outputs;
  std::optional<Checkpointer> checkpointer;
  RunOptions options;
  int total_steps = 0;
  bool complete = false;
  std::uint64_t checkpoint_checksum = 0; // every rank's checkpoint must hold the same state
  try {
    const CheckpointBody body(resume.checkpoint);
    checkpoint_checksum = body.checksum();
    ArchiveReader in = body.reader();
    RunRecord record = restore_run_record(in);
    record.inputs.check_unchanged(resume.checkpoint);
    if (resume.threads)
      record.options.threads = *resume.threads;
    record.options.quiet = record.options.quiet || resume.quiet;
    check_options(record.options);
    options = split.options_of_this_rank(record.options);
    thread_limit.emplace(split.threads_of_this_rank(options.threads));
    total_steps = record.total_steps;
    Scenario scenario = load_run_scenario(options);
    if (run_step_count(options, scenario) != total_steps)
      in.fail("the run's step count does not match the scenario");
    sim.emplace(std::move(scenario), simulation_options(options, split));
    sim->restore_checkpoint(in);
    complete = sim->step_index() >= total_steps;
    if (!complete) {
      outputs.emplace(options, *sim);
      // The outputs' state follows the simulation's; a rank without outputs leaves it unread.
      for (FrameSink* sink : outputs->all())
        sink->restore(in);
      if (split.speaks() && !in.at_end())
        in.fail("bytes left after the last output's state");
      if (split.speaks())
        std::fprintf(stderr, "resuming %s at step %d of %d\n", options.scenario.c_str(),
                     sim->step_index(), total_steps);
      checkpointer.emplace(options, total_steps, record.inputs, split);
      checkpointer->mark_resumed();
    }
  } catch (...) {
    error = describe_command_error(resume.checkpoint);
  }
  if (const std::optional<int> exit_code = split.agree_on_setup(error))
    return *exit_code;
  if (const std::optional<int> exit_code =
          split.agree_on_inputs({{resume.checkpoint, checkpoint_checksum}}, resume.checkpoint))
    return *exit_code;
  if (complete) {
    if (split.speaks()) {
      std::string written;
      for (const std::string& out : options.out)
        written += (written.empty() ? "" : ", ") + out;
      std::fprintf(stderr, "%s: the run is already complete: all %d steps were run%s\n",
                   resume.checkpoint.c_str(), total_steps,
                   written.empty() ? "" : (" and its outputs written (" + written + ")").c_str());
    }
    return 0;
  }
  try {
    return run_steps(options, *sim, *outputs, total_steps, *checkpointer, split);
  } catch (...) {
    return split.fail_while_stepping(describe_command_error(resume.checkpoint));
  }
}

} // namespace crowd
