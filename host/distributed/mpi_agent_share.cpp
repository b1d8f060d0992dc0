#include "host/distributed/mpi_agent_share.h"

#include "cuda/kernels/corridor_following.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

namespace crowd {

namespace {

int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

std::vector<AgentColumn> reach_columns(const std::vector<StageColumn>& listed, ColumnReach reach) {
  std::vector<AgentColumn> out;
  for (const StageColumn& c : listed)
    if (c.reach == reach)
      out.push_back(c.column);
  return out;
}

/// Whether row `row` of `column` is zero bytes only.
bool zero_row(const AgentColumn& column, std::int32_t row) {
  const std::byte* at = column.data + static_cast<std::size_t>(row) * column.bytes_per_agent;
  return std::all_of(at, at + column.bytes_per_agent,
                     [](std::byte b) { return b == std::byte{0}; });
}

} // namespace

MpiAgentShare::MpiAgentShare(MPI_Comm comm)
    : comm_(comm), size_(size_of(comm)), domains_(size_), corridor_domains_(size_) {
  MPI_Comm_rank(comm_, &rank_);
  owned_by_.resize(ranks());
  corridor_by_.resize(ranks());
  ghosts_from_.resize(ranks());
  ghosts_to_.resize(ranks());
  counts_.resize(ranks());
  offsets_.resize(ranks());
  receive_counts_.resize(ranks());
  receive_offsets_.resize(ranks());
}

void MpiAgentShare::assign(AgentArrays& agents) {
  arrays_ = &agents;
  const std::size_t n = static_cast<std::size_t>(agents.count());
  // The placements' inputs, which every rank must hold alike to place alike: the positions and
  // each agent's work, whose zero is an absent agent's (so one digest says both), by agent id.
  corridor_work(agents);
  const std::span<const glm::vec3> positions = agents.by_id(agents.position, position_by_id_);
  require_alike(std::as_bytes(positions), "agent positions");
  require_alike(std::as_bytes(std::span<const std::uint8_t>(corridor_work_)),
                corridors_split_ ? "agents present and following a corridor" : "agents present");
  placed_work_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    placed_work_[i] = corridor_work_[i] != 0 ? 1 : 0;
  domains_.place(positions, placed_work_);
  const std::span<const int> domain = domains_.domain_of_agents();
  owner_.assign(domain.begin(), domain.end());
  place_corridors(positions);
  // Every agent has an owner, present or not: the split stages run for every agent in one
  // process, and whatever they write for an inactive one must be the same here.
  list_by_rank(owner_, owned_by_);
  list_by_rank(corridor_owner_, corridor_by_);

  // Migration: an agent's kept rows go from the rank that computed it last to the one that
  // computes it now, the split stages' to its owner and its corridor row to its holder.
  // Unsplit, the corridor rows stay every rank's (nothing travels) and their holder is the
  // owner.
  migrate(split_columns(agents, [](ColumnReach r) { return r == ColumnReach::OwnerKept; }),
          stage_holder_, owner_);
  // A corridor row travels as far as it is in use (its polygons and corners), as it does to
  // the host: the rest of its capacity is never read.
  migrate(corridors_split_ ? corridor_phase_columns(agents).kept : std::vector<AgentColumn>{},
          holder_, corridor_owner_, /*in_use=*/true);
  kept_alike_.resize(n, 1); // the agents added since: every rank computed them
  if (corridors_split_)
    lend_corridor_rows(agents);
  ++steps_;
  owned_sum_ += static_cast<double>(owned().size());
  corridor_owned_sum_ += static_cast<double>(corridor_owned().size());
}

const MpiAgentShare::PerRank& MpiAgentShare::rows_of(const PerRank& ids, PerRank& scratch) const {
  if (arrays_ == nullptr || arrays_->agent_row.empty())
    return ids;
  scratch.resize(ids.size());
  for (std::size_t r = 0; r < ids.size(); ++r)
    scratch[r] = arrays_->rows_of(ids[r]);
  return scratch;
}

void MpiAgentShare::corridor_work(const AgentArrays& agents) {
  // The corridor phases cost most for the agents that follow a corridor (the corners and the
  // shortcut); the rest only move along the navmesh. Unsplit, only presence counts. By id.
  const auto n = static_cast<std::size_t>(agents.count());
  const auto rows = static_cast<std::size_t>(agents.corridors.count());
  corridor_work_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto row = static_cast<std::size_t>(agents.row_of(static_cast<std::int32_t>(i)));
    const bool follows =
        corridors_split_ && row < rows && (agents.corridors.state[row] & kCorridorFollow) != 0;
    corridor_work_[i] = agents.mode[row] == kAgentInactive ? 0
                        : follows                          ? kFollowingWork
                                                           : kMovingWork;
  }
}

