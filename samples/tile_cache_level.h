// A game's level built through DetourTileCache, as RecastDemo's Sample_TempObstacles builds
// one: each tile rasterised once into layers (rcBuildHeightfieldLayers, dtBuildTileCacheLayer),
// and the navmesh's tiles built from them by the tile cache, which rebuilds those an obstacle
// touches. Used by samples/obstacles_example.cpp and by the Crowd's obstacle tests.
#pragma once

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

namespace tile_cache_level {

// The level: a 40 x 20 m hall with a 20 x 8 m block in its middle, which leaves a wide north
// aisle and a narrow south one, as triangles (Recast's y is up).
struct Level {
  std::vector<float> vertices;
  std::vector<int> triangles;
  int vertex(float x, float y, float z) {
    vertices.push_back(x);
    vertices.push_back(y);
    vertices.push_back(z);
    return static_cast<int>(vertices.size() / 3) - 1;
  }
  void quad(int a, int b, int c, int d) {
    for (const int v : {a, b, c, a, c, d})
      triangles.push_back(v);
  }
};

inline Level make_level() {
  Level level;
  level.quad(level.vertex(0, 0, 0), level.vertex(0, 0, 20), level.vertex(40, 0, 20),
             level.vertex(40, 0, 0));
  int v[8];
  for (int k = 0; k < 8; ++k)
    v[k] = level.vertex(k & 1 ? 30.0f : 10.0f, k & 4 ? 3.0f : 0.0f, k & 2 ? 12.0f : 4.0f);
  level.quad(v[4], v[6], v[7], v[5]);
  level.quad(v[0], v[4], v[5], v[1]);
  level.quad(v[1], v[5], v[7], v[3]);
  level.quad(v[3], v[7], v[6], v[2]);
  level.quad(v[2], v[6], v[4], v[0]);
  return level;
}

constexpr float kCell = 0.2f, kCellHeight = 0.2f;
constexpr float kAgentRadius = 0.4f, kAgentHeight = 2.0f, kAgentClimb = 0.9f;
constexpr int kTileCells = 48; // Sample_TempObstacles' default: 9.6 m tiles, 5 x 3 of them
constexpr int kMaxLayers = 4;  // floors above one another in a tile

// The layers are stored as they are. RecastDemo compresses them with FastLZ; any
// dtTileCacheCompressor will do.
struct PlainLayers final : dtTileCacheCompressor {
  int maxCompressedSize(const int size) override { return size; }
  dtStatus compress(const unsigned char* in, const int size, unsigned char* out, const int room,
                    int* written) override {
    if (size > room)
      return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    std::memcpy(out, in, static_cast<std::size_t>(size));
    *written = size;
    return DT_SUCCESS;
  }
  dtStatus decompress(const unsigned char* in, const int size, unsigned char* out, const int room,
                      int* written) override {
    return compress(in, size, out, room, written);
  }
};

// Every polygon the tile cache builds is walkable ground: flag 1 (the crowd's query filters
// include every flag; a polygon without flags is impassable), area 0.
struct WalkableGround final : dtTileCacheMeshProcess {
  void process(dtNavMeshCreateParams* params, unsigned char* areas,
               unsigned short* flags) override {
    for (int i = 0; i < params->polyCount; ++i) {
      areas[i] = 0;
      flags[i] = 1;
    }
  }
};

// Sample_TempObstacles::rasterizeTileLayers: one tile's heightfield, eroded by the agent
// radius, cut into layers, each added to the tile cache.
inline bool add_tile_layers(const Level& level, int tx, int tz, const float* world_min,
                            dtTileCache& cache, dtTileCacheCompressor& compressor) {
  rcContext ctx(false);
  const int walkable_height = static_cast<int>(std::ceil(kAgentHeight / kCellHeight));
  const int walkable_climb = static_cast<int>(std::floor(kAgentClimb / kCellHeight));
  const int walkable_radius = static_cast<int>(std::ceil(kAgentRadius / kCell));
  const int border = walkable_radius + 3; // tiles overlap so that their edges match
  const int side = kTileCells + 2 * border;
  const float tile_side = static_cast<float>(kTileCells) * kCell;
  float bmin[3] = {
      world_min[0] + static_cast<float>(tx) * tile_side - static_cast<float>(border) * kCell,
      world_min[1],
      world_min[2] + static_cast<float>(tz) * tile_side - static_cast<float>(border) * kCell};
  float bmax[3] = {bmin[0] + static_cast<float>(side) * kCell, 5.0f,
                   bmin[2] + static_cast<float>(side) * kCell};
  const int nverts = static_cast<int>(level.vertices.size() / 3);
  const int ntris = static_cast<int>(level.triangles.size() / 3);
  std::vector<unsigned char> areas(static_cast<std::size_t>(ntris), 0);
  rcHeightfield* solid = rcAllocHeightfield();
  rcCompactHeightfield* chf = rcAllocCompactHeightfield();
  rcHeightfieldLayerSet* layers = rcAllocHeightfieldLayerSet();
  bool ok = rcCreateHeightfield(&ctx, *solid, side, side, bmin, bmax, kCell, kCellHeight);
  if (ok) {
    rcMarkWalkableTriangles(&ctx, 45.0f, level.vertices.data(), nverts, level.triangles.data(),
                            ntris, areas.data());
    ok = rcRasterizeTriangles(&ctx, level.vertices.data(), nverts, level.triangles.data(),
                              areas.data(), ntris, *solid, walkable_climb);
  }
  if (ok) {
    rcFilterLowHangingWalkableObstacles(&ctx, walkable_climb, *solid);
    rcFilterLedgeSpans(&ctx, walkable_height, walkable_climb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, walkable_height, *solid);
    ok = rcBuildCompactHeightfield(&ctx, walkable_height, walkable_climb, *solid, *chf) &&
         rcErodeWalkableArea(&ctx, walkable_radius, *chf) &&
         rcBuildHeightfieldLayers(&ctx, *chf, border, walkable_height, *layers);
  }
  for (int i = 0; ok && i < layers->nlayers; ++i) {
    const rcHeightfieldLayer& layer = layers->layers[i];
    dtTileCacheLayerHeader header{};
    header.magic = DT_TILECACHE_MAGIC;
    header.version = DT_TILECACHE_VERSION;
    header.tx = tx;
    header.ty = tz;
    header.tlayer = i;
    rcVcopy(header.bmin, layer.bmin);
    rcVcopy(header.bmax, layer.bmax);
    header.width = static_cast<unsigned char>(layer.width);
    header.height = static_cast<unsigned char>(layer.height);
    header.minx = static_cast<unsigned char>(layer.minx);
    header.maxx = static_cast<unsigned char>(layer.maxx);
    header.miny = static_cast<unsigned char>(layer.miny);
    header.maxy = static_cast<unsigned char>(layer.maxy);
    header.hmin = static_cast<unsigned short>(layer.hmin);
    header.hmax = static_cast<unsigned short>(layer.hmax);
    unsigned char* data = nullptr;
    int size = 0;
    ok = dtStatusSucceed(dtBuildTileCacheLayer(&compressor, &header, layer.heights, layer.areas,
                                               layer.cons, &data, &size)) &&
         dtStatusSucceed(cache.addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr));
  }
  rcFreeHeightField(solid);
  rcFreeCompactHeightfield(chf);
  rcFreeHeightfieldLayerSet(layers);
  return ok;
}

