// Scenario extension `events` as a timeline (obstacle_timeline.h).
#include "host/scenario/obstacle_timeline.h"

#include <cmath>
#include <map>
#include <string>

namespace crowd {
namespace {

// The outline of an obstacle event's shape at `centre`: a cylinder as a 24-gon, a box turned
// by `yaw` (radians, x toward z, as NavObstacle).
std::vector<glm::vec2> obstacle_outline(const ObstacleEvent& shape, glm::vec2 centre, float yaw) {
  std::vector<glm::vec2> outline;
  if (shape.shape == ObstacleEvent::Shape::Cylinder) {
    constexpr int kSides = 24;
    for (int k = 0; k < kSides; ++k) {
      const float a = 6.2831853f * static_cast<float>(k) / static_cast<float>(kSides);
      outline.push_back(centre + shape.radius * glm::vec2(std::cos(a), std::sin(a)));
    }
    return outline;
  }
  const glm::vec2 half = 0.5f * shape.size;
  const float c = std::cos(yaw), s = std::sin(yaw);
  for (const glm::vec2 corner : {glm::vec2(-half.x, -half.y), glm::vec2(half.x, -half.y),
                                 glm::vec2(half.x, half.y), glm::vec2(-half.x, half.y)})
    outline.push_back(centre + glm::vec2(c * corner.x - s * corner.y, s * corner.x + c * corner.y));
  return outline;
}

} // namespace

std::vector<TimedObstacle> obstacle_timeline(const Scenario& scenario) {
  struct Standing {
    std::size_t placement = 0; // index into the result
    const ObstacleEvent* added = nullptr;
    float yaw = 0.0f;
  };
  std::vector<TimedObstacle> placements;
  std::map<std::string, Standing> standing;
  for (const std::size_t i : event_order(scenario.events)) {
    const ObstacleEvent& e = scenario.events[i];
    const auto it = standing.find(e.name);
    if (it != standing.end())
      placements[it->second.placement].until = e.time;
    if (e.action == ObstacleEvent::Action::Remove) {
      if (it != standing.end())
        standing.erase(it);
      continue;
    }
    Standing now = it != standing.end() ? it->second : Standing{0, &e, 0.0f};
    if (e.yaw)
      now.yaw = *e.yaw * kRadiansPerDegree;
    now.placement = placements.size();
    const glm::vec2 centre(e.position.position.x, e.position.position.z);
    placements.push_back({e.time, std::numeric_limits<double>::infinity(),
                          obstacle_outline(*now.added, centre, now.yaw)});
    standing[e.name] = now;
  }
  return placements;
}

} // namespace crowd
