// The split of the kernel stages (cuda/core/agent_share.h) across the ranks of an MPI
// communicator. Every rank holds every agent's rows; each step every rank places the agents in
// spatial domains, one per rank, from the same positions (DomainAssignment) and computes the
// split stages for its own domain's agents. Then, by each column's reach:
// - Everyone: MPI_Allgatherv of each rank's owned rows after the stage (only those that are
//   not zero bytes, each with its agent's id, where that is less);
// - Neighbours: after Proximity each rank asks the owner of every neighbour of its agents for
//   that agent's rows (MPI_Alltoallv of the ids), which the owner then sends after the stage
//   (MPI_Alltoallv): the rank's ghosts;
// - OwnerKept: at assign(), the rank an agent left sends its rows to the rank it entered
//   (MPI_Alltoallv): the migration;
// - every reach but Everyone: MPI_Allgatherv of all owned rows in gather_everything();
// - the corridor phases' rows (corridor_phase_columns), once split: they have domains of their
//   own, balanced by the corridor phases' work (an agent that follows a corridor weighs four
//   times one that only moves along the navmesh), since each phase ends in an exchange and so
//   needs every rank busy alike (docs/distributed-model.md, "Balance by work"). A row migrates
//   to its next holder as OwnerKept rows do, lends what the split stages read of it to the
//   agent's owner where that is another rank (MPI_Alltoallv of the parts in use), and the rows
//   the host asks for come from their holder (MPI_Allgatherv of the parts in use); the preferred
//   velocities travel with the ghost rows after Proximity.
// Every row a rank reads is so the row of one process computing every agent, whatever the rank
// count. Its per-agent state and lists go by agent id, and an agent's rows are found through
// AgentArrays::row_of, so the rows may be in any order (sorted by place); what travels names
// agents by id. Only the main thread calls MPI.
#pragma once

#include "cuda/core/agent_share.h"
#include "host/distributed/domain_assignment.h"
#include "host/distributed/rank_group.h"
#include "host/output/observation_split.h"

#include <cstddef>
#include <cstdint>
#include <mpi.h>
#include <optional>
#include <vector>

namespace crowd {

/// Also the observers' split (host/output/observation_split.h): a rank measures the agents it
/// owned at the last assign(), rank 0 those added since, and rank 0 combines (MPI_Gatherv of
/// per-agent values, MPI_Reduce of counts and maxima).
class MpiAgentShare final : public AgentShare, public ObservationSplit {
public:
  explicit MpiAgentShare(MPI_Comm comm);

  void assign(AgentArrays& agents) override;
  std::span<const std::int32_t> owned() const override { return owned_by_[rank()]; }
  void share(AgentArrays& agents, KernelStage stage) override;
  void gather_everything() override;
  /// Job k runs on rank k mod size.
  bool runs_job(std::size_t k) const override { return k % ranks() == rank(); }
  std::vector<std::vector<std::byte>>
  share_jobs(std::size_t count, const std::vector<std::vector<std::byte>>& mine) override;

  std::size_t assigned_count() const override { return owner_.size(); }
  std::span<const std::int32_t> corridor_owned() const override { return corridor_by_[rank()]; }
  void keep_corridor_rows() override { corridors_split_ = true; }
  void kept_rows_changed() override;
  bool splits_corridor_rows() const override { return corridors_split_; }
  bool computes_row(std::int32_t agent) const override {
    const auto k = static_cast<std::size_t>(agent);
    return k >= kept_alike_.size() || kept_alike_[k] || holder_[k] == rank_;
  }
  void fetch_kept_rows(std::span<const std::int32_t> which) override;
  void fetch_rows(const std::vector<AgentColumn>& columns,
                  std::span<const std::int32_t> which) override;
  void share_changed_rows(const std::vector<AgentColumn>& columns,
                          std::span<const std::byte> before, const char* what) override;
  void share_rows(const std::vector<AgentColumn>& columns, const char* what) override;
  std::vector<std::int32_t> gather_agents(std::span<const std::int32_t> mine) override;
  void combine(std::span<long long> sums, std::span<double> maxima) override;

  std::span<const std::uint8_t> measured_here(std::size_t count) override;
  bool combines_here() const override { return rank_ == 0; }
  void gather(std::span<double> values) override;
  void reduce(std::span<long long> sums, std::span<double> maxima) override;

