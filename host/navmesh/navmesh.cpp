// The navigation mesh: Recast's single-tile build (the pipeline of RecastDemo's
// Sample_SoloMesh::handleBuild) and the Detour queries the rest of the project uses.
#include "host/navmesh/navmesh.h"

#include "host/navmesh/contour_clearance.h"
#include "host/navmesh/default_cell_size.h"
#include "host/navmesh/floor_coverage.h"
#include "host/navmesh/floor_plan_clearance.h"
#include "host/navmesh/grid_clearance.h"
#include "host/navmesh/ledge_filter.h"
#include "host/navmesh/scenario_geometry.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace crowd {

namespace {

// --- Build parameters that are not scenario settings ---------------------------------------

// Maximum vertices per polygon: Detour's limit (DT_VERTS_PER_POLYGON), as in RecastDemo.
constexpr int kVertsPerPoly = 6;
// Region sizes in cells, side length (RecastDemo defaults; Recast squares them into areas).
constexpr int kRegionMinSize = 8;
constexpr int kRegionMergeSize = 20;
// Longest contour edge along walls, in metres (RecastDemo default).
constexpr float kMaxEdgeLength = 12.0f;
// Detail mesh: sample every 6 cells, allow 1 cell height of error (RecastDemo defaults).
constexpr float kDetailSampleDistCells = 6.0f;
constexpr float kDetailSampleMaxErrorCells = 1.0f;

// Contour simplification tolerance. Recast measures it in cells (simplifyContour compares it
// with distances of raw contour vertices in cell units, although Recast.h documents world
// units). 0.75 rather than RecastDemo's 1.3 or a smaller value: above the deviation of a 45
// degree staircase (1/sqrt(2) cells), so diagonal walls become straight edges instead of jagged
// ones, which would give DetourCrowd-style wall avoidance many tiny segments. Where a simplified
// edge cuts a corner nearer than the radius to an obstacle, restore_contour_clearance puts the
// corner back.
constexpr float kMaxSimplificationError = 0.75f;

// Most cells of erosion: the clearance searches a window of this many cells around every span
// near a wall, so the cost grows with its square (RecastDemo's limit for walkableRadius, which
// Recast stores next to distances in an unsigned char, is 255 half cells).
constexpr int kMaxErosionCells = 127;

// Largest heightfield a single-tile build accepts: Recast needs roughly 40 bytes per cell
// (span pointers, spans, compact cells, distance field), about 670 MB at this limit.
constexpr long long kMaxGridCells = 1LL << 24;

// The polygon flag every polygon gets: Detour's default dtQueryFilter includes all flags but
// passFilter requires (flags & include) != 0, so flags 0 would make every polygon impassable.
constexpr unsigned short kWalkableFlag = 1;

// --- Recast helpers ----------------------------------------------------------------------

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

[[noreturn]] void recast_failure(const BuildContext& context, const std::string& step) {
  std::string message = "navmesh build failed in " + step;
  if (!context.messages().empty()) {
    message += ": " + context.messages();
  }
  throw NavmeshError(message);
}

template <typename T, void (*Free)(T*)> struct RecastDeleter {
  void operator()(T* p) const { Free(p); }
};
using HeightfieldPtr =
    std::unique_ptr<rcHeightfield, RecastDeleter<rcHeightfield, rcFreeHeightField>>;
using CompactPtr = std::unique_ptr<rcCompactHeightfield,
                                   RecastDeleter<rcCompactHeightfield, rcFreeCompactHeightfield>>;
using ContourSetPtr = std::unique_ptr<rcContourSet, RecastDeleter<rcContourSet, rcFreeContourSet>>;
using PolyMeshPtr = std::unique_ptr<rcPolyMesh, RecastDeleter<rcPolyMesh, rcFreePolyMesh>>;
using DetailMeshPtr =
    std::unique_ptr<rcPolyMeshDetail, RecastDeleter<rcPolyMeshDetail, rcFreePolyMeshDetail>>;
using DetourMeshPtr = std::unique_ptr<dtNavMesh, RecastDeleter<dtNavMesh, dtFreeNavMesh>>;

template <typename Ptr> Ptr allocate(typename Ptr::pointer p, const char* what) {
  if (p == nullptr) {
    throw NavmeshError(std::string("navmesh build failed: out of memory allocating ") + what);
  }
  return Ptr(p);
}

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
}

