#include "cuda/core/agent_arrays.h"

#include "cuda/core/avoidance_pattern.h"
#include "cuda/core/row_order.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace crowd {

int AgentArrays::append(const glm::vec3& pos, float agent_radius, float agent_height, float accel,
                        float range, float separation, std::int32_t avoidance, std::uint8_t side) {
  const int index = count();
  mode.push_back(kAgentMoving);
  radius.push_back(agent_radius);
  height.push_back(agent_height);
  max_accel.push_back(accel);
  query_range.push_back(range);
  separation_weight.push_back(separation);
  avoidance_set.push_back(avoidance);
  standoff_side.push_back(side);
  preferred_velocity.emplace_back(0.0f);
  desired_speed.push_back(0.0f);
  corridor_direction.emplace_back(0.0f);
  position.push_back(pos);
  velocity.emplace_back(0.0f);
  desired_velocity.emplace_back(0.0f);
  new_velocity.emplace_back(0.0f);
  displacement.emplace_back(0.0f);
  standoff_clock.emplace_back(0.0f);
  standoff_partner.push_back(-1);
  ttc_state.emplace_back();
  collider_index.resize(collider_index.size() + static_cast<std::size_t>(max_neighbors), -1);
  neighbor_index.resize(neighbor_index.size() + static_cast<std::size_t>(max_neighbors), -1);
  neighbor_distance_sq.resize(neighbor_distance_sq.size() +
                              static_cast<std::size_t>(max_neighbors));
  neighbor_count.push_back(0);
  segment.resize(segment.size() + static_cast<std::size_t>(max_segments), glm::vec4(0.0f));
  segment_count.push_back(0);
  status.push_back(0);
  if (!agent_id.empty()) {
    agent_id.push_back(index);
    agent_row.push_back(index);
  }
  ++layout_version;
  return index;
}

void AgentArrays::reserve(std::size_t agents) {
  for_each_column([&](auto& column, int per_row) {
    column.reserve(agents * static_cast<std::size_t>(per_row));
  });
  corridors.reserve(agents);
}

void AgentArrays::reorder_rows(const std::vector<std::int32_t>& order) {
  const auto n = static_cast<std::size_t>(count());
  const std::optional<std::vector<std::int32_t>> new_row = rows_after(order, n);
  if (!new_row)
    throw std::invalid_argument("AgentArrays::reorder_rows: the order is no permutation of the " +
                                std::to_string(n) + " rows");
  const bool with_corridors = corridors.count() > 0;
  if (with_corridors && static_cast<std::size_t>(corridors.count()) != n)
    throw std::invalid_argument("AgentArrays::reorder_rows: " + std::to_string(corridors.count()) +
                                " corridor rows for " + std::to_string(n) +
                                " agents; they move together only as one per agent");
  if (with_corridors && !corridors.all_held())
    throw std::logic_error("AgentArrays::reorder_rows: an executor holds corridor rows the host "
                           "does not (Executor::fetch_corridor_rows every row first)");

  std::vector<std::int32_t> ids(n);
  for (std::size_t r = 0; r < n; ++r)
    ids[r] = id_of(order[r]);
  for_each_column([&](auto& column, int per_row) { move_rows(column, per_row, order); });
  // The fields that name an agent by its row: every entry, in use or not, that names one.
  for (auto* column : {&neighbor_index, &collider_index, &standoff_partner})
    follow_rows(*column, *new_row);
  if (with_corridors)
    corridors.reorder_rows(order, *new_row);
  ++layout_version;
  bool rows_are_ids = true;
  for (std::size_t r = 0; r < n && rows_are_ids; ++r)
    rows_are_ids = ids[r] == static_cast<std::int32_t>(r);
  if (rows_are_ids) { // back in id order: as arrays never reordered
    agent_id.clear();
    agent_row.clear();
    return;
  }
  agent_row.assign(n, 0);
  for (std::size_t r = 0; r < n; ++r)
    agent_row[static_cast<std::size_t>(ids[r])] = static_cast<std::int32_t>(r);
  agent_id = std::move(ids);
}

