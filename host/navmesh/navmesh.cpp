// The navigation mesh: Recast's single-tile build (RecastDemo's Sample_SoloMesh) for a world
// that fits one tile, a grid of tiles built in parallel (Sample_TileMesh) for a larger one, and
// the Detour queries the rest of the project uses.
#include "host/navmesh/navmesh.h"

#include "cuda/kernels/navmesh_geometry.h"
#include "host/navmesh/default_cell_size.h"
#include "host/navmesh/floor_plan_clearance.h"
#include "host/navmesh/link_connections.h"
#include "host/navmesh/obstacle_tile_cache.h"
#include "host/navmesh/scenario_geometry.h"
#include "host/navmesh/tile_build.h"

#include <DetourAlloc.h>
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <numeric>
#include <oneapi/tbb/parallel_for.h>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace crowd {

namespace {

// Most cells of erosion: the clearance searches a window of this many cells around every span
// near a wall, so the cost grows with its square (RecastDemo's limit for walkableRadius, which
// Recast stores next to distances in an unsigned char, is 255 half cells).
constexpr int kMaxErosionCells = 127;

// Largest grid built as one tile when the scenario names no tile size: Recast needs roughly 40
// bytes per cell (span pointers, spans, compact cells, distance field), about 170 MB here, and
// a world this size that still fits Detour's 65,535 vertices per tile builds in seconds. A
// larger world, or one whose polygon mesh overflows that limit, is built in tiles.
constexpr long long kSingleTileCells = 1LL << 22;

// Largest grid of a tiled build: tiles are built a few at a time, so memory is no limit, but
// the time grows with the cell count (about 8 x the 1,000,000-agent bench world).
constexpr long long kMaxTiledCells = 1LL << 27;

struct DetourMeshDeleter {
  void operator()(dtNavMesh* mesh) const { dtFreeNavMesh(mesh); }
};
using DetourMeshPtr = std::unique_ptr<dtNavMesh, DetourMeshDeleter>;

// Detour's polygon references hold the salt, the tile and the polygon in 32 bits, and at least
// 10 of them must be salt (dtNavMesh::init): tile and polygon bits share 22.
constexpr int kTileAndPolygonBits = 22;

std::string metres(float value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string nothing_walkable_message(const NavmeshBuildSettings& s) {
  return "the world has no walkable area: obstacles cover the floor or the mesh has no surface "
         "flatter than max_slope (" +
         metres(s.max_slope) + " degrees), or no open space is wider than the agent diameter (" +
         metres(2.0f * s.agent_radius) + " m)";
}

void check_settings(const NavmeshBuildSettings& s) {
  auto require = [](bool ok, const std::string& problem) {
    if (!ok) {
      throw NavmeshError("invalid navmesh settings: " + problem);
    }
  };
  auto finite = [](float v) { return std::isfinite(v); };
  require(finite(s.cell_size) && s.cell_size > 0.0f, "cell_size must be > 0");
  require(finite(s.cell_height) && s.cell_height > 0.0f, "cell_height must be > 0");
  require(finite(s.agent_radius) && s.agent_radius >= 0.0f, "agent_radius must be >= 0");
  require(finite(s.agent_height) && s.agent_height > 0.0f, "agent_height must be > 0");
  require(finite(s.max_climb) && s.max_climb >= 0.0f, "max_climb must be >= 0");
  require(finite(s.max_slope) && s.max_slope >= 0.0f && s.max_slope < 90.0f,
          "max_slope must be in [0, 90) degrees");
  require(s.region_min_size >= 0 && s.region_merge_size >= 0, "region sizes must be >= 0");
  require(finite(s.max_edge_length) && s.max_edge_length >= 0.0f, "max_edge_length must be >= 0");
  require(finite(s.max_edge_error) && s.max_edge_error > 0.0f, "max_edge_error must be > 0");
  require(s.verts_per_poly >= 3 && s.verts_per_poly <= DT_VERTS_PER_POLYGON,
          "verts_per_poly must be in [3, " + std::to_string(DT_VERTS_PER_POLYGON) + "]");
  require(finite(s.detail_sample_distance) && s.detail_sample_distance >= 0.0f,
          "detail_sample_distance must be >= 0");
  require(finite(s.detail_sample_max_error) && s.detail_sample_max_error >= 0.0f,
          "detail_sample_max_error must be >= 0");
  require(s.tile_size == 0 || s.tile_size >= 16, "tile_size must be at least 16 cells");
  require(s.max_obstacles >= 1 && s.max_obstacles <= 65535, "max_obstacles must be in [1, 65535]");
}

// The triangles as Recast takes them, with the slope test done once for every tile.
RecastInput recast_input(const InputGeometry& geometry, const NavmeshBuildSettings& s) {
  const int nverts = static_cast<int>(geometry.vertices.size());
  const int ntris = static_cast<int>(geometry.triangles.size());
  if (ntris == 0 || geometry.walkable.size() != geometry.triangles.size()) {
    throw NavmeshError(ntris == 0 ? nothing_walkable_message(s)
                                  : "navmesh input: walkable flags do not match the triangles");
  }
  RecastInput input;
  input.floor_plan = geometry.floor_plan.has_value();
  input.links = geometry.links;
  input.vertices.reserve(static_cast<std::size_t>(nverts) * 3);
  for (const glm::vec3& v : geometry.vertices) {
    input.vertices.insert(input.vertices.end(), {v.x, v.y, v.z});
  }
  input.triangles.reserve(static_cast<std::size_t>(ntris) * 3);
  for (const glm::ivec3& t : geometry.triangles) {
    if (std::min({t.x, t.y, t.z}) < 0 || std::max({t.x, t.y, t.z}) >= nverts) {
      throw NavmeshError("navmesh input: triangle index out of range");
    }
    input.triangles.insert(input.triangles.end(), {t.x, t.y, t.z});
  }
  // Only triangles that may be walked on get the slope test; solid geometry (obstacle prisms)
  // stays RC_NULL_AREA whatever its slope.
  input.areas.assign(static_cast<std::size_t>(ntris), RC_NULL_AREA);
  std::vector<int> candidate_tris;
  std::vector<int> candidates;
  for (int t = 0; t < ntris; ++t) {
    if (geometry.walkable[static_cast<std::size_t>(t)] != 0) {
      candidates.push_back(t);
      candidate_tris.insert(candidate_tris.end(), input.triangles.begin() + 3 * t,
                            input.triangles.begin() + 3 * t + 3);
    }
  }
  std::vector<unsigned char> candidate_areas(candidates.size(), RC_NULL_AREA);
  rcContext context(false);
  rcMarkWalkableTriangles(&context, s.max_slope, input.vertices.data(), nverts,
                          candidate_tris.data(), static_cast<int>(candidates.size()),
                          candidate_areas.data());
  bool any_walkable = false;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    input.areas[static_cast<std::size_t>(candidates[k])] = candidate_areas[k];
    any_walkable = any_walkable || candidate_areas[k] != RC_NULL_AREA;
  }
  if (!any_walkable) {
    throw NavmeshError(nothing_walkable_message(s));
  }
  return input;
}

// The world's cell grid: rcCalcGridSize, but a partial last column or row dropped.
struct WorldGrid {
  float bmin[3], bmax[3];
  int width = 0, height = 0;
};

WorldGrid world_grid(const InputGeometry& geometry, const NavmeshBuildSettings& s) {
  WorldGrid grid{{geometry.bounds_min.x, geometry.bounds_min.y, geometry.bounds_min.z},
                 {geometry.bounds_max.x, geometry.bounds_max.y, geometry.bounds_max.z}};
  const float cs = s.cell_size, ch = s.cell_height;
  if (static_cast<int>(std::ceil(s.agent_height / ch)) < 3) {
    // Recast's filters require walkableHeight >= 3 cells (Recast.h).
    throw NavmeshError("invalid navmesh settings: agent_height must be at least 3 x cell_height");
  }
  // Cells a blocker that matters can be away: the clearance's search window.
  if (std::ceil(static_cast<double>(s.agent_radius) / cs) > kMaxErosionCells) {
    throw NavmeshError("invalid navmesh settings: agent_radius " + metres(s.agent_radius) +
                           " m needs more than " + std::to_string(kMaxErosionCells) +
                           " cells of erosion at cell_size " + metres(cs) + "; raise cell_size",
                       NavmeshError::Setting::CellSize);
  }
  const double world_w = static_cast<double>(grid.bmax[0]) - grid.bmin[0];
  const double world_h = static_cast<double>(grid.bmax[2]) - grid.bmin[2];
  const double cells_w = std::floor(world_w / cs + 0.5), cells_h = std::floor(world_h / cs + 0.5);
  if (cells_w * cells_h > static_cast<double>(kMaxTiledCells)) {
    std::ostringstream out;
    out << "world of " << world_w << " x " << world_h << " m at cell_size " << cs << " needs "
        << static_cast<long long>(cells_w * cells_h) << " cells (the limit is " << kMaxTiledCells
        << "); raise cell_size";
    throw NavmeshError(out.str(), NavmeshError::Setting::CellSize);
  }
  if ((static_cast<double>(grid.bmax[1]) - grid.bmin[1]) / ch >= RC_SPAN_MAX_HEIGHT) {
    std::ostringstream out;
    out << "world of height " << (grid.bmax[1] - grid.bmin[1]) << " m at cell_height " << ch
        << " needs more than " << RC_SPAN_MAX_HEIGHT << " height cells; raise cell_height";
    throw NavmeshError(out.str());
  }
  rcCalcGridSize(grid.bmin, grid.bmax, cs, &grid.width, &grid.height);
  // rcCalcGridSize rounds to the nearest cell, so the last column or row may reach up to half
  // a cell past the geometry; the floor then marks that partial cell walkable and the navmesh
  // edge ends up nearer than the erosion radius to the world's bound. Drop a partial last
  // cell instead: the strip lost is inside the eroded border anyway.
  auto whole_cells = [cs](int cells, float lo, float hi) {
    const float overshoot = lo + static_cast<float>(cells) * cs - hi;
    return overshoot > 1e-3f * cs ? cells - 1 : cells;
  };
  grid.width = whole_cells(grid.width, grid.bmin[0], grid.bmax[0]);
  grid.height = whole_cells(grid.height, grid.bmin[2], grid.bmax[2]);
  if (grid.width <= 0 || grid.height <= 0) {
    throw NavmeshError(nothing_walkable_message(s)); // Smaller than one cell.
  }
  return grid;
}

bool fits_one_tile(const WorldGrid& grid) {
  return static_cast<long long>(grid.width) * grid.height <= kSingleTileCells &&
         grid.width < 65535 && grid.height < 65535;
}

// The whole world as one tile: exactly the single-tile build of Sample_SoloMesh.
TileRegion whole_world(const WorldGrid& grid, const RecastInput& input) {
  TileRegion region;
  rcVcopy(region.bmin, grid.bmin);
  rcVcopy(region.bmax, grid.bmax);
  region.width = region.last_column = grid.width;
  region.height = region.last_row = grid.height;
  region.triangles.resize(input.areas.size());
  std::iota(region.triangles.begin(), region.triangles.end(), 0);
  return region;
}

// The tiles of a tiled build (Sample_TileMesh::buildTile): each `tile_size` cells square, with
// a border of the erosion plus 3 cells, and the triangles whose box meets it.
std::vector<TileRegion> tile_regions(const WorldGrid& grid, const RecastInput& input,
                                     const NavmeshBuildSettings& s, int tile_size) {
  const float cs = s.cell_size;
  const int tiles_x = (grid.width + tile_size - 1) / tile_size;
  const int tiles_z = (grid.height + tile_size - 1) / tile_size;
  const int border = static_cast<int>(std::ceil(s.agent_radius / cs)) + 3;
  const float tile_world = static_cast<float>(tile_size) * cs;
  const float border_world = static_cast<float>(border) * cs;
  std::vector<TileRegion> regions(static_cast<std::size_t>(tiles_x) * tiles_z);
  for (int tz = 0; tz < tiles_z; ++tz) {
    for (int tx = 0; tx < tiles_x; ++tx) {
      TileRegion& r = regions[static_cast<std::size_t>(tz) * tiles_x + tx];
      r.tile_x = tx;
      r.tile_z = tz;
      r.border = border;
      r.width = r.height = tile_size + 2 * border;
      r.bmin[0] = grid.bmin[0] + static_cast<float>(tx) * tile_world - border_world;
      r.bmin[1] = grid.bmin[1];
      r.bmin[2] = grid.bmin[2] + static_cast<float>(tz) * tile_world - border_world;
      r.bmax[0] = grid.bmin[0] + static_cast<float>(tx + 1) * tile_world + border_world;
      r.bmax[1] = grid.bmax[1];
      r.bmax[2] = grid.bmin[2] + static_cast<float>(tz + 1) * tile_world + border_world;
      // The world's whole cells end at column grid.width: in this region's cells, that is
      // grid.width - (tx x tile_size - border).
      r.last_column = grid.width - (tx * tile_size - border);
      r.last_row = grid.height - (tz * tile_size - border);
    }
  }
  // Each triangle into the regions its box meets.
  const std::size_t ntris = input.areas.size();
  for (std::size_t t = 0; t < ntris; ++t) {
    if (input.floor_plan && input.areas[t] == RC_NULL_AREA) {
      continue; // Obstacle prisms are not rasterised in a 2D world.
    }
    float lo[2] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    float hi[2] = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest()};
    for (int k = 0; k < 3; ++k) {
      const float* v = &input.vertices[static_cast<std::size_t>(input.triangles[3 * t + k]) * 3];
      lo[0] = std::min(lo[0], v[0]);
      hi[0] = std::max(hi[0], v[0]);
      lo[1] = std::min(lo[1], v[2]);
      hi[1] = std::max(hi[1], v[2]);
    }
    const float pad = static_cast<float>(border + 1) * cs;
    auto tile_of = [&](float value, float origin, int tiles) {
      return std::clamp(static_cast<int>(std::floor((value - origin) / tile_world)), 0, tiles - 1);
    };
    const int x0 = tile_of(lo[0] - pad, grid.bmin[0], tiles_x);
    const int x1 = tile_of(hi[0] + pad, grid.bmin[0], tiles_x);
    const int z0 = tile_of(lo[1] - pad, grid.bmin[2], tiles_z);
    const int z1 = tile_of(hi[1] + pad, grid.bmin[2], tiles_z);
    for (int tz = z0; tz <= z1; ++tz) {
      for (int tx = x0; tx <= x1; ++tx) {
        regions[static_cast<std::size_t>(tz) * tiles_x + tx].triangles.push_back(
            static_cast<int>(t));
      }
    }
  }
  return regions;
}

