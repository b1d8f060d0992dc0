// The shortest routes of scenario agents (host/paths/shortest_routes.h): from an agent's start
// through its waypoints to its goal, as the solver judges reachability and the metrics measure
// path ratios.
#pragma once

#include "host/paths/shortest_routes.h"
#include "host/scenario/agent_setup_table.h"

#include <span>
#include <vector>

namespace crowd {

/// The agent's start, its waypoints in order, and its goal.
std::vector<glm::vec3> route_stops(const AgentPlacement& setup);

/// The shortest route of every agent of `setups`, measured over the calling arena's workers.
/// Each route depends on nothing else, so the result is the same for any thread count.
std::vector<ShortestRoute> measure_routes(const ShortestRoutes& routes,
                                          const AgentSetupTable& setups);

} // namespace crowd
