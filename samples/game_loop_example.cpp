// Using the library from a game: the game builds its own tiled navmesh with Recast (as
// RecastDemo's Sample_TileMesh does), hands the dtNavMesh to a crowd::Crowd, and drives it with
// its own fixed-dt loop.
//
//   ./build/game_loop_example      (prints the crowd's progress; exits non-zero unless every
//                                   agent reaches its target, the escorts end in formation
//                                   beside their captain and the player's character walks
//                                   where its input sent it)
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>
#include <cmath>
#include <crowd/crowd.h>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

// The level: a 60 x 30 m floor with four 2 m high crates, as triangles (Recast's y is up).
struct Level {
  std::vector<float> vertices; // x, y, z
  std::vector<int> triangles;  // counter-clockwise seen from above

  int vertex(float x, float y, float z) {
    vertices.insert(vertices.end(), {x, y, z});
    return static_cast<int>(vertices.size() / 3) - 1;
  }
  void quad(int a, int b, int c, int d) { triangles.insert(triangles.end(), {a, b, c, a, c, d}); }
  void box(float x0, float z0, float x1, float z1, float height) {
    int v[8];
    for (int k = 0; k < 8; ++k)
      v[k] = vertex(k & 1 ? x1 : x0, k & 4 ? height : 0.0f, k & 2 ? z1 : z0);
    quad(v[4], v[6], v[7], v[5]); // top
    quad(v[0], v[4], v[5], v[1]); // sides
    quad(v[1], v[5], v[7], v[3]);
    quad(v[3], v[7], v[6], v[2]);
    quad(v[2], v[6], v[4], v[0]);
  }
};

Level make_level() {
  Level level;
  const int a = level.vertex(0, 0, 0), b = level.vertex(60, 0, 0), c = level.vertex(60, 0, 30),
            d = level.vertex(0, 0, 30);
  level.quad(a, d, c, b);
  level.box(14, 6, 18, 12, 2);
  level.box(24, 17, 30, 23, 2);
  level.box(38, 8, 41, 20, 2);
  level.box(48, 2, 52, 6, 2);
  return level;
}

struct NavMeshDeleter {
  void operator()(dtNavMesh* navmesh) const { dtFreeNavMesh(navmesh); }
};
using NavMeshPtr = std::unique_ptr<dtNavMesh, NavMeshDeleter>;

constexpr float kCell = 0.3f, kCellHeight = 0.2f;
constexpr float kAgentRadius = 0.4f, kAgentHeight = 2.0f, kAgentClimb = 0.9f;
constexpr int kTileCells = 64; // 19.2 m tiles: 4 x 2 of them