void MpiAgentShare::place_corridors(std::span<const glm::vec3> positions) {
  if (!corridors_split_) {
    corridor_owner_ = owner_;
    return;
  }
  // Balancing the corridor phases on their own split, rather than with the kernel stages',
  // keeps every rank busy in both: each phase ends in an exchange (docs/distributed-model.md,
  // "Balance by work").
  corridor_domains_.place(positions, corridor_work_);
  const std::span<const int> corridor_domain = corridor_domains_.domain_of_agents();
  corridor_owner_.assign(corridor_domain.begin(), corridor_domain.end());
}

void MpiAgentShare::list_by_rank(const std::vector<int>& rank_of, PerRank& lists) {
  for (auto& list : lists)
    list.clear();
  for (std::size_t i = 0; i < rank_of.size(); ++i)
    lists[static_cast<std::size_t>(rank_of[i])].push_back(static_cast<std::int32_t>(i));
}

void MpiAgentShare::migrate(const std::vector<AgentColumn>& columns, std::vector<int>& holder,
                            const std::vector<int>& to_rank, bool in_use) {
  // Every rank lists the same moves from the same holders, so both sides know what travels.
  holder.resize(to_rank.size(), -1);
  PerRank send(ranks()), receive(ranks());
  bool any_moved = false; // anywhere: every rank sees every move, and so skips alike
  for (std::size_t i = 0; i < to_rank.size(); ++i) {
    const int from = holder[i], to = to_rank[i];
    if (from < 0 || from == to)
      continue;
    any_moved = true;
    list_move(static_cast<std::int32_t>(i), from, to, send, receive);
  }
  if (any_moved && !columns.empty())
    exchange_rows(columns, send, receive, in_use);
  holder = to_rank;
}

void MpiAgentShare::list_move(std::int32_t agent, int from, int to, PerRank& send,
                              PerRank& receive) const {
  if (from == rank_)
    send[static_cast<std::size_t>(to)].push_back(agent);
  if (to == rank_)
    receive[static_cast<std::size_t>(from)].push_back(agent);
}

void MpiAgentShare::lend_corridor_rows(AgentArrays& agents) {
  // What the split stages read of an owned agent's corridor row (corridor_phase_columns'
  // read_by_owner) goes from the row's holder to the agent's owner, where those differ and the
  // row is not every rank's alike: the preferred velocity, and where the agent's avoidance
  // steers by its corridor (the time-to-collision model's corridor reference) the rest. The
  // owner's copy is only read; the holder's stays the row.
  const CorridorPhaseColumns columns = corridor_phase_columns(agents);
  PerRank send[2] = {PerRank(ranks()), PerRank(ranks())};
  PerRank receive[2] = {PerRank(ranks()), PerRank(ranks())};
  bool any[2] = {false, false}; // anywhere: every rank lists every lend, and so skips alike
  for (std::size_t i = 0; i < owner_.size(); ++i) {
    const int from = corridor_owner_[i], to = owner_[i];
    if (kept_alike_[i] || from == to)
      continue;
    const auto row = static_cast<std::size_t>(agents.row_of(static_cast<std::int32_t>(i)));
    const AvoidanceParams& avoidance =
        agents.avoidance_params[static_cast<std::size_t>(agents.avoidance_set[row])];
    const int by_corridor =
        avoidance.model == kAvoidanceTtc && avoidance.ttc.reference == kTtcCorridor ? 1 : 0;
    any[by_corridor] = true;
    list_move(static_cast<std::int32_t>(i), from, to, send[by_corridor], receive[by_corridor]);
    ++lent_sum_;
  }
  if (any[0])
    exchange_rows(columns.to_neighbours, send[0], receive[0], true); // the preferred velocity
  if (any[1])
    exchange_rows(columns.read_by_owner, send[1], receive[1], true);
}

