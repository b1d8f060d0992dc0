// A `crowd run` or `crowd resume` on the ranks of an MPI run (RankGroup), or alone: the one
// place that knows what differs between the ranks. Every rank simulates the same scene (the
// kernel stages split among them); rank 0 alone writes the outputs, metrics and checkpoints
// and prints; a failure is said once and ends every rank with the same exit code; a signal
// stops every rank at the same step.
#pragma once

#include "host/cli/command_error.h"
#include "host/cli/run_command.h"
#include "host/distributed/rank_group.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace crowd {

class SplitRun {
public:
  /// `ranks`: the ranks of the run, or null for a process alone.
  explicit SplitRun(RankGroup* ranks);

  /// Whether this process prints and writes: rank 0, or a process alone.
  bool speaks() const { return ranks_ == nullptr || ranks_->rank() == 0; }
  /// `options` as this rank runs them: rank 0's unchanged; the others' without outputs,
  /// metrics or progress (they keep the checkpoint's, to gather the state at its steps).
  RunOptions options_of_this_rank(RunOptions options) const;
  /// This rank's index among the ranks on its machine (0 alone): its GPU.
  int local_rank() const { return ranks_ ? ranks_->local_rank() : 0; }
  /// The threads this rank runs on for `--threads requested`: those asked for; where none were
  /// (0), every core alone, and split, the rank's share of its machine's (share_of_cores). The
  /// options keep 0, so that a checkpoint resumed alone takes every core again.
  int threads_of_this_rank(int requested) const;
  /// The split of the kernel stages for SimulationOptions; null alone.
  AgentShare* agent_share() const { return ranks_ ? &ranks_->agent_share() : nullptr; }
  /// The split of the observers' per-agent work for SimulationOptions; null alone.
  ObservationSplit* observation_split() const {
    return ranks_ ? &ranks_->observation_split() : nullptr;
  }

  /// Once the setup (reading, navmesh, outputs opened) ended on this rank, `error` when it
  /// failed; every rank calls it. When any rank failed, the lowest of them prints its message
  /// and every rank gets the largest exit code to return; nothing when all succeeded.
  std::optional<int> agree_on_setup(const std::optional<CommandError>& error);
  /// Once the setup succeeded on every rank: whether every rank read the same inputs, `files`
  /// with their fingerprints (each rank's in the same order; the names are rank 0's). Where one
  /// differs (a file edited on one machine of a farm, copies that are not the same), every rank
  /// would simulate another scene and the ranks part ways mid-run: rank 0 names the files that
  /// differ, as `about`'s error, and every rank gets exit code 2. Nothing alone.
  std::optional<int>
  agree_on_inputs(const std::vector<std::pair<std::string, std::uint64_t>>& files,
                  const std::string& about);
  /// A failure while the ranks step together, where the others may wait for this one: it
  /// prints its message and ends them all with its exit code (alone: returns it).
  int fail_while_stepping(const CommandError& error);
  /// The signal that stops the run (0: none), the largest any rank received: every rank calls
  /// it at the same step boundary and gets the same answer.
  int agreed_signal(int received);
  /// Before a checkpoint, on every rank at the same step: every agent's state, which each rank
  /// keeps of its own agents only, gathered on every rank (AgentShare::gather_everything).
  void gather_state_for_checkpoint();
  /// One line of the split's traffic, for rank 0's summary ("" alone), which runs on `threads`.
  std::string traffic_summary(int threads) const;

private:
  RankGroup* ranks_;
};

} // namespace crowd
