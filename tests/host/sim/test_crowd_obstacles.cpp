// Dynamic obstacles through the Crowd API (Crowd built with the caller's DetourTileCache), on
// our solver and on DetourCrowd:
// agents whose aisle an obstacle blocks go round and arrive; an agent an obstacle is dropped on
// steps out of it; a lifted obstacle opens the way again; a caller that changes the tiles
// through its own tile cache tells the crowd with navmesh_changed; bad obstacle calls throw
// ApiError and leave the crowd as it was.
#include "host/sim/crowd.h"
#include "samples/tile_cache_level.h"
#include "tests/support/crowd_api.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace crowd {
namespace {

CrowdOptions cpu() {
  return test::crowd_on(BackendKind::Cpu);
}

// The level of samples/tile_cache_level.h: a 40 x 20 m hall, a block from x 10 to 30 and
// z 4 to 12 between a north aisle (8 m) and a south one (4 m).
struct Level {
  Level() {
    if (!tile_cache_level::build_world(tile_cache_level::make_level(), world))
      ADD_FAILURE() << "the tile cache level did not build";
  }
  tile_cache_level::World world;
};

NavObstacle crate_across_north_aisle() {
  NavObstacle crate;
  crate.shape = NavObstacle::Shape::Box;
  crate.position = {20.0f, 0.0f, 16.0f};
  crate.half_size = {0.75f, 4.25f};
  return crate;
}

// Walks `ids` until all stand within 1 m of their targets (or `seconds` pass); returns the
// smallest z any of them had.
float walk(Crowd& crowd, const std::vector<int>& ids, float seconds) {
  float lowest = 100.0f;
  for (int step = 0; step < static_cast<int>(seconds * 10.0f); ++step) {
    crowd.update(0.1f);
    bool all = true;
    for (const int id : ids) {
      const glm::vec3 p = crowd.position(id), t = crowd.target(id);
      lowest = std::min(lowest, p.z);
      all = all && std::hypot(p.x - t.x, p.z - t.z) < 1.0f;
    }
    if (all)
      break;
  }
  return lowest;
}

bool all_arrived(const Crowd& crowd, const std::vector<int>& ids) {
  for (const int id : ids) {
    const glm::vec3 p = crowd.position(id), t = crowd.target(id);
    if (!(std::hypot(p.x - t.x, p.z - t.z) < 1.0f))
      return false;
  }
  return true;
}

std::vector<int> walkers_east(Crowd& crowd, int count) {
  std::vector<int> ids;
  for (int k = 0; k < count; ++k) {
    const float z = 14.0f + 1.2f * static_cast<float>(k);
    ids.push_back(crowd.add_agent({2.0f, 0.0f, z}));
    crowd.request_move_target(ids.back(), {37.0f, 0.0f, z});
  }
  return ids;
}

// The same calls on our solver and on DetourCrowd, which checks its corridors against the
// rebuilt tiles itself every update.
class CrowdObstacles : public ::testing::TestWithParam<BackendKind> {};

TEST_P(CrowdObstacles, AgentsWhoseAisleAnObstacleBlocksGoRoundAndArrive) {
  Level level;
  Crowd crowd(*level.world.navmesh, *level.world.cache, test::crowd_on(GetParam()));
  const std::vector<int> ids = walkers_east(crowd, 4);
  for (int step = 0; step < 20; ++step)
    crowd.update(0.1f);
  const std::size_t walls = crowd.navmesh().boundary_segments().size();
  crowd.add_obstacle(crate_across_north_aisle());
  float nearest_crate = 100.0f;
  for (int step = 0; step < 900 && !all_arrived(crowd, ids); ++step) {
    crowd.update(0.1f);
    for (const int id : ids) {
      const glm::vec3 p = crowd.position(id);
      if (p.z > 12.0f)
        nearest_crate = std::min(nearest_crate, std::abs(p.x - 20.0f) - 0.75f);
    }
  }
  EXPECT_GT(crowd.navmesh().boundary_segments().size(), walls) << "the crate's outline is a wall";
  EXPECT_TRUE(all_arrived(crowd, ids));
  EXPECT_GT(nearest_crate, 0.3f) << "a walker went through the crate";
}

TEST_P(CrowdObstacles, AnAgentAnObstacleIsDroppedOnStepsOutOfIt) {
  Level level;
  Crowd crowd(*level.world.navmesh, *level.world.cache, test::crowd_on(GetParam()));
  const int guard = crowd.add_agent({36.0f, 0.0f, 2.0f});
  NavObstacle barrel;
  barrel.position = crowd.position(guard);
  barrel.radius = 0.5f;
  crowd.add_obstacle(barrel);
  crowd.update(0.1f);
  const glm::vec3 p = crowd.position(guard);
  // Out of the barrel, its radius (0.4 m) off it, within a cell.
  EXPECT_GT(std::hypot(p.x - barrel.position.x, p.z - barrel.position.z), 0.5f + 0.4f - 0.2f);
}

// The solver's rows sorted by place (SolverOptions::row_sort_interval): the agent the change
// moves is seen where it went at once, as with the rows in id order.
TEST(CrowdObstacleRows, AnAgentAnObstacleIsDroppedOnIsSeenOutOfItWhateverItsRow) {
  std::vector<glm::vec3> seen;
  for (const int sort_interval : {0, 1}) {
    Level level;
    CrowdOptions options = cpu();
    options.solver.row_sort_interval = sort_interval;
    Crowd crowd(*level.world.navmesh, *level.world.cache, options);
    crowd.add_agent({2.0f, 0.0f, 14.0f});
    const int guard = crowd.add_agent({36.0f, 0.0f, 2.0f}); // sorted, it goes to the first row
    crowd.update(0.1f);
    crowd.update(0.1f);
    NavObstacle barrel;
    barrel.position = crowd.position(guard);
    barrel.radius = 0.5f;
    crowd.add_obstacle(barrel);
    ASSERT_TRUE(crowd.update_obstacles());
    seen.push_back(crowd.position(guard));
    EXPECT_GT(std::hypot(seen.back().x - barrel.position.x, seen.back().z - barrel.position.z),
              0.5f)
        << "sort interval " << sort_interval << ": seen in the barrel";
  }
  EXPECT_EQ(seen[0], seen[1]);
}

TEST_P(CrowdObstacles, ALiftedObstacleOpensTheWayAgain) {
  Level level;
  Crowd crowd(*level.world.navmesh, *level.world.cache, test::crowd_on(GetParam()));
  const int crate = crowd.add_obstacle(crate_across_north_aisle());
  std::vector<int> first = walkers_east(crowd, 1);
  EXPECT_LT(walk(crowd, first, 90.0f), 4.0f) << "with the crate down it went south";
  crowd.remove_obstacle(crate);
  crowd.request_move_target(first[0], {2.0f, 0.0f, 14.0f});
  EXPECT_GT(walk(crowd, first, 90.0f), 12.0f) << "with the crate lifted it came back north";
  EXPECT_TRUE(all_arrived(crowd, first));
  // Moved into the south aisle, it blocks that one instead.
  const int moved = crowd.add_obstacle(crate_across_north_aisle());
  crowd.move_obstacle(moved, {20.0f, 0.0f, 2.0f});
  crowd.request_move_target(first[0], {37.0f, 0.0f, 14.0f});
  EXPECT_GT(walk(crowd, first, 90.0f), 12.0f);
  EXPECT_TRUE(all_arrived(crowd, first));
}

TEST_P(CrowdObstacles, TilesTheCallerRebuildsItselfAreToldWithNavmeshChanged) {
  Level level;
  Crowd crowd(*level.world.navmesh, *level.world.cache, test::crowd_on(GetParam()));
  const std::vector<int> ids = walkers_east(crowd, 2);
  crowd.update(0.1f);
  // The game drops the crate through its own tile cache.
  const float centre[3] = {20.0f, 1.0f, 16.0f}, half[3] = {0.75f + 0.4f, 1.5f, 4.25f + 0.4f};
  dtObstacleRef ref = 0;
  ASSERT_TRUE(dtStatusSucceed(level.world.cache->addBoxObstacle(centre, half, 0.0f, &ref)));
  for (bool done = false; !done;)
    ASSERT_TRUE(dtStatusSucceed(level.world.cache->update(0.0f, level.world.navmesh.get(), &done)));
  crowd.navmesh_changed();
  EXPECT_LT(walk(crowd, ids, 90.0f), 4.0f) << "they went round by the south aisle";
  EXPECT_TRUE(all_arrived(crowd, ids));
}

INSTANTIATE_TEST_SUITE_P(Backends, CrowdObstacles,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const ::testing::TestParamInfo<BackendKind>& backend) {
                           return std::string(backend.param == BackendKind::Cpu ? "cpu" : "detour");
                         });

