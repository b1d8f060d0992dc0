// The navigation mesh: built once from the scenario's world with Recast, queried with Detour.
// dtNavMesh is safe to read from many threads; each worker makes its own dtNavMeshQuery
// (RN #261: "dtNavMesh is also safe to use from multiple threads, but only for reading").
#pragma once

#include "host/navmesh/input_geometry.h"
#include "host/scenario/scenario.h"

#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

class dtNavMesh;
class dtNavMeshQuery;
class dtQueryFilter;

namespace crowd {

/// The navmesh could not be built (empty world, nothing walkable, Recast failure).
class NavmeshError : public std::runtime_error {
public:
  /// The setting the problem is about, where one is: a scenario that gives it explicitly gets
  /// the error at its JSON path.
  enum class Setting { None, CellSize };
  explicit NavmeshError(const std::string& what, Setting setting = Setting::None)
      : std::runtime_error(what), setting_(setting) {}
  Setting setting() const { return setting_; }

private:
  Setting setting_;
};

/// One boundary edge of the navmesh (an edge of a polygon with no neighbour across it),
/// oriented as Detour's dtNavMeshQuery::getPolyWallSegments returns it: from the polygon's
/// vertex j to vertex i (j = i - 1), so walkable space lies to the left of p -> q seen from
/// above in Recast's x/z convention (dtTriArea2D(inside, p, q) >= 0).
struct WallSegment {
  glm::vec3 p{0.0f};
  glm::vec3 q{0.0f};
};

/// Settings actually used for a build, after defaults were resolved.
struct NavmeshBuildSettings {
  float cell_size = 0.3f;
  float cell_height = 0.2f;
  float agent_radius = 0.4f;
  float agent_height = 2.0f;
  float max_climb = 0.9f;
  float max_slope = 45.0f;
};

struct DetourQueryDeleter {
  void operator()(dtNavMeshQuery* query) const;
};
using NavQueryPtr = std::unique_ptr<dtNavMeshQuery, DetourQueryDeleter>;

class NavMesh {
public:
  /// Builds the navmesh with Recast (single tile) from triangles. Throws NavmeshError.
  static NavMesh build(const InputGeometry& geometry, const NavmeshBuildSettings& settings);
  /// Builds from a scenario world: the 2D floor and obstacle prisms, or the OBJ mesh.
  /// Default agent_radius is `max_agent_radius`, default cell_size default_cell_size() of it
  /// and the world's extent. Throws ScenarioError (a bad mesh file, or a world that gives no
  /// navmesh: the NavmeshError's message at JSON path "world", or "world.navmesh.cell_size"
  /// when the scenario sets the cell size and the grid is too large for it).
  static NavMesh build(const Scenario& scenario);

  NavMesh(NavMesh&&) noexcept;
  NavMesh& operator=(NavMesh&&) noexcept;
  ~NavMesh();

  const dtNavMesh& detour() const;
  /// A new query object for one worker thread. max_nodes bounds the A* node pool.
  NavQueryPtr make_query(int max_nodes = 4096) const;
  /// The filter every query of the project uses (all polygons walkable, unit costs).
  const dtQueryFilter& filter() const;
  /// Half extents for findNearestPoly when placing agents and goals: DetourCrowd's
  /// (2, 1.5, 2) x agent radius, but at least 1 m (and the erosion plus one cell)
  /// horizontally and 1.5 m vertically, so a point against a wall still finds the mesh.
  glm::vec3 placement_extents() const;

  const NavmeshBuildSettings& settings() const;
  glm::vec3 bounds_min() const;
  glm::vec3 bounds_max() const;
  int polygon_count() const;

  /// Every boundary edge of the navmesh (computed once at build).
  const std::vector<WallSegment>& boundary_segments() const;

  /// The point on the navmesh nearest to `point` within placement_extents(), or nothing.
  std::optional<glm::vec3> nearest_point(const glm::vec3& point) const;

private:
  struct Impl;
  explicit NavMesh(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd
