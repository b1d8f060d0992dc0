#include "host/sim/setup_routes.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace crowd {

std::vector<glm::vec3> route_stops(const AgentSetup& setup) {
  std::vector<glm::vec3> stops;
  stops.reserve(setup.waypoints.size() + 2);
  stops.push_back(setup.position);
  for (const RouteWaypoint& waypoint : setup.waypoints)
    stops.push_back(waypoint.position);
  stops.push_back(setup.goal);
  return stops;
}

std::vector<ShortestRoute> measure_routes(const ShortestRoutes& routes,
                                          std::span<const AgentSetup> setups) {
  std::vector<ShortestRoute> measured(setups.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, setups.size(), 16), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i)
      measured[i] = routes.measure(route_stops(setups[i]), setups[i].params.arrival_radius);
  });
  return measured;
}

} // namespace crowd
