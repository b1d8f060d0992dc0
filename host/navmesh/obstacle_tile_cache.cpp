// DetourTileCache with this project's ground flags and links (obstacle_tile_cache.h).
#include "host/navmesh/obstacle_tile_cache.h"

#include "host/navmesh/navmesh.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCacheBuilder.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace crowd {
namespace {

// Layers kept as they are. RecastDemo compresses them with FastLZ, which Debian does not
// package; a layer is 3 bytes a cell (heights, areas, connections), 12 KB for a 64-cell tile,
// and not compressing makes a rebuild cheaper.
struct StoredAsIs final : dtTileCacheCompressor {
  int maxCompressedSize(const int buffer_size) override { return buffer_size; }
  dtStatus compress(const unsigned char* buffer, const int buffer_size, unsigned char* compressed,
                    const int max_compressed_size, int* compressed_size) override {
    if (buffer_size > max_compressed_size)
      return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    std::memcpy(compressed, buffer, static_cast<std::size_t>(buffer_size));
    *compressed_size = buffer_size;
    return DT_SUCCESS;
  }
  dtStatus decompress(const unsigned char* compressed, const int compressed_size,
                      unsigned char* buffer, const int max_buffer_size, int* buffer_size) override {
    if (compressed_size > max_buffer_size)
      return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    std::memcpy(buffer, compressed, static_cast<std::size_t>(compressed_size));
    *buffer_size = compressed_size;
    return DT_SUCCESS;
  }
};

// What every rebuilt tile's polygons get: the ground's area and flag (build_tile's), and the
// off-mesh links that start in the tile.
struct GroundPolygons final : dtTileCacheMeshProcess {
  explicit GroundPolygons(const std::vector<OffMeshLink>& link_list) : links(link_list) {}
  void process(dtNavMeshCreateParams* params, unsigned char* areas,
               unsigned short* flags) override {
    for (int i = 0; i < params->polyCount; ++i) {
      areas[i] = 0;
      flags[i] = kWalkableFlag;
    }
    links.fill(*params);
  }
  OffMeshLinkParams links;
};

std::string status_text(dtStatus status) {
  if (dtStatusDetail(status, DT_OUT_OF_MEMORY))
    return "out of memory";
  if (dtStatusDetail(status, DT_BUFFER_TOO_SMALL))
    return "a buffer too small";
  if (dtStatusDetail(status, DT_INVALID_PARAM))
    return "an invalid parameter";
  return "status " + std::to_string(status);
}

// Every navmesh tile's reference: a rebuilt tile gets a new one (its salt changes).
std::vector<dtTileRef> tile_refs(const dtNavMesh& navmesh) {
  std::vector<dtTileRef> refs(static_cast<std::size_t>(navmesh.getMaxTiles()));
  for (int t = 0; t < navmesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = navmesh.getTile(t);
    refs[static_cast<std::size_t>(t)] =
        tile != nullptr && tile->header != nullptr ? navmesh.getTileRef(tile) : 0;
  }
  return refs;
}

} // namespace

dtTileCacheCompressor& tile_cache_compressor() {
  static StoredAsIs compressor;
  return compressor;
}

struct ObstacleTileCache::Impl {
  // A cache built here: Detour's default allocator (dtAlloc and dtFree) and our polygons.
  dtTileCacheAlloc alloc;
  std::unique_ptr<GroundPolygons> process;
  std::unique_ptr<dtTileCache> owned;
  dtTileCache* cache = nullptr; // owned's, or the caller's
  std::size_t layer_bytes = 0;
  // Removals queued since the last update: dtTileCache marks an obstacle removed only when
  // update takes the request.
  std::vector<dtObstacleRef> removing;
  // Tiles rebuilt by flushes inside add and remove, which the next update reports.
  int unreported = 0;
};

