// `crowd verify`: the RiMEA verification suite (docs/verification.md) on one backend.
#pragma once

#include <string>
#include <vector>

namespace crowd {

struct VerifyCommandOptions {
  std::string backend = "auto"; ///< auto, cpu, cuda, detour
  std::string model = "detour"; ///< Avoidance model; only "detour" exists so far.
  std::string out;              ///< Report JSON ("" = none).
  std::vector<int> only;        ///< Test numbers to run; empty = all.
  bool fast = false;            ///< Reduced scenarios (CTest).
  int threads = 0;              ///< cpu backend workers; 0 = all cores.
  std::string write_scenarios;  ///< Write the scenario files here and run nothing.
};

/// Runs the tests, prints one line per test to stdout and progress to stderr, writes the
/// report, and returns the exit code: 0 when every test passed, 1 when one failed (or a file
/// could not be written), 2 for bad options (one message on stderr).
int verify_command(const VerifyCommandOptions& options);

} // namespace crowd
