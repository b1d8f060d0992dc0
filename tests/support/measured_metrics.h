// A MetricsCollector for the metrics tests, given the shortest routes the solver would measure
// for the agents (host/sim/setup_routes.h): the metrics take routes, they search none.
#pragma once

#include "host/navmesh/navmesh.h"
#include "host/output/metrics.h"
#include "host/sim/setup_routes.h"

#include <span>

namespace crowd::test {

inline MetricsCollector measured_metrics(const Scenario& scenario, const NavMesh& navmesh,
                                         std::span<const AgentSetup> agents) {
  const AgentSetupTable table(agents);
  return MetricsCollector(scenario, navmesh, table, measure_routes(ShortestRoutes(navmesh), table));
}

/// Adds `agent` to `metrics` with its shortest route on `navmesh`.
inline void add_measured_agent(MetricsCollector& metrics, const NavMesh& navmesh,
                               const AgentSetup& agent) {
  metrics.add_agent(
      agent, ShortestRoutes(navmesh).measure(route_stops(agent), agent.params.arrival_radius));
}

} // namespace crowd::test
