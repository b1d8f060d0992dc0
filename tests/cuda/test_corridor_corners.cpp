// The corners kernel body (cuda/kernels/corridor_corners.h) on corridors held as the agent
// arrays will hold them (rows of dense polygon indices): on the CPU it gives
// dtPathCorridor::findCorners' corners to the bit, for agents inside their first polygon and
// beside it (closestPointOnPolyBoundary's clamp); on a device it gives the CPU's, to the bit.
#include "cuda/kernels/corridor_corners.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#if defined(CROWD_HAS_CUDA)
#include "cuda/executor/corridor_kernels.h"
#include "tests/support/cuda_device.h"
#endif

#include <DetourPathCorridor.h>
#include <cstring>
#include <deque>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr int kPathCapacity = 64;
constexpr int kMaxCorners = 4; // the crowd's

struct CorridorRowsOnHost {
  int capacity = kPathCapacity;
  std::vector<std::int32_t> polys, size;
  std::vector<float> position, target;
  std::deque<dtPathCorridor> detour; ///< the same corridors, for Detour's answer (not movable)
};

/// `count` random corridors on the pillar field, each agent up to 1 m beside the path's start
/// (outside its first polygon now and then), as rows and as dtPathCorridors.
CorridorRowsOnHost random_corridors(const NavMesh& navmesh, const PolygonIndex& index, int count) {
  NavQueryPtr query = navmesh.make_query();
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> offset(-1.0f, 1.0f);
  CorridorRowsOnHost rows;
  test::RandomPath path;
  while (static_cast<int>(rows.size.size()) < count) {
    if (!test::random_path(*query, navmesh.filter(), navmesh.placement_extents(), rng,
                           kPathCapacity, path))
      continue;
    float pos[3] = {path.start_pos[0] + offset(rng), path.start_pos[1],
                    path.start_pos[2] + offset(rng)};
    dtPathCorridor& corridor = rows.detour.emplace_back();
    corridor.init(kPathCapacity);
    corridor.reset(path.start, pos);
    corridor.setCorridor(path.goal_pos, path.polys.data(), static_cast<int>(path.polys.size()));
    for (int k = 0; k < kPathCapacity; ++k)
      rows.polys.push_back(k < corridor.getPathCount() ? index.index_of(corridor.getPath()[k])
                                                       : -1);
    rows.size.push_back(corridor.getPathCount());
    rows.position.insert(rows.position.end(), pos, pos + 3);
    rows.target.insert(rows.target.end(), path.goal_pos, path.goal_pos + 3);
  }
  return rows;
}

CorridorRowsView view_of(const CorridorRowsOnHost& rows) {
  return {static_cast<int>(rows.size.size()),
          rows.capacity,
          rows.polys.data(),
          rows.size.data(),
          rows.position.data(),
          rows.target.data()};
}

struct CornersOnHost {
  std::vector<float> verts;
  std::vector<std::uint8_t> flags;
  std::vector<std::int32_t> polys, count;
  explicit CornersOnHost(int agents)
      : verts(static_cast<std::size_t>(agents) * kMaxCorners * 3),
        flags(static_cast<std::size_t>(agents) * kMaxCorners),
        polys(static_cast<std::size_t>(agents) * kMaxCorners),
        count(static_cast<std::size_t>(agents)) {}
  CornerRowsView view() {
    return {kMaxCorners, verts.data(), flags.data(), polys.data(), count.data()};
  }
};

/// The pillar field on one tile (0) or in tiles of `GetParam()` cells, where the portals across
/// tile borders are narrowed to the part each link covers.
class CorridorCornersKernel : public ::testing::TestWithParam<int> {};

