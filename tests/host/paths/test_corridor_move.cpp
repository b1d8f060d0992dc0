// Moving a corridor's position with the polygon table's heights
// (host/paths/corridor_move.h) leaves the corridor exactly as dtPathCorridor::movePosition
// does: the same position, path and target, to the bit, on a real Recast navmesh.
#include "host/navmesh/navmesh.h"
#include "host/paths/corridor_move.h"
#include "host/paths/polygon_shapes.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#include <DetourPathCorridor.h>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace crowd {
namespace {

/// The pillar field on one tile (0), or in tiles of `tile_size` cells: the walks then cross
/// tile borders, whose links the move follows from the tables as well.
class CorridorMove : public ::testing::TestWithParam<int> {};

TEST_P(CorridorMove, AgreesWithDetourToTheBitAlongRandomWalks) {
  const NavMesh navmesh = NavMesh::build(test::pillar_field_in_tiles(GetParam()));
  ASSERT_EQ(navmesh.tile_size(), GetParam());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const dtQueryFilter& filter = navmesh.filter();
  const glm::vec3 ext = navmesh.placement_extents();
  constexpr int kCapacity = 64; // small enough that long walks fill the corridor
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> turn(-0.6f, 0.6f), stride(0.0f, 1.5f);
  int moves = 0, changed_paths = 0, blocked = 0;
  test::RandomPath path;
  for (int trial = 0; trial < 300; ++trial) {
    if (!test::random_path(*query, filter, ext, rng, kCapacity, path))
      continue;
    dtPathCorridor ours, detour;
    test::load_corridors(path, kCapacity, {&ours, &detour});
    // A wandering walk: it strays off the corridor, into pillars and back.
    float heading = std::uniform_real_distribution<float>(0.0f, 6.2831853f)(rng);
    for (int step = 0; step < 100; ++step) {
      heading += turn(rng);
      const float len = stride(rng);
      const float* p = detour.getPos();
      const float wanted[3] = {p[0] + std::cos(heading) * len, p[1],
                               p[2] + std::sin(heading) * len};
      const int before = detour.getPathCount();
      const bool ours_ok = move_corridor_position(ours, wanted, kCapacity, shapes, *query, filter);
      const bool detour_ok = detour.movePosition(wanted, query.get(), &filter);
      const std::string where = "trial " + std::to_string(trial) + " step " + std::to_string(step);
      ASSERT_EQ(ours_ok, detour_ok) << where;
      EXPECT_EQ(std::memcmp(ours.getPos(), detour.getPos(), sizeof(float) * 3), 0) << where;
      EXPECT_EQ(std::memcmp(ours.getTarget(), detour.getTarget(), sizeof(float) * 3), 0) << where;
      ASSERT_EQ(ours.getPathCount(), detour.getPathCount()) << where;
      EXPECT_EQ(std::memcmp(ours.getPath(), detour.getPath(),
                            sizeof(dtPolyRef) * static_cast<std::size_t>(detour.getPathCount())),
                0)
          << where;
      ++moves;
      changed_paths += detour.getPathCount() != before ? 1 : 0;
      const float moved =
          std::hypot(detour.getPos()[0] - wanted[0], detour.getPos()[2] - wanted[2]);
      blocked += moved > 0.01f ? 1 : 0;
    }
  }
  EXPECT_GT(moves, 20000);
  EXPECT_GT(changed_paths, 2000) << "walks should leave and enter polygons";
  EXPECT_GT(blocked, 500) << "walks should run into pillars and the border";
}

INSTANTIATE_TEST_SUITE_P(OneTileAndTiles, CorridorMove, ::testing::Values(0, 32),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return param.param == 0 ? std::string("one_tile")
                                                   : "tiles_of_" + std::to_string(param.param);
                         });

} // namespace
} // namespace crowd