void MpiAgentShare::share(AgentArrays& agents, KernelStage stage) {
  const std::vector<StageColumn> columns = stage_output_columns(agents, stage);
  const std::vector<AgentColumn> everyone = reach_columns(columns, ColumnReach::Everyone);
  if (!everyone.empty())
    all_gather_rows(everyone, stage_name(stage), owned_by_);
  if (stage == KernelStage::Proximity) {
    find_ghosts(agents);
    if (corridors_split_) // what the owner's corridor phases wrote that neighbours read
      exchange_rows(corridor_phase_columns(agents).to_neighbours, ghosts_to_, ghosts_from_);
  }
  const std::vector<AgentColumn> ghost_rows = reach_columns(columns, ColumnReach::Neighbours);
  if (!ghost_rows.empty())
    exchange_rows(ghost_rows, ghosts_to_, ghosts_from_);
}

void MpiAgentShare::find_ghosts(const AgentArrays& agents) {
  const std::size_t n = static_cast<std::size_t>(agents.count());
  wanted_.assign(n, 0);
  const auto row = static_cast<std::size_t>(agents.max_neighbors);
  for (const std::int32_t i : owned()) {
    const auto k = static_cast<std::size_t>(agents.row_of(i));
    for (std::int32_t t = 0; t < agents.neighbor_count[k]; ++t) {
      // A neighbour list names rows; the owners go by id.
      const auto j = static_cast<std::size_t>(
          agents.id_of(agents.neighbor_index[k * row + static_cast<std::size_t>(t)]));
      if (owner_[j] != rank_)
        wanted_[j] = 1;
    }
  }
  for (auto& ghosts : ghosts_from_)
    ghosts.clear();
  for (std::size_t j = 0; j < n; ++j)
    if (wanted_[j]) {
      ghosts_from_[static_cast<std::size_t>(owner_[j])].push_back(static_cast<std::int32_t>(j));
      ++ghost_sum_;
    }
  ghosts_to_ = exchange_lists(ghosts_from_);
}

void MpiAgentShare::gather_everything() {
  if (arrays_ == nullptr)
    return; // no step split yet: every rank's rows are the same
  all_gather_rows(split_columns(*arrays_, [](ColumnReach r) { return r != ColumnReach::Everyone; }),
                  "the agents' state", owned_by_);
  if (corridors_split_)
    all_gather_rows(corridor_phase_columns(*arrays_).kept, "the corridor rows", corridor_by_);
  stage_holder_.assign(static_cast<std::size_t>(arrays_->count()), -1);
  holder_.assign(static_cast<std::size_t>(arrays_->count()), -1);
  kept_alike_.assign(static_cast<std::size_t>(arrays_->count()), 1);
}

void MpiAgentShare::kept_rows_changed() {
  // The phases ran for corridor_owned(), the last assign()'s: after gather_everything() (a
  // checkpoint) the rows are that holder's again, and move with the agent at the next assign().
  const std::size_t placed = corridor_owner_.size();
  holder_.resize(placed, -1);
  kept_alike_.resize(placed, 1);
  for (std::size_t i = 0; i < placed; ++i) {
    kept_alike_[i] = 0;
    holder_[i] = corridor_owner_[i];
  }
}

void MpiAgentShare::fetch_kept_rows(std::span<const std::int32_t> which) {
  if (arrays_ != nullptr)
    send_from_holders(corridor_phase_columns(*arrays_).kept, which, true);
}

void MpiAgentShare::fetch_rows(const std::vector<AgentColumn>& columns,
                               std::span<const std::int32_t> which) {
  send_from_holders(columns, which, false);
}

