// What does not change while a scene is shown: its agents' setups and the static geometry
// (navmesh, walls, obstacles), built once from the scenario and its navmesh. Shared by live
// and replay, the viewer and `crowd render`.
#pragma once

#include "host/navmesh/navmesh.h"
#include "host/render/shape_layer.h"
#include "host/scenario/obstacle_timeline.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"

#include <vector>

namespace crowd {

struct SceneData {
  std::string name;
  float dt = 0.1f;                              ///< Seconds per step.
  std::vector<AgentSetup> setups;               ///< Index = agent id.
  glm::vec2 bounds_min{0.0f}, bounds_max{0.0f}; ///< Ground extent of the navmesh (x, z).
  ShapeLayer navmesh;                           ///< Polygons filled, polygon edges thin.
  ShapeLayer walls; ///< Obstacles filled, navmesh boundary (what agents avoid) thick.
  /// Off-mesh links: a line from start to end with an arrowhead at each end it may be entered
  /// from the other (at `end` only for a one-way link), and its trigger radius at both ends.
  ShapeLayer links;
  /// The dynamic obstacles of the scenario's `events`, drawn at the frames they stand.
  std::vector<TimedObstacle> obstacles;
};

/// The dynamic obstacles of `scene` standing at `time` (seconds), filled and outlined in the
/// walls' colour into `layer`.
void add_standing_obstacles(const SceneData& scene, double time, ShapeLayer& layer);

/// Builds the static layers: Detour's polygons of `navmesh`, its boundary segments, its
/// off-mesh links, and the scenario's obstacle polygons (triangulated).
SceneData make_scene(const Scenario& scenario, const NavMesh& navmesh,
                     std::vector<AgentSetup> setups);

/// Triangles covering a simple polygon (ear clipping; either winding). Returns vertex indices,
/// three per triangle.
std::vector<int> triangulate_polygon(const std::vector<glm::vec2>& polygon);

} // namespace crowd
