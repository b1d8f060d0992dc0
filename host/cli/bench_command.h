// `crowd bench`: the same generated scenes on every backend this machine has, side by side.
#pragma once

#include <string>
#include <vector>

namespace crowd {

struct BenchCommandOptions {
  std::vector<std::string> backends{"cpu", "cuda", "detour"};
  std::vector<int> agents{1000, 4000, 16000, 64000};
  int steps = 200;
  int threads = 0; ///< cpu backend workers; 0 = all cores.
  unsigned long long seed = 1;
  std::string out;          ///< JSON of every figure ("" = none).
  std::string plot;         ///< PNG plot ("" = none).
  std::string write_scenes; ///< Directory for the scene files ("" = none).
  int domains = 0;          ///< Observe the runs as split into this many domains (0 = not).
};

/// Runs the bench, prints the table to stdout and progress to stderr, writes the requested
/// files, and returns the process exit code: 0, 1 when a run failed or a file could not be
/// written, 2 for bad options (one message on stderr).
int bench_command(const BenchCommandOptions& options);

} // namespace crowd
