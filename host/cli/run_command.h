// `crowd run`: simulate a scenario and write the outputs of shared/spec/outputs.md.
#pragma once

#include "host/sim/solver_options.h"

#include <optional>
#include <string>

namespace crowd {

struct RunOptions {
  std::string scenario;
  std::string backend = "auto";
  std::optional<int> steps;    ///< Overrides the scenario's steps/duration.
  int threads = 0;             ///< 0 = all cores.
  std::string out;             ///< Trajectory CSV ("" = none).
  int every = 1;               ///< Write every K-th step.
  std::string metrics;         ///< Metrics JSON ("" = none).
  bool quiet = false;          ///< No summary.
  double stuck_seconds = 10.0; ///< No progress this long = stuck, replanned (0 = off).
  SolverOptions solver;        ///< Tunables of the cpu/cuda backends (threads is set above).
};

/// Runs and returns the process exit code; prints errors to stderr.
int run_command(const RunOptions& options);

} // namespace crowd
