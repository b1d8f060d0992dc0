// The corridor move kernel body (cuda/kernels/corridor_move.h) on corridors held as rows of
// dense polygon indices: on the CPU it moves each corridor exactly as
// dtPathCorridor::movePosition does (position, path), on one tile and across tile borders; on
// a device it gives the CPU's rows and positions, to the bit.
#include "cuda/kernels/corridor_move.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#if defined(CROWD_HAS_CUDA)
#include "cuda/executor/corridor_kernels.h"
#include "tests/support/cuda_device.h"
#endif

#include <DetourPathCorridor.h>
#include <cmath>
#include <cstring>
#include <deque>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr int kCapacity = 64;

/// `count` corridors on the pillar field (in tiles of `tile_size` cells, 0: one tile), each
/// agent somewhere along its first few metres with a wanted position up to 1.5 m away in any
/// direction (into pillars and across polygons), as rows and as dtPathCorridors moved by
/// Detour.
struct MoveBatch {
  std::vector<std::int32_t> polys, size;
  std::vector<float> position, npos;
  std::deque<dtPathCorridor> detour; ///< moved by movePosition (not movable: a deque)
};

MoveBatch random_moves(const NavMesh& navmesh, const PolygonIndex& index, int count) {
  NavQueryPtr query = navmesh.make_query();
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> angle(0.0f, 6.2831853f), stride(0.0f, 1.5f);
  MoveBatch batch;
  test::RandomPath path;
  while (static_cast<int>(batch.size.size()) < count) {
    if (!test::random_path(*query, navmesh.filter(), navmesh.placement_extents(), rng, kCapacity,
                           path))
      continue;
    dtPathCorridor& corridor = batch.detour.emplace_back();
    test::load_corridors(path, kCapacity, {&corridor});
    for (int k = 0; k < kCapacity; ++k)
      batch.polys.push_back(k < corridor.getPathCount() ? index.index_of(corridor.getPath()[k])
                                                        : -1);
    batch.size.push_back(corridor.getPathCount());
    const float* p = corridor.getPos();
    batch.position.insert(batch.position.end(), p, p + 3);
    const float a = angle(rng), len = stride(rng);
    batch.npos.insert(batch.npos.end(), {p[0] + std::cos(a) * len, p[1], p[2] + std::sin(a) * len});
  }
  return batch;
}

class CorridorMoveKernel : public ::testing::TestWithParam<int> {
protected:
  NavMesh build() const { return NavMesh::build(test::pillar_field_in_tiles(GetParam())); }
};

TEST_P(CorridorMoveKernel, MovesDenseCorridorsAsMovePositionDoes) {
  const NavMesh navmesh = build();
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const NavmeshTablesView tables = outline_tables_view(shapes);
  const int count = 2000;
  MoveBatch batch = random_moves(navmesh, shapes.index(), count);
  std::vector<std::int32_t> answered(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    move_of_agent(i, tables, batch.polys.data(), batch.size.data(), kCapacity,
                  batch.position.data(), batch.npos.data(), answered.data());
  int changed = 0;
  for (int i = 0; i < count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    ASSERT_EQ(answered[k], 1) << "a flat world needs no Detour: agent " << i;
    dtPathCorridor& detour = batch.detour[k];
    const int before = detour.getPathCount();
    ASSERT_TRUE(detour.movePosition(&batch.npos[k * 3], query.get(), &navmesh.filter()));
    EXPECT_EQ(std::memcmp(&batch.position[k * 3], detour.getPos(), 3 * sizeof(float)), 0) << i;
    ASSERT_EQ(batch.size[k], detour.getPathCount()) << i;
    for (int p = 0; p < detour.getPathCount(); ++p)
      ASSERT_EQ(shapes.index().ref_of(batch.polys[k * kCapacity + static_cast<std::size_t>(p)]),
                detour.getPath()[p])
          << "agent " << i << " polygon " << p;
    changed += detour.getPathCount() != before ? 1 : 0;
  }
  EXPECT_GT(changed, 100) << "moves should leave and enter polygons";
}

INSTANTIATE_TEST_SUITE_P(OneTileAndTiles, CorridorMoveKernel, ::testing::Values(0, 32),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return param.param == 0 ? std::string("one_tile")
                                                   : "tiles_of_" + std::to_string(param.param);
                         });

#if defined(CROWD_HAS_CUDA)
/// The device suites' names start with Cuda (the GPGPU-Sim lane runs those).
class CudaCorridorMove : public CorridorMoveKernel {};

TEST_P(CudaCorridorMove, OnTheDeviceMovesAsTheCpu) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  const NavMesh navmesh = build();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const NavmeshTablesView tables = outline_tables_view(shapes);
  const int count = test::size_for_device(4000, 150);
  const MoveBatch batch = random_moves(navmesh, shapes.index(), count);
  CorridorRows on_cpu;
  on_cpu.capacity = kCapacity;
  on_cpu.polys = batch.polys;
  on_cpu.size = batch.size;
  on_cpu.position = batch.position;
  on_cpu.target = batch.position; // unused by the move
  CorridorRows on_gpu = on_cpu;
  std::vector<std::int32_t> cpu_answered(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    move_of_agent(i, tables, on_cpu.polys.data(), on_cpu.size.data(), kCapacity,
                  on_cpu.position.data(), batch.npos.data(), cpu_answered.data());
  const DeviceNavmeshTables device_tables(tables);
  const std::vector<std::int32_t> gpu_answered =
      move_corridors_on_device(device_tables, on_gpu, batch.npos);
  EXPECT_EQ(gpu_answered, cpu_answered);
  EXPECT_EQ(on_gpu.size, on_cpu.size);
  EXPECT_EQ(on_gpu.polys, on_cpu.polys);
  EXPECT_EQ(std::memcmp(on_gpu.position.data(), on_cpu.position.data(),
                        on_cpu.position.size() * sizeof(float)),
            0);
}

INSTANTIATE_TEST_SUITE_P(CudaOneTileAndTiles, CudaCorridorMove, ::testing::Values(0, 32),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return param.param == 0 ? std::string("one_tile")
                                                   : "tiles_of_" + std::to_string(param.param);
                         });
#endif

} // namespace
} // namespace crowd