struct World {
  PlainLayers compressor;
  WalkableGround ground;
  dtTileCacheAlloc alloc;
  std::unique_ptr<dtTileCache, void (*)(dtTileCache*)> cache{nullptr, dtFreeTileCache};
  std::unique_ptr<dtNavMesh, void (*)(dtNavMesh*)> navmesh{nullptr, dtFreeNavMesh};
};

// Sample_TempObstacles::handleBuild: the tile cache, the navmesh, every tile's layers, and the
// navmesh tiles built from them.
inline bool build_world(const Level& level, World& world) {
  const float world_min[3] = {0.0f, -1.0f, 0.0f};
  const float tile_side = static_cast<float>(kTileCells) * kCell;
  const int tiles_x = static_cast<int>(std::ceil(40.0f / tile_side));
  const int tiles_z = static_cast<int>(std::ceil(20.0f / tile_side));
  dtTileCacheParams cache_params{};
  rcVcopy(cache_params.orig, world_min);
  cache_params.cs = kCell;
  cache_params.ch = kCellHeight;
  cache_params.width = cache_params.height = kTileCells;
  cache_params.walkableHeight = kAgentHeight;
  cache_params.walkableRadius = kAgentRadius;
  cache_params.walkableClimb = kAgentClimb;
  cache_params.maxSimplificationError = 1.3f;
  cache_params.maxTiles = tiles_x * tiles_z * kMaxLayers;
  cache_params.maxObstacles = 128;
  world.cache.reset(dtAllocTileCache());
  world.navmesh.reset(dtAllocNavMesh());
  if (!world.cache || !world.navmesh ||
      dtStatusFailed(
          world.cache->init(&cache_params, &world.alloc, &world.compressor, &world.ground)))
    return false;
  dtNavMeshParams params{};
  rcVcopy(params.orig, world_min);
  params.tileWidth = params.tileHeight = tile_side;
  params.maxTiles = 256; // 2^8 tiles, 2^14 polygons each: Detour's 22 bits
  params.maxPolys = 1 << 14;
  if (dtStatusFailed(world.navmesh->init(&params)))
    return false;
  for (int tz = 0; tz < tiles_z; ++tz)
    for (int tx = 0; tx < tiles_x; ++tx)
      if (!add_tile_layers(level, tx, tz, world_min, *world.cache, world.compressor))
        return false;
  for (int tz = 0; tz < tiles_z; ++tz)
    for (int tx = 0; tx < tiles_x; ++tx)
      if (dtStatusFailed(world.cache->buildNavMeshTilesAt(tx, tz, world.navmesh.get())))
        return false;
  return true;
}

} // namespace tile_cache_level