std::vector<WallSegment> collect_boundary(const dtNavMesh& nav) {
  std::vector<WallSegment> segments;
  const dtMeshTile* tile = nav.getTile(0);
  if (tile == nullptr || tile->header == nullptr) {
    return segments;
  }
  auto vertex = [tile](unsigned short index) {
    const float* v = &tile->verts[static_cast<std::size_t>(index) * 3];
    return glm::vec3(v[0], v[1], v[2]);
  };
  for (int p = 0; p < tile->header->polyCount; ++p) {
    const dtPoly& poly = tile->polys[p];
    if (poly.getType() != DT_POLYTYPE_GROUND) {
      continue;
    }
    const int nv = poly.vertCount;
    // The loop of dtNavMeshQuery::getPolyWallSegments: edge j runs from vertex j to vertex
    // i = j + 1. A single tile has no external links, so neis[j] == 0 means no neighbour.
    for (int i = 0, j = nv - 1; i < nv; j = i++) {
      if (poly.neis[j] == 0) {
        segments.push_back({vertex(poly.verts[j]), vertex(poly.verts[i])});
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
  DetourMeshPtr nav;
  NavmeshBuildSettings settings;
  glm::vec3 bounds_min{0.0f}, bounds_max{0.0f};
  int polygon_count = 0;
  // How far the navmesh's edge may lie from a wall: the radius and less than a cell more with
  // a floor plan, up to a cell more again from a rasterised mesh (clearance.h).
  float eroded_width = 0.0f;
  std::vector<WallSegment> boundary;
  dtQueryFilter filter; // Default: every flag included, every area cost 1.
  // nearest_point is const and may be called from several threads; one shared query object
  // behind a mutex (findNearestPoly needs no node pool, so a small one is enough).
  std::mutex query_mutex;
  NavQueryPtr query;
};

NavMesh::NavMesh(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NavMesh::NavMesh(NavMesh&&) noexcept = default;
NavMesh& NavMesh::operator=(NavMesh&&) noexcept = default;
NavMesh::~NavMesh() = default;

NavMesh NavMesh::build(const InputGeometry& geometry, const NavmeshBuildSettings& settings) {
  check_settings(settings);
  const NavmeshBuildSettings& s = settings;
  const int nverts = static_cast<int>(geometry.vertices.size());
  const int ntris = static_cast<int>(geometry.triangles.size());
  if (ntris == 0 || geometry.walkable.size() != geometry.triangles.size()) {
    throw NavmeshError(ntris == 0 ? nothing_walkable_message(s)
                                  : "navmesh input: walkable flags do not match the triangles");
  }

  // Flat arrays for Recast.
  std::vector<float> verts;
  verts.reserve(static_cast<std::size_t>(nverts) * 3);
  for (const glm::vec3& v : geometry.vertices) {
    verts.insert(verts.end(), {v.x, v.y, v.z});
  }
  std::vector<int> tris;
  tris.reserve(static_cast<std::size_t>(ntris) * 3);
  for (const glm::ivec3& t : geometry.triangles) {
    if (std::min({t.x, t.y, t.z}) < 0 || std::max({t.x, t.y, t.z}) >= nverts) {
      throw NavmeshError("navmesh input: triangle index out of range");
    }
    tris.insert(tris.end(), {t.x, t.y, t.z});
  }

  // Configuration (Sample_SoloMesh::handleBuild; cell units as there).
  float bmin[3] = {geometry.bounds_min.x, geometry.bounds_min.y, geometry.bounds_min.z};
  float bmax[3] = {geometry.bounds_max.x, geometry.bounds_max.y, geometry.bounds_max.z};
  const float cs = s.cell_size, ch = s.cell_height;
  const int walkable_height = static_cast<int>(std::ceil(s.agent_height / ch));
  const int walkable_climb = static_cast<int>(std::floor(s.max_climb / ch));
  // Cells a blocker that matters can be away: the clearance's search window.
  const double erosion_cells = std::ceil(static_cast<double>(s.agent_radius) / cs);
  const int max_edge_len = static_cast<int>(kMaxEdgeLength / cs);
  if (walkable_height < 3) {
    // Recast's filters require walkableHeight >= 3 cells (Recast.h).
    throw NavmeshError("invalid navmesh settings: agent_height must be at least 3 x cell_height");
  }
  if (erosion_cells > kMaxErosionCells) {
    throw NavmeshError("invalid navmesh settings: agent_radius " + metres(s.agent_radius) +
                           " m needs more than " + std::to_string(kMaxErosionCells) +
                           " cells of erosion at cell_size " + metres(cs) + "; raise cell_size",
                       NavmeshError::Setting::CellSize);
  }

  const double world_w = static_cast<double>(bmax[0]) - bmin[0];
  const double world_h = static_cast<double>(bmax[2]) - bmin[2];
  const double cells_w = std::floor(world_w / cs + 0.5), cells_h = std::floor(world_h / cs + 0.5);
  if (cells_w * cells_h > static_cast<double>(kMaxGridCells) || cells_w >= 65535.0 ||
      cells_h >= 65535.0) {
    std::ostringstream out;
    out << "world of " << world_w << " x " << world_h << " m at cell_size " << cs << " needs "
        << static_cast<long long>(cells_w * cells_h) << " cells (the limit is " << kMaxGridCells
        << ", and 65534 along each axis); raise cell_size";
    throw NavmeshError(out.str(), NavmeshError::Setting::CellSize);
  }
  if ((static_cast<double>(bmax[1]) - bmin[1]) / ch >= RC_SPAN_MAX_HEIGHT) {
    std::ostringstream out;
    out << "world of height " << (bmax[1] - bmin[1]) << " m at cell_height " << ch
        << " needs more than " << RC_SPAN_MAX_HEIGHT << " height cells; raise cell_height";
    throw NavmeshError(out.str());
  }
  int width = 0, height = 0;
  rcCalcGridSize(bmin, bmax, cs, &width, &height);
  // rcCalcGridSize rounds to the nearest cell, so the last column or row may reach up to half
  // a cell past the geometry; the floor then marks that partial cell walkable and the navmesh
  // edge ends up nearer than the erosion radius to the world's bound. Drop a partial last
  // cell instead: the strip lost is inside the eroded border anyway.
  auto whole_cells = [cs](int cells, float lo, float hi) {
    const float overshoot = lo + static_cast<float>(cells) * cs - hi;
    return overshoot > 1e-3f * cs ? cells - 1 : cells;
  };
  width = whole_cells(width, bmin[0], bmax[0]);
  height = whole_cells(height, bmin[2], bmax[2]);
  if (width <= 0 || height <= 0) {
    throw NavmeshError(nothing_walkable_message(s)); // Smaller than one cell.
  }

  BuildContext context;
  BuildContext* ctx = &context;

  // 1. Rasterise. Only triangles that may be walked on get the slope test; solid geometry
  //    (obstacle prisms) stays RC_NULL_AREA whatever its slope. A 2D world's obstacles are not
  //    rasterised at all: FloorPlanClearance removes the cells they cover or come near, exactly
  //    (Recast would mark every cell their faces touch, up to a cell past the face).
  auto solid = allocate<HeightfieldPtr>(rcAllocHeightfield(), "the heightfield");
  if (!rcCreateHeightfield(ctx, *solid, width, height, bmin, bmax, cs, ch)) {
    recast_failure(context, "rcCreateHeightfield");
  }
  std::vector<unsigned char> areas(static_cast<std::size_t>(ntris), RC_NULL_AREA);
  std::vector<int> floor_tris; // The triangles marked walkable, for FloorCoverage.
  {
    std::vector<int> candidate_tris;
    std::vector<int> candidates;
    for (int t = 0; t < ntris; ++t) {
      if (geometry.walkable[static_cast<std::size_t>(t)] != 0) {
        candidates.push_back(t);
        candidate_tris.insert(candidate_tris.end(), tris.begin() + 3 * t, tris.begin() + 3 * t + 3);
      }
    }
    std::vector<unsigned char> candidate_areas(candidates.size(), RC_NULL_AREA);
    rcMarkWalkableTriangles(ctx, s.max_slope, verts.data(), nverts, candidate_tris.data(),
                            static_cast<int>(candidates.size()), candidate_areas.data());
    bool any_walkable = false;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      areas[static_cast<std::size_t>(candidates[k])] = candidate_areas[k];
      if (candidate_areas[k] != RC_NULL_AREA) {
        any_walkable = true;
        floor_tris.insert(floor_tris.end(), candidate_tris.begin() + 3 * static_cast<long>(k),
                          candidate_tris.begin() + 3 * static_cast<long>(k) + 3);
      }
    }
    if (!any_walkable) {
      throw NavmeshError(nothing_walkable_message(s));
    }
  }
  const bool rasterised =
      geometry.floor_plan
          ? rcRasterizeTriangles(
                ctx, verts.data(), nverts, floor_tris.data(),
                std::vector<unsigned char>(floor_tris.size() / 3, RC_WALKABLE_AREA).data(),
                static_cast<int>(floor_tris.size() / 3), *solid, walkable_climb)
          : rcRasterizeTriangles(ctx, verts.data(), nverts, tris.data(), areas.data(), ntris,
                                 *solid, walkable_climb);
  if (!rasterised) {
    recast_failure(context, "rcRasterizeTriangles");
  }

  // 2. Filter walkable surfaces (steps, ledges, low ceilings), as in Sample_SoloMesh, but
  //    sparing the cells beside a drop that the floor covers (ledge_filter.h).
  rcFilterLowHangingWalkableObstacles(ctx, walkable_climb, *solid);
  filter_ledges(*solid, walkable_height, walkable_climb,
                FloorCoverage(*solid, verts, floor_tris, static_cast<float>(walkable_climb) * ch));
  rcFilterWalkableLowHeightSpans(ctx, walkable_height, *solid);

  // 3. Compact heightfield, erosion by the agent radius, watershed regions.
  auto chf = allocate<CompactPtr>(rcAllocCompactHeightfield(), "the compact heightfield");
  if (!rcBuildCompactHeightfield(ctx, walkable_height, walkable_climb, *solid, *chf)) {
    recast_failure(context, "rcBuildCompactHeightfield");
  }
  solid.reset();
  // Erosion by the agent radius, measured exactly (clearance.h) instead of by Recast's
  // rcErodeWalkableArea, whose whole cells and chamfer distances cost up to a cell or two more
  // than the radius along walls and keep less than the radius at corners.
  std::unique_ptr<Clearance> clearance;
  if (geometry.floor_plan) {
    clearance = std::make_unique<FloorPlanClearance>(*geometry.floor_plan, s.agent_radius);
  } else {
    clearance = std::make_unique<GridClearance>(*chf, s.agent_radius);
  }
  clearance->erode(*chf);
  if (!rcBuildDistanceField(ctx, *chf)) {
    recast_failure(context, "rcBuildDistanceField");
  }
  if (!rcBuildRegions(ctx, *chf, 0, kRegionMinSize * kRegionMinSize,
                      kRegionMergeSize * kRegionMergeSize)) {
    recast_failure(context, "rcBuildRegions");
  }

  // 4. Contours and polygons.
  auto cset = allocate<ContourSetPtr>(rcAllocContourSet(), "the contours");
  if (!rcBuildContours(ctx, *chf, kMaxSimplificationError, max_edge_len, *cset)) {
    recast_failure(context, "rcBuildContours");
  }
  if (cset->nconts == 0) {
    throw NavmeshError(nothing_walkable_message(s));
  }
  restore_contour_clearance(*cset, *clearance, s.agent_radius);
  auto pmesh = allocate<PolyMeshPtr>(rcAllocPolyMesh(), "the polygon mesh");
  if (!rcBuildPolyMesh(ctx, *cset, kVertsPerPoly, *pmesh)) {
    recast_failure(context, "rcBuildPolyMesh");
  }
  if (pmesh->npolys == 0) {
    throw NavmeshError(nothing_walkable_message(s));
  }
  auto dmesh = allocate<DetailMeshPtr>(rcAllocPolyMeshDetail(), "the detail mesh");
  if (!rcBuildPolyMeshDetail(ctx, *pmesh, *chf, kDetailSampleDistCells * cs,
                             kDetailSampleMaxErrorCells * ch, *dmesh)) {
    recast_failure(context, "rcBuildPolyMeshDetail");
  }
  clearance.reset();
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
  rcVcopy(params.bmin, pmesh->bmin);
  rcVcopy(params.bmax, pmesh->bmax);
  params.cs = cs;
  params.ch = ch;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int data_size = 0;
  if (!dtCreateNavMeshData(&params, &data, &data_size)) {
    throw NavmeshError("navmesh build failed in dtCreateNavMeshData (" +
                       std::to_string(pmesh->nverts) + " vertices, " +
                       std::to_string(pmesh->npolys) + " polygons)");
  }
  DetourMeshPtr nav(dtAllocNavMesh());
  if (!nav) {
    dtFree(data);
    throw NavmeshError("navmesh build failed: out of memory allocating the Detour navmesh");
  }
  if (const dtStatus status = nav->init(data, data_size, DT_TILE_FREE_DATA);
      dtStatusFailed(status)) {
    dtFree(data); // Not owned by the navmesh when init fails.
    throw NavmeshError("navmesh build failed in dtNavMesh::init (status 0x" + [&] {
      std::ostringstream out;
      out << std::hex << status;
      return out.str();
    }() + ")");
  }

  auto impl = std::make_unique<Impl>();
  impl->settings = s;
  impl->bounds_min = geometry.bounds_min;
  impl->bounds_max = geometry.bounds_max;
  impl->polygon_count = pmesh->npolys;
  impl->eroded_width = s.agent_radius + (geometry.floor_plan ? 1.0f : 2.0f) * cs;
  impl->boundary = collect_boundary(*nav);
  impl->nav = std::move(nav);
  NavMesh mesh(std::move(impl));
  mesh.impl_->query = mesh.make_query(64);
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
  try {
    return build(geometry, settings);
  } catch (const NavmeshError& e) {
    // A world Recast cannot make a navmesh of (no walkable area, a grid too large for its
    // cell size) is a problem of the scenario file: name the file and where it says so, the
    // cell size where the scenario gives one and it is what does not fit.
    const bool cell_size =
        e.setting() == NavmeshError::Setting::CellSize && world.navmesh.cell_size;
    throw ScenarioError(scenario.file.string(), cell_size ? "world.navmesh.cell_size" : "world",
                        e.what());
  }
}

const dtNavMesh& NavMesh::detour() const {
  return *impl_->nav;
}

NavQueryPtr NavMesh::make_query(int max_nodes) const {
  // Detour's node pool indexes nodes with unsigned short (DT_NULL_IDX = 0xffff).
  if (max_nodes < 1 || max_nodes > 65535) {
    throw NavmeshError("make_query: max_nodes must be in [1, 65535], got " +
                       std::to_string(max_nodes));
  }
  NavQueryPtr query(dtAllocNavMeshQuery());
  if (!query || dtStatusFailed(query->init(impl_->nav.get(), max_nodes))) {
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

const std::vector<WallSegment>& NavMesh::boundary_segments() const {
  return impl_->boundary;
}

std::optional<glm::vec3> NavMesh::nearest_point(const glm::vec3& point) const {
  const glm::vec3 extents = placement_extents();
  const float center[3] = {point.x, point.y, point.z};
  const float half[3] = {extents.x, extents.y, extents.z};
  float nearest[3] = {0.0f, 0.0f, 0.0f};
  dtPolyRef ref = 0;
  std::lock_guard lock(impl_->query_mutex);
  const dtStatus status =
      impl_->query->findNearestPoly(center, half, &impl_->filter, &ref, nearest);
  if (dtStatusFailed(status) || ref == 0) {
    return std::nullopt;
  }
  return glm::vec3(nearest[0], nearest[1], nearest[2]);
}

} // namespace crowd