TEST_P(CorridorCornersKernel, IsFindCornersToTheBitBesideAndInsideTheFirstPolygon) {
  const NavMesh navmesh = NavMesh::build(test::pillar_field_in_tiles(GetParam()));
  ASSERT_EQ(navmesh.tile_size(), GetParam());
  const PortalTable portals(navmesh.detour());
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const NavmeshTablesView tables = navmesh_tables_view(portals, shapes);
  NavQueryPtr query = navmesh.make_query();
  CorridorRowsOnHost rows = random_corridors(navmesh, portals.index(), 400);
  CornersOnHost ours(400);
  const CorridorRowsView in = view_of(rows);
  for (int i = 0; i < in.count; ++i)
    corners_of_agent(i, tables, in, ours.view());
  int clamped = 0, turning = 0;
  for (int i = 0; i < in.count; ++i) {
    float verts[kMaxCorners * 3];
    unsigned char flags[kMaxCorners];
    dtPolyRef polys[kMaxCorners];
    const auto k = static_cast<std::size_t>(i);
    const int n = rows.detour[k].findCorners(verts, flags, polys, kMaxCorners, query.get(),
                                             &navmesh.filter());
    ASSERT_EQ(ours.count[k], n) << "agent " << i;
    const std::size_t row = k * kMaxCorners;
    EXPECT_EQ(std::memcmp(&ours.verts[row * 3], verts, sizeof(float) * 3 * n), 0) << i;
    EXPECT_EQ(std::memcmp(&ours.flags[row], flags, static_cast<std::size_t>(n)), 0) << i;
    for (int c = 0; c < n; ++c) {
      const std::int32_t p = ours.polys[row + static_cast<std::size_t>(c)];
      EXPECT_EQ(p >= 0 ? portals.index().ref_of(p) : 0u, polys[c]) << i << " corner " << c;
    }
    const int first = rows.polys[k * kPathCapacity];
    clamped += !shapes.contains(first, &rows.position[k * 3]);
    turning += n > 1;
  }
  EXPECT_GT(clamped, 20) << "some agents stand outside their first polygon";
  EXPECT_GT(turning, 100) << "the corridors should turn around pillars";
}

INSTANTIATE_TEST_SUITE_P(OneTileAndTiles, CorridorCornersKernel, ::testing::Values(0, 32),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return param.param == 0 ? std::string("one_tile")
                                                   : "tiles_of_" + std::to_string(param.param);
                         });

#if defined(CROWD_HAS_CUDA)
TEST(CudaCorridorCorners, AreTheCpusToTheBit) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  const NavMesh navmesh = NavMesh::build(test::pillar_field());
  const PortalTable portals(navmesh.detour());
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const NavmeshTablesView tables = navmesh_tables_view(portals, shapes);
  const int agents = test::size_for_device(2000, 200);
  CorridorRowsOnHost rows = random_corridors(navmesh, portals.index(), agents);
  CornersOnHost cpu(agents);
  const CorridorRowsView in = view_of(rows);
  for (int i = 0; i < in.count; ++i)
    corners_of_agent(i, tables, in, cpu.view());

  const DeviceNavmeshTables device_tables(tables);
  EXPECT_GT(device_tables.device_bytes(), 0u);
  CorridorRows corridors;
  corridors.capacity = rows.capacity;
  corridors.polys = rows.polys;
  corridors.size = rows.size;
  corridors.position = rows.position;
  corridors.target = rows.target;
  const CornerRows gpu = find_corners_on_device(device_tables, corridors, kMaxCorners);
  ASSERT_EQ(gpu.count, cpu.count);
  for (int i = 0; i < agents; ++i) {
    const auto row = static_cast<std::size_t>(i) * kMaxCorners;
    const auto n = static_cast<std::size_t>(cpu.count[static_cast<std::size_t>(i)]);
    EXPECT_EQ(std::memcmp(&gpu.verts[row * 3], &cpu.verts[row * 3], n * 3 * sizeof(float)), 0) << i;
    EXPECT_EQ(std::memcmp(&gpu.flags[row], &cpu.flags[row], n), 0) << i;
    EXPECT_EQ(std::memcmp(&gpu.polys[row], &cpu.polys[row], n * sizeof(std::int32_t)), 0) << i;
  }
}
#endif

} // namespace
} // namespace crowd