int bits_for(unsigned int count) {
  return static_cast<int>(dtIlog2(dtNextPow2(std::max(count, 1u))));
}

std::vector<WallSegment> collect_boundary(const dtNavMesh& nav, const dtNavMeshQuery& query,
                                          const dtQueryFilter& filter) {
  // dtNavMeshQuery::getPolyWallSegments for every polygon: the walls DetourCrowd's local
  // boundary sees. Across a tile border only the parts of an edge no link covers are walls.
  constexpr int kMaxSegments = 256;
  std::vector<WallSegment> segments;
  float verts[kMaxSegments * 6];
  for (int t = 0; t < nav.getMaxTiles(); ++t) {
    const dtMeshTile* tile = nav.getTile(t);
    if (tile == nullptr || tile->header == nullptr) {
      continue;
    }
    const dtPolyRef base = nav.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (tile->polys[p].getType() != DT_POLYTYPE_GROUND) {
        continue;
      }
      int count = 0;
      query.getPolyWallSegments(base | static_cast<dtPolyRef>(p), &filter, verts, nullptr, &count,
                                kMaxSegments);
      for (int k = 0; k < count; ++k) {
        const float* v = &verts[k * 6];
        segments.push_back({{v[0], v[1], v[2]}, {v[3], v[4], v[5]}});
      }
    }
  }
  return segments;
}

} // namespace