void MpiAgentShare::send_from_holders(const std::vector<AgentColumn>& columns,
                                      std::span<const std::int32_t> which, bool alike) {
  // Every rank lists the same rows from the same holders, so each knows which rows every part
  // holds; a column's rows travel only as far as they are in use (AgentColumn::used), so the
  // parts' lengths are gathered first.
  PerRank from(ranks());
  bool any = false;
  for (const std::int32_t i : which) {
    const auto k = static_cast<std::size_t>(i);
    if (k >= kept_alike_.size() || kept_alike_[k])
      continue;
    from[static_cast<std::size_t>(holder_[k])].push_back(i);
    any = true;
  }
  // Alike everywhere: every rank skips alike, and one rank alone may ask (rank 0 writing a
  // checkpoint, after gather_everything()).
  if (!any)
    return;
  require_alike(std::as_bytes(which), "lists of the corridor rows the host reads");
  for (std::size_t r = 0; r < ranks(); ++r) {
    std::sort(from[r].begin(), from[r].end());
    from[r].erase(std::unique(from[r].begin(), from[r].end()), from[r].end());
  }
  // The arrays' kept rows are found by row; the caller's own columns (fetch_rows) are by id.
  const PerRank& at = alike ? rows_of(from, receive_rows_) : from;
  send_.resize(used_bytes(columns, at[rank()]));
  pack_used_rows(columns, at[rank()], send_.data());
  const std::vector<std::byte> all = all_gather_sized(send_, "corridor rows");
  for (std::size_t r = 0; r < ranks(); ++r) {
    if (r != rank())
      unpack_used_rows(columns, at[r], all.data() + offsets_[r]);
    if (alike)
      for (const std::int32_t i : from[r])
        kept_alike_[static_cast<std::size_t>(i)] = 1;
  }
}

bool MpiAgentShare::alike_on_every_rank(std::uint64_t value) {
  std::uint64_t range[2] = {value, ~value}; // the largest of both: the max and the min
  MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_UINT64_T, MPI_MAX, comm_);
  return range[0] == value && ~range[1] == value;
}

void MpiAgentShare::require_alike(std::span<const std::byte> bytes, const char* what) {
  // What every rank computes for every agent must be the same bytes on every rank; a rank whose
  // bytes parted ways would decide otherwise and wait in an exchange the others skip. A digest
  // (FNV-1a's step, 8 bytes at a time: a step's positions in well under a millisecond), its
  // largest and smallest over the ranks, tells it at once, as an error.
  constexpr std::uint64_t kPrime = 1099511628211ull;
  std::uint64_t digest = 14695981039346656037ull ^ bytes.size();
  std::size_t at = 0;
  for (; at + sizeof(std::uint64_t) <= bytes.size(); at += sizeof(std::uint64_t)) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, sizeof word);
    digest = (digest ^ word) * kPrime;
  }
  for (; at < bytes.size(); ++at)
    digest = (digest ^ std::to_integer<std::uint64_t>(bytes[at])) * kPrime;
  if (!alike_on_every_rank(digest))
    throw std::logic_error(std::string("MPI split: the ranks hold different ") + what +
                           " (a bug in crowd: the ranks parted ways)");
}

void MpiAgentShare::share_changed_rows(const std::vector<AgentColumn>& columns,
                                       std::span<const std::byte> before, const char* what) {
  all_gather_rows(columns, what, corridor_by_, before);
}

void MpiAgentShare::share_rows(const std::vector<AgentColumn>& columns, const char* what) {
  all_gather_rows(columns, what, corridor_by_);
}

std::vector<std::int32_t> MpiAgentShare::gather_agents(std::span<const std::int32_t> mine) {
  const std::vector<std::byte> all = all_gather_sized(std::as_bytes(mine), "agent lists");
  std::vector<std::int32_t> agents(all.size() / sizeof(std::int32_t));
  if (!agents.empty()) // an empty vector's data() may be null
    std::memcpy(agents.data(), all.data(), all.size());
  std::sort(agents.begin(), agents.end());
  agents.erase(std::unique(agents.begin(), agents.end()), agents.end());
  return agents;
}

void MpiAgentShare::combine(std::span<long long> sums, std::span<double> maxima) {
  // Integer sums and maxima: the same whatever order the ranks' parts come in.
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_LONG_LONG, MPI_SUM,
                comm_);
  MPI_Allreduce(MPI_IN_PLACE, maxima.data(), static_cast<int>(maxima.size()), MPI_DOUBLE, MPI_MAX,
                comm_);
}