// One tile of the navmesh, the steps of Sample_TileMesh::buildTileMesh; nullptr data when the
// tile holds nothing walkable.
bool build_tile(const Level& level, int tx, int tz, const float* world_min, unsigned char** data,
                int* size) {
  rcContext ctx(false);
  rcConfig cfg{};
  cfg.cs = kCell;
  cfg.ch = kCellHeight;
  cfg.walkableSlopeAngle = 45.0f;
  cfg.walkableHeight = static_cast<int>(std::ceil(kAgentHeight / kCellHeight));
  cfg.walkableClimb = static_cast<int>(std::floor(kAgentClimb / kCellHeight));
  cfg.walkableRadius = static_cast<int>(std::ceil(kAgentRadius / kCell));
  cfg.maxEdgeLen = static_cast<int>(12.0f / kCell);
  cfg.maxSimplificationError = 1.3f;
  cfg.minRegionArea = 8 * 8;
  cfg.mergeRegionArea = 20 * 20;
  cfg.maxVertsPerPoly = DT_VERTS_PER_POLYGON;
  cfg.tileSize = kTileCells;
  cfg.borderSize = cfg.walkableRadius + 3; // tiles overlap so that their edges match
  cfg.width = cfg.tileSize + 2 * cfg.borderSize;
  cfg.height = cfg.width;
  cfg.detailSampleDist = 6.0f * kCell;
  cfg.detailSampleMaxError = kCellHeight;
  const float tile_side = static_cast<float>(kTileCells) * kCell;
  cfg.bmin[0] = world_min[0] + static_cast<float>(tx) * tile_side -
                static_cast<float>(cfg.borderSize) * kCell;
  cfg.bmin[1] = -1.0f;
  cfg.bmin[2] = world_min[2] + static_cast<float>(tz) * tile_side -
                static_cast<float>(cfg.borderSize) * kCell;
  cfg.bmax[0] = cfg.bmin[0] + static_cast<float>(cfg.width) * kCell;
  cfg.bmax[1] = 5.0f;
  cfg.bmax[2] = cfg.bmin[2] + static_cast<float>(cfg.height) * kCell;

  const int nverts = static_cast<int>(level.vertices.size() / 3);
  const int ntris = static_cast<int>(level.triangles.size() / 3);
  std::vector<unsigned char> areas(static_cast<std::size_t>(ntris), 0);
  rcHeightfield* solid = rcAllocHeightfield();
  rcCompactHeightfield* chf = rcAllocCompactHeightfield();
  rcContourSet* cset = rcAllocContourSet();
  rcPolyMesh* pmesh = rcAllocPolyMesh();
  rcPolyMeshDetail* dmesh = rcAllocPolyMeshDetail();
  bool ok =
      rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch);
  if (ok) {
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, level.vertices.data(), nverts,
                            level.triangles.data(), ntris, areas.data());
    ok = rcRasterizeTriangles(&ctx, level.vertices.data(), nverts, level.triangles.data(),
                              areas.data(), ntris, *solid, cfg.walkableClimb);
  }
  if (ok) {
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
    ok = rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf) &&
         rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf) && rcBuildDistanceField(&ctx, *chf) &&
         rcBuildRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea) &&
         rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset) &&
         rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh) &&
         rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError,
                               *dmesh);
  }
  *data = nullptr;
  *size = 0;
  if (ok && pmesh->npolys > 0) {
    for (int p = 0; p < pmesh->npolys; ++p)
      pmesh->flags[p] = 1; // walkable: the crowd's query filter includes every flag
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
    params.walkableHeight = kAgentHeight;
    params.walkableRadius = kAgentRadius;
    params.walkableClimb = kAgentClimb;
    params.tileX = tx;
    params.tileY = tz;
    rcVcopy(params.bmin, pmesh->bmin);
    rcVcopy(params.bmax, pmesh->bmax);
    params.cs = cfg.cs;
    params.ch = cfg.ch;
    params.buildBvTree = true;
    ok = dtCreateNavMeshData(&params, data, size);
  }
  rcFreeHeightField(solid);
  rcFreeCompactHeightfield(chf);
  rcFreeContourSet(cset);
  rcFreePolyMesh(pmesh);
  rcFreePolyMeshDetail(dmesh);
  return ok;
}

NavMeshPtr build_navmesh(const Level& level) {
  const float world_min[3] = {0.0f, -1.0f, 0.0f};
  const float tile_side = static_cast<float>(kTileCells) * kCell;
  const int tiles_x = static_cast<int>(std::ceil(60.0f / tile_side));
  const int tiles_z = static_cast<int>(std::ceil(30.0f / tile_side));
  NavMeshPtr navmesh(dtAllocNavMesh());
  dtNavMeshParams params{};
  rcVcopy(params.orig, world_min);
  params.tileWidth = tile_side;
  params.tileHeight = tile_side;
  params.maxTiles = tiles_x * tiles_z;
  params.maxPolys = 1 << 14;
  if (!navmesh || dtStatusFailed(navmesh->init(&params)))
    return nullptr;
  for (int tz = 0; tz < tiles_z; ++tz) {
    for (int tx = 0; tx < tiles_x; ++tx) {
      unsigned char* data = nullptr;
      int size = 0;
      if (!build_tile(level, tx, tz, world_min, &data, &size))
        return nullptr;
      if (data != nullptr &&
          dtStatusFailed(navmesh->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr))) {
        dtFree(data);
        return nullptr;
      }
    }
  }
  return navmesh;
}

} // namespace

