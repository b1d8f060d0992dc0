// The navigation mesh: built once from the scenario's world with Recast, queried with Detour.
// dtNavMesh is safe to read from many threads; each worker makes its own dtNavMeshQuery
// (RN #261: "dtNavMesh is also safe to use from multiple threads, but only for reading").
#pragma once

#include "host/navmesh/input_geometry.h"
#include "host/navmesh/nav_obstacle.h"
#include "host/scenario/scenario.h"

#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

class dtNavMesh;
class dtNavMeshQuery;
class dtTileCache;
class dtQueryFilter;

namespace crowd {

/// The navmesh could not be built (empty world, nothing walkable, Recast failure).
class NavmeshError : public std::runtime_error {
public:
  /// The setting the problem is about, where one is: a scenario that gives it explicitly gets
  /// the error at its JSON path.
  enum class Setting { None, CellSize, TileSize };
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

/// Tile side in cells when a world too large for one tile gives none: measured with
/// `crowd bench` worlds (README, "The navmesh"): 256 cells built the 1,000,000-agent world
/// fastest of 64, 128, 256 and 512.
inline constexpr int kDefaultTileSize = 256;
/// Tile side in cells of a navmesh with dynamic obstacles that gives none: a rebuild costs a
/// tile's cells, and one obstacle may touch at most 8 tiles (DetourTileCache). RecastDemo's
/// Sample_TempObstacles uses 48.
inline constexpr int kDefaultDynamicTileSize = 64;
/// DetourTileCache keeps a tile's sizes in bytes: a dynamic navmesh's tiles are at most this.
inline constexpr int kMaxDynamicTileSize = 255;

/// Settings actually used for a build, after defaults were resolved. The defaults are
/// RecastDemo's, except where a comment says otherwise (docs/scenario-extensions.md).
struct NavmeshBuildSettings {
  float cell_size = 0.3f;
  float cell_height = 0.2f;
  float agent_radius = 0.4f;
  float agent_height = 2.0f;
  float max_climb = 0.9f;
  float max_slope = 45.0f;
  int region_min_size = 8;    ///< Cells, side (Recast squares it into an area).
  int region_merge_size = 20; ///< Cells, side.
  NavmeshPartitioning partitioning = NavmeshPartitioning::Watershed;
  float max_edge_length = 12.0f; ///< Metres along walls; 0: no limit.
  /// Contour simplification tolerance, in cells (Recast measures it in cells: simplifyContour
  /// compares it with distances of raw contour vertices in cell units, although Recast.h
  /// documents world units). 0.75 rather than RecastDemo's 1.3: above the deviation of a 45
  /// degree staircase (1/sqrt(2) cells), so diagonal walls become straight edges instead of
  /// jagged ones, which would give DetourCrowd-style wall avoidance many tiny segments. Where a
  /// simplified edge cuts a corner nearer than the radius to an obstacle,
  /// restore_contour_clearance puts the corner back.
  float max_edge_error = 0.75f;
  int verts_per_poly = 6;               ///< 3 to Detour's DT_VERTS_PER_POLYGON (6).
  float detail_sample_distance = 6.0f;  ///< Cells; below 0.9 no detail sampling (RecastDemo).
  float detail_sample_max_error = 1.0f; ///< Cell heights.
  /// Tile side in cells; 0: one tile when the world fits one (its grid at most
  /// kSingleTileCells and the polygon mesh within Detour's 65,535 vertices), else
  /// kDefaultTileSize.
  int tile_size = 0;
  /// Built for dynamic obstacles (add_obstacle): tiled, each tile kept as DetourTileCache
  /// layers of its eroded heightfield and rebuilt from them by DetourTileCache's own pipeline
  /// (layer regions, no detail mesh: partitioning, region sizes and the detail settings do not
  /// apply; polygons have at most 6 vertices).
  bool dynamic = false;
  int max_obstacles = 256; ///< Obstacles standing at once, with dynamic.
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