std::span<const std::uint8_t> MpiAgentShare::measured_here(std::size_t count) {
  // owner_ is the last assign()'s (none before the first: rank 0 measures everyone). Every
  // observer of a step asks: the flags are found once a step.
  if (measured_step_ == steps_ && measured_.size() == count)
    return measured_;
  measured_step_ = steps_;
  measured_.assign(count, rank_ == 0 ? 1 : 0);
  const std::size_t assigned = std::min(count, owner_.size());
  for (std::size_t i = 0; i < assigned; ++i)
    measured_[i] = owner_[i] == rank_ ? 1 : 0;
  return measured_;
}

void MpiAgentShare::gather(std::span<double> values) {
  // What rank r measured of the assigned agents is owned_by_[r], ascending: every rank knows
  // it, so only the values travel. Rank 0 measured its own and the agents added since itself.
  const std::size_t assigned = std::min(values.size(), owner_.size());
  const auto assigned_of = [&](std::size_t r) {
    const std::vector<std::int32_t>& owned = owned_by_[r];
    return static_cast<std::size_t>(
        std::lower_bound(owned.begin(), owned.end(), static_cast<std::int32_t>(assigned)) -
        owned.begin());
  };
  std::vector<long long> bytes(ranks());
  for (std::size_t r = 1; r < ranks(); ++r)
    bytes[r] = static_cast<long long>(assigned_of(r) * sizeof(double));
  fit_counts(bytes, counts_, offsets_, "observations");
  const std::vector<AgentColumn> column{
      {reinterpret_cast<std::byte*>(values.data()), sizeof(double)}};
  const auto measured_by = [&](std::size_t r) {
    return std::span<const std::int32_t>(owned_by_[r]).first(assigned_of(r));
  };
  send_.resize(static_cast<std::size_t>(counts_[rank()]));
  if (rank_ != 0)
    pack_rows(column, measured_by(rank()), send_.data());
  if (rank_ == 0)
    gathered_.resize(static_cast<std::size_t>(offsets_.back() + counts_.back()));
  MPI_Gatherv(send_.data(), counts_[rank()], MPI_BYTE, gathered_.data(), counts_.data(),
              offsets_.data(), MPI_BYTE, 0, comm_);
  sent_sum_ += static_cast<double>(counts_[rank()]);
  if (rank_ != 0)
    return;
  received_sum_ += static_cast<double>(gathered_.size());
  for (std::size_t r = 1; r < ranks(); ++r)
    unpack_rows(column, measured_by(r), gathered_.data() + offsets_[r]);
}

void MpiAgentShare::reduce(std::span<long long> sums, std::span<double> maxima) {
  // Integer sums and maxima: the same whatever order the ranks' parts come in.
  std::vector<long long> summed(sums.size());
  std::vector<double> largest(maxima.size());
  MPI_Reduce(sums.data(), summed.data(), static_cast<int>(sums.size()), MPI_LONG_LONG, MPI_SUM, 0,
             comm_);
  MPI_Reduce(maxima.data(), largest.data(), static_cast<int>(maxima.size()), MPI_DOUBLE, MPI_MAX, 0,
             comm_);
  if (rank_ != 0)
    return;
  std::copy(summed.begin(), summed.end(), sums.begin());
  std::copy(largest.begin(), largest.end(), maxima.begin());
}

void MpiAgentShare::fit_counts(const std::vector<long long>& per_rank, std::vector<int>& counts,
                               std::vector<int>& offsets, const char* what) {
  long long total = 0;
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    if (total + per_rank[r] > INT_MAX)
      throw std::runtime_error("MPI split: " + std::to_string(total + per_rank[r]) + " bytes of " +
                               what +
                               " in one exchange, more than one MPI call carries (2^31 - 1): run "
                               "on more ranks");
    counts[r] = static_cast<int>(per_rank[r]);
    offsets[r] = static_cast<int>(total);
    total += per_rank[r];
  }
}

std::vector<std::byte> MpiAgentShare::all_gather_bytes(std::span<const std::byte> mine,
                                                       const std::vector<long long>& bytes,
                                                       const char* what) {
  fit_counts(bytes, counts_, offsets_, what);
  std::vector<std::byte> all(static_cast<std::size_t>(offsets_.back() + counts_.back()));
  MPI_Allgatherv(mine.data(), counts_[rank()], MPI_BYTE, all.data(), counts_.data(),
                 offsets_.data(), MPI_BYTE, comm_);
  sent_sum_ += static_cast<double>(mine.size());
  received_sum_ += static_cast<double>(all.size() - mine.size());
  return all;
}