  /// Whether every rank passed the same `value`; a collective.
  bool alike_on_every_rank(std::uint64_t value);
  int rank_index() const { return rank_; }
  int rank_count() const { return size_; }
  RankTraffic traffic() const;

private:
  /// Agent lists, one per rank, each ascending.
  using PerRank = std::vector<std::vector<std::int32_t>>;

  std::size_t rank() const { return static_cast<std::size_t>(rank_); }
  std::size_t ranks() const { return static_cast<std::size_t>(size_); }
  /// Rank r's `bytes[r]` bytes gathered on every rank, rank after rank (MPI_Allgatherv); `mine`
  /// is this rank's. Throws when the total passes what one MPI_Allgatherv carries.
  std::vector<std::byte> all_gather_bytes(std::span<const std::byte> mine,
                                          const std::vector<long long>& bytes, const char* what);
  /// As all_gather_bytes, each rank's byte count gathered first (MPI_Allgather), so that no rank
  /// needs to know what the others send; nothing more when every rank sends nothing.
  std::vector<std::byte> all_gather_sized(std::span<const std::byte> mine, const char* what);
  /// `send` holds `send_bytes[r]` bytes for each rank r in turn; returns what each rank r sent
  /// here (`receive_bytes[r]`, which the caller knows), rank after rank (MPI_Alltoallv), and
  /// leaves rank r's offset in receive_offsets_. Throws as all_gather_bytes.
  std::vector<std::byte> all_to_all_bytes(std::span<const std::byte> send,
                                          const std::vector<long long>& send_bytes,
                                          const std::vector<long long>& receive_bytes,
                                          const char* what);
  /// Sends `to[r]` to rank r and returns what each rank r sent here (MPI_Alltoallv), first the
  /// lengths (MPI_Alltoall), so no rank needs to know what the others send it.
  PerRank exchange_lists(const PerRank& to);
  /// The rows of `columns` of the agents `send[r]` go to rank r; those of `receive[r]` come
  /// from rank r and are written into `columns` (MPI_Alltoallv; both sides list the same agents
  /// in the same order). `in_use`: of each row only what is in use (AgentColumn::used), the
  /// byte counts travelling first (MPI_Alltoall).
  void exchange_rows(const std::vector<AgentColumn>& columns, const PerRank& send,
                     const PerRank& receive, bool in_use = false);
  /// Every rank's owned rows of `columns` written on every rank (all_gather_bytes). Where that
  /// sends less, the rows every rank holds alike are left out: without `before`, the rows that
  /// are zero bytes (the receivers zero them); with it (this rank's owned rows as they were,
  /// pack_rows), the rows that are as they were (the receivers keep theirs).
  void all_gather_rows(const std::vector<AgentColumn>& columns, const char* what, const PerRank& by,
                       std::optional<std::span<const std::byte>> before = std::nullopt);
  /// The rows of `columns` of every agent whose rank in `to_rank` differs from its `holder`
  /// (-1: every rank's alike) go there (exchange_rows, of each row only what is in use when
  /// `in_use`); `holder` then becomes `to_rank`.
  void migrate(const std::vector<AgentColumn>& columns, std::vector<int>& holder,
               const std::vector<int>& to_rank, bool in_use = false);
  /// Every agent's work in corridor_domains_ (corridor_work_): 0 for an absent one; once the
  /// corridor phases are split, kFollowingWork for one that follows a corridor.
  void corridor_work(const AgentArrays& agents);
  /// Once the corridor phases are split: every agent's corridor holder (corridor_owner_), from
  /// a placement of its own balanced by the corridor phases' work.
  void place_corridors(std::span<const glm::vec3> positions);
  /// After the migration: the part of each corridor row the split stages read, from its holder
  /// to the agent's owner (corridor_phase_columns' read_by_owner).
  void lend_corridor_rows(AgentArrays& agents);
  /// Agent `agent`'s rows go from rank `from` to rank `to`: listed in `send[to]` on `from`, in
  /// `receive[from]` on `to` (every rank lists every move alike, so both sides agree).
  void list_move(std::int32_t agent, int from, int to, PerRank& send, PerRank& receive) const;
  /// `lists[r]`: the agents i with rank_of[i] == r, ascending.
  static void list_by_rank(const std::vector<int>& rank_of, PerRank& lists);
  /// The rows of `columns` of the agents of `which` whose corridor rows are their holder's
  /// alone, from the holder to every rank (MPI_Allgatherv). `alike` (fetch_kept_rows): `columns`
  /// are the arrays' kept rows, found by row, and the agents are then marked alike; else
  /// (fetch_rows) they are the caller's, indexed by id.
  void send_from_holders(const std::vector<AgentColumn>& columns,
                         std::span<const std::int32_t> which, bool alike);
  /// The agents of each list of `ids` as rows of the arrays of the last assign(): `ids` itself
  /// where the rows are the ids, else in `scratch`.
  const PerRank& rows_of(const PerRank& ids, PerRank& scratch) const;
  /// Agent `id`'s row in the arrays of the last assign().
  std::int32_t row_of(std::int32_t id) const {
    return arrays_ != nullptr ? arrays_->row_of(id) : id;
  }
  /// Throws std::logic_error on every rank unless every rank passed the same `bytes`.
  void require_alike(std::span<const std::byte> bytes, const char* what);
  /// After Proximity: the ranks that own a neighbour of an agent here are asked for its rows.
  void find_ghosts(const AgentArrays& agents);

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  DomainAssignment domains_;
  /// The corridor rows' own domains (place_corridors), once the corridor phases are split.
  DomainAssignment corridor_domains_;
  /// An agent's work in corridor_domains_: moving along the navmesh only, and following a
  /// corridor as well (its corners and shortcut: about 1.5 µs an agent-step in `perf` of the
  /// 64,000-agent bench scene, several times the move): a rough ratio, not tuned further
  /// (docs/distributed-model.md, "Balance by work").
  static constexpr std::uint8_t kMovingWork = 1, kFollowingWork = 4;
  AgentArrays* arrays_ = nullptr; ///< Those of the last assign().
  /// Scratch of assign, per agent: the work each placement balances, 0 for an absent agent: 1
  /// for each present one in domains_ (placed_work_), the corridor phases' in corridor_domains_.
  std::vector<std::uint8_t> placed_work_, corridor_work_;
  std::vector<int> owner_;          ///< Per agent, this step: the split stages' rank.
  std::vector<int> corridor_owner_; ///< Per agent, this step: the corridor phases' rank.
  /// Per agent, the rank whose OwnerKept rows of the split stages are current: the last step's
  /// owner, or -1 where every rank's are (an agent added since, or no step since the last
  /// gather).
  std::vector<int> stage_holder_;
  /// As stage_holder_, of the corridor rows: the rank that last ran the corridor phases for it.
  std::vector<int> holder_;
  /// Per agent: every rank's corridor_phase_columns rows are alike (else they are holder_'s).
  std::vector<std::uint8_t> kept_alike_;
  bool corridors_split_ = false; ///< keep_corridor_rows() was called.
  PerRank owned_by_;
  PerRank corridor_by_; ///< Per rank, the agents whose corridor rows it holds (corridor_owner_).
  PerRank ghosts_from_; ///< Per rank, the agents it owns that this rank reads (its ghosts).
  PerRank ghosts_to_;   ///< Per rank, the agents here that it reads.
  std::vector<std::uint8_t> wanted_;               ///< Scratch of find_ghosts, per agent.
  std::vector<std::uint8_t> measured_;             ///< measured_here's, per agent.
  int measured_step_ = -1;                         ///< The steps_ measured_ was found at.
  std::vector<std::vector<std::int32_t>> nonzero_; ///< Scratch of all_gather_rows, per column.
  std::vector<std::byte> gathered_;                ///< Scratch of gather.
  std::vector<glm::vec3> position_by_id_;          ///< Scratch of assign: positions by id.
  PerRank send_rows_, receive_rows_; ///< Scratch of rows_of (exchange_rows, all_gather_rows).
  std::vector<std::byte> send_;
  std::vector<int> counts_, offsets_;                 ///< Bytes per rank, for MPI_Allgatherv.
  std::vector<int> receive_counts_, receive_offsets_; ///< For MPI_Alltoallv.
  int steps_ = 0;
  long long ghost_sum_ = 0; ///< Ghosts of every step.
  double owned_sum_ = 0, corridor_owned_sum_ = 0, sent_sum_ = 0, received_sum_ = 0;
  long long lent_sum_ = 0; ///< Corridor rows lent to an owner (lend_corridor_rows), all ranks.
  long long jobs_shared_ = 0;
  /// Counts (ints, as MPI takes them) and offsets of `per_rank` bytes into `counts` and
  /// `offsets`; throws when they pass what one MPI call carries.
  static void fit_counts(const std::vector<long long>& per_rank, std::vector<int>& counts,
                         std::vector<int>& offsets, const char* what);
};

} // namespace crowd
