#include "host/navmesh/scenario_geometry.h"

#include "host/navmesh/ground_surface.h"
#include "host/scenario/periodic_world.h"

#include <optional>

namespace crowd {

namespace {

/// The world's links with their ends on the ground: a point given as [x, z] stands on a 2D
/// world's floor (y = 0, obstacles or not: an end inside one is off the navmesh), or on the
/// highest ground of a mesh under it (host/navmesh/ground_surface.h).
std::vector<OffMeshLink> links_on_ground(const Scenario& scenario, const InputGeometry& geometry) {
  std::vector<OffMeshLink> links;
  if (scenario.world.links.empty())
    return links;
  std::optional<GroundSurface> ground;
  if (!geometry.floor_plan)
    ground.emplace(geometry);
  const auto on_ground = [&](const PointSpec& p) {
    if (p.has_height)
      return p.position;
    const float y =
        ground ? ground->height_under({p.position.x, geometry.bounds_max.y, p.position.z}) : 0.0f;
    return glm::vec3(p.position.x, y, p.position.z);
  };
  const float radius = scenario.world.navmesh.agent_radius.value_or(scenario.max_agent_radius());
  for (const LinkSpec& spec : scenario.world.links) {
    OffMeshLink link;
    link.start = on_ground(spec.start);
    link.end = on_ground(spec.end);
    link.radius = spec.radius.value_or(radius);
    link.bidirectional = spec.bidirectional;
    link.area = static_cast<std::uint8_t>(spec.area);
    link.flags = static_cast<std::uint16_t>(spec.flags);
    links.push_back(link);
  }
  return links;
}

} // namespace

InputGeometry scenario_geometry(const Scenario& scenario) {
  const WorldSpec& world = scenario.world;
  InputGeometry geometry;
  if (world.is_mesh())
    geometry = load_obj(world.mesh, scenario.file.string(), "world.mesh");
  else if (world.bounds)
    geometry = geometry_from_2d_world(periodic_navmesh_world(scenario));
  else
    throw ScenarioError(scenario.file.string(), "world", "needs either bounds or mesh");
  geometry.links = links_on_ground(scenario, geometry);
  return geometry;
}

} // namespace crowd