int main() {
  const Level level = make_level();
  const NavMeshPtr navmesh = build_navmesh(level);
  if (!navmesh) {
    std::fprintf(stderr, "game_loop_example: the navmesh build failed\n");
    return 1;
  }

  crowd::CrowdOptions options;
  options.backend = crowd::BackendKind::Auto; // CUDA where there is a device
  crowd::Crowd crowd(*navmesh, options);
  std::printf("navmesh: %d tiles, %d polygons; executor %s\n", crowd.navmesh().tile_count(),
              crowd.navmesh().polygon_count(), crowd.executor_name().c_str());

  // Two squads of ten cross the level in opposite directions, past the crates.
  std::vector<int> ids;
  std::vector<glm::vec3> targets;
  for (int k = 0; k < 10; ++k) {
    const float z = 4.0f + 2.4f * static_cast<float>(k);
    ids.push_back(crowd.add_agent({3.0f, 0.0f, z}));
    targets.push_back({57.0f, 0.0f, 30.0f - z});
    ids.push_back(crowd.add_agent({57.0f, 0.0f, z}));
    targets.push_back({3.0f, 0.0f, 30.0f - z});
  }
  for (std::size_t k = 0; k < ids.size(); ++k)
    crowd.request_move_target(ids[k], targets[k]);

  // The game's loop: a fixed 60 Hz step. An agent counts as there within the game's acceptance
  // radius of its target: standing agents keep their separation (DT_CROWD_SEPARATION), so a
  // line of them spreads a little beyond its targets.
  constexpr float kFrame = 1.0f / 60.0f;
  constexpr float kAcceptance = 1.0f;
  int arrived = 0;
  for (int frame = 1; frame <= 60 * 90 && arrived < static_cast<int>(ids.size()); ++frame) {
    crowd.update(kFrame);
    arrived = 0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const glm::vec3 p = crowd.position(ids[k]);
      const glm::vec3 t = crowd.target(ids[k]);
      arrived += std::hypot(p.x - t.x, p.z - t.z) < kAcceptance ? 1 : 0;
    }
    if (frame % 600 == 0)
      std::printf("t=%4.0f s  %d of %zu agents at their targets\n",
                  static_cast<float>(frame) * kFrame, arrived, ids.size());
  }
  std::printf("all arrived: %s\n", arrived == static_cast<int>(ids.size()) ? "yes" : "no");
  if (arrived != static_cast<int>(ids.size()))
    return 1;

  // Then a captain crosses the middle with two escorts in formation beside it (request_follow:
  // the escorts keep its offsets while it walks, and round the crate with it), while the
  // player's character, driven by the game's input as a velocity (request_move_velocity), walks
  // east along the top of the level. Escorts hold their place rather than keep their distance
  // from others: no separation.
  const int captain = crowd.add_agent({8.0f, 0.0f, 15.0f});
  crowd::AgentParams escort;
  escort.separation_weight = 0.0f;
  const glm::vec3 offsets[] = {{-1.0f, 0.0f, 1.5f}, {-1.0f, 0.0f, -1.5f}};
  std::vector<int> escorts;
  for (const glm::vec3& offset : offsets) {
    escorts.push_back(crowd.add_agent(glm::vec3(8.0f, 0.0f, 15.0f) + offset, escort));
    crowd.request_follow(escorts.back(), captain, offset);
  }
  const glm::vec3 captain_target{52.0f, 0.0f, 15.0f};
  crowd.request_move_target(captain, captain_target);
  const int player = crowd.add_agent({10.0f, 0.0f, 27.0f});
  const glm::vec3 player_start = crowd.position(player);
  crowd.request_move_velocity(player, {1.2f, 0.0f, 0.0f}); // "right" held down
  int settled = 0; // frames the captain has stood at its target
  for (int frame = 1; frame <= 60 * 90 && settled < 60 * 3; ++frame) {
    if (frame == 60 * 10)
      crowd.reset_move_target(player); // input released after 10 s
    crowd.update(kFrame);
    const glm::vec3 c = crowd.position(captain);
    settled =
        std::hypot(c.x - captain_target.x, c.z - captain_target.z) < kAcceptance ? settled + 1 : 0;
  }
  bool in_formation = true;
  for (std::size_t k = 0; k < escorts.size(); ++k) {
    const glm::vec3 place = crowd.position(captain) + offsets[k];
    const glm::vec3 p = crowd.position(escorts[k]);
    const float off = std::hypot(p.x - place.x, p.z - place.z);
    std::printf("escort %zu: %.2f m from its place beside the captain\n", k, off);
    in_formation = in_formation && off < kAcceptance;
  }
  const glm::vec3 walked = crowd.position(player) - player_start;
  std::printf("captain at its target: %s; player walked %.1f m east, %.2f m aside\n",
              settled >= 60 * 3 ? "yes" : "no", walked.x, walked.z);
  const bool player_ok = walked.x > 10.0f && std::abs(walked.z) < 0.5f;
  return settled >= 60 * 3 && in_formation && player_ok ? 0 : 1;
}
