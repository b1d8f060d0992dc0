#include "host/checkpoint/agent_arrays_archive.h"

#include "host/checkpoint/archive.h"

#include <stdexcept>

namespace crowd {

namespace {

// Every array in one list, so that save and restore cannot disagree on the order.
template <class Arrays, class F> void for_each_array(Arrays& a, F&& f) {
  f(a.max_neighbors);
  f(a.max_segments);
  f(a.mode);
  f(a.radius);
  f(a.height);
  f(a.max_accel);
  f(a.query_range);
  f(a.separation_weight);
  f(a.avoidance_set);
  f(a.standoff_side);
  f(a.avoidance_params);
  f(a.preferred_velocity);
  f(a.desired_speed);
  f(a.corridor_direction);
  f(a.position);
  f(a.velocity);
  f(a.desired_velocity);
  f(a.new_velocity);
  f(a.displacement);
  f(a.standoff_clock);
  f(a.standoff_partner);
  f(a.ttc_state);
  f(a.collider_index);
  f(a.neighbor_index);
  f(a.neighbor_distance_sq);
  f(a.neighbor_count);
  f(a.segment);
  f(a.segment_count);
  f(a.status);
}

} // namespace

void save_agent_arrays(ArchiveWriter& out, const AgentArrays& arrays) {
  if (!arrays.agent_id.empty())
    throw std::logic_error("checkpoint: agent arrays whose rows are not their agents' ids "
                           "(AgentArrays::reorder_rows) are not saved yet");
  for_each_array(arrays, [&](const auto& field) { out.put(field); });
}

void restore_agent_arrays(ArchiveReader& in, AgentArrays& a) {
  for_each_array(a, [&](auto& field) { in.get(field); });
  a.agent_id.clear(); // saved rows are their agents' ids
  a.agent_row.clear();
  // Every per-agent column as long as its rows: AgentArrays' one list of them, so that a column
  // added there is checked here too.
  const auto n = static_cast<std::uint64_t>(a.count());
  a.for_each_column([&](const auto& column, int per_row) {
    in.expect(column.size(), n * static_cast<std::uint64_t>(per_row), "an agent array's length");
  });
  // The kernels index the agents by the collider lists: every entry in use must name one.
  for (std::size_t i = 0; i < a.ttc_state.size(); ++i) {
    const TtcState& state = a.ttc_state[i];
    if (state.collider_count < 0 || state.collider_count > a.max_neighbors ||
        state.frames_to_refresh < 0)
      in.fail("an agent's collider list is out of range");
    const std::size_t row = i * static_cast<std::size_t>(a.max_neighbors);
    for (int k = 0; k < state.collider_count; ++k) {
      const std::int32_t j = a.collider_index[row + static_cast<std::size_t>(k)];
      if (j < 0 || static_cast<std::uint64_t>(j) >= n)
        in.fail("a collider index is out of range");
    }
  }
  for (const std::int32_t set : a.avoidance_set)
    if (set < 0 || static_cast<std::size_t>(set) >= a.avoidance_params.size())
      in.fail("an avoidance parameter set index is out of range");
  ++a.layout_version;
}

} // namespace crowd
