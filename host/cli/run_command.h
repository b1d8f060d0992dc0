// `crowd run`: simulate a scenario and write the outputs of shared/spec/outputs.md.
#pragma once

#include "cuda/core/solver_options.h"
#include "host/output/character_motion.h"
#include "host/output/film_resampler.h"

#include <optional>
#include <string>
#include <vector>

namespace crowd {

class RankGroup;

struct RunOptions {
  std::string scenario;
  std::string backend = "auto";
  std::optional<int> steps; ///< Overrides the scenario's steps/duration.
  int threads = 0;          ///< 0 = all cores.
  /// Trajectory and film outputs, format by extension (host/output/output_format.h).
  std::vector<std::string> out;
  int every = 1;             ///< Write every K-th step to per-step trajectories.
  std::optional<double> fps; ///< Film frame rate; given, it also makes .csv outputs film.
  /// Film characters' largest turn rate, degrees per second (host/output/character_motion.h).
  double max_turn_rate = CharacterMotion::kDefaultMaxTurnRateDegrees;
  /// Film shot framing (FilmOptions): the number of the frame at the end of the preroll, the
  /// seconds simulated before it (the run is that much longer), and the frames written before
  /// the start frame and after the shot's last frame (the run is that much longer too).
  int start_frame = kFilmStartFrame;
  double preroll = 0.0;
  int handles = 0;
  std::string metrics;         ///< Metrics JSON ("" = none).
  bool quiet = false;          ///< No summary.
  double stuck_seconds = 10.0; ///< No progress this long = stuck, replanned (0 = off).
  /// Scenario parameters `standoff` and `arrival`, and the avoidance model, for every agent
  /// ("" = as the scenario says; docs/scenario-extensions.md).
  std::string standoff, arrival, avoidance_model;
  SolverOptions solver; ///< Tunables of the cpu/cuda backends (threads is set above).
  /// Checkpoint file ("" = none), rewritten every `checkpoint_every` steps and when the run is
  /// interrupted (host/cli/run_checkpoint.h, host/checkpoint/).
  std::string checkpoint;
  std::optional<int> checkpoint_every; ///< Unset: kDefaultCheckpointEvery.
};

/// Steps between checkpoints when --checkpoint-every is not given: 100 s of a 0.1 s step.
inline constexpr int kDefaultCheckpointEvery = 1000;

/// `crowd resume`: the checkpoint, and what may differ from the run that wrote it.
struct ResumeOptions {
  std::string checkpoint;
  std::optional<int> threads; ///< Unset: the run's.
  bool quiet = false;
};

/// Default film frame rate.
inline constexpr double kDefaultFps = 24.0;

/// Runs and returns the process exit code; prints errors to stderr. SIGINT or SIGTERM
/// during the steps ends the run at the next step boundary with every output complete for
/// the steps run, and returns 128 + the signal number.
/// Under mpirun with several ranks (`ranks`, a build with MPI), each rank runs it: the kernel
/// stages are split among them and rank 0 writes and prints (host/cli/split_run.h).
int run_command(const RunOptions& options, RankGroup* ranks = nullptr);

/// Continues the run a checkpoint was written by, from its step to the run's last, with the
/// same outputs and checkpoints; ends like run_command. A checkpoint that cannot be used
/// (not one, another version, damaged, input files changed, an output's stream gone) exits 2
/// with one line naming the checkpoint and the problem.
/// Several ranks may resume the checkpoint of any number of ranks, as run_command splits.
int resume_command(const ResumeOptions& options, RankGroup* ranks = nullptr);

} // namespace crowd
