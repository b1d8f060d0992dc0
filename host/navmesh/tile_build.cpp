// One Recast tile, from rasterisation to Detour tile data (tile_build.h).
#include "host/navmesh/tile_build.h"

#include "host/navmesh/contour_clearance.h"
#include "host/navmesh/floor_coverage.h"
#include "host/navmesh/grid_clearance.h"
#include "host/navmesh/ledge_filter.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace crowd {

namespace {

// rcContext that keeps Recast's log, so that a failed step can say what Recast reported.
class BuildContext final : public rcContext {
public:
  BuildContext() : rcContext(true) {}
  const std::string& messages() const { return messages_; }

protected:
  void doResetLog() override { messages_.clear(); }
  void doLog(const rcLogCategory category, const char* message, const int length) override {
    if (category == RC_LOG_PROGRESS) {
      return;
    }
    if (!messages_.empty()) {
      messages_ += "; ";
    }
    messages_.append(message, static_cast<std::size_t>(std::max(length, 0)));
  }

private:
  std::string messages_;
};

template <typename T, void (*Free)(T*)> struct RecastDeleter {
  void operator()(T* p) const { Free(p); }
};
using HeightfieldPtr =
    std::unique_ptr<rcHeightfield, RecastDeleter<rcHeightfield, rcFreeHeightField>>;
using CompactPtr = std::unique_ptr<rcCompactHeightfield,
                                   RecastDeleter<rcCompactHeightfield, rcFreeCompactHeightfield>>;
using ContourSetPtr = std::unique_ptr<rcContourSet, RecastDeleter<rcContourSet, rcFreeContourSet>>;
using PolyMeshPtr = std::unique_ptr<rcPolyMesh, RecastDeleter<rcPolyMesh, rcFreePolyMesh>>;
using LayerSetPtr =
    std::unique_ptr<rcHeightfieldLayerSet,
                    RecastDeleter<rcHeightfieldLayerSet, rcFreeHeightfieldLayerSet>>;
using DetailMeshPtr =
    std::unique_ptr<rcPolyMeshDetail, RecastDeleter<rcPolyMeshDetail, rcFreePolyMeshDetail>>;

template <typename Ptr> Ptr allocate(typename Ptr::pointer p, const char* what) {
  if (p == nullptr) {
    throw NavmeshError(std::string("navmesh build failed: out of memory allocating ") + what);
  }
  return Ptr(p);
}

// Where a tile of a tiled build is, for messages ("" for a single-tile build).
std::string tile_name(const TileRegion& region) {
  if (region.border == 0) {
    return "";
  }
  return " (tile " + std::to_string(region.tile_x) + ", " + std::to_string(region.tile_z) + ")";
}

// What to change when a tile holds more vertices than Detour allows.
std::string tile_size_advice(const TileRegion& region) {
  return region.border == 0 ? "build it in tiles: set world.navmesh.tile_size"
                            : "lower world.navmesh.tile_size";
}

// A Recast step failed. Recast reports too many vertices for one tile (rcBuildPolyMesh's
// 0xfffe limit) in its log; that one names the setting that fixes it.
[[noreturn]] void recast_failure(const BuildContext& context, const TileRegion& region,
                                 const std::string& step) {
  const std::string& log = context.messages();
  if (log.find("Too many vertices") != std::string::npos) {
    throw NavmeshError("the navmesh" + tile_name(region) + " has more than 65,534 vertices (" +
                           log + " in " + step + "), more than one Detour tile holds; " +
                           tile_size_advice(region),
                       NavmeshError::Setting::TileSize);
  }
  std::string message = "navmesh build failed" + tile_name(region) + " in " + step;
  if (!log.empty()) {
    message += ": " + log;
  }
  throw NavmeshError(message);
}

// Empties the columns of the partial last column and row of the world's grid (TileRegion).
void drop_columns_past(rcHeightfield& hf, int last_column, int last_row) {
  for (int z = 0; z < hf.height; ++z) {
    for (int x = 0; x < hf.width; ++x) {
      if (x >= last_column || z >= last_row) {
        hf.spans[x + z * hf.width] = nullptr; // The spans stay in the pool, freed with it.
      }
    }
  }
}

bool build_regions(rcContext* ctx, rcCompactHeightfield& chf, const NavmeshBuildSettings& s,
                   int border) {
  const int min_area = s.region_min_size * s.region_min_size;
  const int merge_area = s.region_merge_size * s.region_merge_size;
  switch (s.partitioning) {
  case NavmeshPartitioning::Watershed:
    return rcBuildDistanceField(ctx, chf) && rcBuildRegions(ctx, chf, border, min_area, merge_area);
  case NavmeshPartitioning::Monotone:
    return rcBuildRegionsMonotone(ctx, chf, border, min_area, merge_area);
  case NavmeshPartitioning::Layers:
    return rcBuildLayerRegions(ctx, chf, border, min_area);
  }
  return false;
}

} // namespace

