#include "host/distributed/mpi_agent_share.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace crowd {

namespace {

int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

} // namespace

MpiAgentShare::MpiAgentShare(MPI_Comm comm) : comm_(comm), size_(size_of(comm)), domains_(size_) {
  MPI_Comm_rank(comm_, &rank_);
  owned_by_.resize(static_cast<std::size_t>(size_));
  counts_.resize(static_cast<std::size_t>(size_));
  offsets_.resize(static_cast<std::size_t>(size_));
}

void MpiAgentShare::assign(const AgentArrays& agents) {
  const std::size_t n = static_cast<std::size_t>(agents.count());
  present_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    present_[i] = agents.mode[i] != kAgentInactive ? 1 : 0;
  domains_.place(agents.position, present_);
  for (auto& owned : owned_by_)
    owned.clear();
  // Every agent has an owner, present or not: the split stages run for every agent in one
  // process, and whatever they write for an inactive one must be the same here.
  const std::span<const int> domain = domains_.domain_of_agents();
  for (std::size_t i = 0; i < n; ++i)
    owned_by_[static_cast<std::size_t>(domain[i])].push_back(static_cast<std::int32_t>(i));
  ++steps_;
  owned_sum_ += static_cast<double>(owned().size());
}

void MpiAgentShare::share(AgentArrays& agents, KernelStage stage) {
  const std::vector<AgentColumn> columns = stage_output_columns(agents, stage);
  if (size_ == 1 || columns.empty())
    return;
  std::size_t row = 0; // bytes of one agent, every column
  for (const AgentColumn& c : columns)
    row += c.bytes_per_agent;

  // One block per rank, agent after agent in its owned order, each agent's columns in turn.
  std::vector<long long> per_rank(static_cast<std::size_t>(size_));
  for (std::size_t r = 0; r < per_rank.size(); ++r)
    per_rank[r] = static_cast<long long>(owned_by_[r].size() * row);
  fit_counts(per_rank, stage_name(stage));
  const long long total = offsets_.back() + counts_.back();
  const std::span<const std::int32_t> mine = owned();
  send_.resize(mine.size() * row);
  std::byte* out = send_.data();
  for (const std::int32_t i : mine)
    for (const AgentColumn& c : columns) {
      std::memcpy(out, c.data + static_cast<std::size_t>(i) * c.bytes_per_agent, c.bytes_per_agent);
      out += c.bytes_per_agent;
    }
  receive_.resize(static_cast<std::size_t>(total));
  MPI_Allgatherv(send_.data(), counts_[static_cast<std::size_t>(rank_)], MPI_BYTE, receive_.data(),
                 counts_.data(), offsets_.data(), MPI_BYTE, comm_);
  for (int r = 0; r < size_; ++r) {
    if (r == rank_)
      continue;
    const std::byte* in = receive_.data() + offsets_[static_cast<std::size_t>(r)];
    for (const std::int32_t i : owned_by_[static_cast<std::size_t>(r)])
      for (const AgentColumn& c : columns) {
        std::memcpy(c.data + static_cast<std::size_t>(i) * c.bytes_per_agent, in,
                    c.bytes_per_agent);
        in += c.bytes_per_agent;
      }
  }
  sent_sum_ += static_cast<double>(send_.size());
  received_sum_ += static_cast<double>(total) - static_cast<double>(send_.size());
}

void MpiAgentShare::fit_counts(const std::vector<long long>& per_rank, const char* what) {
  long long total = 0;
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    if (total + per_rank[r] > INT_MAX)
      throw std::runtime_error("MPI split: " + std::to_string(total + per_rank[r]) + " bytes of " +
                               what +
                               " results in one exchange, more than one MPI_Allgatherv carries "
                               "(2^31 - 1): run on more ranks");
    counts_[r] = static_cast<int>(per_rank[r]);
    offsets_[r] = static_cast<int>(total);
    total += per_rank[r];
  }
}

std::vector<std::vector<std::byte>>
MpiAgentShare::share_jobs(std::size_t count, const std::vector<std::vector<std::byte>>& mine) {
  std::vector<std::vector<std::byte>> all(count);
  if (size_ == 1) {
    for (std::size_t k = 0; k < count; ++k)
      all[k] = mine[k];
    return all;
  }
  const auto ranks = static_cast<std::size_t>(size_);
  // First every job's length (job k is rank k mod size's (k / size)-th), then the bytes.
  std::vector<long long> lengths(count, 0), my_lengths;
  for (const std::vector<std::byte>& result : mine)
    my_lengths.push_back(static_cast<long long>(result.size()));
  std::vector<long long> per_rank(ranks, 0);
  for (std::size_t k = 0; k < count; ++k)
    per_rank[k % ranks] += static_cast<long long>(sizeof(long long));
  fit_counts(per_rank, "path tree length");
  std::vector<long long> gathered(count);
  MPI_Allgatherv(my_lengths.data(), counts_[static_cast<std::size_t>(rank_)], MPI_BYTE,
                 gathered.data(), counts_.data(), offsets_.data(), MPI_BYTE, comm_);
  // gathered holds rank 0's jobs, then rank 1's, ...: back into job order.
  std::vector<std::size_t> first_of_rank(ranks, 0);
  for (std::size_t r = 1; r < ranks; ++r)
    first_of_rank[r] =
        first_of_rank[r - 1] + static_cast<std::size_t>(counts_[r - 1]) / sizeof(long long);
  for (std::size_t k = 0; k < count; ++k)
    lengths[k] = gathered[first_of_rank[k % ranks] + k / ranks];

  std::fill(per_rank.begin(), per_rank.end(), 0);
  for (std::size_t k = 0; k < count; ++k)
    per_rank[k % ranks] += lengths[k];
  fit_counts(per_rank, "path tree");
  std::vector<std::byte> send;
  for (const std::vector<std::byte>& result : mine)
    send.insert(send.end(), result.begin(), result.end());
  std::vector<std::byte> receive(static_cast<std::size_t>(offsets_.back() + counts_.back()));
  MPI_Allgatherv(send.data(), counts_[static_cast<std::size_t>(rank_)], MPI_BYTE, receive.data(),
                 counts_.data(), offsets_.data(), MPI_BYTE, comm_);
  std::vector<std::size_t> at(ranks);
  for (std::size_t r = 0; r < ranks; ++r)
    at[r] = static_cast<std::size_t>(offsets_[r]);
  for (std::size_t k = 0; k < count; ++k) {
    std::size_t& from = at[k % ranks];
    const auto length = static_cast<std::size_t>(lengths[k]);
    all[k].assign(receive.begin() + static_cast<std::ptrdiff_t>(from),
                  receive.begin() + static_cast<std::ptrdiff_t>(from + length));
    from += length;
  }
  jobs_sent_sum_ += static_cast<double>(send.size());
  jobs_received_sum_ += static_cast<double>(receive.size() - send.size());
  jobs_shared_ += static_cast<long long>(count);
  return all;
}

RankTraffic MpiAgentShare::traffic() const {
  RankTraffic t;
  t.ranks = size_;
  t.steps = steps_;
  t.rebalances = domains_.rebalances();
  t.jobs_shared = jobs_shared_;
  if (steps_ == 0)
    return t;
  t.mean_owned = owned_sum_ / steps_;
  t.bytes_sent = (sent_sum_ + jobs_sent_sum_) / steps_;
  t.bytes_received = (received_sum_ + jobs_received_sum_) / steps_;
  t.migrations_per_step =
      steps_ > 1 ? static_cast<double>(domains_.migrations()) / (steps_ - 1) : 0.0;
  return t;
}

} // namespace crowd