std::vector<std::byte> MpiAgentShare::all_gather_sized(std::span<const std::byte> mine,
                                                       const char* what) {
  auto mine_bytes = static_cast<long long>(mine.size());
  std::vector<long long> bytes(ranks());
  MPI_Allgather(&mine_bytes, 1, MPI_LONG_LONG, bytes.data(), 1, MPI_LONG_LONG, comm_);
  if (std::all_of(bytes.begin(), bytes.end(), [](long long b) { return b == 0; }))
    return {}; // nothing anywhere: every rank skips the gather alike
  return all_gather_bytes(mine, bytes, what);
}

void MpiAgentShare::all_gather_rows(const std::vector<AgentColumn>& columns, const char* what,
                                    const PerRank& by,
                                    std::optional<std::span<const std::byte>> before) {
  // Column by column, a rank whose rows are mostly zero bytes (the collision passes'
  // displacements of the agents that touch nobody, the fault bits), or mostly as they were
  // (the positions the corridor move left), sends only the others, each after its agent's id,
  // where that is fewer bytes; the receivers zero the rows it left out, or keep theirs. Every
  // rank learns every rank's count of such rows per column first, and so how each rank's part
  // is laid out: its columns one after the other, each dense (its owned rows) or sparse.
  constexpr std::size_t kId = sizeof(std::int32_t);
  const std::size_t width = columns.size();
  const bool changed_only = before.has_value();
  const std::size_t row_size = row_bytes(columns);
  const PerRank& rows = rows_of(by, send_rows_);
  const std::span<const std::int32_t> mine = by[rank()], my_rows = rows[rank()];
  nonzero_.resize(width);
  std::vector<long long> my_counts(width);
  std::size_t column_at = 0; // column c's offset in a packed row
  for (std::size_t c = 0; c < width; ++c) {
    nonzero_[c].clear();
    const std::size_t bytes = columns[c].bytes_per_agent;
    for (std::size_t k = 0; k < mine.size(); ++k) {
      const std::int32_t i = my_rows[k];
      const bool alike = changed_only
                             ? std::memcmp(columns[c].data + static_cast<std::size_t>(i) * bytes,
                                           before->data() + k * row_size + column_at, bytes) == 0
                             : zero_row(columns[c], i);
      if (!alike)
        nonzero_[c].push_back(mine[k]); // sent by id
    }
    my_counts[c] = static_cast<long long>(nonzero_[c].size());
    column_at += bytes;
  }
  const std::vector<std::byte> gathered_counts = all_gather_bytes(
      std::as_bytes(std::span<const long long>(my_counts)),
      std::vector<long long>(ranks(), static_cast<long long>(width * sizeof(long long))),
      "row counts");
  // Per rank and column: the rows sent sparse (-1: dense).
  std::vector<long long> sparse_rows(ranks() * width), bytes(ranks(), 0);
  for (std::size_t r = 0; r < ranks(); ++r)
    for (std::size_t c = 0; c < width; ++c) {
      long long nonzero = 0;
      std::memcpy(&nonzero, gathered_counts.data() + (r * width + c) * sizeof(long long),
                  sizeof(long long));
      const auto row = static_cast<long long>(columns[c].bytes_per_agent);
      const auto dense = static_cast<long long>(by[r].size()) * row;
      const long long sparse = nonzero * (row + static_cast<long long>(kId));
      sparse_rows[r * width + c] = sparse < dense ? nonzero : -1;
      bytes[r] += sparse < dense ? sparse : dense;
    }
  send_.resize(static_cast<std::size_t>(bytes[rank()]));
  std::byte* out = send_.data();
  for (std::size_t c = 0; c < width; ++c) {
    const std::vector<AgentColumn> column{columns[c]};
    if (sparse_rows[rank() * width + c] < 0) {
      out = pack_rows(column, my_rows, out);
      continue;
    }
    for (const std::int32_t i : nonzero_[c]) {
      const std::int32_t row = row_of(i);
      std::memcpy(out, &i, kId);
      out = pack_rows(column, std::span<const std::int32_t>(&row, 1), out + kId);
    }
  }
  const std::vector<std::byte> all = all_gather_bytes(send_, bytes, what);
  for (std::size_t r = 0; r < ranks(); ++r) {
    if (r == rank())
      continue;
    const std::byte* in = all.data() + offsets_[r];
    for (std::size_t c = 0; c < width; ++c) {
      const std::vector<AgentColumn> column{columns[c]};
      const long long sent = sparse_rows[r * width + c];
      if (sent < 0) {
        in = unpack_rows(column, rows[r], in);
        continue;
      }
      const std::size_t row_size_c = columns[c].bytes_per_agent;
      if (!changed_only)
        for (const std::int32_t row : rows[r])
          std::memset(columns[c].data + static_cast<std::size_t>(row) * row_size_c, 0, row_size_c);
      for (long long k = 0; k < sent; ++k) {
        std::int32_t i = 0;
        std::memcpy(&i, in, kId);
        const std::int32_t row = row_of(i);
        in = unpack_rows(column, std::span<const std::int32_t>(&row, 1), in + kId);
      }
    }
  }
}