DetourTileData::DetourTileData(DetourTileData&& other) noexcept
    : data(std::exchange(other.data, nullptr)), size(std::exchange(other.size, 0)),
      vertex_count(other.vertex_count), polygon_count(other.polygon_count) {}

DetourTileData& DetourTileData::operator=(DetourTileData&& other) noexcept {
  if (this != &other) {
    dtFree(data);
    data = std::exchange(other.data, nullptr);
    size = std::exchange(other.size, 0);
    vertex_count = other.vertex_count;
    polygon_count = other.polygon_count;
  }
  return *this;
}

DetourTileData::~DetourTileData() {
  dtFree(data);
}

unsigned char* DetourTileData::release() {
  return std::exchange(data, nullptr);
}

namespace {

// A tile's compact heightfield, filtered and eroded by the agent radius: what both a Detour tile
// (build_tile) and DetourTileCache's layers (build_tile_layers) are made from.
struct ErodedTile {
  BuildContext context;
  CompactPtr chf;
  std::unique_ptr<Clearance> own_clearance;
  Clearance* clearance = nullptr;
};

// Steps 1 to 3 of build_tile: false when the tile has nothing to walk on.
bool erode_tile(const RecastInput& input, const TileRegion& region, const NavmeshBuildSettings& s,
                Clearance* shared_clearance, ErodedTile& out) {
  const float cs = s.cell_size, ch = s.cell_height;
  const int walkable_height = static_cast<int>(std::ceil(s.agent_height / ch));
  const int walkable_climb = static_cast<int>(std::floor(s.max_climb / ch));
  const int nverts = static_cast<int>(input.vertices.size() / 3);
  BuildContext& context = out.context;
  BuildContext* ctx = &context;
  // The region's triangles, and those of them marked walkable (for FloorCoverage).
  std::vector<int> tris, floor_tris;
  std::vector<unsigned char> areas;
  tris.reserve(region.triangles.size() * 3);
  for (const int t : region.triangles) {
    const auto first = input.triangles.begin() + 3 * static_cast<std::ptrdiff_t>(t);
    const unsigned char area = input.areas[static_cast<std::size_t>(t)];
    if (area != RC_NULL_AREA) {
      floor_tris.insert(floor_tris.end(), first, first + 3);
    }
    if (!input.floor_plan) {
      tris.insert(tris.end(), first, first + 3);
      areas.push_back(area);
    }
  }
  if (input.floor_plan) {
    tris = floor_tris;
    areas.assign(tris.size() / 3, RC_WALKABLE_AREA);
  }
  if (floor_tris.empty()) {
    return false; // Nothing to walk on here.
  }

  // 1. Rasterise. Only triangles that may be walked on get the slope test; solid geometry
  //    (obstacle prisms) stays RC_NULL_AREA whatever its slope. A 2D world's obstacles are not
  //    rasterised at all: FloorPlanClearance removes the cells they cover or come near, exactly
  //    (Recast would mark every cell their faces touch, up to a cell past the face).
  auto solid = allocate<HeightfieldPtr>(rcAllocHeightfield(), "the heightfield");
  if (!rcCreateHeightfield(ctx, *solid, region.width, region.height, region.bmin, region.bmax, cs,
                           ch)) {
    recast_failure(context, region, "rcCreateHeightfield");
  }
  if (!rcRasterizeTriangles(ctx, input.vertices.data(), nverts, tris.data(), areas.data(),
                            static_cast<int>(tris.size() / 3), *solid, walkable_climb)) {
    recast_failure(context, region, "rcRasterizeTriangles");
  }
  if (region.last_column < region.width || region.last_row < region.height) {
    drop_columns_past(*solid, region.last_column, region.last_row);
  }

  // 2. Filter walkable surfaces (steps, ledges, low ceilings), as in Sample_SoloMesh, but
  //    sparing the cells beside a drop that the floor covers (ledge_filter.h).
  rcFilterLowHangingWalkableObstacles(ctx, walkable_climb, *solid);
  filter_ledges(
      *solid, walkable_height, walkable_climb,
      FloorCoverage(*solid, input.vertices, floor_tris, static_cast<float>(walkable_climb) * ch));
  rcFilterWalkableLowHeightSpans(ctx, walkable_height, *solid);

  // 3. Compact heightfield, erosion by the agent radius, regions.
  auto chf = allocate<CompactPtr>(rcAllocCompactHeightfield(), "the compact heightfield");
  if (!rcBuildCompactHeightfield(ctx, walkable_height, walkable_climb, *solid, *chf)) {
    recast_failure(context, region, "rcBuildCompactHeightfield");
  }
  solid.reset();
  // Erosion by the agent radius, measured exactly (clearance.h) instead of by Recast's
  // rcErodeWalkableArea, whose whole cells and chamfer distances cost up to a cell or two more
  // than the radius along walls and keep less than the radius at corners.
  if (shared_clearance == nullptr) {
    out.own_clearance = std::make_unique<GridClearance>(*chf, s.agent_radius);
  }
  out.clearance = shared_clearance != nullptr ? shared_clearance : out.own_clearance.get();
  out.clearance->erode(*chf);
  out.chf = std::move(chf);
  return true;
}

} // namespace