namespace {

/// Each element e of `list` as map[e], in `scratch`; `list` itself where `map` is empty (the
/// rows are the ids).
std::span<const std::int32_t> through(std::span<const std::int32_t> list,
                                      const std::vector<std::int32_t>& map,
                                      std::vector<std::int32_t>& scratch) {
  if (map.empty())
    return list;
  scratch.resize(list.size());
  for (std::size_t k = 0; k < list.size(); ++k)
    scratch[k] = map[static_cast<std::size_t>(list[k])];
  return scratch;
}

} // namespace

std::vector<std::int32_t> AgentArrays::rows_of(std::span<const std::int32_t> ids) const {
  std::vector<std::int32_t> rows;
  const std::span<const std::int32_t> found = through(ids, agent_row, rows);
  return {found.begin(), found.end()};
}

std::span<const std::int32_t> AgentArrays::rows_of(std::span<const std::int32_t> ids,
                                                   std::vector<std::int32_t>& scratch) const {
  return through(ids, agent_row, scratch);
}

std::span<const std::int32_t> AgentArrays::ids_of(std::span<const std::int32_t> rows,
                                                  std::vector<std::int32_t>& scratch) const {
  return through(rows, agent_id, scratch);
}

std::int32_t AgentArrays::avoidance_set_of(const AvoidanceParams& params) {
  for (std::size_t i = 0; i < avoidance_params.size(); ++i) {
    if (avoidance_params[i] == params)
      return static_cast<std::int32_t>(i);
  }
  avoidance_params.push_back(params);
  ++layout_version;
  return static_cast<std::int32_t>(avoidance_params.size() - 1);
}

void AgentArrays::update_pattern_rotation() {
  pattern_rotation.resize(avoidance_params.size());
  for (std::size_t set = 0; set < avoidance_params.size(); ++set)
    pattern_rotation[set] = crowd::pattern_rotation(avoidance_params[set]);
}

AgentView AgentArrays::view() {
  update_pattern_rotation();
  return view_without_rotations();
}

AgentView AgentArrays::view_without_rotations() {
  AgentView v;
  v.count = count();
  v.max_neighbors = max_neighbors;
  v.max_segments = max_segments;
  v.agent_id = agent_id.empty() ? nullptr : agent_id.data();
  v.mode = mode.data();
  v.radius = radius.data();
  v.height = height.data();
  v.max_accel = max_accel.data();
  v.query_range = query_range.data();
  v.separation_weight = separation_weight.data();
  v.avoidance_set = avoidance_set.data();
  v.standoff_side = standoff_side.data();
  v.avoidance_params = avoidance_params.data();
  v.pattern_rotation = pattern_rotation.data();
  v.preferred_velocity = preferred_velocity.data();
  v.desired_speed = desired_speed.data();
  v.corridor_direction = corridor_direction.data();
  v.position = position.data();
  v.velocity = velocity.data();
  v.desired_velocity = desired_velocity.data();
  v.new_velocity = new_velocity.data();
  v.displacement = displacement.data();
  v.standoff_clock = standoff_clock.data();
  v.standoff_partner = standoff_partner.data();
  v.ttc_state = ttc_state.data();
  v.collider_index = collider_index.data();
  v.neighbor_index = neighbor_index.data();
  v.neighbor_distance_sq = neighbor_distance_sq.data();
  v.neighbor_count = neighbor_count.data();
  v.segment = segment.data();
  v.segment_count = segment_count.data();
  v.status = status.data();
  return v;
}

AgentCorridorsView AgentArrays::corridor_rows(const NavmeshTablesView& nav) const {
  AgentCorridorsView rows;
  if (nav.polygon_count == 0 || corridors.count() != count() || corridors.capacity == 0)
    return rows;
  rows.nav = nav;
  rows.polys = corridors.polys.data();
  rows.size = corridors.size.data();
  rows.capacity = corridors.capacity;
  return rows;
}

std::size_t AgentArrays::memory_bytes() const {
  std::size_t bytes = 0;
  const auto add = [&](const auto& column, int) { bytes += column.capacity() * sizeof(column[0]); };
  for_each_column(add);
  add(agent_id, 1);
  add(agent_row, 1);
  add(avoidance_params, 1);
  add(pattern_rotation, 1);
  return bytes + corridors.memory_bytes();
}

} // namespace crowd
