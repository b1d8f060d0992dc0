#include "host/render/agent_style.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace crowd {

glm::vec3 speed_colour(float ratio) {
  ratio = std::clamp(ratio, 0.0f, 1.0f);
  // GLSL mix(a, b, t) = a * (1 - t) + b * t, as in agents.vert.
  const auto mix = [](glm::vec3 a, glm::vec3 b, float t) { return a * (1.0f - t) + b * t; };
  return ratio < 0.5f ? mix(palette::kSpeedStops[0], palette::kSpeedStops[1], ratio * 2.0f)
                      : mix(palette::kSpeedStops[1], palette::kSpeedStops[2], ratio * 2.0f - 1.0f);
}

glm::vec4 penalty_colour(float penalty, float lowest, float highest) {
  const float t =
      highest > lowest ? std::clamp((penalty - lowest) / (highest - lowest), 0.0f, 1.0f) : 0.0f;
  const float shade = 1.0f - 0.85f * t;
  return {shade, shade, shade, 1.0f};
}

glm::vec4 ttc_ratio_colour(float ratio) {
  return ratio < 0.0f ? palette::kTtcLeaves : glm::vec4(speed_colour(ratio), 1.0f);
}

std::vector<float> agent_type_colours(const std::vector<AgentSetup>& setups) {
  std::map<std::string, int> order;
  std::vector<float> colours;
  colours.reserve(setups.size());
  for (const AgentSetup& s : setups) {
    const int place = order.emplace(s.params.type, static_cast<int>(order.size())).first->second;
    colours.push_back(static_cast<float>(place % kTypeColourCount));
  }
  return colours;
}

namespace {

/// Within its arrival radius of a waypoint it waits at: the simulation's test for reaching a
/// waypoint (agent_schedule.cpp), on the ground plane.
bool at_waiting_waypoint(const AgentSetup& s, const glm::vec3& p) {
  const float r2 = s.params.arrival_radius * s.params.arrival_radius;
  return std::any_of(s.waypoints.begin(), s.waypoints.end(), [&](const RouteWaypoint& w) {
    const float dx = p.x - w.position.x, dz = p.z - w.position.z;
    return w.wait > 0.0f && dx * dx + dz * dz <= r2;
  });
}

} // namespace

std::vector<float> agent_states(const std::vector<AgentSetup>& setups,
                                std::span<const glm::vec3> positions,
                                std::span<const glm::vec2> velocities) {
  std::vector<float> states(setups.size(), 0.0f);
  for (std::size_t i = 0; i < setups.size() && i < positions.size(); ++i) {
    const AgentSetup& s = setups[i];
    const float dx = positions[i].x - s.goal.x, dz = positions[i].z - s.goal.z;
    const float speed =
        std::sqrt(velocities[i].x * velocities[i].x + velocities[i].y * velocities[i].y);
    AgentState state = AgentState::Walking;
    if (dx * dx + dz * dz <= s.params.arrival_radius * s.params.arrival_radius)
      state = AgentState::AtGoal;
    else if (speed < 0.1f * s.params.max_speed)
      state = at_waiting_waypoint(s, positions[i]) ? AgentState::Waiting : AgentState::Slowed;
    states[i] = static_cast<float>(state);
  }
  return states;
}

} // namespace crowd