  /// A navmesh the caller built (with Recast, tiled or not) and owns: it must outlive this
  /// object and everything built on it, and not change while they use it. The settings are
  /// read from its tiles' headers (agent radius, height and climb, the cell size from the
  /// bounding-volume quantisation, the tile side); the rest, like the boundary, is derived as
  /// for a navmesh built here. Throws NavmeshError when no tile has a polygon.
  static NavMesh adopt(const dtNavMesh& navmesh);
  /// The same, with the caller's DetourTileCache of that navmesh (built as RecastDemo's
  /// Sample_TempObstacles builds one), through which add_obstacle and update_obstacles change
  /// it: a dynamic navmesh. Both must outlive this object.
  static NavMesh adopt(dtNavMesh& navmesh, dtTileCache& tile_cache);

  NavMesh(NavMesh&&) noexcept;
  NavMesh& operator=(NavMesh&&) noexcept;
  ~NavMesh();

  const dtNavMesh& detour() const;
  /// A new query object for one worker thread. max_nodes bounds the A* node pool, within
  /// [kMinQueryNodes, kMaxQueryNodes]; throws NavmeshError outside them.
  NavQueryPtr make_query(int max_nodes = 4096) const;
  static constexpr int kMinQueryNodes = 4;     ///< Detour's node hash has no bucket below.
  static constexpr int kMaxQueryNodes = 65535; ///< dtNodePool's 16-bit node indices.
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
  /// Tiles with polygons (1 for a single-tile build).
  int tile_count() const;
  /// The tile side in cells, 0 for a single-tile build.
  int tile_size() const;
  /// Bytes of Detour tile data (vertices, polygons, links, detail meshes, BV trees).
  std::size_t detour_bytes() const;
  /// Wall time the build took, seconds.
  double build_seconds() const;

  /// Whether it was built for dynamic obstacles (NavmeshBuildSettings::dynamic).
  bool dynamic() const;
  /// Queues an obstacle (a dynamic navmesh only), grown by the agent radius so that the
  /// navmesh's edge keeps agents clear of it, as Recast's erosion keeps them clear of walls
  /// (a box's corners stay square). Takes effect at update_obstacles(). Returns its id. Throws
  /// NavmeshError on a static navmesh, when too many obstacles stand, or when it covers more
  /// than 8 tiles.
  unsigned int add_obstacle(const NavObstacle& obstacle);
  /// Why add_obstacle would refuse `obstacle` (a static navmesh, a size that is not positive,
  /// more tiles than it may touch), or "" when it would take it (room among the obstacles
  /// standing aside).
  std::string obstacle_problem(const NavObstacle& obstacle) const;
  /// Queues the removal of obstacle `id`; false when none such stands.
  bool remove_obstacle(unsigned int id);
  /// Rebuilds the tiles the queued obstacle changes touch (their polygons get new references;
  /// other tiles keep theirs), and the boundary and counts. Returns how many tiles changed.
  int update_obstacles();
  /// The Detour navmesh's tiles changed (update_obstacles calls it; a caller that rebuilds tiles
  /// of an adopted navmesh itself calls it after): the counts and the boundary again.
  void tiles_changed();
  /// How many times the tiles changed (tiles_changed) since the build: an observer that keeps a
  /// copy of something derived from the tiles (the boundary) takes it again when this moves.
  std::uint64_t tiles_version() const;
  /// Obstacles standing (or queued).
  int obstacle_count() const;

  /// Every boundary edge of the navmesh (computed at build, and at update_obstacles).
  const std::vector<WallSegment>& boundary_segments() const;

  /// The point on the navmesh nearest to `point` within placement_extents(), or nothing.
  std::optional<glm::vec3> nearest_point(const glm::vec3& point) const;
  /// The same within the box of half extents `extents` around `point` (findNearestPoly).
  /// With `filter` (default: filter()), the nearest point of a polygon it lets through.
  std::optional<glm::vec3> nearest_point(const glm::vec3& point, const glm::vec3& extents,
                                         const dtQueryFilter* filter = nullptr) const;

private:
  struct Impl;
  /// Completes `impl` (its nav set) with what every navmesh derives: query, boundary.
  explicit NavMesh(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd
