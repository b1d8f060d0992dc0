#include "cuda/core/agent_arrays.h"

#include "cuda/core/avoidance_pattern.h"

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
  ++layout_version;
  return index;
}

void AgentArrays::reserve(std::size_t agents) {
  const auto neighbours = agents * static_cast<std::size_t>(max_neighbors);
  for (auto* column : {&mode, &standoff_side, &status})
    column->reserve(agents);
  for (auto* column :
       {&radius, &height, &max_accel, &query_range, &separation_weight, &desired_speed})
    column->reserve(agents);
  for (auto* column : {&avoidance_set, &standoff_partner, &neighbor_count, &segment_count})
    column->reserve(agents);
  for (auto* column : {&preferred_velocity, &corridor_direction, &velocity, &desired_velocity,
                       &new_velocity, &displacement, &standoff_clock})
    column->reserve(agents);
  position.reserve(agents);
  ttc_state.reserve(agents);
  collider_index.reserve(neighbours);
  neighbor_index.reserve(neighbours);
  neighbor_distance_sq.reserve(neighbours);
  segment.reserve(agents * static_cast<std::size_t>(max_segments));
  corridors.reserve(agents);
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

template <class T> static std::size_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

std::size_t AgentArrays::memory_bytes() const {
  return bytes_of(mode) + bytes_of(radius) + bytes_of(height) + bytes_of(max_accel) +
         bytes_of(query_range) + bytes_of(separation_weight) + bytes_of(avoidance_set) +
         bytes_of(standoff_side) + bytes_of(standoff_clock) + bytes_of(standoff_partner) +
         bytes_of(avoidance_params) + bytes_of(pattern_rotation) + bytes_of(preferred_velocity) +
         bytes_of(desired_speed) + bytes_of(corridor_direction) + bytes_of(ttc_state) +
         bytes_of(collider_index) + bytes_of(position) + bytes_of(velocity) +
         bytes_of(desired_velocity) + bytes_of(new_velocity) + bytes_of(displacement) +
         bytes_of(neighbor_index) + bytes_of(neighbor_distance_sq) + bytes_of(neighbor_count) +
         bytes_of(segment) + bytes_of(segment_count) + bytes_of(status) + corridors.memory_bytes();
}

} // namespace crowd
