#include "cuda/core/agent_share.h"

namespace crowd {
namespace {

/// `width` values of `column` per agent.
template <class T> AgentColumn column(std::vector<T>& values, int width = 1) {
  return {reinterpret_cast<std::byte*>(values.data()), sizeof(T) * static_cast<std::size_t>(width)};
}

} // namespace

// What each split stage's kernel bodies write (cuda/kernels): proximity.h (find_neighbors,
// collect_colliders, which keeps the time-to-collision state's collider list, find_wall_segments),
// separation.h and standoff.h (steer_with_separation), avoidance.h and ttc_avoidance.h
// (choose_velocity), collision.h (collision_displacement); each may set a fault bit in status
// (fault_guard.h). tests/cuda/test_agent_share.cpp checks that running a stage on part of the
// agents and copying these columns of the rest gives every array of a run over all of them.
std::vector<AgentColumn> stage_output_columns(AgentArrays& a, KernelStage stage) {
  switch (stage) {
  case KernelStage::Proximity:
    return {column(a.neighbor_index, a.max_neighbors),
            column(a.neighbor_distance_sq, a.max_neighbors),
            column(a.neighbor_count),
            column(a.collider_index, a.max_neighbors),
            column(a.ttc_state),
            column(a.segment, a.max_segments),
            column(a.segment_count),
            column(a.status)};
  case KernelStage::Steering:
    return {column(a.desired_velocity), column(a.standoff_clock), column(a.standoff_partner),
            column(a.status)};
  case KernelStage::Avoidance:
    return {column(a.new_velocity), column(a.ttc_state), column(a.status)};
  case KernelStage::Collisions:
    return {column(a.displacement), column(a.status)};
  default:
    return {};
  }
}

} // namespace crowd
