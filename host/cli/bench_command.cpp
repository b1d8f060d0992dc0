#include "host/cli/bench_command.h"

#include "host/bench/bench_plot.h"
#include "host/bench/bench_report.h"
#include "host/bench/bench_runner.h"
#include "host/checkpoint/atomic_file.h"
#include "host/cli/progress.h"
#include "host/cli/thread_limit.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace crowd {

namespace {

/// The most domains --domains observes (each agent is tested against every domain's halo).
constexpr int kMaxDomains = 1024;

/// Checks the options and turns them into the runner's, dropping repeated entries.
BenchOptions validate(const BenchCommandOptions& options) {
  BenchOptions bench;
  bench.backends.clear();
  bench.agents.clear();
  if (options.backends.empty())
    throw std::invalid_argument("--backends: give at least one of cpu, cuda, detour");
  for (const std::string& name : options.backends) {
    if (name != "cpu" && name != "cuda" && name != "detour")
      throw std::invalid_argument("--backends: unknown backend '" + name +
                                  "' (use cpu, cuda, detour)");
    const BackendKind kind = parse_backend_kind(name);
    if (std::find(bench.backends.begin(), bench.backends.end(), kind) == bench.backends.end())
      bench.backends.push_back(kind);
  }
  if (options.agents.empty())
    throw std::invalid_argument("--agents: give at least one agent count");
  for (const int agents : options.agents) {
    if (agents < 1)
      throw std::invalid_argument("--agents: every count must be >= 1, got " +
                                  std::to_string(agents));
    if (std::find(bench.agents.begin(), bench.agents.end(), agents) == bench.agents.end())
      bench.agents.push_back(agents);
  }
  if (options.steps < 1)
    throw std::invalid_argument("--steps must be >= 1, got " + std::to_string(options.steps));
  if (options.threads < 0)
    throw std::invalid_argument("--threads must be >= 0, got " + std::to_string(options.threads));
  bench.steps = options.steps;
  bench.threads = options.threads;
  bench.seed = options.seed;
  if (options.domains < 0 || options.domains > kMaxDomains)
    throw std::invalid_argument("--domains must be in [0, " + std::to_string(kMaxDomains) +
                                "], got " + std::to_string(options.domains));
  bench.write_scenes = options.write_scenes;
  bench.domains = options.domains;
  return bench;
}

} // namespace

int bench_command(const BenchCommandOptions& options) {
  BenchOptions bench;
  try {
    bench = validate(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  const ThreadLimit thread_limit(bench.threads);
  try {
    for (const auto& path : write_bench_scenes(bench))
      std::fprintf(stderr, "bench: wrote %s\n", path.c_str());

    std::unique_ptr<ProgressReporter> progress;
    BenchObserver observer;
    observer.run_started = [&](int agents, const std::string& backend) {
      std::fprintf(stderr, "bench: %d agents, %s: building the scene...\n", agents,
                   backend.c_str());
      std::fflush(stderr);
      progress = std::make_unique<ProgressReporter>(bench.steps);
    };
    observer.step_done = [&](int step, int, double last_step_ms) {
      if (progress)
        progress->update(step, last_step_ms);
    };
    observer.run_finished = [&](const BenchRun& run) {
      if (progress)
        progress->finish();
      progress.reset();
      if (run.status == BenchRun::Status::Ran)
        std::fprintf(stderr, "bench: %d agents, %s: %.3f ms per step (setup %.1f s)\n", run.agents,
                     run.backend.c_str(), run.step_ms_mean, run.setup_ms / 1000.0);
      else
        std::fprintf(stderr, "bench: %d agents, %s: %s: %s\n", run.agents, run.backend.c_str(),
                     run.status == BenchRun::Status::Skipped ? "skipped" : "failed",
                     run.reason.c_str());
      std::fflush(stderr);
    };
    const std::vector<BenchRun> runs = run_bench(bench, observer);

    const int threads = bench_threads_used(bench.threads);
    std::printf("crowd bench: %d steps of 0.1 s, %d cpu thread%s, crossing flows through "
                "pillars at 0.3 agents/m2\n",
                bench.steps, threads, threads == 1 ? "" : "s");
    std::fputs(bench_table(runs).c_str(), stdout);
    if (const std::string domains = bench_domain_table(runs); !domains.empty()) {
      std::printf("as if split into %d domains (recursive bisection by agent count; ghosts: other "
                  "domains' agents within the halo of a domain's box; migrations: agents that "
                  "changed domain since the step before):\n",
                  bench.domains);
      std::fputs(domains.c_str(), stdout);
    }
    std::fflush(stdout);

    if (!options.out.empty())
      write_file_atomically(options.out, bench_json(runs, bench).dump(2) + "\n");
    if (!options.plot.empty())
      write_bench_plot(runs, options.plot,
                       std::to_string(bench.steps) + " steps, " + std::to_string(threads) +
                           " cpu thread" + (threads == 1 ? "" : "s") +
                           ", crossing flows through pillars at 0.3 agents/m\u00b2");
    const bool failed = std::any_of(runs.begin(), runs.end(), [](const BenchRun& run) {
      return run.status == BenchRun::Status::Failed;
    });
    return failed ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

} // namespace crowd
