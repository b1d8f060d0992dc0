#include "host/cli/split_run.h"

#include "host/cli/thread_limit.h"

#include <cstdio>
#include <string>
#include <sys/resource.h>

namespace crowd {

SplitRun::SplitRun(RankGroup* ranks) : ranks_(ranks) {}

RunOptions SplitRun::options_of_this_rank(RunOptions options) const {
  if (speaks())
    return options;
  options.out.clear();
  options.metrics.clear();
  options.quiet = true;
  return options;
}

namespace {

/// This process's largest resident memory so far, in MB (getrusage: Linux counts it in KB). A
/// rank holds every agent's rows, so rank 0's is every rank's, near enough
/// (docs/distributed-model.md, "Memory per rank").
double peak_resident_mb() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0)
    return 0.0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

} // namespace

int SplitRun::threads_of_this_rank(int requested) const {
  if (requested > 0 || ranks_ == nullptr)
    return requested;
  return share_of_cores(ranks_->local_size());
}

std::optional<int> SplitRun::agree_on_setup(const std::optional<CommandError>& error) {
  if (ranks_ == nullptr) {
    if (error)
      return error->print();
    return std::nullopt;
  }
  const int exit_code = ranks_->max_over_ranks(error ? error->exit_code : 0);
  if (exit_code == 0)
    return std::nullopt;
  // The lowest failing rank says why: a bad input fails every rank alike, and is said once.
  const int first_failing = -ranks_->max_over_ranks(error ? -ranks_->rank() : -ranks_->size());
  if (error && ranks_->rank() == first_failing)
    error->print();
  return exit_code;
}

std::optional<int>
SplitRun::agree_on_inputs(const std::vector<std::pair<std::string, std::uint64_t>>& files,
                          const std::string& about) {
  if (ranks_ == nullptr)
    return std::nullopt;
  std::string differing;
  if (!ranks_->alike_on_every_rank(files.size())) {
    differing = "not even the same number of files"; // a mesh world on some ranks only
  } else {
    for (const auto& [name, fingerprint] : files)
      if (!ranks_->alike_on_every_rank(fingerprint))
        differing += (differing.empty() ? "" : ", ") + name;
  }
  if (differing.empty())
    return std::nullopt;
  constexpr int kExitCode = 2; // bad input
  if (speaks())
    CommandError{"error: " + about + ": the ranks read different inputs (" + differing +
                     "): every rank must read the same files",
                 kExitCode}
        .print();
  return kExitCode;
}

int SplitRun::fail_while_stepping(const CommandError& error) {
  const int exit_code = error.print();
  if (ranks_ != nullptr)
    ranks_->abort(exit_code);
  return exit_code;
}

void SplitRun::gather_state_for_checkpoint() {
  if (ranks_ != nullptr)
    ranks_->agent_share().gather_everything();
}

int SplitRun::agreed_signal(int received) {
  return ranks_ == nullptr ? received : ranks_->max_over_ranks(received);
}

std::string SplitRun::traffic_summary(int threads) const {
  if (ranks_ == nullptr)
    return "";
  const RankTraffic t = ranks_->traffic();
  char line[512];
  std::snprintf(line, sizeof line,
                "  split across %d ranks: rank 0 ran on %d thread%s and peaked at %.0f MB, "
                "computed %.0f agents a step and read %.0f ghosts, sent %.2f MB and received "
                "%.2f MB a step; %.1f migrations a step, %lld rebalances; %lld path trees built "
                "on one rank for all\n",
                t.ranks, threads, threads == 1 ? "" : "s", peak_resident_mb(), t.mean_owned,
                t.mean_ghosts, t.bytes_sent / 1e6, t.bytes_received / 1e6, t.migrations_per_step,
                t.rebalances, t.jobs_shared);
  std::string summary = line;
  if (t.mean_corridor_owned > 0) {
    std::snprintf(line, sizeof line,
                  "  corridors on domains of their own: rank 0 ran %.0f agents' a step, %lld "
                  "rebalances, %.0f rows lent to their owner a step\n",
                  t.mean_corridor_owned, t.corridor_rebalances, t.lent_per_step);
    summary += line;
  }
  return summary;
}

} // namespace crowd
