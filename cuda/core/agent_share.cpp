#include "cuda/core/agent_share.h"

#include <algorithm>

namespace crowd {
namespace {

/// `width` values of `column` per agent.
template <class T> AgentColumn column(std::vector<T>& values, int width = 1) {
  return {reinterpret_cast<std::byte*>(values.data()), sizeof(T) * static_cast<std::size_t>(width)};
}

constexpr ColumnReach kOwner = ColumnReach::Owner;
constexpr ColumnReach kKept = ColumnReach::OwnerKept;
constexpr ColumnReach kNeighbours = ColumnReach::Neighbours;
constexpr ColumnReach kEveryone = ColumnReach::Everyone;

} // namespace

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
std::vector<StageColumn> stage_output_columns(AgentArrays& a, KernelStage stage) {
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

std::vector<AgentColumn> split_columns(AgentArrays& agents, bool (*keep)(ColumnReach)) {
  std::vector<AgentColumn> out;
  for (std::size_t s = 0; s < kKernelStageCount; ++s)
    for (const StageColumn& c : stage_output_columns(agents, static_cast<KernelStage>(s))) {
      const auto same = [&](const AgentColumn& listed) { return listed.data == c.column.data; };
      if (keep(c.reach) && std::none_of(out.begin(), out.end(), same))
        out.push_back(c.column);
    }
  return out;
}

} // namespace crowd