ObstacleTileCache::ObstacleTileCache(const dtTileCacheParams& params,
                                     const std::vector<OffMeshLink>& links)
    : impl_(std::make_unique<Impl>()) {
  impl_->process = std::make_unique<GroundPolygons>(links);
  impl_->owned = std::make_unique<dtTileCache>();
  impl_->cache = impl_->owned.get();
  const dtStatus status =
      impl_->cache->init(&params, &impl_->alloc, &tile_cache_compressor(), impl_->process.get());
  if (dtStatusFailed(status))
    throw NavmeshError("navmesh build failed in dtTileCache::init (" + status_text(status) + ")");
}

ObstacleTileCache::ObstacleTileCache(dtTileCache& cache) : impl_(std::make_unique<Impl>()) {
  impl_->cache = &cache;
  for (int i = 0; i < cache.getTileCount(); ++i)
    impl_->layer_bytes += static_cast<std::size_t>(std::max(cache.getTile(i)->dataSize, 0));
}

ObstacleTileCache::~ObstacleTileCache() = default;

void ObstacleTileCache::add_layers(std::vector<DetourTileData>& layers) {
  for (DetourTileData& layer : layers) {
    const int size = layer.size;
    unsigned char* data = layer.release();
    const dtStatus status = impl_->cache->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr);
    if (dtStatusFailed(status)) {
      dtFree(data);
      throw NavmeshError("navmesh build failed in dtTileCache::addTile (" + status_text(status) +
                         ")");
    }
    impl_->layer_bytes += static_cast<std::size_t>(size);
  }
}

void ObstacleTileCache::build_tiles_at(int tx, int tz, dtNavMesh& navmesh) {
  const dtStatus status = impl_->cache->buildNavMeshTilesAt(tx, tz, &navmesh);
  if (dtStatusFailed(status))
    throw NavmeshError("navmesh build failed in dtTileCache::buildNavMeshTilesAt (tile " +
                       std::to_string(tx) + ", " + std::to_string(tz) + ": " + status_text(status) +
                       ")");
}

int ObstacleTileCache::tiles_touched(const NavObstacle& obstacle, float margin, float below) const {
  // Its bounds on the ground: DetourTileCache marks at most DT_MAX_TOUCHED_TILES of the tiles
  // they overlap and leaves the rest of a larger obstacle out, silently.
  glm::vec2 reach{0.0f};
  if (obstacle.shape == NavObstacle::Shape::Cylinder) {
    reach = glm::vec2(obstacle.radius + margin);
  } else {
    const float c = std::abs(std::cos(obstacle.yaw)), s = std::abs(std::sin(obstacle.yaw));
    const glm::vec2 half = obstacle.half_size + margin;
    reach = {c * half.x + s * half.y, s * half.x + c * half.y};
  }
  const glm::vec3& at = obstacle.position;
  const float bmin[3] = {at.x - reach.x, at.y - below, at.z - reach.y};
  const float bmax[3] = {at.x + reach.x, at.y + obstacle.height, at.z + reach.y};
  constexpr int kMostCounted = 64;
  dtCompressedTileRef touched[kMostCounted];
  int count = 0;
  impl_->cache->queryTiles(bmin, bmax, touched, &count, kMostCounted);
  return count;
}

