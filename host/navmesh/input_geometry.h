// Triangles that Recast rasterises: the walkable floor and the solid obstacles.
#pragma once

#include "host/scenario/scenario.h"

#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <optional>
#include <vector>

namespace crowd {

/// The exact 2D description a 2D world's triangles were made from: the floor rectangle and
/// the obstacle polygons standing on it (x, z).
struct FloorPlan {
  glm::vec2 min{0.0f}, max{0.0f};
  std::vector<Polygon2D> obstacles;
};

/// An off-mesh link as Recast builds it into the navmesh (dtNavMeshCreateParams::offMeshCon*):
/// RecastDemo's InputGeom keeps them beside the triangles the same way.
struct OffMeshLink {
  glm::vec3 start{0.0f}, end{0.0f};
  float radius = 0.0f; ///< How far from each end the navmesh may be, m.
  bool bidirectional = true;
  std::uint8_t area = 0;
  std::uint16_t flags = 1;
};

struct InputGeometry {
  std::vector<glm::vec3> vertices;
  std::vector<glm::ivec3> triangles;
  /// Per triangle: true when it may become walkable (slope test), false for solid geometry
  /// that must never be walked on (the sides and tops of 2D obstacle prisms).
  std::vector<std::uint8_t> walkable;
  glm::vec3 bounds_min{0.0f}, bounds_max{0.0f};
  /// Set for a 2D world: the navmesh then keeps its clearance from these exact edges instead of
  /// from the rasterised obstacles, which Recast marks a whole cell at a time.
  std::optional<FloorPlan> floor_plan;
  /// Off-mesh links, each built into the tile its start lies in; a link's user id in the
  /// navmesh is its index here.
  std::vector<OffMeshLink> links;

  void update_bounds();
};

/// The 2D world: the bounds rectangle as a floor at y = 0, each obstacle polygon extruded
/// to a 2 m prism (its faces marked not walkable), and the world's floor plan.
InputGeometry geometry_from_2d_world(const WorldSpec& world);

/// Reads a Wavefront OBJ file (v and f records; polygons are fan-triangulated; negative
/// indices are relative). Throws ScenarioError naming the file, the line and the problem
/// (missing file, malformed record, index out of range, no triangles). `scenario_file` and
/// `json_path` name where the mesh was referenced; every message starts with them, e.g.
/// "scene.json: world.mesh: /.../level.obj:12: face index 40 out of range (38 vertices)".
InputGeometry load_obj(const std::filesystem::path& obj_file, const std::string& scenario_file,
                       const std::string& json_path);

} // namespace crowd