// --- NavMesh -------------------------------------------------------------------------------

void DetourQueryDeleter::operator()(dtNavMeshQuery* query) const {
  dtFreeNavMeshQuery(query);
}

struct NavMesh::Impl {
  DetourMeshPtr owned;                          // The navmesh built here; empty for an adopted one.
  std::unique_ptr<ObstacleTileCache> obstacles; // A dynamic navmesh's tile cache.
  dtNavMesh* editable = nullptr;                // The navmesh its tile cache rebuilds tiles of.
  const dtNavMesh* nav = nullptr; // The navmesh queried: owned's, or the caller's (adopt).
  NavmeshBuildSettings settings;
  glm::vec3 bounds_min{0.0f}, bounds_max{0.0f};
  int polygon_count = 0;
  int tile_count = 0;
  std::size_t detour_bytes = 0;
  double build_seconds = 0.0;
  // How far the navmesh's edge may lie from a wall: the radius and less than a cell more with
  // a floor plan, up to a cell more again from a rasterised mesh (clearance.h).
  float eroded_width = 0.0f;
  std::vector<WallSegment> boundary;
  std::uint64_t tiles_version = 0;
  dtQueryFilter filter; // Default: every flag included, every area cost 1.
  // nearest_point is const and may be called from several threads; one shared query object
  // behind a mutex (findNearestPoly needs no node pool, so a small one is enough).
  std::mutex query_mutex;
  NavQueryPtr query;
};

