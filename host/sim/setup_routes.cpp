#include "host/sim/setup_routes.h"

#include "cuda/core/parallel_agents.h"

namespace crowd {

std::vector<glm::vec3> route_stops(const AgentPlacement& setup) {
  std::vector<glm::vec3> stops;
  stops.reserve(setup.waypoints.size() + 2);
  stops.push_back(setup.position);
  for (const RouteWaypoint& waypoint : setup.waypoints)
    stops.push_back(waypoint.position);
  stops.push_back(setup.goal);
  return stops;
}

std::vector<ShortestRoute> measure_routes(const ShortestRoutes& routes,
                                          const AgentSetupTable& setups) {
  std::vector<ShortestRoute> measured(setups.size());
  parallel_for_each_agent(static_cast<int>(setups.size()), 16, [&](int i) {
    const auto id = static_cast<std::size_t>(i);
    measured[id] = routes.measure(route_stops(setups[id]), setups.params().arrival_radius(id));
  });
  return measured;
}

} // namespace crowd
