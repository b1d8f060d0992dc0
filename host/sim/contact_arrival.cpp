#include "host/sim/contact_arrival.h"

#include <algorithm>
#include <cmath>

namespace crowd {

std::vector<int> ContactArrival::find(const AgentSetupTable& setups,
                                      std::span<const AgentPhase> phases,
                                      std::span<const glm::vec3> positions,
                                      std::span<const std::uint8_t> candidate) {
  std::vector<int> arrivals;
  const std::size_t n =
      std::min({setups.size(), phases.size(), positions.size(), candidate.size()});
  float max_radius = 0.0f;
  bool any_candidate = false;
  arrived_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    arrived_[i] = phases[i] == AgentPhase::Arrived ? 1 : 0;
    if (candidate[i] || arrived_[i])
      max_radius = std::max(max_radius, setups.params().radius(i));
    any_candidate = any_candidate || candidate[i];
  }
  if (!any_candidate || !(max_radius > 0.0f))
    return arrivals;
  // Cells as wide as the farthest contact, so a contact lies in one of the 3 x 3 cells around.
  grid_.build(positions.first(n), arrived_, 2.0f * max_radius * (1.0f + kContactSlack));
  if (grid_.empty())
    return arrivals;

  for (std::size_t i = 0; i < n; ++i) {
    if (!candidate[i])
      continue;
    const AgentPlacement& me = setups[i];
    const float my_radius = setups.params().radius(i);
    const glm::vec3 p = positions[i];
    const glm::vec3 goal = me.goal;
    const auto to_goal_sq = [&](const glm::vec3& q) {
      const float dx = q.x - goal.x, dz = q.z - goal.z;
      return dx * dx + dz * dz;
    };
    const float my_distance_sq = to_goal_sq(p);
    const bool touches = grid_.any_near(p, [&](int other_id) {
      const auto j = static_cast<std::size_t>(other_id);
      const AgentPlacement& other = setups[j];
      const glm::vec3 q = positions[j];
      if (std::fabs(q.y - p.y) > agent_height_ || std::fabs(q.y - goal.y) > agent_height_)
        return false; // Another floor.
      const float q_distance_sq = to_goal_sq(q);
      if (!(q_distance_sq < my_distance_sq))
        return false; // Not between this agent and its goal.
      const float radii = my_radius + setups.params().radius(j);
      // Goals this close are one place: an agent standing within its arrival_radius of the
      // other goal can stand where this agent would have to.
      const float same_place = setups.params().arrival_radius(i) + radii;
      const float gx = other.goal.x - goal.x, gz = other.goal.z - goal.z;
      const bool same_goal = gx * gx + gz * gz <= same_place * same_place;
      const bool on_my_goal = q_distance_sq < radii * radii;
      if (!same_goal && !on_my_goal)
        return false; // Arrived somewhere else, and leaves room at this agent's goal.
      const float contact = radii * (1.0f + kContactSlack);
      const float ox = q.x - p.x, oz = q.z - p.z;
      return ox * ox + oz * oz <= contact * contact;
    });
    if (touches)
      arrivals.push_back(static_cast<int>(i));
  }
  return arrivals;
}

} // namespace crowd