// What every navmesh derives from its Detour navmesh, built here or adopted: the shared query
// and the boundary.
NavMesh::NavMesh(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {
  impl_->query = make_query(64);
  impl_->boundary = collect_boundary(*impl_->nav, *impl_->query, impl_->filter);
}
NavMesh::NavMesh(NavMesh&&) noexcept = default;
NavMesh& NavMesh::operator=(NavMesh&&) noexcept = default;
NavMesh::~NavMesh() = default;

namespace {

// What `build` makes of every region, in parallel over the caller's workers. The regions are
// independent, so the result is the same whatever the thread count; the first failure in
// region order is reported.
template <typename Build>
auto build_per_region(const std::vector<TileRegion>& regions, const Build& build) {
  std::vector<decltype(build(regions.front()))> built(regions.size());
  std::vector<std::exception_ptr> errors(regions.size());
  tbb::parallel_for(std::size_t{0}, regions.size(), [&](std::size_t k) {
    try {
      built[k] = build(regions[k]);
    } catch (...) {
      errors[k] = std::current_exception();
    }
  });
  for (const std::exception_ptr& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
  return built;
}

// Builds every tile (build_per_region).
std::vector<DetourTileData> build_tiles(const RecastInput& input,
                                        const std::vector<TileRegion>& regions,
                                        const NavmeshBuildSettings& s, Clearance* shared) {
  return build_per_region(
      regions, [&](const TileRegion& region) { return build_tile(input, region, s, shared); });
}

// An empty dtNavMesh for tiles of `tile_size` cells from the grid's corner: 2^tile_bits tiles
// and the rest of Detour's 22 bits for their polygons. `what` names the tiles for messages.
DetourMeshPtr empty_tiled_navmesh(const WorldGrid& grid, const NavmeshBuildSettings& s,
                                  int tile_size, int tile_bits, const std::string& what) {
  dtNavMeshParams params{};
  rcVcopy(params.orig, grid.bmin);
  params.tileWidth = params.tileHeight = static_cast<float>(tile_size) * s.cell_size;
  params.maxTiles = 1 << tile_bits;
  params.maxPolys = 1 << (kTileAndPolygonBits - tile_bits);
  DetourMeshPtr nav(dtAllocNavMesh());
  if (!nav) {
    throw NavmeshError("navmesh build failed: out of memory allocating the Detour navmesh");
  }
  if (dtStatusFailed(nav->init(&params))) {
    throw NavmeshError("navmesh build failed in dtNavMesh::init for " + what);
  }
  return nav;
}

// A dtNavMesh of a grid of tiles (Sample_TileMesh::handleBuild's dtNavMeshParams).
DetourMeshPtr tiled_navmesh(const WorldGrid& grid, const NavmeshBuildSettings& s, int tile_size,
                            const std::vector<TileRegion>& regions,
                            std::vector<DetourTileData>& tiles) {
  unsigned int max_polys = 1;
  for (const DetourTileData& tile : tiles) {
    max_polys = std::max(max_polys, static_cast<unsigned int>(tile.polygon_count));
  }
  const int tile_bits = bits_for(static_cast<unsigned int>(regions.size()));
  const int poly_bits = bits_for(max_polys);
  if (tile_bits + poly_bits > kTileAndPolygonBits) {
    std::ostringstream out;
    out << "the navmesh needs " << regions.size() << " tiles of up to " << max_polys
        << " polygons, more than Detour's 32-bit polygon references address (2^"
        << kTileAndPolygonBits << " tiles x polygons per tile); raise world.navmesh.cell_size";
    throw NavmeshError(out.str(), NavmeshError::Setting::CellSize);
  }
  DetourMeshPtr nav =
      empty_tiled_navmesh(grid, s, tile_size, tile_bits, std::to_string(regions.size()) + " tiles");
  for (DetourTileData& tile : tiles) {
    if (tile.size == 0) {
      continue;
    }
    const int size = tile.size;
    unsigned char* data = tile.release();
    if (dtStatusFailed(nav->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr))) {
      dtFree(data);
      throw NavmeshError("navmesh build failed in dtNavMesh::addTile");
    }
  }
  return nav;
}

// A dynamic navmesh (NavmeshBuildSettings::dynamic), as Sample_TempObstacles::handleBuild
// makes it: every tile's layers, built in parallel, into a tile cache, then the navmesh's tiles
// built from them by DetourTileCache.
DetourMeshPtr cached_navmesh(const WorldGrid& grid, const RecastInput& input,
                             const NavmeshBuildSettings& s, int tile_size,
                             const std::vector<TileRegion>& regions, Clearance* shared,
                             std::unique_ptr<ObstacleTileCache>& cache) {
  std::vector<std::vector<DetourTileData>> layers =
      build_per_region(regions, [&](const TileRegion& region) {
        return build_tile_layers(input, region, s, shared, tile_cache_compressor());
      });
  unsigned int layer_count = 0;
  for (const std::vector<DetourTileData>& tile : layers) {
    layer_count += static_cast<unsigned int>(tile.size());
  }
  if (layer_count == 0) {
    throw NavmeshError(nothing_walkable_message(s));
  }
  // Every layer is a navmesh tile; a rebuilt tile may hold more polygons than it did, so the
  // polygons get every bit the tiles leave (at least 10: 1,024 polygons a tile).
  constexpr int kLeastPolygonBits = 10;
  const int tile_bits = bits_for(layer_count);
  if (tile_bits > kTileAndPolygonBits - kLeastPolygonBits) {
    throw NavmeshError("the dynamic navmesh has " + std::to_string(layer_count) +
                           " tile layers, more than Detour's 32-bit polygon references address "
                           "with room for the polygons of rebuilt tiles; raise "
                           "world.navmesh.tile_size (at most " +
                           std::to_string(kMaxDynamicTileSize) + ") or cell_size",
                       NavmeshError::Setting::TileSize);
  }
  dtTileCacheParams cache_params{};
  rcVcopy(cache_params.orig, grid.bmin);
  cache_params.cs = s.cell_size;
  cache_params.ch = s.cell_height;
  cache_params.width = cache_params.height = tile_size;
  cache_params.walkableHeight = s.agent_height;
  cache_params.walkableRadius = s.agent_radius;
  cache_params.walkableClimb = s.max_climb;
  cache_params.maxSimplificationError = s.max_edge_error;
  cache_params.maxTiles = static_cast<int>(layer_count);
  cache_params.maxObstacles = s.max_obstacles;
  cache = std::make_unique<ObstacleTileCache>(cache_params, input.links);
  for (std::vector<DetourTileData>& tile : layers) {
    cache->add_layers(tile);
  }

  DetourMeshPtr nav = empty_tiled_navmesh(grid, s, tile_size, tile_bits,
                                          std::to_string(layer_count) + " tile layers");
  for (const TileRegion& region : regions) {
    cache->build_tiles_at(region.tile_x, region.tile_z, *nav);
  }
  return nav;
}

// What a navmesh holds, counted from its tiles: polygons, tiles with polygons, bytes.
void count_tiles(const dtNavMesh& nav, int& polygons, int& tiles, std::size_t& bytes) {
  polygons = tiles = 0;
  bytes = 0;
  for (int t = 0; t < nav.getMaxTiles(); ++t) {
    const dtMeshTile* tile = nav.getTile(t);
    if (tile == nullptr || tile->header == nullptr || tile->header->polyCount == 0)
      continue;
    polygons += tile->header->polyCount;
    bytes += static_cast<std::size_t>(tile->dataSize);
    ++tiles;
  }
}

/// The whole world as one tile, or nothing when it has more vertices than one tile holds (it
/// is then built in tiles).
std::optional<DetourTileData> whole_world_tile(const RecastInput& input, const TileRegion& region,
                                               const NavmeshBuildSettings& s,
                                               FloorPlanClearance* floor_plan_clearance) {
  try {
    return build_tile(input, region, s, floor_plan_clearance);
  } catch (const NavmeshError& e) {
    if (e.setting() != NavmeshError::Setting::TileSize) {
      throw;
    }
    return std::nullopt;
  }
}

/// A navmesh of the one tile `tile` (taken over).
DetourMeshPtr single_tile_navmesh(DetourTileData tile) {
  const int size = tile.size;
  unsigned char* data = tile.release();
  DetourMeshPtr nav(dtAllocNavMesh());
  if (!nav) {
    dtFree(data);
    throw NavmeshError("navmesh build failed: out of memory allocating the Detour navmesh");
  }
  if (const dtStatus status = nav->init(data, size, DT_TILE_FREE_DATA); dtStatusFailed(status)) {
    dtFree(data); // Not owned by the navmesh when init fails.
    throw NavmeshError("navmesh build failed in dtNavMesh::init (status 0x" + [&] {
      std::ostringstream out;
      out << std::hex << status;
      return out.str();
    }() + ")");
  }
  return nav;
}

} // namespace

NavMesh NavMesh::build(const InputGeometry& geometry, const NavmeshBuildSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  check_settings(settings);
  const NavmeshBuildSettings& s = settings;
  const RecastInput input = recast_input(geometry, s);
  const WorldGrid grid = world_grid(geometry, s);
  // A 2D world's clearance is measured from its floor plan, the same for every tile.
  std::unique_ptr<FloorPlanClearance> floor_plan_clearance;
  if (geometry.floor_plan) {
    floor_plan_clearance =
        std::make_unique<FloorPlanClearance>(*geometry.floor_plan, s.agent_radius);
  }

  // One tile when the scenario names no tile size and the world fits one (the single-tile
  // build of every earlier version), else tiles. A dynamic navmesh is always tiled.
  int tile_size = s.tile_size;
  auto impl = std::make_unique<Impl>();
  if (s.dynamic) {
    tile_size = tile_size > 0 ? tile_size : kDefaultDynamicTileSize;
    if (tile_size > kMaxDynamicTileSize) {
      throw NavmeshError("a navmesh with dynamic obstacles is built in tiles of at most " +
                             std::to_string(kMaxDynamicTileSize) +
                             " cells a side (DetourTileCache), "
                             "got tile_size " +
                             std::to_string(tile_size),
                         NavmeshError::Setting::TileSize);
    }
    const std::vector<TileRegion> regions = tile_regions(grid, input, s, tile_size);
    impl->owned = cached_navmesh(grid, input, s, tile_size, regions, floor_plan_clearance.get(),
                                 impl->obstacles);
    count_tiles(*impl->owned, impl->polygon_count, impl->tile_count, impl->detour_bytes);
  } else if (std::optional<DetourTileData> whole =
                 tile_size == 0 && fits_one_tile(grid)
                     ? whole_world_tile(input, whole_world(grid, input), s,
                                        floor_plan_clearance.get())
                     : std::nullopt) {
    if (whole->size == 0) {
      throw NavmeshError(nothing_walkable_message(s));
    }
    impl->polygon_count = whole->polygon_count;
    impl->detour_bytes = static_cast<std::size_t>(whole->size);
    impl->owned = single_tile_navmesh(std::move(*whole));
    impl->tile_count = 1;
  } else {
    tile_size = tile_size > 0 ? tile_size : kDefaultTileSize;
    const std::vector<TileRegion> regions = tile_regions(grid, input, s, tile_size);
    std::vector<DetourTileData> tiles = build_tiles(input, regions, s, floor_plan_clearance.get());
    for (const DetourTileData& tile : tiles) {
      impl->polygon_count += tile.polygon_count;
      impl->detour_bytes += static_cast<std::size_t>(tile.size);
      impl->tile_count += tile.size > 0 ? 1 : 0;
    }
    if (impl->tile_count == 0) {
      throw NavmeshError(nothing_walkable_message(s));
    }
    impl->owned = tiled_navmesh(grid, s, tile_size, regions, tiles);
  }

  impl->nav = impl->owned.get();
  if (impl->obstacles)
    impl->editable = impl->owned.get();
  impl->settings = s;
  impl->settings.tile_size = tile_size;
  impl->bounds_min = geometry.bounds_min;
  impl->bounds_max = geometry.bounds_max;
  impl->eroded_width = s.agent_radius + (geometry.floor_plan ? 1.0f : 2.0f) * s.cell_size;
  NavMesh mesh(std::move(impl));
  mesh.impl_->build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return mesh;
}

static_assert(nav::kMaxPolygonVertices == DT_VERTS_PER_POLYGON,
              "the kernels hold as many vertices per polygon as Detour's dtPoly");

NavMesh NavMesh::adopt(const dtNavMesh& navmesh) {
  const auto start = std::chrono::steady_clock::now();
  auto impl = std::make_unique<Impl>();
  impl->nav = &navmesh;
  NavmeshBuildSettings& s = impl->settings;
  bool first = true;
  for (int t = 0; t < navmesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = navmesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr || tile->header->polyCount == 0)
      continue;
    const dtMeshHeader& h = *tile->header;
    const glm::vec3 lo(h.bmin[0], h.bmin[1], h.bmin[2]);
    const glm::vec3 hi(h.bmax[0], h.bmax[1], h.bmax[2]);
    impl->bounds_min = first ? lo : glm::min(impl->bounds_min, lo);
    impl->bounds_max = first ? hi : glm::max(impl->bounds_max, hi);
    if (first) {
      // What Recast was given, as the tile header keeps it (dtCreateNavMeshData): the agent's
      // size in world units, the cell size as the reciprocal of the bounding-volume
      // quantisation.
      s.agent_radius = h.walkableRadius;
      s.agent_height = h.walkableHeight;
      s.max_climb = h.walkableClimb;
      if (h.bvQuantFactor > 0.0f)
        s.cell_size = 1.0f / h.bvQuantFactor;
    }
    first = false;
    // What the kernels hold of a polygon (navmesh_tables.h): at most kMaxPolygonVertices
    // vertices, as many as Detour's own dtPoly has room for. A tile that claims more is not a
    // navmesh of this Detour build.
    for (int p = 0; p < h.polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      const int most = nav::kMaxPolygonVertices;
      const bool ground = poly.getType() == DT_POLYTYPE_GROUND;
      if (poly.vertCount > most || (ground && poly.vertCount < 3) ||
          (!ground && poly.vertCount != 2))
        throw NavmeshError(
            "polygon " + std::to_string(p) + " of tile " + std::to_string(t) + " has " +
            std::to_string(poly.vertCount) + " vertices; the crowd's " + "kernels take " +
            (ground ? "3 to " + std::to_string(most) : std::string("2 (an off-mesh link)")));
    }
  }
  count_tiles(navmesh, impl->polygon_count, impl->tile_count, impl->detour_bytes);
  if (impl->tile_count == 0)
    throw NavmeshError("the navmesh has no tile with polygons");
  const dtNavMeshParams& params = *navmesh.getParams();
  s.tile_size =
      params.maxTiles > 1 ? static_cast<int>(std::lround(params.tileWidth / s.cell_size)) : 0;
  // Recast's erosion, plus up to two cells where the walls were rasterised from a mesh.
  impl->eroded_width = s.agent_radius + 2.0f * s.cell_size;
  NavMesh mesh(std::move(impl));
  mesh.impl_->build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return mesh;
}