// Each refusal throws ApiError and leaves the crowd as it was.
TEST(CrowdObstacleErrors, WithoutATileCache) {
  Level level;
  Crowd crowd(*level.world.navmesh, cpu());
  const int polygons = crowd.navmesh().polygon_count();
  EXPECT_THROW(crowd.add_obstacle(crate_across_north_aisle()), ApiError);
  crowd.update(0.1f);
  EXPECT_EQ(crowd.navmesh().polygon_count(), polygons);
}

TEST(CrowdObstacleErrors, ASizeThatIsNotPositiveOrAPlaceThatIsNotFinite) {
  Level level;
  Crowd crowd(*level.world.navmesh, *level.world.cache, cpu());
  const int polygons = crowd.navmesh().polygon_count();
  NavObstacle flat;
  flat.radius = 0.0f;
  EXPECT_THROW(crowd.add_obstacle(flat), ApiError);
  NavObstacle nowhere;
  nowhere.position.x = std::nanf("");
  EXPECT_THROW(crowd.add_obstacle(nowhere), ApiError);
  crowd.update(0.1f);
  EXPECT_EQ(crowd.navmesh().polygon_count(), polygons);
}

TEST(CrowdObstacleErrors, AnObstacleOverMoreTilesThanTheTileCacheRebuilds) {
  Level level;
  Crowd crowd(*level.world.navmesh, *level.world.cache, cpu());
  const int polygons = crowd.navmesh().polygon_count();
  NavObstacle hall = crate_across_north_aisle();
  hall.half_size = {18.0f, 8.0f}; // 15 tiles
  EXPECT_THROW(crowd.add_obstacle(hall), ApiError);
  const int crate = crowd.add_obstacle(crate_across_north_aisle());
  EXPECT_THROW(crowd.move_obstacle(crate, {20.0f, 0.0f, 16.0f}, std::nanf("")), ApiError);
  crowd.remove_obstacle(crate);
  crowd.update(0.1f);
  EXPECT_EQ(crowd.navmesh().polygon_count(), polygons);
}

TEST(CrowdObstacleErrors, AnIdThatNamesNoStandingObstacle) {
  Level level;
  Crowd crowd(*level.world.navmesh, *level.world.cache, cpu());
  EXPECT_THROW(crowd.remove_obstacle(0), ApiError);
  const int crate = crowd.add_obstacle(crate_across_north_aisle());
  EXPECT_THROW(crowd.move_obstacle(crate + 1, {1.0f, 0.0f, 1.0f}), ApiError);
  crowd.remove_obstacle(crate);
  EXPECT_THROW(crowd.remove_obstacle(crate), ApiError);
  EXPECT_THROW(crowd.move_obstacle(crate, {1.0f, 0.0f, 1.0f}), ApiError);
  EXPECT_THROW(crowd.remove_obstacle(-1), ApiError);
}

} // namespace
} // namespace crowd