std::vector<std::byte> MpiAgentShare::all_to_all_bytes(std::span<const std::byte> send,
                                                       const std::vector<long long>& send_bytes,
                                                       const std::vector<long long>& receive_bytes,
                                                       const char* what) {
  fit_counts(send_bytes, counts_, offsets_, what);
  fit_counts(receive_bytes, receive_counts_, receive_offsets_, what);
  std::vector<std::byte> received(
      static_cast<std::size_t>(receive_offsets_.back() + receive_counts_.back()));
  MPI_Alltoallv(send.data(), counts_.data(), offsets_.data(), MPI_BYTE, received.data(),
                receive_counts_.data(), receive_offsets_.data(), MPI_BYTE, comm_);
  sent_sum_ += static_cast<double>(send.size());
  received_sum_ += static_cast<double>(received.size());
  return received;
}

MpiAgentShare::PerRank MpiAgentShare::exchange_lists(const PerRank& to) {
  constexpr auto kId = static_cast<long long>(sizeof(std::int32_t));
  std::vector<int> send_lengths(ranks()), receive_lengths(ranks());
  for (std::size_t r = 0; r < ranks(); ++r)
    send_lengths[r] = static_cast<int>(to[r].size());
  MPI_Alltoall(send_lengths.data(), 1, MPI_INT, receive_lengths.data(), 1, MPI_INT, comm_);
  std::vector<std::int32_t> flat;
  std::vector<long long> send_bytes(ranks()), receive_bytes(ranks());
  for (std::size_t r = 0; r < ranks(); ++r) {
    flat.insert(flat.end(), to[r].begin(), to[r].end());
    send_bytes[r] = send_lengths[r] * kId;
    receive_bytes[r] = receive_lengths[r] * kId;
  }
  const std::vector<std::byte> received =
      all_to_all_bytes(std::as_bytes(std::span<const std::int32_t>(flat)), send_bytes,
                       receive_bytes, "ghost requests");
  PerRank from(ranks());
  for (std::size_t r = 0; r < ranks(); ++r) {
    from[r].resize(static_cast<std::size_t>(receive_lengths[r]));
    if (receive_lengths[r] > 0) // an empty list's data() may be null
      std::memcpy(from[r].data(), received.data() + receive_offsets_[r],
                  static_cast<std::size_t>(receive_bytes[r]));
  }
  return from;
}