DetourTileData build_tile(const RecastInput& input, const TileRegion& region,
                          const NavmeshBuildSettings& s, Clearance* shared_clearance) {
  const float cs = s.cell_size, ch = s.cell_height;
  const int max_edge_len = static_cast<int>(s.max_edge_length / cs);
  ErodedTile eroded;
  if (!erode_tile(input, region, s, shared_clearance, eroded)) {
    return {};
  }
  BuildContext& context = eroded.context;
  BuildContext* ctx = &context;
  CompactPtr& chf = eroded.chf;
  std::unique_ptr<Clearance>& own_clearance = eroded.own_clearance;
  Clearance& clearance = *eroded.clearance;
  if (!build_regions(ctx, *chf, s, region.border)) {
    recast_failure(context, region, "building the regions");
  }

  // 4. Contours and polygons.
  auto cset = allocate<ContourSetPtr>(rcAllocContourSet(), "the contours");
  if (!rcBuildContours(ctx, *chf, s.max_edge_error, max_edge_len, *cset)) {
    recast_failure(context, region, "rcBuildContours");
  }
  if (cset->nconts == 0) {
    return {};
  }
  restore_contour_clearance(*cset, clearance, s.agent_radius);
  auto pmesh = allocate<PolyMeshPtr>(rcAllocPolyMesh(), "the polygon mesh");
  if (!rcBuildPolyMesh(ctx, *cset, s.verts_per_poly, *pmesh)) {
    recast_failure(context, region, "rcBuildPolyMesh");
  }
  if (pmesh->npolys == 0) {
    return {};
  }
  auto dmesh = allocate<DetailMeshPtr>(rcAllocPolyMeshDetail(), "the detail mesh");
  // RecastDemo: a sample distance under 0.9 cells means no detail sampling.
  const float sample_distance =
      s.detail_sample_distance < 0.9f ? 0.0f : s.detail_sample_distance * cs;
  if (!rcBuildPolyMeshDetail(ctx, *pmesh, *chf, sample_distance, s.detail_sample_max_error * ch,
                             *dmesh)) {
    recast_failure(context, region, "rcBuildPolyMeshDetail");
  }
  own_clearance.reset();
  chf.reset();
  cset.reset();

  // 5. Detour data. One area (0, cost 1) and one flag for every polygon.
  for (int i = 0; i < pmesh->npolys; ++i) {
    pmesh->areas[i] = 0;
    pmesh->flags[i] = kWalkableFlag;
  }
  dtNavMeshCreateParams params{};
  params.verts = pmesh->verts;
  params.vertCount = pmesh->nverts;
  params.polys = pmesh->polys;
  params.polyAreas = pmesh->areas;
  params.polyFlags = pmesh->flags;
  params.polyCount = pmesh->npolys;
  params.nvp = pmesh->nvp;
  params.detailMeshes = dmesh->meshes;
  params.detailVerts = dmesh->verts;
  params.detailVertsCount = dmesh->nverts;
  params.detailTris = dmesh->tris;
  params.detailTriCount = dmesh->ntris;
  params.walkableHeight = s.agent_height;
  params.walkableRadius = s.agent_radius;
  params.walkableClimb = s.max_climb;
  params.tileX = region.tile_x;
  params.tileY = region.tile_z;
  params.tileLayer = 0;
  rcVcopy(params.bmin, pmesh->bmin);
  rcVcopy(params.bmax, pmesh->bmax);
  params.cs = cs;
  params.ch = ch;
  params.buildBvTree = true;
  const OffMeshLinkParams links(input.links);
  links.fill(params);
  DetourTileData tile;
  if (!dtCreateNavMeshData(&params, &tile.data, &tile.size)) {
    // Its only failures are more than 65,534 vertices and an empty mesh (checked above).
    throw NavmeshError("the navmesh" + tile_name(region) + " has " + std::to_string(pmesh->nverts) +
                           " vertices and " + std::to_string(pmesh->npolys) +
                           " polygons, more than one Detour tile holds; " +
                           tile_size_advice(region),
                       NavmeshError::Setting::TileSize);
  }
  tile.vertex_count = pmesh->nverts;
  tile.polygon_count = pmesh->npolys;
  return tile;
}

