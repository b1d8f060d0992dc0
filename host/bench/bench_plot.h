// The bench plot: ms per step against agent count, log-log, one line per backend (PNG).
#pragma once

#include "host/bench/bench_runner.h"

#include <filesystem>
#include <string>
#include <vector>

namespace crowd {

/// Draws the runs that ran (skipped and failed ones are left out; the legend says which
/// backends have none) and writes a PNG under a temporary name, renamed into place when
/// complete. `subtitle` is printed under the title (steps, threads). Throws
/// std::runtime_error when the file cannot be written.
void write_bench_plot(const std::vector<BenchRun>& runs, const std::filesystem::path& png,
                      const std::string& subtitle);

} // namespace crowd