void MpiAgentShare::exchange_rows(const std::vector<AgentColumn>& columns, const PerRank& send_ids,
                                  const PerRank& receive_ids, bool in_use) {
  // Whole rows: both sides know every part's length. The parts in use: only the sender does,
  // so the lengths travel first. Both sides list the agents by id, each finding their rows.
  const PerRank& send = rows_of(send_ids, send_rows_);
  const PerRank& receive = rows_of(receive_ids, receive_rows_);
  const std::size_t row = row_bytes(columns);
  std::vector<long long> send_bytes(ranks()), receive_bytes(ranks());
  for (std::size_t r = 0; r < ranks(); ++r) {
    send_bytes[r] =
        static_cast<long long>(in_use ? used_bytes(columns, send[r]) : send[r].size() * row);
    receive_bytes[r] = static_cast<long long>(receive[r].size() * row);
  }
  if (in_use)
    MPI_Alltoall(send_bytes.data(), 1, MPI_LONG_LONG, receive_bytes.data(), 1, MPI_LONG_LONG,
                 comm_);
  send_.resize(
      static_cast<std::size_t>(std::accumulate(send_bytes.begin(), send_bytes.end(), 0LL)));
  std::byte* out = send_.data();
  for (std::size_t r = 0; r < ranks(); ++r)
    out = in_use ? pack_used_rows(columns, send[r], out) : pack_rows(columns, send[r], out);
  const std::vector<std::byte> received =
      all_to_all_bytes(send_, send_bytes, receive_bytes, "agent rows");
  const std::byte* in = received.data();
  for (std::size_t r = 0; r < ranks(); ++r)
    in = in_use ? unpack_used_rows(columns, receive[r], in) : unpack_rows(columns, receive[r], in);
}

std::vector<std::vector<std::byte>>
MpiAgentShare::share_jobs(std::size_t count, const std::vector<std::vector<std::byte>>& mine) {
  // Job k is rank k mod size's (k / size)-th: first every job's length, then the bytes, each
  // gathered rank after rank and put back into job order.
  const auto rank_of = [&](std::size_t k) { return k % ranks(); };
  std::vector<long long> my_lengths;
  for (const std::vector<std::byte>& result : mine)
    my_lengths.push_back(static_cast<long long>(result.size()));
  std::vector<long long> per_rank(ranks(), 0);
  for (std::size_t k = 0; k < count; ++k)
    per_rank[rank_of(k)] += static_cast<long long>(sizeof(long long));
  const std::vector<std::byte> gathered_lengths = all_gather_bytes(
      std::as_bytes(std::span<const long long>(my_lengths)), per_rank, "path tree length");
  std::vector<long long> lengths(count);
  for (std::size_t k = 0; k < count; ++k)
    std::memcpy(&lengths[k],
                gathered_lengths.data() + offsets_[rank_of(k)] + (k / ranks()) * sizeof(long long),
                sizeof(long long));

  std::fill(per_rank.begin(), per_rank.end(), 0);
  for (std::size_t k = 0; k < count; ++k)
    per_rank[rank_of(k)] += lengths[k];
  std::vector<std::byte> send;
  send.reserve(static_cast<std::size_t>(per_rank[rank()]));
  for (const std::vector<std::byte>& result : mine)
    send.insert(send.end(), result.begin(), result.end());
  const std::vector<std::byte> gathered = all_gather_bytes(send, per_rank, "path tree");
  std::vector<std::size_t> at(ranks());
  for (std::size_t r = 0; r < ranks(); ++r)
    at[r] = static_cast<std::size_t>(offsets_[r]);
  std::vector<std::vector<std::byte>> all(count);
  for (std::size_t k = 0; k < count; ++k) {
    std::size_t& from = at[rank_of(k)];
    const auto length = static_cast<std::size_t>(lengths[k]);
    if (rank_of(k) != rank()) // this rank's own results are where it built them
      all[k].assign(gathered.begin() + static_cast<std::ptrdiff_t>(from),
                    gathered.begin() + static_cast<std::ptrdiff_t>(from + length));
    from += length;
  }
  jobs_shared_ += static_cast<long long>(count);
  return all;
}

RankTraffic MpiAgentShare::traffic() const {
  RankTraffic t;
  t.ranks = size_;
  t.steps = steps_;
  t.rebalances = domains_.rebalances();
  t.corridor_rebalances = corridor_domains_.rebalances();
  t.jobs_shared = jobs_shared_;
  if (steps_ == 0)
    return t;
  t.mean_owned = owned_sum_ / steps_;
  t.mean_corridor_owned = corridor_owned_sum_ / steps_;
  t.lent_per_step = static_cast<double>(lent_sum_) / steps_;
  t.mean_ghosts = static_cast<double>(ghost_sum_) / steps_;
  t.bytes_sent = sent_sum_ / steps_;
  t.bytes_received = received_sum_ / steps_;
  t.migrations_per_step =
      steps_ > 1 ? static_cast<double>(domains_.migrations()) / (steps_ - 1) : 0.0;
  return t;
}

} // namespace crowd
