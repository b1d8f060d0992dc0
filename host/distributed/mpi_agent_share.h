// The split of the kernel stages (cuda/core/agent_share.h) across the ranks of an MPI
// communicator. Every rank holds every agent's arrays; each step every rank places the agents
// in spatial domains, one per rank, from the same positions (DomainAssignment), computes the
// split stages for its own domain's agents, and after each such stage MPI_Allgatherv brings
// every rank the results of the others. The same bytes reach every rank, so the step is the
// one-process step whatever the rank count. Only the main thread calls MPI.
#pragma once

#include "cuda/core/agent_share.h"
#include "host/distributed/domain_assignment.h"
#include "host/distributed/rank_group.h"

#include <cstddef>
#include <cstdint>
#include <mpi.h>
#include <vector>

namespace crowd {

class MpiAgentShare final : public AgentShare {
public:
  explicit MpiAgentShare(MPI_Comm comm);

  void assign(const AgentArrays& agents) override;
  std::span<const std::int32_t> owned() const override {
    return owned_by_[static_cast<std::size_t>(rank_)];
  }
  void share(AgentArrays& agents, KernelStage stage) override;
  /// Job k runs on rank k mod size.
  bool runs_job(std::size_t k) const override {
    return k % static_cast<std::size_t>(size_) == static_cast<std::size_t>(rank_);
  }
  std::vector<std::vector<std::byte>>
  share_jobs(std::size_t count, const std::vector<std::vector<std::byte>>& mine) override;

  RankTraffic traffic() const;

private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  DomainAssignment domains_;
  std::vector<std::uint8_t> present_;
  std::vector<std::vector<std::int32_t>> owned_by_; ///< Per rank, ascending.
  std::vector<std::byte> send_, receive_;
  std::vector<int> counts_, offsets_; ///< Bytes per rank, for MPI_Allgatherv.
  int steps_ = 0;
  double owned_sum_ = 0, sent_sum_ = 0, received_sum_ = 0;
  double jobs_sent_sum_ = 0, jobs_received_sum_ = 0; ///< Of share_jobs, all steps.
  long long jobs_shared_ = 0;
  /// Counts (ints, as MPI takes them) and offsets of one all-gather: `per_rank` bytes from
  /// each rank; throws when they pass what one MPI_Allgatherv carries.
  void fit_counts(const std::vector<long long>& per_rank, const char* what);
};

} // namespace crowd
