// Dynamic obstacles with DetourTileCache, as RecastDemo's Sample_TempObstacles uses it: every
// tile of the navmesh is kept as layers of its eroded heightfield (tile_build.h); an obstacle
// marks the cells under it unwalkable, and the tiles it touches are rebuilt from their layers
// into the dtNavMesh (new polygons, so new references, in those tiles only).
#pragma once

#include "host/navmesh/input_geometry.h"
#include "host/navmesh/nav_obstacle.h"
#include "host/navmesh/tile_build.h"

#include <DetourTileCache.h>
#include <memory>
#include <vector>

class dtNavMesh;

namespace crowd {

/// How the tile cache stores layers (build_tile_layers' compressor): as they are. Stateless,
/// so any number of threads may use it at once.
dtTileCacheCompressor& tile_cache_compressor();

class ObstacleTileCache {
public:
  /// A tile cache of `params` (tiles of params.width cells a side, at most 255), whose rebuilt
  /// tiles get the ground's area and flag (kWalkableFlag) and `links`.
  ObstacleTileCache(const dtTileCacheParams& params, const std::vector<OffMeshLink>& links);
  /// The caller's tile cache (built as RecastDemo's Sample_TempObstacles builds one, with its
  /// own compressor and mesh process), which must outlive this.
  explicit ObstacleTileCache(dtTileCache& cache);
  ~ObstacleTileCache();
  ObstacleTileCache(const ObstacleTileCache&) = delete;
  ObstacleTileCache& operator=(const ObstacleTileCache&) = delete;

  /// Takes over layers built with compressor(). Throws NavmeshError when the cache is full.
  void add_layers(std::vector<DetourTileData>& layers);
  /// Builds the navmesh tiles at (tx, tz) from their layers into `navmesh`.
  void build_tiles_at(int tx, int tz, dtNavMesh& navmesh);

  /// DetourTileCache's DT_MAX_TOUCHED_TILES: the most tiles (layers) one obstacle may touch.
  static constexpr int kMostTilesTouched = DT_MAX_TOUCHED_TILES;
  /// How many tile layers `obstacle`, grown and lowered as add() does, touches.
  int tiles_touched(const NavObstacle& obstacle, float margin, float below) const;
  /// Queues `obstacle`, grown by `margin` (the agent radius: the navmesh's edge stays that far
  /// from it) and reaching `below` under its foot; returns its reference. Throws NavmeshError
  /// when it covers more tiles than DetourTileCache marks (DT_MAX_TOUCHED_TILES) or too many
  /// obstacles stand at once. Applies earlier requests to `navmesh` when the queue is full.
  dtObstacleRef add(const NavObstacle& obstacle, float margin, float below, dtNavMesh& navmesh);
  /// Queues the removal of obstacle `ref`; false when no such obstacle stands.
  bool remove(dtObstacleRef ref, dtNavMesh& navmesh);
  /// Rebuilds every tile that queued requests touch. Returns how many navmesh tiles changed
  /// since the last update (add and remove apply the queue themselves when it is full).
  int update(dtNavMesh& navmesh);
  /// Obstacles standing or queued.
  int obstacle_count() const;
  /// Bytes held: the layers and the obstacle slots.
  std::size_t memory_bytes() const;

private:
  /// Applies every queued request to `navmesh`; returns how many tiles changed.
  int flush(dtNavMesh& navmesh);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd
