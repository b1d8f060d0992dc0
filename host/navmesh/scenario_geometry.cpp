#include "host/navmesh/scenario_geometry.h"

#include "host/scenario/periodic_world.h"

namespace crowd {

InputGeometry scenario_geometry(const Scenario& scenario) {
  const WorldSpec& world = scenario.world;
  if (world.is_mesh())
    return load_obj(world.mesh, scenario.file.string(), "world.mesh");
  if (world.bounds)
    return geometry_from_2d_world(periodic_navmesh_world(scenario));
  throw ScenarioError(scenario.file.string(), "world", "needs either bounds or mesh");
}

} // namespace crowd