NavMesh NavMesh::adopt(dtNavMesh& navmesh, dtTileCache& tile_cache) {
  NavMesh mesh = adopt(static_cast<const dtNavMesh&>(navmesh));
  mesh.impl_->obstacles = std::make_unique<ObstacleTileCache>(tile_cache);
  mesh.impl_->editable = &navmesh;
  mesh.impl_->settings.dynamic = true;
  mesh.impl_->settings.max_obstacles = tile_cache.getObstacleCount();
  return mesh;
}

NavMesh NavMesh::build(const Scenario& scenario) {
  const WorldSpec& world = scenario.world;
  const InputGeometry geometry = scenario_geometry(scenario);
  NavmeshBuildSettings settings;
  settings.agent_radius = world.navmesh.agent_radius.value_or(scenario.max_agent_radius());
  settings.cell_size = world.navmesh.cell_size.value_or(
      default_cell_size(settings.agent_radius, {geometry.bounds_max.x - geometry.bounds_min.x,
                                                geometry.bounds_max.z - geometry.bounds_min.z}));
  settings.cell_height = world.navmesh.cell_height;
  settings.agent_height = world.navmesh.agent_height;
  settings.max_climb = world.navmesh.max_climb;
  settings.max_slope = world.navmesh.max_slope;
  settings.region_min_size = world.navmesh.region_min_size;
  settings.region_merge_size = world.navmesh.region_merge_size;
  settings.partitioning = world.navmesh.partitioning;
  settings.max_edge_length = world.navmesh.max_edge_length;
  settings.max_edge_error = world.navmesh.max_edge_error;
  settings.verts_per_poly = world.navmesh.verts_per_poly;
  settings.detail_sample_distance = world.navmesh.detail_sample_distance;
  settings.detail_sample_max_error = world.navmesh.detail_sample_max_error;
  settings.tile_size = world.navmesh.tile_size.value_or(0);
  // Scenario extension `events`: obstacles come and go, through DetourTileCache.
  settings.dynamic = !scenario.events.empty();
  // Room for the removals and moves of one time as well (a removed obstacle keeps its slot until
  // the tiles are rebuilt): twice the most standing at once.
  settings.max_obstacles = 2 * std::max(1, scenario.peak_obstacles()) + 1;
  try {
    NavMesh mesh = build(geometry, settings);
    if (const auto loose =
            first_unconnected_link_end(mesh.detour(), static_cast<int>(world.links.size()))) {
      const OffMeshLink& built = geometry.links[static_cast<std::size_t>(loose->link)];
      const glm::vec3 at = loose->end ? built.end : built.start;
      std::ostringstream problem;
      problem << "no navmesh within the link's radius (" << built.radius << " m) of (" << at.x
              << ", " << at.y << ", " << at.z
              << "): an end must lie on the walkable area, or within `radius` of it";
      throw ScenarioError(scenario.file.string(),
                          "world.links[" + std::to_string(loose->link) + "]." +
                              (loose->end ? "end" : "start"),
                          problem.str());
    }
    return mesh;
  } catch (const NavmeshError& e) {
    // A world Recast cannot make a navmesh of (no walkable area, a grid too large for its
    // cell size) is a problem of the scenario file: name the file and where it says so, the
    // cell size where the scenario gives one and it is what does not fit.
    std::string path = "world";
    if (e.setting() == NavmeshError::Setting::CellSize && world.navmesh.cell_size) {
      path = "world.navmesh.cell_size";
    } else if (e.setting() == NavmeshError::Setting::TileSize && world.navmesh.tile_size) {
      path = "world.navmesh.tile_size";
    }
    throw ScenarioError(scenario.file.string(), path, e.what());
  }
}

