#include "host/distributed/mpi_agent_share.h"

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
  long long total = 0;
  for (int r = 0; r < size_; ++r) {
    const auto k = static_cast<std::size_t>(r);
    const long long bytes = static_cast<long long>(owned_by_[k].size() * row);
    if (total + bytes > INT_MAX)
      throw std::runtime_error(
          "MPI split: " + std::to_string(total + bytes) + " bytes of " + stage_name(stage) +
          " results in one exchange, more than one MPI_Allgatherv carries (2^31 - 1): run on more "
          "ranks");
    counts_[k] = static_cast<int>(bytes);
    offsets_[k] = static_cast<int>(total);
    total += bytes;
  }
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

RankTraffic MpiAgentShare::traffic() const {
  RankTraffic t;
  t.ranks = size_;
  t.steps = steps_;
  t.rebalances = domains_.rebalances();
  if (steps_ == 0)
    return t;
  t.mean_owned = owned_sum_ / steps_;
  t.bytes_sent = sent_sum_ / steps_;
  t.bytes_received = received_sum_ / steps_;
  t.migrations_per_step =
      steps_ > 1 ? static_cast<double>(domains_.migrations()) / (steps_ - 1) : 0.0;
  return t;
}

} // namespace crowd
