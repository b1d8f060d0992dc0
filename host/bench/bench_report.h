// What `crowd bench` prints and saves: the comparison table and the JSON of every figure.
#pragma once

#include "host/bench/bench_runner.h"

#include <cstdio>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace crowd {

/// The fixed-width table: one row per (agents, backend); skipped and failed runs name the
/// reason in place of their figures.
std::string bench_table(const std::vector<BenchRun>& runs);

/// With --domains: one row per run of the domain figures (DomainTally); "" when none has them.
std::string bench_domain_table(const std::vector<BenchRun>& runs);

/// Every figure: the machine (cores, threads used, CUDA), the scene family, steps, and one
/// entry per run ("status" ran / skipped / failed, "reason" for the last two).
nlohmann::ordered_json bench_json(const std::vector<BenchRun>& runs, const BenchOptions& options);

/// The worker threads the cpu backend uses for `threads` (0 = all cores).
int bench_threads_used(int threads);

} // namespace crowd
