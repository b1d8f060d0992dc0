// A step's kernel stages split across processes (issue 13, MPI ranks): each process computes the
// stages that cost the most (proximity, steering, avoidance and the collision displacement) for
// the agents it owns, the agents of its spatial domain, and on the CPU executor so do the
// corridor phases (below, "Phases outside the kernel stages"). Every process holds every agent's
// rows, and the stages every process runs for every agent (grid, integration, the host's path
// planning) read them; what a split stage writes reaches only the processes that read it:
//
// - a result the whole-crowd stages read (the chosen velocity, the collision displacement, the
//   fault bits) reaches every process after the stage;
// - a result the neighbours' stages read (the desired velocity, which DetourCrowd's sampling reads
//   of each neighbour) reaches the processes that own a neighbour of the agent: ghost rows, the
//   halo of a domain-decomposed molecular dynamics code, here found exactly from the neighbour
//   lists the owner's proximity stage wrote;
// - the agent's own state that later steps read (time-to-collision clocks and collider list,
//   standoff clock) stays with the owner and moves with the agent when it changes domain
//   (migration);
// - a result only the owner reads this step (neighbour and wall lists) stays with it.
//
// This is the replicated-data scheme of molecular dynamics (S. Plimpton, "Fast parallel algorithms
// for short-range molecular dynamics", J. Comput. Phys. 117, 1995) with ownership and traffic by
// spatial domain. Each stage's result for agent i depends only on what the stage reads, which
// every process that computes agent i holds as one process would, so every row a process reads is
// that of one process computing every agent, byte for byte; gather_everything() makes every row
// so before a checkpoint.
//
// Agents are named by id, rows by row: every agent list of this interface (owned(),
// corridor_owned(), computes_row, the lists fetched and gathered) holds agent ids, and the columns
// the share moves point at the rows of the arrays of the last assign(), agent i's at
// AgentArrays::row_of(i), so the rows may be in any order (AgentArrays::reorder_rows, sorted by
// place) and the agents still have one name on every process; fetch_rows alone takes columns of
// the caller's own, indexed by id. The fields that name other agents (neighbour and collider
// lists, the standoff partner) hold rows, which are alike on every process while every process
// holds every row in the same order (each sorts them alike, from the same positions).
//
// The executor knows only this interface: who owns an agent and how results travel is the
// implementation's (host/distributed/mpi_agent_share.h).
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/kernel_stage.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace crowd {

/// One per-agent column of the arrays: agent i's bytes are data[i * bytes_per_agent, ...).
struct AgentColumn {
  std::byte* data = nullptr;
  std::size_t bytes_per_agent = 0;
  /// Where set, agent i's row is `used[i]` leading elements of `element_bytes` in use (a
  /// corridor row's polygons: its size), all that pack_used_rows sends of it. `used` is another
  /// column's, listed before this one wherever both travel, so that a receiver reads the count
  /// before the row. pack_rows and row_bytes take whole rows.
  const std::int32_t* used = nullptr;
  std::size_t element_bytes = 0;

  /// The bytes of agent i's row pack_used_rows sends.
  std::size_t used_bytes_of(std::int32_t i) const {
    return used == nullptr
               ? bytes_per_agent
               : static_cast<std::size_t>(used[static_cast<std::size_t>(i)]) * element_bytes;
  }
};

/// The bytes of one agent's rows of `columns`.
inline std::size_t row_bytes(const std::vector<AgentColumn>& columns) {
  std::size_t row = 0;
  for (const AgentColumn& c : columns)
    row += c.bytes_per_agent;
  return row;
}

namespace share_detail {

/// Agent after agent, each agent's columns in turn: its whole rows, or what is in use of them.
template <bool kInUse>
std::byte* pack(const std::vector<AgentColumn>& columns, std::span<const std::int32_t> agents,
                std::byte* out) {
  for (const std::int32_t i : agents)
    for (const AgentColumn& c : columns) {
      const std::size_t bytes = kInUse ? c.used_bytes_of(i) : c.bytes_per_agent;
      std::memcpy(out, c.data + static_cast<std::size_t>(i) * c.bytes_per_agent, bytes);
      out += bytes;
    }
  return out;
}

template <bool kInUse>
const std::byte* unpack(const std::vector<AgentColumn>& columns,
                        std::span<const std::int32_t> agents, const std::byte* in) {
  for (const std::int32_t i : agents)
    for (const AgentColumn& c : columns) {
      const std::size_t bytes = kInUse ? c.used_bytes_of(i) : c.bytes_per_agent;
      std::memcpy(c.data + static_cast<std::size_t>(i) * c.bytes_per_agent, in, bytes);
      in += bytes;
    }
  return in;
}

} // namespace share_detail

/// The rows `agents` (row indices) of `columns`, row after row, each row's columns in turn, at
/// `out`; returns the end. How a split's rows travel, between processes and to and from a device.
inline std::byte* pack_rows(const std::vector<AgentColumn>& columns,
                            std::span<const std::int32_t> agents, std::byte* out) {
  return share_detail::pack<false>(columns, agents, out);
}

/// pack_rows undone: the rows at `in` written into `columns`; returns the end.
inline const std::byte* unpack_rows(const std::vector<AgentColumn>& columns,
                                    std::span<const std::int32_t> agents, const std::byte* in) {
  return share_detail::unpack<false>(columns, agents, in);
}

/// As pack_rows, of each row only what is in use (AgentColumn::used).
inline std::byte* pack_used_rows(const std::vector<AgentColumn>& columns,
                                 std::span<const std::int32_t> agents, std::byte* out) {
  return share_detail::pack<true>(columns, agents, out);
}

/// pack_used_rows undone, each row's count read as its `used` column was just written; the
/// part of a row not in use is left as it was. Returns the end.
inline const std::byte* unpack_used_rows(const std::vector<AgentColumn>& columns,
                                         std::span<const std::int32_t> agents,
                                         const std::byte* in) {
  return share_detail::unpack<true>(columns, agents, in);
}

/// The bytes pack_used_rows writes of `agents`.
inline std::size_t used_bytes(const std::vector<AgentColumn>& columns,
                              std::span<const std::int32_t> agents) {
  std::size_t total = 0;
  for (const std::int32_t i : agents)
    for (const AgentColumn& c : columns)
      total += c.used_bytes_of(i);
  return total;
}

/// Which processes read what a split stage wrote for an agent (see the top of this file).
enum class ColumnReach : std::uint8_t {
  Owner,      ///< Only the agent's owner, within this step.
  OwnerKept,  ///< The agent's owner, in later steps too: moves with the agent to a new owner.
  Neighbours, ///< The owners of its neighbours, this step: sent to them as ghost rows.
  Everyone,   ///< Every process (the stages every process runs for every agent read it).
};

/// A column a split stage writes, and who reads it.
struct StageColumn {
  AgentColumn column;
  ColumnReach reach = ColumnReach::Everyone;
};

/// Whether `stage` runs on the owned agents only (and is then shared); the other stages run for
/// every agent on every process, being cheap (grid, integration) or the executor's own
/// (upload, download).
constexpr bool is_split_stage(KernelStage stage) {
  return stage == KernelStage::Proximity || stage == KernelStage::Steering ||
         stage == KernelStage::Avoidance || stage == KernelStage::Collisions;
}

namespace share_detail {

/// `width` values of `column` per agent.
template <class T> AgentColumn column(std::vector<T>& values, int width = 1) {
  return {reinterpret_cast<std::byte*>(values.data()), sizeof(T) * static_cast<std::size_t>(width)};
}

inline constexpr ColumnReach kOwner = ColumnReach::Owner;
inline constexpr ColumnReach kKept = ColumnReach::OwnerKept;
inline constexpr ColumnReach kNeighbours = ColumnReach::Neighbours;
inline constexpr ColumnReach kEveryone = ColumnReach::Everyone;

} // namespace share_detail

/// The columns of `agents` that split `stage` writes for the agent it computes (and for no
/// other agent), in a fixed order, each with its reach. For Collisions, the displacement half of
/// a pass (collision_displacement); each process then applies every agent's displacement. None
/// for a stage that is not split.
//
// What each split stage's kernel bodies write (cuda/kernels), and who reads it:
// - proximity.h: find_neighbors and find_wall_segments write lists only the agent's own later
//   stages read; collect_colliders keeps the time-to-collision collider list in collider_index
//   and ttc_state, which the next steps read until it is collected again (frames_to_refresh);
// - separation.h and standoff.h (steer_with_separation): the desired velocity, which
//   avoidance.h reads of every neighbour (prepare_circle), and the standoff clock and partner,
//   the agent's own from step to step;
// - avoidance.h and ttc_avoidance.h (choose_velocity): the new velocity, which integration.h
//   reads for every agent, and the time-to-collision clocks;
// - collision.h (collision_displacement): the displacement every process applies;
// - each may set a fault bit in status (fault_guard.h), which the host reads for every agent.
// The neighbours' reads besides the desired velocity (position, velocity, radius, mode, preferred
// velocity) are of columns every process writes for every agent. tests/cuda/test_agent_share.cpp
// checks that running the stages on part of the agents, with the rest's columns copied in by
// their reach, gives every row a process reads as a run over all of them.
inline std::vector<StageColumn> stage_output_columns(AgentArrays& a, KernelStage stage) {
  using namespace share_detail;
  switch (stage) {
  case KernelStage::Proximity:
    return {{column(a.neighbor_index, a.max_neighbors), kOwner},
            {column(a.neighbor_distance_sq, a.max_neighbors), kOwner},
            {column(a.neighbor_count), kOwner},
            {column(a.collider_index, a.max_neighbors), kKept},
            {column(a.ttc_state), kKept},
            {column(a.segment, a.max_segments), kOwner},
            {column(a.segment_count), kOwner},
            {column(a.status), kEveryone}};
  case KernelStage::Steering:
    return {{column(a.desired_velocity), kNeighbours},
            {column(a.standoff_clock), kKept},
            {column(a.standoff_partner), kKept},
            {column(a.status), kEveryone}};
  case KernelStage::Avoidance:
    return {{column(a.new_velocity), kEveryone},
            {column(a.ttc_state), kKept},
            {column(a.status), kEveryone}};
  case KernelStage::Collisions:
    return {{column(a.displacement), kEveryone}, {column(a.status), kEveryone}};
  default:
    return {};
  }
}

/// Every column a split stage writes and `keep` accepts the reach of, each once (a column two
/// stages write, listed at its first), in stage order.
inline std::vector<AgentColumn> split_columns(AgentArrays& agents, bool (*keep)(ColumnReach)) {
  std::vector<AgentColumn> out;
  for (std::size_t s = 0; s < kKernelStageCount; ++s)
    for (const StageColumn& c : stage_output_columns(agents, static_cast<KernelStage>(s))) {
      const auto same = [&](const AgentColumn& listed) { return listed.data == c.column.data; };
      if (keep(c.reach) && std::none_of(out.begin(), out.end(), same))
        out.push_back(c.column);
    }
  return out;
}

/// What the split corridor phases write of an agent that later steps read (agents.corridors:
/// its corridor row and corners, the state bits the phases ask the host with; its preferred
/// velocity and corridor direction), of those what the split stages read of the agent (its
/// polygons, for ttc_avoidance.h's corridor sides, its preferred velocity and corridor
/// direction), and what its neighbours' owners read (the preferred velocity: collision.h and
/// standoff.h read a neighbour's).
struct CorridorPhaseColumns {
  std::vector<AgentColumn> kept;
  std::vector<AgentColumn> read_by_owner;
  std::vector<AgentColumn> to_neighbours;
};

inline CorridorPhaseColumns corridor_phase_columns(AgentArrays& a) {
  using share_detail::column;
  CorridorArrays& c = a.corridors;
  // Of the polygon and corner rows, what is in use: the count, listed before, says how much.
  const auto in_use = [](AgentColumn whole, std::vector<std::int32_t>& count, std::size_t element) {
    whole.used = count.data();
    whole.element_bytes = element;
    return whole;
  };
  const AgentColumn polys = in_use(column(c.polys, c.capacity), c.size, sizeof(std::int32_t));
  return {{column(c.size), polys, column(c.position), column(c.target), column(c.corner_count),
           in_use(column(c.corner_verts, c.corner_capacity), c.corner_count, sizeof(glm::vec3)),
           in_use(column(c.corner_flags, c.corner_capacity), c.corner_count, 1),
           in_use(column(c.corner_polys, c.corner_capacity), c.corner_count, sizeof(std::int32_t)),
           column(c.state), column(a.preferred_velocity), column(a.corridor_direction)},
          {column(c.size), polys, column(a.preferred_velocity), column(a.corridor_direction)},
          {column(a.preferred_velocity)}};
}

class AgentShare {
public:
  virtual ~AgentShare() = default;
  /// At the start of a step's kernel stages: decides which agents this process computes this
  /// step, from `agents` as the step starts (every process holds the same positions), and brings
  /// it the OwnerKept rows of the agents that came to it from another process.
  virtual void assign(AgentArrays& agents) = 0;
  /// The agents (ids) this process computes in the split stages of this step, ascending.
  virtual std::span<const std::int32_t> owned() const = 0;
  /// After split `stage` ran for owned() on every process: the Everyone columns of every agent,
  /// and the Neighbours columns of every neighbour of an owned agent, become those its owner
  /// computed. After Proximity, the neighbour lists tell each process which agents it reads.
  virtual void share(AgentArrays& agents, KernelStage stage) = 0;
  /// Between steps (every process calls it at the same step): every split column of every agent,
  /// in the arrays the last assign() split, becomes its owner's, so that the arrays are those of
  /// one process computing every agent (for a checkpoint).
  virtual void gather_everything() = 0;

  // ---- Phases outside the kernel stages split the same way: the CPU executor's corridor
  // phases, around the kernel stages (cuda/core/executor.h), run for the agents the last assign()
  // gave this process for them (corridor_owned()), and for the agents added since, which every
  // process computes. What they write that later steps read (the corridor rows, the preferred
  // velocity) stays with the process that ran them, and moves with the agent like the OwnerKept
  // columns; the host, which plans every agent's path on every process, asks for the rows it
  // reads (fetch_kept_rows), and what every process reads of every agent (the checks, the
  // positions the corridor move put back) reaches every process.

  /// The agents the last assign() placed, 0 before the first: the agents from this id on were
  /// added since, and every process computes them.
  virtual std::size_t assigned_count() const = 0;
  /// The placed agents whose corridor rows this process holds and runs the corridor phases for,
  /// ascending: owned(), or agents of a placement of their own, balanced by the corridor
  /// phases' work. In the latter case assign() brings the owner of each agent the part of its
  /// corridor row the split stages read (its polygons, preferred velocity and corridor
  /// direction).
  virtual std::span<const std::int32_t> corridor_owned() const = 0;
  /// From now on the corridor phases are split: the columns corridor_phase_columns lists move
  /// with an agent to its next owner, as the OwnerKept columns do, gather_everything() gathers
  /// them, and their `to_neighbours` reach the owners of an agent's neighbours each step, with
  /// the ghost rows after Proximity.
  virtual void keep_corridor_rows() = 0;
  /// After such a phase ran: the `kept` rows of every placed agent are its owner's alone, until
  /// fetched.
  virtual void kept_rows_changed() = 0;
  /// Whether the corridor rows are split (keep_corridor_rows() was called): a process then
  /// holds current only the rows computes_row names, and fetching them is an exchange.
  virtual bool splits_corridor_rows() const = 0;
  /// Whether this process holds agent i's corridor row as it is: its owner's alone and this
  /// process the owner, or every process's alike. What only the holder of a row needs done to
  /// it (the host's path search for the agent) is done where this is true, and what everyone
  /// needs of its outcome then fetched (fetch_rows).
  virtual bool computes_row(std::int32_t agent) const = 0;
  /// Every process, with the same `which`: the `kept` rows of the agents of `which` that are
  /// their owner's alone become the owner's on every process, and so every process's alike.
  /// Where every row of `which` is alike already nothing travels, and one process alone may ask
  /// (rank 0 writing a checkpoint after gather_everything()).
  virtual void fetch_kept_rows(std::span<const std::int32_t> which) = 0;
  /// As fetch_kept_rows, but of `columns` (part of what the `kept` rows hold, in columns of
  /// their own, indexed by agent id rather than row): the rows stay their owner's alone.
  virtual void fetch_rows(const std::vector<AgentColumn>& columns,
                          std::span<const std::int32_t> which) = 0;
  /// After such a phase, every process: the rows of `columns` of every placed agent become those
  /// of the process that ran the phase for it (corridor_owned()). `before` holds this process's
  /// corridor_owned() rows of `columns` as they were before the phase (pack_rows); a row left as
  /// it was is not sent, every process holding it alike already.
  virtual void share_changed_rows(const std::vector<AgentColumn>& columns,
                                  std::span<const std::byte> before, const char* what) = 0;
  /// After such a phase, every process: the rows of `columns` of every placed agent become those
  /// of the process that ran the phase for it (the zero rows are not sent).
  virtual void share_rows(const std::vector<AgentColumn>& columns, const char* what) = 0;
  /// The agents of every process's `mine` (each ascending), ascending, each once.
  virtual std::vector<std::int32_t> gather_agents(std::span<const std::int32_t> mine) = 0;
  /// `sums` summed and `maxima` taken over every process, on every process.
  virtual void combine(std::span<long long> sums, std::span<double> maxima) = 0;

  // ---- Jobs that are no one agent's: the path trees a step builds (host/paths), split the
  // same way. Every process lists the same `count` jobs in the same order.

  /// Whether this process runs job `k` of a list of jobs.
  virtual bool runs_job(std::size_t k) const = 0;
  /// After every process ran its jobs: every other process's job results, in job order (this
  /// process's own jobs' entries are left empty: it holds their results already). `mine` holds
  /// this process's results, in the order of its jobs (those runs_job picks).
  virtual std::vector<std::vector<std::byte>>
  share_jobs(std::size_t count, const std::vector<std::vector<std::byte>>& mine) = 0;
};

} // namespace crowd
