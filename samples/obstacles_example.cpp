// Dynamic obstacles from a game: the game builds its navmesh through DetourTileCache, as
// RecastDemo's Sample_TempObstacles does (each tile rasterised once into compressed layers; the
// tile cache builds the navmesh tiles from them and rebuilds those an obstacle touches), hands
// the dtNavMesh and the dtTileCache to a crowd::Crowd, and drops, moves and lifts obstacles
// while its fixed-dt loop runs.
//
//   ./build/obstacles_example      (prints the crowd's progress; exits non-zero unless the
//                                   walkers, whose aisle a crate blocks on the way, go round by
//                                   the other aisle and all reach their targets, none walking
//                                   through the crate, and the guard a barrel is dropped on
//                                   steps out of it)
#include "tile_cache_level.h"

#include <cmath>
#include <crowd/crowd.h>
#include <cstdio>
#include <vector>

int main() {
  tile_cache_level::World world;
  if (!tile_cache_level::build_world(tile_cache_level::make_level(), world)) {
    std::fprintf(stderr, "obstacles_example: the navmesh build failed\n");
    return 1;
  }
  crowd::CrowdOptions options;
  options.backend = crowd::BackendKind::Auto; // CUDA where there is a device
  crowd::Crowd crowd(*world.navmesh, *world.cache, options);
  std::printf("navmesh: %d tiles, %d polygons; executor %s\n", crowd.navmesh().tile_count(),
              crowd.navmesh().polygon_count(), crowd.executor_name().c_str());

  // Eight walkers set off east along the north aisle; a guard stands in the south-east corner.
  std::vector<int> walkers;
  for (int k = 0; k < 8; ++k) {
    const float z = 13.0f + 0.8f * static_cast<float>(k);
    walkers.push_back(crowd.add_agent({2.0f + static_cast<float>(k % 2), 0.0f, z}));
    crowd.request_move_target(walkers.back(), {37.0f, 0.0f, z});
  }
  const int guard = crowd.add_agent({36.0f, 0.0f, 2.0f});

  // The game's loop at 60 Hz. After 3 s a crate falls across the north aisle at x = 20, and a
  // barrel on the guard; at 12 s the barrel rolls away into the corner.
  constexpr float kFrame = 1.0f / 60.0f;
  constexpr float kAcceptance = 1.0f;
  crowd::NavObstacle crate;
  crate.shape = crowd::NavObstacle::Shape::Box;
  crate.position = {20.0f, 0.0f, 16.0f};
  crate.half_size = {0.75f, 4.25f};
  crowd::NavObstacle barrel;
  barrel.position = {36.0f, 0.0f, 2.0f};
  barrel.radius = 0.5f;
  barrel.height = 1.0f;
  int barrel_id = -1;
  float closest_to_crate = 1e9f, closest_to_barrel = 1e9f;
  int arrived = 0;
  for (int frame = 1; frame <= 60 * 90 && arrived < static_cast<int>(walkers.size()); ++frame) {
    if (frame == 60 * 3) {
      crowd.add_obstacle(crate);
      barrel_id = crowd.add_obstacle(barrel);
    }
    if (frame == 60 * 12)
      crowd.move_obstacle(barrel_id, {39.0f, 0.0f, 1.0f});
    crowd.update(kFrame);
    arrived = 0;
    for (const int id : walkers) {
      const glm::vec3 p = crowd.position(id);
      const glm::vec3 t = crowd.target(id);
      arrived += std::hypot(p.x - t.x, p.z - t.z) < kAcceptance ? 1 : 0;
      if (frame > 60 * 3 && p.z > 12.0f)
        closest_to_crate = std::min(closest_to_crate, std::abs(p.x - 20.0f) - 0.75f);
    }
    if (frame > 60 * 3 && frame < 60 * 12) {
      const glm::vec3 g = crowd.position(guard);
      closest_to_barrel = std::min(closest_to_barrel, std::hypot(g.x - 36.0f, g.z - 2.0f) - 0.5f);
    }
    if (frame % 600 == 0)
      std::printf("t=%4.0f s  %d of %zu walkers at their targets\n",
                  static_cast<float>(frame) * kFrame, arrived, walkers.size());
  }
  std::printf("all arrived: %s; nearest a walker came to the crate: %.2f m; the guard stood "
              "%.2f m clear of the barrel\n",
              arrived == static_cast<int>(walkers.size()) ? "yes" : "no", closest_to_crate,
              closest_to_barrel);
  return arrived == static_cast<int>(walkers.size()) && closest_to_crate > 0.2f &&
                 closest_to_barrel > 0.2f
             ? 0
             : 1;
}
