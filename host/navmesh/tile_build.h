// One Recast tile: the pipeline of RecastDemo's Sample_SoloMesh::handleBuild and
// Sample_TileMesh::buildTileMesh (rasterise, filter, compact, erode, partition, contours,
// polygons, detail mesh, Detour tile data), with this project's exact clearance (clearance.h)
// in place of Recast's erosion. navmesh.cpp builds one such tile for a small world, or a grid
// of them, in parallel, for a large one.
#pragma once

#include "host/navmesh/clearance.h"
#include "host/navmesh/input_geometry.h"
#include "host/navmesh/navmesh.h"

#include <cstddef>
#include <memory>
#include <vector>

struct dtTileCacheCompressor;
struct dtNavMeshCreateParams;

namespace crowd {

/// The polygon flag every ground polygon gets: Detour's default dtQueryFilter includes all flags
/// but passFilter requires (flags & include) != 0, so flags 0 would make every polygon
/// impassable. Its area is 0 (cost 1).
inline constexpr unsigned short kWalkableFlag = 1;

/// The world's triangles as Recast takes them, shared read-only by every tile's build.
struct RecastInput {
  std::vector<float> vertices; ///< x, y, z each
  std::vector<int> triangles;  ///< Three vertex indices each.
  /// Per triangle: RC_WALKABLE_AREA where the slope test passed on a triangle that may be
  /// walked on, RC_NULL_AREA for solid geometry.
  std::vector<unsigned char> areas;
  /// A 2D world's floor plan: its obstacles are not rasterised (FloorPlanClearance removes the
  /// cells near them exactly), only the floor.
  bool floor_plan = false;
  /// Off-mesh links (InputGeometry::links): dtCreateNavMeshData keeps in each tile those that
  /// start in it.
  std::vector<OffMeshLink> links;
};

/// Where a tile lies: its heightfield covers [bmin, bmax] (the tile plus `border` cells on
/// each side, which Recast builds and then cuts off so that neighbouring tiles' edges meet),
/// `width` x `height` cells including the border.
struct TileRegion {
  float bmin[3] = {0.0f, 0.0f, 0.0f};
  float bmax[3] = {0.0f, 0.0f, 0.0f};
  int width = 0, height = 0;
  int border = 0;
  int tile_x = 0, tile_z = 0;
  /// Columns at or past these (cell indices within the region) are emptied after
  /// rasterisation: the partial last column and row of the world's grid (navmesh.cpp).
  int last_column = 0, last_row = 0;
  /// Only these triangles (indices into RecastInput::triangles) can touch the region.
  std::vector<int> triangles;
};

/// Detour tile data (dtCreateNavMeshData's output, freed with dtFree unless handed to a
/// dtNavMesh with DT_TILE_FREE_DATA).
struct DetourTileData {
  unsigned char* data = nullptr;
  int size = 0;
  int vertex_count = 0, polygon_count = 0;
  DetourTileData() = default;
  DetourTileData(DetourTileData&& other) noexcept;
  DetourTileData& operator=(DetourTileData&& other) noexcept;
  DetourTileData(const DetourTileData&) = delete;
  DetourTileData& operator=(const DetourTileData&) = delete;
  ~DetourTileData();
  /// Hands the data over (to dtNavMesh::addTile or init with DT_TILE_FREE_DATA).
  unsigned char* release();
};

/// Off-mesh links as dtNavMeshCreateParams takes them, each with its index as user id: for
/// build_tile, and for the tiles DetourTileCache rebuilds (obstacle_tile_cache.h).
class OffMeshLinkParams {
public:
  explicit OffMeshLinkParams(const std::vector<OffMeshLink>& links);
  /// Points `params`' off-mesh connection arrays at these (which must outlive its use).
  void fill(dtNavMeshCreateParams& params) const;

private:
  std::vector<float> verts_, radii_;
  std::vector<unsigned char> directions_, areas_;
  std::vector<unsigned short> flags_;
  std::vector<unsigned int> ids_;
};

/// Builds one tile. `shared_clearance` is the world's FloorPlanClearance (it only reads its
/// floor plan, so every tile's build may use it at once), or null: each tile then measures
/// its own GridClearance from its heightfield. Returns data with size 0 when the tile has no
/// walkable area (empty tiles of a tiled world are normal). Throws NavmeshError when Recast
/// fails, with Setting::TileSize when the tile has more vertices than one Detour tile holds.
DetourTileData build_tile(const RecastInput& input, const TileRegion& region,
                          const NavmeshBuildSettings& settings, Clearance* shared_clearance);

/// The same tile, eroded as build_tile erodes it, as DetourTileCache layers
/// (dtBuildTileCacheLayer's data, one per floor above another, freed with dtFree unless handed
/// to a dtTileCache with DT_COMPRESSEDTILE_FREE_DATA), stored through `compressor`. Empty when
/// the tile has no walkable area. The tile must be under 256 cells a side without its border.
std::vector<DetourTileData> build_tile_layers(const RecastInput& input, const TileRegion& region,
                                              const NavmeshBuildSettings& s,
                                              Clearance* shared_clearance,
                                              dtTileCacheCompressor& compressor);

} // namespace crowd
