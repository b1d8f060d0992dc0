#include "host/scenario/periodic_world.h"

#include <algorithm>
#include <cmath>

namespace crowd {
namespace {

/// The largest value a parameter can take for any agent of the scenario: explicit agents,
/// groups and emitters, their constants and the upper ends of their distributions.
template <class Value, class Drawn>
float largest(const Scenario& scenario, Value value, Drawn drawn) {
  float out = value(scenario.defaults);
  for (const ExplicitAgentSpec& agent : scenario.agents) {
    const std::optional<Distribution>& d = drawn(agent.drawn);
    out = std::max(out, d ? d->hi : value(agent.params));
  }
  for (const std::vector<GroupSpec>* list : {&scenario.groups, &scenario.emitters}) {
    for (const GroupSpec& group : *list) {
      const std::optional<Distribution>& d = drawn(group);
      out = std::max(out, d ? d->hi : value(group.base));
    }
  }
  return out;
}

} // namespace

float PeriodicFrame::goal_coordinate(float requested) const {
  if (requested >= hi)
    return hi + goal_gap;
  if (requested <= lo)
    return lo - goal_gap;
  return requested;
}

float PeriodicFrame::wrap_shift(float coordinate) const {
  const float p = period();
  if (coordinate >= lo && coordinate < hi)
    return 0.0f;
  // floor((c - lo) / p) periods away; an agent moves far less than a period in a step, so
  // this is -p or +p in practice.
  return -p * std::floor((coordinate - lo) / p);
}

float PeriodicFrame::nearest_image(float delta) const {
  const float p = period();
  return delta - p * std::round(delta / p);
}

std::optional<PeriodicFrame> periodic_frame(const Scenario& scenario) {
  const WorldSpec& world = scenario.world;
  if (world.periodic == PeriodicAxis::None || !world.bounds)
    return std::nullopt;
  PeriodicFrame frame;
  frame.axis = world.periodic == PeriodicAxis::X ? 0 : 1;
  frame.lo = world.bounds->min[frame.axis];
  frame.hi = world.bounds->max[frame.axis];
  const float radius = scenario.max_agent_radius();
  const float query = largest(
      scenario, [](const AgentParams& p) { return p.query_range(); },
      [](const ParamDistributions& d) -> const std::optional<Distribution>& {
        return d.collision_query_range;
      });
  const float arrival = largest(
      scenario, [](const AgentParams& p) { return p.arrival_radius; },
      [](const ParamDistributions& d) -> const std::optional<Distribution>& {
        return d.arrival_radius;
      });
  // A query range given as 12 x radius grows with a drawn radius.
  const float reach = std::max({2.0f, query, 12.0f * radius, arrival + 3.0f * radius});
  frame.goal_gap = reach;
  // Two cells past that: of the cell size given, or at most the default's 0.3 m (it depends on
  // the world's extent, runway included).
  frame.runway = reach + radius + 2.0f * world.navmesh.cell_size.value_or(0.3f);
  return frame;
}

std::vector<Polygon2D> obstacles_with_images(const WorldSpec& world, const PeriodicFrame& frame,
                                             float reach) {
  std::vector<Polygon2D> out = world.obstacles;
  for (const Polygon2D& polygon : world.obstacles) {
    if (polygon.empty())
      continue;
    float lo = polygon.front()[frame.axis], hi = lo;
    for (const glm::vec2& p : polygon) {
      lo = std::min(lo, p[frame.axis]);
      hi = std::max(hi, p[frame.axis]);
    }
    // Every copy k periods away (k != 0) that reaches into the extended bounds: one on each
    // side unless the period is shorter than the runway.
    for (const float direction : {1.0f, -1.0f}) {
      for (int k = 1;; ++k) {
        const float shift = direction * static_cast<float>(k) * frame.period();
        if (hi + shift < frame.lo - reach || lo + shift > frame.hi + reach)
          break; // This copy, and every one farther, lies outside the extended bounds.
        Polygon2D image = polygon;
        for (glm::vec2& p : image)
          p[frame.axis] += shift;
        out.push_back(std::move(image));
      }
    }
  }
  return out;
}

WorldSpec periodic_navmesh_world(const Scenario& scenario) {
  const std::optional<PeriodicFrame> frame = periodic_frame(scenario);
  if (!frame)
    return scenario.world;
  WorldSpec world = scenario.world;
  world.bounds->min[frame->axis] -= frame->runway;
  world.bounds->max[frame->axis] += frame->runway;
  world.obstacles = obstacles_with_images(scenario.world, *frame, frame->runway);
  return world;
}

} // namespace crowd