const dtNavMesh& NavMesh::detour() const {
  return *impl_->nav;
}

NavQueryPtr NavMesh::make_query(int max_nodes) const {
  // Detour's node pool indexes nodes with unsigned short (DT_NULL_IDX = 0xffff), and hashes them
  // into dtNextPow2(max_nodes / 4) buckets: none below 4 nodes, where its first search reads
  // past its table.
  if (max_nodes < kMinQueryNodes || max_nodes > kMaxQueryNodes) {
    throw NavmeshError("make_query: max_nodes must be in [" + std::to_string(kMinQueryNodes) +
                       ", " + std::to_string(kMaxQueryNodes) + "], got " +
                       std::to_string(max_nodes));
  }
  NavQueryPtr query(dtAllocNavMeshQuery());
  if (!query || dtStatusFailed(query->init(impl_->nav, max_nodes))) {
    throw NavmeshError("could not create a Detour navmesh query");
  }
  return query;
}

const dtQueryFilter& NavMesh::filter() const {
  return impl_->filter;
}

glm::vec3 NavMesh::placement_extents() const {
  // DetourCrowd's m_ext is (2, 1.5, 2) x maxAgentRadius (DetourCrowd.cpp, dtCrowd::init), and
  // it assumes the navmesh edge is about a radius from the walls. Here the edge can lie up to
  // two cells beyond the radius (eroded_width), so the horizontal extent is at least the
  // eroded width plus a cell, and at least 1 m: otherwise a point against a wall, or a
  // goal just inside an obstacle, of a small agent would find no polygon at all. 1.5 m
  // vertically (at least) absorbs the navmesh's height offset over the geometry (up to a cell
  // height, plus the detail mesh's error) and lets a 2D point at y = 0 find a ramp's foot.
  const float r = impl_->settings.agent_radius;
  const float horizontal =
      std::max({2.0f * r, 1.0f, impl_->eroded_width + impl_->settings.cell_size});
  return {horizontal, std::max(1.5f * r, 1.5f), horizontal};
}

