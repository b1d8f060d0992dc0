// The visibility shortcut kernel body (cuda/kernels/corridor_visibility.h) on corridors of
// dense polygon indices: on the CPU it shortens a corridor exactly as
// dtPathCorridor::optimizePathVisibility does (its raycast and dtMergeCorridorStartShortcut),
// step after step along corridors with a detour in them; on a device it gives the CPU's rows,
// to the bit.
#include "cuda/kernels/corridor_visibility.h"
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
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr int kCapacity = 256;

/// A corridor with a detour in it (test::random_path_with_a_detour) loaded into `corridor`.
bool corridor_with_a_detour(const NavMesh& navmesh, dtNavMeshQuery& query, std::mt19937& rng,
                            dtPathCorridor& corridor) {
  test::RandomPath path;
  if (!test::random_path_with_a_detour(query, navmesh.filter(), navmesh.placement_extents(), rng,
                                       kCapacity, path))
    return false;
  test::load_corridors(path, kCapacity, {&corridor});
  return true;
}

std::vector<std::int32_t> dense_row(const dtPathCorridor& corridor, const PolygonIndex& index) {
  std::vector<std::int32_t> row(kCapacity, -1);
  for (int k = 0; k < corridor.getPathCount(); ++k)
    row[static_cast<std::size_t>(k)] = index.index_of(corridor.getPath()[k]);
  return row;
}

/// The pillar field on one tile (0) or in tiles of `GetParam()` cells, where a ray that
/// crosses a tile border through a link covering part of an edge is Detour's to follow.
class CorridorVisibilityKernel : public ::testing::TestWithParam<int> {};

TEST_P(CorridorVisibilityKernel, ShortensDenseCorridorsAsOptimizePathVisibilityDoes) {
  const NavMesh navmesh = NavMesh::build(test::pillar_field_in_tiles(GetParam()));
  ASSERT_EQ(navmesh.tile_size(), GetParam());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const NavmeshTablesView tables = outline_tables_view(shapes);
  const PolygonIndex& index = shapes.index();
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> coord(-29.0f, 29.0f), range(0.5f, 8.0f);
  int comparisons = 0, shortcuts = 0, asked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    dtPathCorridor detour;
    if (!corridor_with_a_detour(navmesh, *query, rng, detour))
      continue;
    for (int step = 0; step < 60 && detour.getPathCount() > 0; ++step) {
      float corners[4 * 3];
      unsigned char flags[4];
      dtPolyRef polys[4];
      const int n = detour.findCorners(corners, flags, polys, 4, query.get(), &navmesh.filter());
      if (n == 0)
        break;
      float next[3];
      std::memcpy(next, &corners[(n > 1 ? 1 : 0) * 3], sizeof(next));
      if (step % 7 == 3) {
        next[0] = coord(rng);
        next[2] = coord(rng);
      }
      const float r = range(rng);
      std::vector<std::int32_t> row = dense_row(detour, index);
      const int before = detour.getPathCount();
      const std::vector<std::int32_t> unchanged = row;
      const int ours =
          optimize_visibility(tables, row.data(), before, kCapacity, detour.getPos(), next, r);
      detour.optimizePathVisibility(next, r, query.get(), &navmesh.filter());
      if (ours < 0) {
        // The tables could not answer (a partial tile-border link): the row is untouched and
        // the host asks Detour, whose answer is the one above.
        ASSERT_EQ(row, unchanged) << "trial " << trial << " step " << step;
        ++asked;
      } else {
        ASSERT_EQ(ours, detour.getPathCount()) << "trial " << trial << " step " << step;
        for (int k = 0; k < ours; ++k)
          ASSERT_EQ(index.ref_of(row[static_cast<std::size_t>(k)]), detour.getPath()[k])
              << "trial " << trial << " step " << step << " polygon " << k;
        ++comparisons;
        shortcuts += ours != before ? 1 : 0;
      }
      // Half a metre toward the first corner.
      const float* p = detour.getPos();
      const float d[3] = {corners[0] - p[0], 0.0f, corners[2] - p[2]};
      const float len = std::sqrt(d[0] * d[0] + d[2] * d[2]);
      if (len < 0.05f)
        break;
      const float scale = std::min(0.5f, len) / len;
      const float target[3] = {p[0] + d[0] * scale, p[1], p[2] + d[2] * scale};
      detour.movePosition(target, query.get(), &navmesh.filter());
    }
  }
  EXPECT_GT(comparisons, 5000);
  EXPECT_GT(shortcuts, 100) << "the detours should be cut short";
  if (GetParam() == 0)
    EXPECT_EQ(asked, 0) << "one tile has no partial links";
  else
    EXPECT_LT(asked, comparisons / 2) << "most rays stay within what the tables answer";
}

INSTANTIATE_TEST_SUITE_P(OneTileAndTiles, CorridorVisibilityKernel, ::testing::Values(0, 32),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return param.param == 0 ? std::string("one_tile")
                                                   : "tiles_of_" + std::to_string(param.param);
                         });

#if defined(CROWD_HAS_CUDA)
TEST(CudaCorridorVisibility, ShortcutsAreTheCpusToTheBit) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  const NavMesh navmesh = NavMesh::build(test::pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const NavmeshTablesView tables = outline_tables_view(shapes);
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> coord(-29.0f, 29.0f), range(0.5f, 8.0f);
  const int agents = test::size_for_device(2000, 150);
  CorridorRows rows;
  rows.capacity = kCapacity;
  std::vector<float> next, ranges;
  while (rows.count() < agents) {
    dtPathCorridor corridor;
    if (!corridor_with_a_detour(navmesh, *query, rng, corridor))
      continue;
    const std::vector<std::int32_t> row = dense_row(corridor, shapes.index());
    rows.polys.insert(rows.polys.end(), row.begin(), row.end());
    rows.size.push_back(corridor.getPathCount());
    rows.position.insert(rows.position.end(), corridor.getPos(), corridor.getPos() + 3);
    rows.target.insert(rows.target.end(), corridor.getTarget(), corridor.getTarget() + 3);
    next.insert(next.end(), {coord(rng), corridor.getPos()[1], coord(rng)});
    ranges.push_back(range(rng));
  }
  CorridorRows on_cpu = rows;
  std::vector<std::int32_t> cpu_answered(static_cast<std::size_t>(agents));
  for (int i = 0; i < agents; ++i)
    shortcut_of_agent(i, tables, on_cpu.polys.data(), on_cpu.size.data(), kCapacity,
                      on_cpu.position.data(), next.data(), ranges.data(), cpu_answered.data());
  const DeviceNavmeshTables device_tables(tables);
  CorridorRows on_gpu = rows;
  const std::vector<std::int32_t> gpu_answered =
      optimize_visibility_on_device(device_tables, on_gpu, next, ranges);
  EXPECT_EQ(gpu_answered, cpu_answered);
  EXPECT_EQ(on_gpu.size, on_cpu.size);
  EXPECT_EQ(on_gpu.polys, on_cpu.polys);
  int changed = 0;
  for (int i = 0; i < agents; ++i)
    changed += on_cpu.size[static_cast<std::size_t>(i)] != rows.size[static_cast<std::size_t>(i)];
  EXPECT_GT(changed, agents / 20) << "some corridors should be cut short";
}
#endif

} // namespace
} // namespace crowd
