#include "host/verify/rimea_common.h"

#include <cstdio>

namespace crowd {

Scenario rimea_scenario(const std::string& name, glm::vec2 lo, glm::vec2 hi, float duration) {
  Scenario s;
  s.file = name + ".json";
  s.name = name;
  s.seed = 1;
  s.dt = 0.1f;
  s.duration = duration;
  s.world.bounds = WorldSpec::Bounds2D{lo, hi};
  s.world.navmesh.cell_size = 0.1f;
  s.defaults.radius = kAgentRadius;
  s.defaults.max_speed = static_cast<float>(kWeidmannFreeSpeed);
  return s;
}

GroupSpec rect_group(const Scenario& scenario, int count, glm::vec2 lo, glm::vec2 hi,
                     glm::vec2 goal) {
  GroupSpec g;
  g.count = count;
  g.spawn_kind = GroupSpec::SpawnKind::Rect;
  g.spawn_min = lo;
  g.spawn_max = hi;
  g.goal_kind = GroupSpec::GoalKind::Point;
  g.goal_point = goal;
  g.base = scenario.defaults;
  g.base.on_arrival = OnArrival::Remove;
  return g;
}

void add_adult_groups(Scenario& scenario, int count, glm::vec2 lo, glm::vec2 hi, glm::vec2 goal) {
  constexpr int kAdultGroups = 3;
  for (int k = 0; k < kAdultGroups; ++k) {
    const int share = count / kAdultGroups + (k < count % kAdultGroups ? 1 : 0);
    if (share == 0)
      continue;
    GroupSpec g = rect_group(scenario, share, lo, hi, goal);
    const SpeedGroup& row = kRimeaSpeedGroups[static_cast<std::size_t>(k)];
    g.max_speed = Distribution{static_cast<float>(row.min), static_cast<float>(row.max)};
    scenario.groups.push_back(g);
  }
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

} // namespace crowd