const NavmeshBuildSettings& NavMesh::settings() const {
  return impl_->settings;
}
glm::vec3 NavMesh::bounds_min() const {
  return impl_->bounds_min;
}
glm::vec3 NavMesh::bounds_max() const {
  return impl_->bounds_max;
}
int NavMesh::polygon_count() const {
  return impl_->polygon_count;
}
int NavMesh::tile_count() const {
  return impl_->tile_count;
}
int NavMesh::tile_size() const {
  return impl_->settings.tile_size;
}
std::size_t NavMesh::detour_bytes() const {
  return impl_->detour_bytes;
}
double NavMesh::build_seconds() const {
  return impl_->build_seconds;
}

bool NavMesh::dynamic() const {
  return impl_->obstacles != nullptr;
}

std::string NavMesh::obstacle_problem(const NavObstacle& obstacle) const {
  if (!impl_->obstacles)
    return "the navmesh was not built for dynamic obstacles";
  const bool box = obstacle.shape == NavObstacle::Shape::Box;
  auto positive = [](float v) { return std::isfinite(v) && v > 0.0f; };
  if (!std::isfinite(obstacle.position.x) || !std::isfinite(obstacle.position.y) ||
      !std::isfinite(obstacle.position.z) || !positive(obstacle.height) ||
      (box ? !(positive(obstacle.half_size.x) && positive(obstacle.half_size.y) &&
               std::isfinite(obstacle.yaw))
           : !positive(obstacle.radius)))
    return "an obstacle needs a finite position and a positive size and height";
  const int touched = impl_->obstacles->tiles_touched(obstacle, impl_->settings.agent_radius,
                                                      impl_->settings.max_climb);
  if (touched > ObstacleTileCache::kMostTilesTouched)
    return "the obstacle covers " + std::to_string(touched) + " navmesh tiles, more than the " +
           std::to_string(ObstacleTileCache::kMostTilesTouched) +
           " DetourTileCache rebuilds for one obstacle: make it smaller, or the tiles larger "
           "(world.navmesh.tile_size, now " +
           std::to_string(impl_->settings.tile_size) + " cells)";
  return "";
}