dtObstacleRef ObstacleTileCache::add(const NavObstacle& obstacle, float margin, float below,
                                     dtNavMesh& navmesh) {
  dtTileCache& cache = *impl_->cache;
  const float height = obstacle.height + below;
  const glm::vec3 foot = obstacle.position - glm::vec3(0.0f, below, 0.0f);
  if (const int count = tiles_touched(obstacle, margin, below); count > kMostTilesTouched)
    throw NavmeshError("the obstacle covers " + std::to_string(count) +
                       " navmesh tile layers, more than the " + std::to_string(kMostTilesTouched) +
                       " DetourTileCache rebuilds for one obstacle: make it smaller, or the "
                       "tiles larger (world.navmesh.tile_size)");
  for (int attempt = 0;; ++attempt) {
    dtObstacleRef ref = 0;
    dtStatus status = 0;
    if (obstacle.shape == NavObstacle::Shape::Cylinder) {
      status = cache.addObstacle(&foot.x, obstacle.radius + margin, height, &ref);
    } else {
      const glm::vec2 half = obstacle.half_size + margin;
      const float centre[3] = {foot.x, foot.y + 0.5f * height, foot.z};
      const float extents[3] = {half.x, 0.5f * height, half.y};
      // dtMarkBoxArea turns a box's x axis toward -z for a positive angle (its rotAux takes
      // sin(-angle / 2)); NavObstacle's yaw turns x toward +z, as the scenarios and the
      // renderer read it.
      status = cache.addBoxObstacle(centre, extents, -obstacle.yaw, &ref);
    }
    if (dtStatusSucceed(status))
      return ref;
    // The request queue is full (DetourTileCache's MAX_REQUESTS), or every slot is taken, some
    // by obstacles whose removal is queued (a slot is freed when update applies it): apply the
    // queue, then ask again.
    if ((dtStatusDetail(status, DT_BUFFER_TOO_SMALL) || dtStatusDetail(status, DT_OUT_OF_MEMORY)) &&
        attempt == 0) {
      impl_->unreported += flush(navmesh);
      continue;
    }
    if (dtStatusDetail(status, DT_OUT_OF_MEMORY))
      throw NavmeshError("more than " + std::to_string(cache.getParams()->maxObstacles) +
                         " obstacles at once");
    throw NavmeshError("dtTileCache could not add the obstacle (" + status_text(status) + ")");
  }
}

bool ObstacleTileCache::remove(dtObstacleRef ref, dtNavMesh& navmesh) {
  dtTileCache& cache = *impl_->cache;
  const dtTileCacheObstacle* obstacle = cache.getObstacleByRef(ref);
  if (obstacle == nullptr || obstacle->state == DT_OBSTACLE_EMPTY ||
      obstacle->state == DT_OBSTACLE_REMOVING ||
      std::find(impl_->removing.begin(), impl_->removing.end(), ref) != impl_->removing.end())
    return false;
  dtStatus status = cache.removeObstacle(ref);
  if (dtStatusDetail(status, DT_BUFFER_TOO_SMALL)) {
    impl_->unreported += flush(navmesh);
    status = cache.removeObstacle(ref);
  }
  if (dtStatusFailed(status))
    throw NavmeshError("dtTileCache could not remove the obstacle (" + status_text(status) + ")");
  impl_->removing.push_back(ref);
  return true;
}

int ObstacleTileCache::update(dtNavMesh& navmesh) {
  const int changed = impl_->unreported + flush(navmesh);
  impl_->unreported = 0;
  return changed;
}

int ObstacleTileCache::flush(dtNavMesh& navmesh) {
  const std::vector<dtTileRef> before = tile_refs(navmesh);
  // One call rebuilds one tile (dtTileCache::update): call until every request is applied.
  for (bool up_to_date = false; !up_to_date;) {
    const dtStatus status = impl_->cache->update(0.0f, &navmesh, &up_to_date);
    if (dtStatusFailed(status))
      throw NavmeshError("rebuilding the navmesh around obstacles failed in dtTileCache::update (" +
                         status_text(status) + ")");
  }
  impl_->removing.clear();
  const std::vector<dtTileRef> after = tile_refs(navmesh);
  int changed = 0;
  for (std::size_t t = 0; t < before.size(); ++t)
    changed += before[t] != after[t] ? 1 : 0;
  return changed;
}

int ObstacleTileCache::obstacle_count() const {
  int count = 0;
  for (int i = 0; i < impl_->cache->getObstacleCount(); ++i)
    count += impl_->cache->getObstacle(i)->state != DT_OBSTACLE_EMPTY ? 1 : 0;
  return count - static_cast<int>(impl_->removing.size());
}

std::size_t ObstacleTileCache::memory_bytes() const {
  return impl_->layer_bytes +
         static_cast<std::size_t>(impl_->cache->getObstacleCount()) * sizeof(dtTileCacheObstacle);
}

} // namespace crowd
