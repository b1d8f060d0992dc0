// The geometry of a scenario's world, for the navmesh build and the ground under the agents.
#pragma once

#include "host/navmesh/input_geometry.h"
#include "host/scenario/scenario.h"

namespace crowd {

/// The OBJ mesh, or the 2D world (continued past its ends when it is periodic,
/// host/scenario/periodic_world.h). Throws ScenarioError for a bad mesh file or a world with
/// neither bounds nor mesh.
InputGeometry scenario_geometry(const Scenario& scenario);

} // namespace crowd
