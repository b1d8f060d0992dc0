// The processes one run is split across (MPI ranks under mpirun), as the command line sees
// them: which one this is, the collectives a run's control flow needs, and the split of the
// kernel stages (cuda/core/agent_share.h). Nothing here names MPI: a build without it never
// makes one (host/cli/launcher_ranks.h refuses several ranks there).
#pragma once

#include "cuda/core/agent_share.h"
#include "host/output/observation_split.h"

#include <cstdint>
#include <memory>
#include <string>

namespace crowd {

/// What the split of one run did, as one rank counted it.
struct RankTraffic {
  int ranks = 1;
  int steps = 0;                  ///< Steps whose kernel stages were split.
  double mean_owned = 0;          ///< Agents this rank computed, per step.
  double mean_ghosts = 0;         ///< Agents of other ranks whose rows it read, per step.
  double bytes_sent = 0;          ///< Per step: what this rank sent (once, whatever the ranks).
  double bytes_received = 0;      ///< Per step: what the other ranks sent it.
  double migrations_per_step = 0; ///< Agents whose domain changed from one step to the next.
  long long rebalances = 0;       ///< Bisections after the first.
  long long jobs_shared = 0;      ///< Path trees built on one rank and sent to the others.
  /// Once the corridor phases are split (the cpu backend): the agents whose corridor phases
  /// this rank ran, per step; the rebalances of their own domains; and the agents, all ranks
  /// together, whose corridor row's holder lent part of it to their owner, per step.
  double mean_corridor_owned = 0;
  long long corridor_rebalances = 0;
  double lent_per_step = 0;
};

class RankGroup {
public:
  virtual ~RankGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// This rank's index among the ranks on the same machine (shared memory).
  virtual int local_rank() const = 0;
  /// How many ranks run on this rank's machine, this one included.
  virtual int local_size() const = 0;
  /// The largest `value` of any rank; a collective (every rank calls it, in the same order).
  virtual int max_over_ranks(int value) = 0;
  /// Whether every rank passed the same `value`; a collective.
  virtual bool alike_on_every_rank(std::uint64_t value) = 0;
  /// Stops every rank at once with `exit_code`: for a rank that fails where the others may be
  /// waiting for it in a collective.
  [[noreturn]] virtual void abort(int exit_code) = 0;
  /// The split of the kernel stages among the ranks, for the solver (SimulationOptions).
  virtual AgentShare& agent_share() = 0;
  /// The split of the observers' per-agent work among the ranks (SimulationOptions).
  virtual ObservationSplit& observation_split() = 0;
  virtual RankTraffic traffic() const = 0;
};

#if defined(CROWD_HAS_MPI)
/// MPI started (MPI_Init_thread, MPI_THREAD_FUNNELED: only the main thread calls MPI) on
/// MPI_COMM_WORLD; MPI_Finalize when the group is destroyed.
std::unique_ptr<RankGroup> make_mpi_rank_group(int& argc, char**& argv);
#endif

} // namespace crowd
