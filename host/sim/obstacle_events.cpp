// Scenario extension `events` (obstacle_events.h).
#include "host/sim/obstacle_events.h"

#include "host/scenario/json_path.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace crowd {
namespace {

constexpr const char* kActions[] = {"add_obstacle", "move_obstacle", "remove_obstacle"};

} // namespace

ObstacleEvents::ObstacleEvents(const Scenario& scenario, Crowd& crowd)
    : scenario_(scenario), crowd_(crowd), order_(event_order(scenario.events)) {
  // Replay the names (the reader checked the order) to know what each move moves, and check
  // every obstacle as the navmesh will take it.
  std::map<std::string, NavObstacle> shapes;
  for (const std::size_t i : order_) {
    const ObstacleEvent& e = scenario.events[i];
    if (e.action == ObstacleEvent::Action::Remove) {
      shapes.erase(e.name);
      continue;
    }
    const auto it = shapes.find(e.name);
    const NavObstacle obstacle = obstacle_of(i, it != shapes.end() ? &it->second : nullptr);
    if (const std::string problem = crowd.navmesh().obstacle_problem(obstacle); !problem.empty())
      throw ScenarioError(scenario.file.string(), path_of(i), problem);
    shapes[e.name] = obstacle;
  }
}

std::string ObstacleEvents::path_of(std::size_t i) const {
  return json_path::member(json_path::element("events", i),
                           kActions[static_cast<std::size_t>(scenario_.events[i].action)]);
}

glm::vec3 ObstacleEvents::foot_of(const PointSpec& point) const {
  if (point.has_height)
    return point.position;
  // The surface under (x, z), searched over the navmesh's whole height; a 2D world's is y = 0.
  const NavMesh& navmesh = crowd_.navmesh();
  const glm::vec3 lo = navmesh.bounds_min(), hi = navmesh.bounds_max();
  const glm::vec3 probe{point.position.x, 0.5f * (lo.y + hi.y), point.position.z};
  const glm::vec3 extents{0.5f, 0.5f * (hi.y - lo.y) + 1.0f, 0.5f};
  const std::optional<glm::vec3> surface = navmesh.nearest_point(probe, extents);
  return {point.position.x, surface ? surface->y : lo.y, point.position.z};
}

NavObstacle ObstacleEvents::obstacle_of(std::size_t i, const NavObstacle* moved) const {
  const ObstacleEvent& e = scenario_.events[i];
  NavObstacle obstacle;
  if (moved != nullptr) {
    obstacle = *moved;
  } else {
    obstacle.shape = e.shape == ObstacleEvent::Shape::Box ? NavObstacle::Shape::Box
                                                          : NavObstacle::Shape::Cylinder;
    obstacle.radius = e.radius;
    obstacle.half_size = 0.5f * e.size;
    obstacle.height = e.height;
  }
  obstacle.position = foot_of(e.position);
  if (e.yaw)
    obstacle.yaw = *e.yaw * kRadiansPerDegree;
  return obstacle;
}

namespace {

// Event times went through float (0.3 is 0.30000001): a relative slack of 1e-6, as
// Scenario::step_count allows, so that an event at a step's start applies at that step.
bool is_due(float time, double now) {
  return static_cast<double>(time) <= now + 1e-6 * std::max(1.0, now);
}

} // namespace

int ObstacleEvents::next_due_step(double dt) const {
  if (next_ >= order_.size())
    return INT_MAX;
  const float time = scenario_.events[order_[next_]].time;
  const double first = std::floor(static_cast<double>(time) / dt) - 1.0;
  if (!(first < static_cast<double>(INT_MAX)))
    return INT_MAX;
  int k = std::max(0, static_cast<int>(first));
  while (k < INT_MAX && !is_due(time, k * dt))
    ++k;
  return k;
}

bool ObstacleEvents::apply_due(double now) {
  bool any = false;
  for (; next_ < order_.size(); ++next_) {
    const std::size_t i = order_[next_];
    const ObstacleEvent& e = scenario_.events[i];
    if (!is_due(e.time, now))
      break;
    any = true;
    try {
      const auto it = standing_.find(e.name);
      if (e.action == ObstacleEvent::Action::Remove) {
        crowd_.remove_obstacle(it->second.id);
        standing_.erase(it);
        continue;
      }
      Standing placed;
      placed.obstacle = obstacle_of(i, it != standing_.end() ? &it->second.obstacle : nullptr);
      if (e.action == ObstacleEvent::Action::Move) {
        placed.id = it->second.id;
        crowd_.move_obstacle(placed.id, placed.obstacle.position, placed.obstacle.yaw);
      } else {
        placed.id = crowd_.add_obstacle(placed.obstacle);
      }
      standing_[e.name] = placed;
    } catch (const ApiError& error) {
      throw ScenarioError(scenario_.file.string(), path_of(i), error.what());
    }
  }
  return any && crowd_.update_obstacles();
}

} // namespace crowd