unsigned int NavMesh::add_obstacle(const NavObstacle& obstacle) {
  if (const std::string problem = obstacle_problem(obstacle); !problem.empty())
    throw NavmeshError(problem);
  // Grown by the agent radius, as the erosion keeps the navmesh that far from walls; its foot
  // lowered by the climb, so that it marks the floor it stands on however the floor's height
  // was quantised.
  return impl_->obstacles->add(obstacle, impl_->settings.agent_radius, impl_->settings.max_climb,
                               *impl_->editable);
}

bool NavMesh::remove_obstacle(unsigned int id) {
  return impl_->obstacles && impl_->obstacles->remove(id, *impl_->editable);
}

int NavMesh::update_obstacles() {
  if (!impl_->obstacles)
    return 0;
  const int changed = impl_->obstacles->update(*impl_->editable);
  if (changed > 0)
    tiles_changed();
  return changed;
}

void NavMesh::tiles_changed() {
  count_tiles(*impl_->nav, impl_->polygon_count, impl_->tile_count, impl_->detour_bytes);
  std::lock_guard lock(impl_->query_mutex);
  impl_->boundary = collect_boundary(*impl_->nav, *impl_->query, impl_->filter);
  ++impl_->tiles_version;
}

std::uint64_t NavMesh::tiles_version() const {
  return impl_->tiles_version;
}

int NavMesh::obstacle_count() const {
  return impl_->obstacles ? impl_->obstacles->obstacle_count() : 0;
}

const std::vector<WallSegment>& NavMesh::boundary_segments() const {
  return impl_->boundary;
}

std::optional<glm::vec3> NavMesh::nearest_point(const glm::vec3& point) const {
  return nearest_point(point, placement_extents());
}

std::optional<glm::vec3> NavMesh::nearest_point(const glm::vec3& point, const glm::vec3& extents,
                                                const dtQueryFilter* filter) const {
  const float center[3] = {point.x, point.y, point.z};
  const float half[3] = {extents.x, extents.y, extents.z};
  float nearest[3] = {0.0f, 0.0f, 0.0f};
  dtPolyRef ref = 0;
  std::lock_guard lock(impl_->query_mutex);
  const dtStatus status = impl_->query->findNearestPoly(
      center, half, filter != nullptr ? filter : &impl_->filter, &ref, nearest);
  if (dtStatusFailed(status) || ref == 0) {
    return std::nullopt;
  }
  return glm::vec3(nearest[0], nearest[1], nearest[2]);
}

} // namespace crowd
