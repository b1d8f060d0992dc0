// Every agent placed in a spatial domain (DomainSplit), step after step: the split is kept
// while it stays balanced and bisected again when the largest domain holds more than
// (1 + tolerance) times the mean work (plus one agent's: an agent's work is a small whole
// number, 1 each for a balance by agent count); a rebalance moves the cuts along the axes they
// had (DomainSplit::bisect_along). What both the split of a run across MPI ranks
// (mpi_agent_share.h) and its one-process model (domain_tally.h) place agents with.
//
// The result depends only on the positions and work given, at this call and the earlier
// ones (whose cuts' axes a rebalance keeps), never on calls on other processes: every rank
// places the same agents in the same domains.
#pragma once

#include "host/distributed/domain_split.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class DomainAssignment {
public:
  /// `domains` >= 1 (fewer are raised to 1); `tolerance` >= 0.
  explicit DomainAssignment(int domains, float tolerance = 0.1f);

  /// Places agents 0 .. positions.size() - 1 (work[i]: agent i's share of the balance, 0 for
  /// an absent agent, which is placed by its position all the same). The first call bisects.
  void place(std::span<const glm::vec3> positions, std::span<const std::uint8_t> work);

  int domains() const { return domains_; }
  /// Each agent's domain at the last place().
  std::span<const int> domain_of_agents() const { return domain_; }
  /// Present agents (work > 0) per domain at the last place().
  std::span<const int> present_per_domain() const { return present_count_; }
  /// Work per domain at the last place().
  std::span<const long long> work_per_domain() const { return work_sum_; }
  const DomainSplit& split() const { return split_; }
  /// Bisections after the first.
  long long rebalances() const { return rebalances_; }
  /// Agents present at two consecutive place() calls whose domain changed between them.
  long long migrations() const { return migrations_; }

private:
  void count_domains(std::span<const glm::vec3> positions, std::span<const std::uint8_t> work);

  int domains_;
  float tolerance_;
  DomainSplit split_;
  bool split_made_ = false;
  std::vector<int> domain_, present_count_;
  std::vector<long long> work_sum_;
  std::vector<int> previous_domain_; ///< -1 where absent at the last call.
  long long rebalances_ = 0;
  long long migrations_ = 0;
};

} // namespace crowd