std::vector<DetourTileData> build_tile_layers(const RecastInput& input, const TileRegion& region,
                                              const NavmeshBuildSettings& s,
                                              Clearance* shared_clearance,
                                              dtTileCacheCompressor& compressor) {
  std::vector<DetourTileData> layers;
  ErodedTile eroded;
  if (!erode_tile(input, region, s, shared_clearance, eroded)) {
    return layers;
  }
  // Sample_TempObstacles::rasterizeTileLayers: the eroded heightfield cut into layers of
  // non-overlapping floors, each kept as a DetourTileCache layer (heights, areas, connections).
  const int walkable_height = static_cast<int>(std::ceil(s.agent_height / s.cell_height));
  auto lset = allocate<LayerSetPtr>(rcAllocHeightfieldLayerSet(), "the heightfield layers");
  if (!rcBuildHeightfieldLayers(&eroded.context, *eroded.chf, region.border, walkable_height,
                                *lset)) {
    recast_failure(eroded.context, region, "rcBuildHeightfieldLayers");
  }
  for (int i = 0; i < lset->nlayers; ++i) {
    const rcHeightfieldLayer& layer = lset->layers[i];
    dtTileCacheLayerHeader header{};
    header.magic = DT_TILECACHE_MAGIC;
    header.version = DT_TILECACHE_VERSION;
    header.tx = region.tile_x;
    header.ty = region.tile_z;
    header.tlayer = i;
    rcVcopy(header.bmin, layer.bmin);
    rcVcopy(header.bmax, layer.bmax);
    // The header keeps sizes in bytes: the caller keeps tiles under 256 cells a side.
    header.width = static_cast<unsigned char>(layer.width);
    header.height = static_cast<unsigned char>(layer.height);
    header.minx = static_cast<unsigned char>(layer.minx);
    header.maxx = static_cast<unsigned char>(layer.maxx);
    header.miny = static_cast<unsigned char>(layer.miny);
    header.maxy = static_cast<unsigned char>(layer.maxy);
    header.hmin = static_cast<unsigned short>(layer.hmin);
    header.hmax = static_cast<unsigned short>(layer.hmax);
    DetourTileData stored;
    if (dtStatusFailed(dtBuildTileCacheLayer(&compressor, &header, layer.heights, layer.areas,
                                             layer.cons, &stored.data, &stored.size))) {
      throw NavmeshError("navmesh build failed" + tile_name(region) +
                         " in dtBuildTileCacheLayer (out of memory)");
    }
    layers.push_back(std::move(stored));
  }
  return layers;
}

OffMeshLinkParams::OffMeshLinkParams(const std::vector<OffMeshLink>& links) {
  // Each link's user id is its index in the list.
  for (std::size_t k = 0; k < links.size(); ++k) {
    const OffMeshLink& link = links[k];
    verts_.insert(verts_.end(),
                  {link.start.x, link.start.y, link.start.z, link.end.x, link.end.y, link.end.z});
    radii_.push_back(link.radius);
    directions_.push_back(link.bidirectional ? DT_OFFMESH_CON_BIDIR : 0);
    areas_.push_back(link.area);
    flags_.push_back(link.flags);
    ids_.push_back(static_cast<unsigned int>(k));
  }
}

void OffMeshLinkParams::fill(dtNavMeshCreateParams& params) const {
  if (ids_.empty()) {
    return;
  }
  // dtCreateNavMeshData copies them, and keeps in the tile only those that start in it.
  params.offMeshConVerts = verts_.data();
  params.offMeshConRad = radii_.data();
  params.offMeshConDir = directions_.data();
  params.offMeshConAreas = areas_.data();
  params.offMeshConFlags = flags_.data();
  params.offMeshConUserID = ids_.data();
  params.offMeshConCount = static_cast<int>(ids_.size());
}

} // namespace crowd
